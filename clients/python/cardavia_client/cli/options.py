"""A deal's options as flags (`--players`, `--cards`, `--transfer`…): the flags of `deal`,
`play` and `match`, each game's counts and options checked before the service is asked, and
a problem the service finds in them said in the flags' words."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import Any

from cardavia_client.cli.common import GAMES, UsageError
from cardavia_client.client import ProblemError

# A deal's options as the flags name them (`deal_flags`), sent when given.
DEAL_OPTIONS = ("dealer", "period", "players", "cards", "transfer", "throw_in", "first_bout",
                "known")
# Each game's count of players, lowest and highest (RULES.md D16, T18, G4), and the deal
# options it takes besides (API.md): a flag the game has not, or a count it is not played
# by, is said in the flags' words before the service is asked.
PLAYERS = {"durak": (2, 6), "tarot": (3, 5), "ganjifa": (3, 3)}
OPTIONS = {"durak": ("cards", "transfer", "throw_in", "first_bout", "known"),
           "tarot": ("dealer",), "ganjifa": ("period",)}
BUDGET_MS = (1, 10_000)  # ai-move's budget_ms (API.md)



def flag(option: str) -> str:
    """The flag that gives a body's field: `throw_in` is `--throw-in`."""
    return "--" + option.replace("_", "-")


def count_problem(game: str, n: int, flag_: str, noun: str) -> str | None:
    """What is wrong with `n` players of `game`, said of `flag_`; None if nothing."""
    (lo, hi), name = PLAYERS[game], game.capitalize()
    if lo == hi and n != lo:
        return f"{flag_}: {name} is played by exactly {lo} {noun} (got {n})"
    if not lo <= n <= hi:
        return f"{flag_}: {name} takes {lo} to {hi} {noun} (got {n})"
    return None


def deal_options(args: argparse.Namespace, seats: int | None = None) -> dict[str, Any]:
    """The deal's options the flags give, as the service takes them; every flag the game
    has not, and a count of players (`--players`, or `seats` for `match`) it is not played
    by, named in one UsageError. A count the game is always played by (Ganjifa's 3) is not
    sent: that deal has no `players` (API.md), and the count was right."""
    options: dict[str, Any] = {k: getattr(args, k) for k in DEAL_OPTIONS
                               if getattr(args, k, None) is not None}
    problems: list[str | None] = []
    if seats is not None:
        problems.append(count_problem(args.game, seats, "--seats", "seats"))
    elif "players" in options:
        problems.append(count_problem(args.game, options["players"], "--players", "players"))
    problems += [f"{flag(k)} applies to "
                 f"{' and '.join(g.capitalize() for g in GAMES if k in OPTIONS[g])} only"
                 for k in options if k != "players" and k not in OPTIONS[args.game]]
    if any(problems):
        raise UsageError("; ".join(p for p in problems if p))
    lo, hi = PLAYERS[args.game]
    if lo == hi:
        options.pop("players", None)
    return options


# The body's fields by the flags that give them, to name the flag in a problem only the
# service finds (five players for a 24-card deck, D16).
FLAGS = {k: flag(k) for k in DEAL_OPTIONS} | {"seed": "--seed", "deck": "--deck",
                                             "budget_ms": "--budget"}


@contextlib.contextmanager
def in_flags(**renamed: str) -> Iterator[None]:
    """A problem the service finds in what the flags gave, said with the flags' names
    (`renamed`: another flag for a field, as `match`'s --seats for `players`). A problem
    naming a field no flag gives is left as it is."""
    names = FLAGS | renamed
    try:
        yield
    except ProblemError as refused:
        said = [(names.get(e.get("field") or ""), e.get("message", "")) for e in refused.errors]
        if not said or any(f is None for f, _ in said):
            raise
        raise UsageError("; ".join(f"{f}: {m}" for f, m in said)) from None


def deal_flags(q: argparse.ArgumentParser) -> None:
    q.add_argument("--seed", type=int, help="a reproducible shuffle")
    q.add_argument("--players", type=int,
                   help="the number of players: " + ", ".join(
                       f"{g.capitalize()} {lo}" + (f"-{hi}" if hi > lo else "")
                       for g, (lo, hi) in PLAYERS.items()))
    variant_flags(q)

def variant_flags(q: argparse.ArgumentParser) -> None:
    """A deal's options besides its shuffle and its count of players."""
    q.add_argument("--dealer", type=int, help="Tarot's dealer")
    q.add_argument("--period", choices=("day", "night"), help="Ganjifa's period")
    q.add_argument("--cards", type=int, choices=(24, 36, 52), help="Durak's deck (D16)")
    q.add_argument("--transfer", action="store_const", const=True,
                   help="Durak with passing on (D21)")
    q.add_argument("--throw-in", choices=("all", "neighbours"),
                   help="Durak: who may throw in besides the attacker (D19)")
    q.add_argument("--first-bout", type=int, choices=(5, 6),
                   help="Durak: the first bout's limit of attack cards (D16)")
    q.add_argument("--known", action="store_const", const=True,
                   help="Durak: the state lists the cards everyone has seen in each hand")

