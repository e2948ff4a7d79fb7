"""The games, on the ground floor: each game's rules and its AI's settings, as objects.

Every upper floor (schemas, render, service, bench, the tests) keeps one module or folder
per game and finds it through `floor`, which answers that floor's part of every game
registered here, in this order, or says which game lacks its part. A new game or variant
is one line in `GAMES` and one module or folder per floor (docs/development.md, "Layout").

This module imports the games and their AI settings and nothing above them; the generic
AI (rules/ai/levels.py, rules/ai/search.py) reads the settings from here."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from rules import durak, ganjifa, tarot
from rules.ai import durak as durak_ai
from rules.ai import ganjifa as ganjifa_ai
from rules.ai import tarot as tarot_ai
from rules.ai.settings import Settings
from rules.game import Game


@dataclass(frozen=True)
class Registered:
    """One game: its rules and the settings of its AI (rules/ai/settings.py)."""

    game: Game
    ai: Settings


GAMES: dict[str, Registered] = {r.game.id: r for r in (
    Registered(durak.GAME, durak_ai.SETTINGS),
    Registered(tarot.GAME, tarot_ai.SETTINGS),
    Registered(ganjifa.GAME, ganjifa_ai.SETTINGS),
)}


def ai_of(game: Game) -> Settings:
    """The settings of `game`'s AI."""
    return GAMES[game.id].ai


class MissingPart(LookupError):
    """A registered game without its part on some floor, or a part of no registered game."""


Part = TypeVar("Part")


def floor(name: str, parts: Iterable[Part], game_of: Callable[[Part], Game]
          ) -> dict[str, Part]:
    """Floor `name`'s part of each registered game, by game id in the registry's order;
    `game_of(part)` is the game a part belongs to. MissingPart names any registered game
    without exactly one part, and any part of a game not registered."""
    found: dict[str, list[Part]] = {}
    for part in parts:
        found.setdefault(game_of(part).id, []).append(part)
    wrong = [g for g in GAMES if len(found.get(g, ())) != 1]
    unknown = [g for g in found if g not in GAMES or GAMES[g].game is not
               game_of(found[g][0])]
    if wrong or unknown:
        raise MissingPart(f"{name}: "
                          + "; ".join([f"{g} has {len(found.get(g, ()))} parts"
                                       for g in wrong]
                                      + [f"{g} is not the registered game" for g in unknown]))
    return {g: found[g][0] for g in GAMES}
