"""The compiled core's search of a two-player Durak view without passing on (D1–D16):
rules/ai/core/durak.c draws a world per iteration, walks the information-set tree over
both seats' moves in it and plays the club player (rules/ai/durak_club.py) for both seats
from the tree's leaf to the end.
This module only turns a view and its candidates into the core's arguments."""

from __future__ import annotations

from rules.ai.native import CORE
from rules.durak import BIT, named
from rules.game import Game, Move, View

# Endgames solved inside each playout (core's `Exact`): at a bout's start with the stock
# empty and at most EXACT_CARDS cards in the two hands, within EXACT_NODES positions; the
# club player plays the rest. Off (0): the strong level solves exactly at the root once no
# card is hidden (durak_endgame.exact_move). Inside the tree's playouts, from 8 cards, a
# strong move cost some 40 times the CPU at the same iterations (bench --only ai, the
# development seeds): under the deadline it would run a fortieth of them.
EXACT_CARDS = 0
EXACT_NODES = 2_000
# UCB1's exploration constant in the information-set tree over both seats' moves
# (core.h's ismcts), which beat Sequential Halving over the root's candidates alone against
# the outside players (bench/README.md, "AI strength").
EXPLORATION = 0.7


def covers(view: View) -> bool:
    """The deals the core plays: two players, no passing on (D21)."""
    public = named(view.public)
    return CORE is not None and len(public.hands) == 2 and not public.setup.transfer


def position(state) -> tuple:
    """A state (or a view's public part) as the core's position."""
    s = named(state)
    return (s.trump, s.hands[0], s.hands[1], tuple(s.stock), s.attacker, tuple(s.table),
            s.taking, s.setup.cap(s.discard))


def pair(move: Move) -> tuple[str, int]:
    return move.action, -1 if move.card is None else move.card


def unseen(public) -> int:
    """The cards the seat has not seen: the other hand's hidden ones and the stock but its
    turned-up last card."""
    seen = public.discard | public.hands[0] | public.hands[1]
    for a, d in public.table:
        seen |= BIT[a] | BIT[d]
    for c in public.stock:
        seen |= BIT[c]
    return public.setup.deck & ~seen


def picked_up(public) -> list[int]:
    """The cards each seat is seen to hold by the deal's history (rules/durak/history.py):
    picked up from the table (D10) and not laid since, as masks."""
    held = [0] * len(public.hands)
    for b in public.history or ():
        laid = 0
        for a, d in b.table:
            laid |= BIT[a] | BIT[d]
        held = [h & ~laid for h in held]
        if b.taken:
            held[b.defender] |= laid
    on_table = 0
    for a, d in public.table:
        on_table |= BIT[a] | BIT[d]
    return [h & ~on_table for h in held]


def search(game: Game, view: View, moves: list[Move], playouts: int, seed: int,
           seconds: float) -> int:
    """The index of the candidate the core's search chooses among `moves`: the other hand
    holds the cards the view shows in it (`known`) and those the history shows it picked
    up, the rest of it drawn among the unseen cards."""
    assert CORE is not None  # `covers` said so
    public = named(view.public)
    seat, other = view.seat, 1 - view.seat
    hidden = unseen(public)
    seen = picked_up(public)[other] & hidden
    hands = list(public.hands)
    hands[other] |= seen
    stock = public.stock  # a view's stock is its turned-up card, if any (D2)
    args = (position(public._replace(stock=(), hands=tuple(hands))), seat,
            view.hidden[other] - seen.bit_count(), hidden & ~seen, stock[-1] if stock else -1,
            None, [pair(m) for m in moves], playouts, seed, seconds, EXACT_CARDS, EXACT_NODES,
            EXPLORATION)
    return CORE.durak_search(*args)[0]
