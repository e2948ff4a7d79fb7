"""A plain Ganjifa heuristic: lead the largest Dukal when one is available (it captures 3k
cards at once, G8), else lead a card that no unseen card of its suit can beat; follow by
winning as cheaply as possible when that win is safe, else throw the cheapest card; answer
a Dukal with the cheapest cards. It reads only what its seat may see: its own hand, the
trick, the pending Dukal and its answers, the captured piles and the other hands' sizes.

The compiled core (rules/ai/core/ganjifa.c) plays the same decisions for the search's
playouts; tests/test_core_ganjifa.py holds it to this module."""

from __future__ import annotations

import random

from rules.cards import bit_list
from rules.game import Move
from rules.ganjifa import (
    BEATERS,
    DECK,
    MANTRI_BITS,
    PIP_BITS,
    PLAYERS,
    RAJAS,
    STRENGTH,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SIZE,
    GanjifaState,
    dukal_moves,
    follow_options,
    opening,
)


def cost(card: int, trump: int) -> int:
    """What a card is worth keeping: trumps above every other suit, then rank (G2, G7)."""
    return STRENGTH[card] + (SUIT_SIZE if SUIT_OF[card] == trump else 0)


def unseen_by(state: GanjifaState, seat: int) -> int:
    """The cards in the other two hands, as this seat can deduce them from public cards."""
    seen = state.hands[seat] | state.captured[0] | state.captured[1] | state.captured[2]
    for c in state.trick:
        seen |= 1 << c
    if state.dukal is not None:
        seen |= state.dukal.cards
        for m in state.dukal.discards:
            seen |= m
    return DECK.full & ~seen


def boss(card: int, trump: int, unseen: int) -> bool:
    """No unseen card of the same suit beats `card` (a trump may still)."""
    return not BEATERS[trump][card] & SUIT_MASK[SUIT_OF[card]] & unseen


def cheapest_cards(hand: int, k: int, trump: int, spared: int = 0) -> tuple[int, ...]:
    """The k cheapest cards of the hand (an answer to a Dukal, G8), those of `spared` only
    when the rest are too few."""
    cards = sorted(bit_list(hand), key=lambda c: (spared >> c & 1, cost(c, trump), c))
    return tuple(sorted(cards[:k]))


def basic_move(state: GanjifaState, seat: int, rng: random.Random | None) -> Move:
    if state.dukal is not None:
        k = state.dukal.cards.bit_count()
        return Move(seat, "discard", cards=cheapest_cards(state.hands[seat], k, state.trump))
    if state.trick:
        return _follow(state, seat)
    return _lead(state, seat)


def largest_dukal(state: GanjifaState, seat: int) -> Move | None:
    """G8: the first largest Dukal the seat may lead (no larger than either other hand)."""
    hand = state.hands[seat]
    limit = min(state.hands[(seat + 1) % PLAYERS].bit_count(),
                state.hands[(seat + 2) % PLAYERS].bit_count())
    dukals = [m for c in bit_list(hand & hand >> 1 & MANTRI_BITS)
              for m in dukal_moves(seat, c // SUIT_SIZE,
                                   hand >> (SUIT_SIZE * (c // SUIT_SIZE)) & PIP_BITS)
              if len(m.cards or ()) <= limit]
    return max(dukals, key=lambda m: len(m.cards or ())) if dukals else None


def _lead(state: GanjifaState, seat: int) -> Move:
    """The trump Raja at the opening (G5); the largest Dukal; the cheapest boss (a plain
    card no unseen card of its suit beats); the cheapest card."""
    trump = state.trump
    if opening(state):
        return Move(seat, "play", card=RAJAS[trump])
    dukal = largest_dukal(state, seat)
    if dukal is not None:
        return dukal
    cards = bit_list(state.hands[seat])
    unseen = unseen_by(state, seat)
    bosses = [c for c in cards if SUIT_OF[c] != trump and boss(c, trump, unseen)]
    return Move(seat, "play", card=min(bosses or cards, key=lambda c: cost(c, trump)))


def _follow(state: GanjifaState, seat: int) -> Move:
    """The cheapest winner when last to play (the win is certain); else the cheapest safe
    winner (a boss); else the cheapest card it may play (G6)."""
    trump, trick = state.trump, state.trick
    options = bit_list(follow_options(state.hands[seat], SUIT_OF[trick[0]], trump))
    beaters = BEATERS[trump]
    best = trick[0]
    for c in trick[1:]:
        if beaters[best] >> c & 1:
            best = c
    winners = [c for c in options if beaters[best] >> c & 1]
    if len(trick) < PLAYERS - 1:
        unseen = unseen_by(state, seat)
        winners = [c for c in winners if boss(c, trump, unseen)]
    return Move(seat, "play", card=min(winners or options, key=lambda c: cost(c, trump)))
