"""Each game's View as JSON (API.md, "A View"): the state's shape, every card hidden from
the viewing seat written "?". A view is never loaded: the card fields of a state refuse
"?" like any unknown code, so a view is never accepted where a state is."""

from __future__ import annotations

from collections.abc import Callable

from rules import durak, ganjifa, tarot
from rules.game import View
from schemas import durak as durak_schemas
from schemas import ganjifa as ganjifa_schemas
from schemas import tarot as tarot_schemas

HIDDEN = "?"


def _derived(out: dict, game, view: View) -> dict:
    """The derived fields as the seat knows them: the state's phase and seat to act, and
    the settlement once the deal is over."""
    out.update(phase=view.phase, to_act=view.to_act, result=game.view_settlement(view))
    return out


def _hide_hands(out: dict, view: View, players: int) -> None:
    for s in range(players):
        if s != view.seat:
            out["hands"][s] = [HIDDEN] * view.hidden[s]


def dump_durak_view(view: View) -> dict:
    """Hidden: the other hand, and the stock but its turned-up last card."""
    out = durak_schemas.dump_state(view.public)
    _hide_hands(out, view, 2)
    out["stock"] = [HIDDEN] * view.hidden[2] + out["stock"]
    return _derived(out, durak.GAME, view)


def dump_tarot_view(view: View) -> dict:
    """Hidden: the other hands, a chien not shown, the non-trump part of the écart for a
    defender (its trumps were shown, T5)."""
    out = tarot_schemas.dump_state(view.public)
    _hide_hands(out, view, tarot.PLAYERS)
    out["chien"] = [HIDDEN] * view.hidden[4]
    out["ecart"] = out["ecart"] + [HIDDEN] * view.hidden[5]
    return _derived(out, tarot.GAME, view)


def dump_ganjifa_view(view: View) -> dict:
    """Hidden: the other two hands."""
    out = ganjifa_schemas.dump_state(view.public)
    _hide_hands(out, view, ganjifa.PLAYERS)
    return _derived(out, ganjifa.GAME, view)


DUMP_VIEW: dict[str, Callable[[View], dict]] = {
    "durak": dump_durak_view,
    "tarot": dump_tarot_view,
    "ganjifa": dump_ganjifa_view,
}
