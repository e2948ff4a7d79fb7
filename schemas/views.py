"""A View as JSON (API.md, "A View"): the state's shape, every card hidden from the viewing
seat written "?". A view is never loaded: the card fields of a state refuse "?" like any
unknown code, so a view is never accepted where a state is. Each game's `dump_view` lives
beside its `dump_state` (schemas/<game>.py), in its `SCHEMAS`.
"""

from __future__ import annotations

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

