"""A View as JSON (API.md, "A View"): the state's shape, every card hidden from the viewing
seat written "?". A view is never loaded: the card fields of a state refuse "?" like any
unknown code, so a view is never accepted where a state is. Each game's `dump_view` lives
beside its `dump_state` (schemas/<game>.py) and is registered with it (schemas/registry.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.game import Game, View

HIDDEN = "?"


def with_derived(out: dict, game: Game, view: View) -> dict:
    """The derived fields as the seat knows them: the state's phase and seat to act, and
    the settlement once the deal is over."""
    out.update(phase=view.phase, to_act=view.to_act, result=game.view_settlement(view))
    return out


def hide_hands(out: dict, view: View, players: int) -> None:
    for s in range(players):
        if s != view.seat:
            out["hands"][s] = [HIDDEN] * view.hidden[s]


def __getattr__(name: str) -> Any:
    """`DUMP_VIEW`, each game's `dump_view` by game id, read from the registry when asked
    for (the registry imports the games' schemas, which import this module)."""
    if name == "DUMP_VIEW":
        from schemas.registry import GAMES
        dump: dict[str, Callable[[View], dict]] = {k: s.dump_view for k, s in GAMES.items()}
        return dump
    raise AttributeError(name)
