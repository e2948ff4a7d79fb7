"""A plain French Tarot heuristic: bid from hand strength, discard to make voids, show the
largest poignée, and play to win tricks cheaply, feed points to a partner who is winning and
throw the cheapest card otherwise. It reads only what its seat may see: its own hand (and,
as taker, its own écart), the bids, the shown chien, the poignées and the tricks played."""

from __future__ import annotations

import math
import random

from rules.ai.settings import Settings
from rules.cards import bit_list
from rules.game import Move
from rules.tarot import (
    BID_RANK,
    BIDS,
    COUNTS,
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    HALF_POINTS,
    KINGS,
    MONDE,
    ORDINARY,
    PETIT,
    PETIT_BIT,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_SUIT,
    TRUMPS,
    TarotState,
    attack,
    callable_cards,
    canonical_poignees,
    led_card,
    playable_now,
    poignee_pool,
    top_trump,
)

# Hand strength at which each contract is worth bidding (T4), checked highest first.
# Over random deals the strength's median is about 28 and its 90th percentile about 42.
BID_THRESHOLDS = (("garde_contre", 63), ("garde_sans", 55), ("garde", 46), ("prise", 38))
HIGH_TRUMP = FIRST_TRUMP + 15  # T16 and up are hard to overtrump
KING_CARDS = frozenset(bit_list(KINGS))


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


def _bid(state: TarotState, seat: int) -> Move:
    highest = max((BID_RANK[b] for b in state.bids), default=0)
    s = strength(state.hands[seat])
    for contract, threshold in BID_THRESHOLDS:
        if s >= threshold and BID_RANK[contract] > highest:
            return Move(seat, "bid", contract=contract)
    return Move(seat, "bid", contract=BIDS[0])


def _call(state: TarotState, seat: int) -> Move:
    """T22: the highest callable card the hand lacks (a King it lacks, else the court below),
    or, holding them all, the lowest: a partner rather than playing alone."""
    hand = state.hands[seat]
    cards = bit_list(callable_cards(hand))
    lacking = [c for c in cards if not hand >> c & 1]
    return Move(seat, "call", card=lacking[-1] if lacking else cards[0])


def _discard(state: TarotState, seat: int) -> Move:
    """T5, T20: every ordinary card first when they are short, then the lowest trumps;
    otherwise the ordinary cards of the shortest suits without a King, dearest first, to
    make voids."""
    hand = state.hands[seat]
    size = COUNTS[len(state.hands)].chien
    ordinary = bit_list(hand & ORDINARY)
    if len(ordinary) <= size:
        trumps = bit_list(hand & TRUMPS & ~(PETIT_BIT | 1 << MONDE))
        return Move(seat, "discard",
                    cards=tuple(sorted(ordinary + trumps[:size - len(ordinary)])))
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    guarded = [bool(hand & SUIT_MASK[s] & KINGS) for s in range(4)]
    ordinary.sort(key=lambda c: (guarded[SUIT_OF[c]], lengths[SUIT_OF[c]], -HALF_POINTS[c]))
    return Move(seat, "discard", cards=tuple(sorted(ordinary[:size])))


def _announce(hand: int) -> bool:
    """T7: only a hand that can hardly lose a trick announces a chelem."""
    return (hand & TRUMPS).bit_count() >= 15 and bool(hand >> MONDE & 1) and bool(
        hand & EXCUSE_BIT)


def _best(trick, leader: int, players: int) -> tuple[int, int]:
    """T10 on a trick in progress: the card winning so far and its seat."""
    top = top_trump(trick)
    if top >= 0:
        return top, (leader + trick.index(top)) % players
    led = led_card(trick)
    if led < 0:
        return -1, -1
    best = led
    for c in trick:
        if SUIT_OF[c] == SUIT_OF[led] and c > best:
            best = c
    return best, (leader + trick.index(best)) % players


def _beats(card: int, best: int) -> bool:
    if card == EXCUSE:
        return False
    if SUIT_OF[card] == TRUMP_SUIT:
        return SUIT_OF[best] != TRUMP_SUIT or card > best
    return SUIT_OF[card] == SUIT_OF[best] and card > best


def _play(state: TarotState, seat: int, rng: random.Random) -> Move:
    hand = state.hands[seat]
    players = len(state.hands)
    cards = bit_list(playable_now(state, seat))
    if len(cards) == 1:
        return Move(seat, "play", card=cards[0])
    late = len(state.tricks) >= COUNTS[players].hand - 3
    if EXCUSE in cards and late:
        return Move(seat, "play", card=EXCUSE)  # T12: kept to the last trick, it is lost
    others = [c for c in cards if c != EXCUSE] or cards
    # The attack camp as this seat knows it (a partner it cannot know counts as none).
    attackers = attack(state.taker, state.partner)
    camp = bool(attackers >> seat & 1)
    trick = state.trick
    if not trick:
        return Move(seat, "play", card=_lead(hand, others, seat == state.taker))
    best, best_seat = _best(trick, state.leader, players)
    last = len(trick) == players - 1
    if best >= 0 and bool(attackers >> best_seat & 1) == camp:
        # The trick is ours: feed it points when it is safe, else play cheap.
        safe = last or best >= HIGH_TRUMP or (SUIT_OF[best] != TRUMP_SUIT and best in KING_CARDS)
        if safe:
            plain = [c for c in others if SUIT_OF[c] != TRUMP_SUIT or c == PETIT and last]
            if plain:
                return Move(seat, "play", card=max(plain, key=lambda c: (HALF_POINTS[c], c)))
        return Move(seat, "play", card=min(others, key=_cost))
    winners = [c for c in others if best < 0 or _beats(c, best)]
    if winners:
        if not last:
            winners = [c for c in winners if c != PETIT] or winners  # a Petit risks capture
        return Move(seat, "play", card=min(winners, key=lambda c: (c != PETIT or not last, c)))
    if EXCUSE in cards and min(HALF_POINTS[c] for c in others) >= 3:
        return Move(seat, "play", card=EXCUSE)  # T11: cheaper than giving away a court card
    return Move(seat, "play", card=min(others, key=_cost))


def _cost(card: int) -> tuple[int, int]:
    """What a card is worth keeping: points, and the Petit dearest of all."""
    return (20 if card == PETIT else HALF_POINTS[card], card)


def _lead(hand: int, cards: list[int], taker: bool) -> int:
    kings = [c for c in cards if c in KING_CARDS]
    if kings:
        return kings[0]
    trumps = [c for c in cards if SUIT_OF[c] == TRUMP_SUIT]
    if taker and len(trumps) >= 8 and trumps[-1] >= HIGH_TRUMP:
        return trumps[-1]  # draw the defenders' trumps from the top
    plain = [c for c in cards if SUIT_OF[c] != TRUMP_SUIT]
    if not plain:
        return min(cards, key=_cost)
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    return min(plain, key=lambda c: (-lengths[SUIT_OF[c]], c))


def basic_move(state: TarotState, seat: int, rng: random.Random) -> Move:
    phase = state.phase
    if phase == "bidding":
        return _bid(state, seat)
    if phase == "call":
        return _call(state, seat)
    if phase == "discard":
        return _discard(state, seat)
    if phase == "chelem":
        return Move(seat, "chelem", announce=_announce(state.hands[seat]))
    if not state.tricks and all(s != seat for s, _ in state.poignees):
        shown = canonical_poignees(poignee_pool(state, seat),
                                   bool(state.hands[seat] & EXCUSE_BIT), len(state.hands))
        if shown:
            return Move(seat, "poignee", cards=shown[-1])  # T8: the largest it can show
    return _play(state, seat, rng)


def value(settlement: dict, seat: int) -> float:
    """T17: the seat's score scaled to [0, 1]; a garde is worth about ±60 a seat."""
    return 0.5 + 0.5 * math.tanh(settlement["scores"][seat] / 150)


# A playout from a late move is shorter but not by its cards alone: sampling and settling
# cost about 14 cards' worth (FIXED_COST in bench/README.md), which keeps late moves within
# the deadline.
SETTINGS = Settings(basic=basic_move, value=value, rate=0.3, fixed_cost=14)
