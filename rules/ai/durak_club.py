"""Basic Durak as a club player plays two-handed, which is also how the strong level's
playouts assume every seat plays: lead the lowest plain card, a rank held twice before a
single one (so that the second can follow it onto the table); throw in every plain card of
a rank on the table, and once the stock is out every card, trumps too (what counts then is
to be rid of one's cards first, D14); beat with the cheapest card that beats, and take only
when no card does (a taken bout costs more than the trump that beats it, measured against
the older rule of taking rather than beating with a high trump: bench/README.md). It reads
only the seat's own hand and the public table, stock size and trump."""

from __future__ import annotations

import random

from rules.cards import bit_list
from rules.durak import (
    BEATERS,
    RANK_OF,
    SUIT_OF,
    State,
    bout_limit,
    first_unbeaten,
    named,
    table_ranks,
)
from rules.game import Move

# How many ranks lower a card leads for each other card of its rank in the hand.
PAIR_WEIGHT = 3
TRUMP_COST = 13  # above every rank: any trump costs more than any plain card


def club_move(state: State, seat: int, rng: random.Random) -> Move:
    """The club player's move in a two-player deal without passing on (D21)."""
    state = named(state)
    trump, hands, stock, table = state.trump, state.hands, state.stock, state.table
    hand = hands[seat]

    def cost(c: int) -> int:
        return RANK_OF[c] + (TRUMP_COST if SUIT_OF[c] == trump else 0)

    if state.phase == "defend":
        beaters = bit_list(hand & BEATERS[trump][table[first_unbeaten(table)][0]])
        if not beaters:
            return Move(seat, "take")
        return Move(seat, "defend", card=min(beaters, key=cost))  # D4, D7
    cards = bit_list(hand)
    if not table:  # D6
        plain = [c for c in cards if SUIT_OF[c] != trump] or cards

        def lead(c: int) -> int:
            followers = sum(1 for x in cards if x != c and RANK_OF[x] == RANK_OF[c]
                            and (SUIT_OF[x] != trump or not stock))
            return cost(c) - PAIR_WEIGHT * followers

        return Move(seat, "attack", card=min(plain, key=lead))
    if len(table) < bout_limit(state):  # D8, D9
        matching = [c for c in bit_list(hand & table_ranks(table))
                    if SUIT_OF[c] != trump or not stock]
        if matching:
            return Move(seat, "attack", card=min(matching, key=cost))
    return Move(seat, "pass")
