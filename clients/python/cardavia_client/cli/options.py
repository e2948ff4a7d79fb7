"""A deal's options as flags (`--players`, `--cards`, `--transfer`…): the flags of `deal`,
`play` and `match`, one an option of any game the service deals (GameInfo's `options`);
each game's counts and options checked before the service is asked, and a problem the
service finds in them said in the flags' words."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from typing import Any

from cardavia_client.cli.common import UsageError
from cardavia_client.cli.games import Game, Games
from cardavia_client.client import ProblemError

BUDGET_MS = (1, 10_000)  # ai-move's budget_ms (API.md)
# The body's fields that are no deal option, by the flags that give them, to name the flag
# in a problem only the service finds (five players for a 24-card deck, D16).
FLAGS = {"seed": "--seed", "deck": "--deck", "budget_ms": "--budget", "players": "--players"}


def flag(option: str) -> str:
    """The flag that gives a body's field: `throw_in` is `--throw-in`."""
    return "--" + option.replace("_", "-")


def count_problem(game: Game, n: int, flag_: str, noun: str) -> str | None:
    """What is wrong with `n` players of `game`, said of `flag_`; None if nothing."""
    lo, hi = game.counts[0], game.counts[-1]
    if lo == hi and n != lo:
        return f"{flag_}: {game.name} is played by exactly {lo} {noun} (got {n})"
    if n not in game.counts:
        return f"{flag_}: {game.name} takes {lo} to {hi} {noun} (got {n})"
    return None


def deal_options(args: argparse.Namespace, seats: int | None = None) -> dict[str, Any]:
    """The deal's options the flags give, as the service takes them; every flag the game
    has not, and a count of players (`--players`, or `seats` for `match`) it is not played
    by, named in one UsageError. A count the game is always played by (Ganjifa's 3) is not
    sent: that deal has no `players` (API.md), and the count was right."""
    games: Games = args.games
    named = ["players", *dict.fromkeys(name for g in games.values() for name in g.options)]
    options: dict[str, Any] = {k: getattr(args, k) for k in named
                               if getattr(args, k, None) is not None}
    game = games[args.game]
    problems = option_problems(game, games, options, seats)
    if problems:
        raise UsageError("; ".join(problems))
    if len(game.counts) == 1:
        options.pop("players", None)
    return options


def option_problems(game: Game, games: Games, options: dict[str, Any], seats: int | None
                    ) -> list[str]:
    """What is wrong with the options given for `game`: its count of players, and each
    option of another game."""
    if seats is not None:
        counted = count_problem(game, seats, "--seats", "seats")
    else:
        counted = None if "players" not in options else \
            count_problem(game, options["players"], "--players", "players")
    return [*([counted] if counted else []),
            *(f"{flag(k)} applies to "
              f"{' and '.join(g.name for g in games.values() if k in g.options)} only"
              for k in options if k != "players" and k not in game.options)]


@contextlib.contextmanager
def in_flags(games: Games | None, **renamed: str) -> Iterator[None]:
    """A problem the service finds in what the flags gave, said with the flags' names
    (`renamed`: another flag for a field, as `match`'s --seats for `players`). A problem
    naming a field no flag gives is left as it is."""
    options = {name for g in (games or {}).values() for name in g.options}
    names = FLAGS | {name: flag(name) for name in options} | renamed
    try:
        yield
    except ProblemError as refused:
        said = [(names.get(e.get("field") or ""), e.get("message", "")) for e in refused.errors]
        if not said or any(f is None for f, _ in said):
            raise
        raise UsageError("; ".join(f"{f}: {m}" for f, m in said)) from None


def deal_flags(q: argparse.ArgumentParser, games: Games) -> None:
    q.add_argument("--seed", type=int, help="a reproducible shuffle")
    q.add_argument("--players", type=int,
                   help="the number of players: " + ", ".join(
                       f"{g.name} {g.counts[0]}" + (f"-{g.counts[-1]}" if len(g.counts) > 1
                                                     else "") for g in games.values()))
    variant_flags(q, games)


def variant_flags(q: argparse.ArgumentParser, games: Games) -> None:
    """A deal's options besides its shuffle and its count of players: a flag an option of
    any game, its help naming the games that have it."""
    options: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for game in games.values():
        for name, option in game.options.items():
            options.setdefault(name, (option, []))[1].append(game.name)
    for name, (option, owners) in options.items():
        said = f"{' and '.join(owners)}: {option['description']}"
        if option["type"] == "boolean":
            q.add_argument(flag(name), action="store_const", const=True, help=said)
        elif "enum" in option:
            q.add_argument(flag(name), choices=option["enum"], help=said)
        else:
            q.add_argument(flag(name), type=int, metavar="N", help=said)
