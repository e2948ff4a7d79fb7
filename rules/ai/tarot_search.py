"""The compiled core's search of a Tarot view, 3 to 5 players (T1–T24):
rules/ai/core/tarot*.c draws the worlds, plays each root candidate in them and basic for
every seat to the end of the deal, and settles it. This module turns a view and its
candidates into the core's arguments: the hidden cards and where each may lie, read by the
rules (rules/tarot/view.py `hidden_places`) and, once a move, by the AI's reading of the
play (rules/ai/tarot_reading.py); the core reads the bids itself, on each world it draws."""

from __future__ import annotations

from rules.ai.native import CORE
from rules.ai.tarot_reading import lacks, others_bid
from rules.game import Game, Move, NoWorldFits, View
from rules.tarot.view import hidden_places

# Draws of a world a playout may spend, at most 4 a world, on explaining the other seats'
# bids (rules/ai/tarot_reading.py `sample`), as rules/ai/search.py's EXPLAIN_DRAWS.
BID_DRAWS = 3


def covers(view: View) -> bool:
    """The deals the core plays: every Tarot deal, where the core is built."""
    return CORE is not None


def core_view(view: View, read_play: bool, playouts: int) -> tuple:
    """The view as the core reads it: (public, seat, hidden cards, each hidden place's
    count and the cards it may hold, each seat's cards played, whether to read the bids,
    the draws that reading may spend)."""
    pile, allowed, played = hidden_places(view, lacks(view) if read_play else None)
    read_bids = others_bid(view)
    return (view.public, view.seat, pile, view.hidden, tuple(allowed), tuple(played),
            read_bids, BID_DRAWS * playouts if read_bids else 0)


def search(game: Game, view: View, moves: list[Move], playouts: int, seed: int,
           seconds: float) -> int:
    """The index of the candidate the core's search chooses among `moves`: on worlds that
    the play so far explains as basic's, or on the view's own worlds where none does (a
    seat did not play as basic)."""
    assert CORE is not None  # `covers` said so
    for read_play in (True, False):
        found = CORE.tarot_search(core_view(view, read_play, playouts), moves, playouts,
                                  seed, seconds)
        if found is not None:
            return found[0]
    raise NoWorldFits("no deal of the hidden cards fits this view")
