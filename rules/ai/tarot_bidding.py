"""Basic's Tarot auction and call: bid from the hand's strength scaled to its size (T4,
T19), call a King it lacks (T22); and how far a hand lies from a bid, which the search reads
back from the other seats' bids (rules/ai/tarot_reading.py)."""

from __future__ import annotations

import math

from rules.cards import bit_list
from rules.game import Move
from rules.tarot import (
    BID_RANK,
    BIDS,
    EXCUSE_BIT,
    FIRST_TRUMP,
    HALF_POINTS,
    KINGS,
    MONDE,
    PETIT_BIT,
    SUIT_MASK,
    SUIT_OF,
    TRUMPS,
    TarotState,
    callable_cards,
)

# Hand strength at which each contract is worth bidding (T4), checked highest first, for an
# 18-card hand (T2); other hand sizes (T19) scale them. Over random four-player deals the
# strength's median is about 28 and its 90th percentile about 42.
BID_THRESHOLDS = (("garde_contre", 63), ("garde_sans", 55), ("garde", 46), ("prise", 38))
FOUR_PLAYER_HAND = 18
HIGH_TRUMP = FIRST_TRUMP + 15  # T16 and up are hard to overtrump


def strength(hand: int) -> int:
    """A rough count of tricks and points: trumps and bouts first, then Kings and long suits."""
    trumps = hand & TRUMPS
    n = trumps.bit_count()
    score = 2 * n + (trumps >> HIGH_TRUMP).bit_count()
    if hand >> MONDE & 1:
        score += 10
    if hand & EXCUSE_BIT:
        score += 8
    if hand & PETIT_BIT:
        score += 8 if n >= 6 else 4 if n >= 4 else 1  # a short Petit is easily caught
    for s in range(4):
        suit = hand & SUIT_MASK[s]
        length = suit.bit_count()
        score += 6 * bool(suit & KINGS) + 3 * bool(suit >> (s * 14 + 12) & 1)
        score += 2 * bool(suit >> (s * 14 + 11) & 1)
        if length >= 5:
            score += 2 * (length - 4)
        elif length == 0 and n >= 5:
            score += 4
    return score


def bid(state: TarotState, seat: int) -> Move:
    """T4, by the strength of the hand against thresholds scaled to its size (T19): the
    strength counts cards, so a 24-card hand needs more of it and a 15-card hand less."""
    return Move(seat, "bid", contract=basic_bid(state.hands[seat], state.bids))


def basic_bid(hand: int, bids) -> str:
    """Basic's bid with `hand` after `bids` (T4, T19)."""
    highest = max((BID_RANK[b] for b in bids), default=0)
    s = strength(hand) * FOUR_PLAYER_HAND / hand.bit_count()
    for contract, threshold in BID_THRESHOLDS:
        if s >= threshold and BID_RANK[contract] > highest:
            return contract
    return BIDS[0]


def bid_misfit(hand: int, bids, bid: str) -> float:
    """How far the strength of `hand` lies from the band in which basic bids `bid` after
    `bids`: 0 when basic would bid it, else the distance to the nearest strength at which
    it would (T4, T19)."""
    highest = max((BID_RANK[b] for b in bids), default=0)
    s = strength(hand) * FOUR_PLAYER_HAND / hand.bit_count()
    # The contracts basic may still bid, lowest first, with their thresholds.
    open_ = [(c, t) for c, t in reversed(BID_THRESHOLDS) if BID_RANK[c] > highest]
    if bid == BIDS[0]:
        low, high = -math.inf, open_[0][1] if open_ else math.inf
    else:
        i = next((i for i, (c, _) in enumerate(open_) if c == bid), None)
        if i is None:
            return 0.0  # a bid basic never makes there: nothing to read from it
        low = open_[i][1]
        high = open_[i + 1][1] if i + 1 < len(open_) else math.inf
    return low - s if s < low else s - high + 1 if s >= high else 0.0


def call(state: TarotState, seat: int) -> Move:
    """T22: a callable card the hand lacks, of the highest rank the list allows, in the suit
    where the hand is longest and richest (so that the partner's card guards the taker's
    honours there); with every callable card in hand, the cheapest, and the taker plays
    alone."""
    hand = state.hands[seat]
    options = bit_list(callable_cards(hand))
    lacking = [c for c in options if not hand >> c & 1]
    if not lacking:
        return Move(seat, "call", card=min(options, key=lambda c: (HALF_POINTS[c], c)))
    top = max(c % 14 for c in lacking)

    def suit_weight(c: int) -> tuple[int, int, int]:
        suit = hand & SUIT_MASK[SUIT_OF[c]]
        return (suit.bit_count(), sum(HALF_POINTS[x] for x in bit_list(suit)), -c)

    return Move(seat, "call", card=max((c for c in lacking if c % 14 == top), key=suit_weight))
