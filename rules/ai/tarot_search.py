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
# TREE: a card play (every candidate a card, in the play phase) searched by the
# information-set tree over the card plays (core.h's ismcts) instead of Sequential Halving
# over the root's candidates alone; the bid, call, écart, chelem and poignée keep the
# halving. Off: against club (4 players, development seeds) no setting beat the halving
# (bench/README.md, "AI strength"). The values lie close to 0.5 (SCORE_SPAN), so UCB1's
# exploration constant is small.
TREE = False
EXPLORATION = 0.05
# Iterations of the tree each drawn world serves in a row: a world, the bids read, costs
# several playouts, and the halving plays one world for every candidate still in.
WORLD_REUSE = 4
# How the tree plays the other seats (the core's TREE_*): 0 each searched for its camp by
# UCB1 (the camps zero-sum), 1 each playing basic's card as a node of the tree, 2 basic
# playing them between the seat's own moves, the tree holding the seat's cards alone.
OTHERS = 1


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
                                  seed, seconds, EXPLORATION if TREE else 0.0,
                                  WORLD_REUSE, OTHERS)
        if found is not None:
            return found[0]
    raise NoWorldFits("no deal of the hidden cards fits this view")
