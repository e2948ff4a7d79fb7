"""Playouts per CPU second of the strong search, the compiled core against the Python search
it replaced, on the same views in the same run (issue 38's "20x today's"; not run by
`make bench`):

    .venv/bin/python -m bench.playouts [--deals N] [--budget MS] [--games durak tarot …]

Each view is the first searched move of a seeded deal (seeds 0…N-1, `bench.ai`'s deals and
deal options), where every playout plays the whole deal. The strong move is searched twice:
with the core, for the playouts its budget buys, and with `search.compiled` answering None,
as a service without the core searches, for the Python search's playouts. Each side's
figure is its playouts over the CPU time of the whole move (sampling worlds, listing
candidates and the root's bookkeeping included). Durak's core counts its tree's
iterations, one playout each.
"""

from __future__ import annotations

import argparse
import random
import time
from unittest import mock

from bench.ai import registry_id, seeded_deal
from rules.ai import search
from rules.registry import ai_of
from schemas.registry import GAMES

GAME_IDS = ("durak", "tarot3", "tarot", "tarot5", "ganjifa")


def first_view(game_id: str, seed: int):
    """The first view of deal `seed` with two moves or more to choose from."""
    game = GAMES[registry_id(game_id)].game
    state = seeded_deal(game_id, seed)
    rng = random.Random(seed)
    while (seat := game.to_act(state)) is not None:
        view = game.observe(state, seat)
        if len([m for m in game.legal_moves(state) if m.seat == seat]) > 1:
            return game, view
        state = game.apply(state, ai_of(game).basic(state, seat, rng))
    raise RuntimeError(f"deal {seed} of {game_id} never offers a choice")


def timed(game, view, budget_ms: int) -> tuple[int, float]:
    """The playouts one strong move runs and its CPU seconds."""
    n = search.playout_count(game, view, budget_ms)
    start = time.process_time()
    search.strong_move(game, view, random.Random(0), budget_ms, playouts=n)
    return n, time.process_time() - start


def measure(game_id: str, deals: int, budget_ms: int) -> dict:
    core = [0, 0.0]
    python = [0, 0.0]
    for seed in range(deals):
        game, view = first_view(game_id, seed)
        if search.compiled(game, view) is None:
            raise RuntimeError(f"the core does not cover {game_id}: is it built?")
        for side, patch in ((core, None), (python, lambda g, v: None)):
            with mock.patch.object(search, "compiled", patch or search.compiled):
                n, cpu = timed(game, view, budget_ms)
            side[0] += n
            side[1] += cpu
    core_rate, python_rate = core[0] / core[1], python[0] / python[1]
    return {"game": game_id, "views": deals, "core_playouts": core[0],
            "core_cpu_s": core[1], "core_per_cpu_s": core_rate,
            "python_playouts": python[0], "python_cpu_s": python[1],
            "python_per_cpu_s": python_rate, "ratio": core_rate / python_rate}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.playouts", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--budget", type=int, default=200, help="budget_ms of each move")
    p.add_argument("--games", nargs="+", default=list(GAME_IDS), choices=GAME_IDS)
    args = p.parse_args(argv)
    print(f"{'game':8} {'core playouts/CPU s':>20} {'Python playouts/CPU s':>22} {'ratio':>7}")
    for game_id in args.games:
        r = measure(game_id, args.deals, args.budget)
        print(f"{game_id:8} {r['core_per_cpu_s']:>20,.0f} {r['python_per_cpu_s']:>22,.0f} "
              f"{r['ratio']:>6.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
