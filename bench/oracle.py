"""How much of two-player Durak's strength is hidden information: the strong level against
basic, as `bench --only ai` plays it (the same seeds, seats and playout counts), but its
search drawing its worlds from the true deal instead of the seat's view (not run by
`make bench`):

    .venv/bin/python -m bench.oracle --shown hand [--deals N] [--first-seed S]

- `--shown all`: every world is the true deal, the stock's order included;
- `--shown hand`: the other hand as it is, the stock's order drawn at random (its turned-up
  card kept): what no fair player can know, a bound on what inferring the other hand
  could buy with this search.

A diagnostic that reads the hidden cards on purpose: it patches the search's sampler for
the run and is never part of the service.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from unittest import mock

from cardavia_client.stats import wilson

from bench import ai
from rules.ai import search
from rules.durak.state import named, plain

BUDGET_MS = 200


def stock_redrawn(state, rng: random.Random):
    """The deal with its stock's order drawn again, the turned-up card (D2) kept last."""
    s = named(state)
    if len(s.stock) < 3:
        return state
    hidden = list(s.stock[:-1])
    rng.shuffle(hidden)
    return plain(s._replace(stock=(*hidden, s.stock[-1])))


SHOWN: dict[str, Callable] = {"all": lambda state, rng: state, "hand": stock_redrawn}


def worlds_from(truth: list, shown: str):
    """The search's worlds drawn from `truth[0]` (the deal as it stands) while inside."""
    return mock.patch.object(search, "sample",
                             lambda game, view, rng, draws: SHOWN[shown](truth[0], rng))


def play_deal(seed: int, shown: str) -> int:
    """Deal `seed` as `bench --only ai` plays strong against basic, the strong seat's worlds
    drawn from the deal as it stands: the strong seat's score (D15)."""
    truth: list = [None]
    with worlds_from(truth, shown):
        played = ai.play_deal("durak", seed, "strong", "basic", BUDGET_MS,
                              before_move=lambda state: truth.__setitem__(0, state))
    return played["scores"][played["seat"]]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.oracle", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shown", choices=sorted(SHOWN), required=True)
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--first-seed", type=int, default=100000)
    args = p.parse_args(argv)
    scores = [play_deal(seed, args.shown)
              for seed in range(args.first_seed, args.first_seed + args.deals)]
    won, lost = sum(s > 0 for s in scores), sum(s < 0 for s in scores)
    decided = won + lost
    interval = wilson(won, decided)
    share = "none decided" if interval is None else \
        f"{won / decided:.1%} of decided ({interval[0]:.1%}-{interval[1]:.1%})"
    print(f"durak, strong with {args.shown} shown vs basic, seeds {args.first_seed}-"
          f"{args.first_seed + args.deals - 1}: {won} W / {lost} L / "
          f"{len(scores) - decided} D, {share}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
