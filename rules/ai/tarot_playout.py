"""Basic's Tarot play (rules/ai/tarot.py) for every seat to the end of the deal, fast: the
search's playouts are most of its time, and the more of them fit in the budget the better
it plays.

`play_tricks` plays the tricks from the second on (before it, the moves of the auction,
the call, the écart, the chelem and the first trick's poignées go through the rules, in
rules/ai/tarot.py's `playout`) on bitmasks with the same decisions as basic's `_play`,
building no state or move; the finished deal is scored by the rules (T11–T17, T24).
tests/test_ai.py holds it to the rules: from varied states it gives the finished deal that
basic's moves played through `Game.apply` give.
"""

from __future__ import annotations

from rules.cards import bit_list
from rules.tarot import (
    COUNTS,
    EXCUSE,
    FIRST_TRUMP,
    HALF_POINTS,
    KINGS,
    PETIT,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_SUIT,
    TarotState,
    attack,
    playable,
    trick_winner,
)

HIGH_TRUMP = FIRST_TRUMP + 15  # T16 and up are hard to overtrump
# What a card is worth keeping (basic's `_cost`): points, and the Petit dearest of all.
COST = tuple((20 if c == PETIT else HALF_POINTS[c], c) for c in range(78))
# Whether a card is a trump (the Excuse is not: it beats nothing).
IS_TRUMP = tuple(FIRST_TRUMP <= c < EXCUSE for c in range(78))
PLAIN_SUIT = tuple(SUIT_OF[c] != TRUMP_SUIT for c in range(78))


def _cheapest(cards: list[int]) -> int:
    best = cards[0]
    key = COST[best]
    for c in cards:
        k = COST[c]
        if k < key:
            best, key = c, k
    return best


def _beats(card: int, best: int) -> bool:
    if card == EXCUSE:
        return False
    if IS_TRUMP[card]:
        return not IS_TRUMP[best] or card > best
    return SUIT_OF[card] == SUIT_OF[best] and card > best


def play_tricks(state: TarotState) -> TarotState:
    """The deal played to its end as basic plays every seat, from a state in play past the
    first trick (where no poignée can be shown any more, T8): the finished state."""
    hands = list(state.hands)
    n = len(hands)
    taker, partner, called = state.taker, state.partner, state.called
    last_index = COUNTS[n].hand - 1
    late_from = COUNTS[n].hand - 3
    long_hand = 8 * COUNTS[n].hand
    camp = attack(taker, partner)
    everyone = (1 << n) - 1
    defence = everyone & ~camp
    called_bit = 0 if called is None else 1 << called
    # T22: who knows the partner. Everyone without a call or once the called card is out;
    # else the partner (it holds it), and the taker when its écart or the shown chien does.
    played = called is not None and (called in state.trick or any(
        called in cards for _, cards, _ in state.tricks))
    if called is None or called_bit & state.chien_shown or played:
        known = everyone
    else:
        known = 0
        for s in range(n):
            if hands[s] & called_bit or s == taker and state.ecart & called_bit:
                known |= 1 << s
    tricks = list(state.tricks)
    trick = list(state.trick)
    leader = state.leader
    winners = [w for _, _, w in tricks]
    seat = (leader + len(trick)) % n
    while True:
        hand = hands[seat]
        card = _choose(hand, trick, seat, leader, n, len(tricks) >= late_from,
                       camp if known >> seat & 1 else 0, defence, taker, called, known,
                       long_hand)
        hands[seat] = hand & ~(1 << card)
        trick.append(card)
        if card == called:
            known = everyone
        if len(trick) < n:
            seat = (seat + 1) % n
            continue
        earlier = winners if len(tricks) == last_index else ()
        winner = trick_winner(trick, leader, taker, earlier, partner, n)
        tricks.append((leader, tuple(trick), winner))
        winners.append(winner)
        if len(tricks) > last_index:
            break
        trick = []
        leader = seat = winner
    return state._replace(hands=tuple(hands), trick=(), leader=winner, tricks=tuple(tricks),
                          phase="over", to_act=None)


def _choose(hand: int, trick: list[int], seat: int, leader: int, n: int, late: bool,
            camp: int, defence: int, taker: int | None, called: int | None, known: int,
            long_hand: int) -> int:
    """basic's `_play`: `camp` is the attack camp when the seat knows the partner, else 0
    (the seat knows no ally but itself)."""
    cards = bit_list(playable(hand, trick))
    if len(cards) == 1:
        return cards[0]
    if late and cards[-1] == EXCUSE:
        return EXCUSE  # T12: kept to the last trick, it is lost
    others = cards[:-1] if cards[-1] == EXCUSE else cards
    if camp:
        allies = camp if camp >> seat & 1 else defence
    else:
        allies = 1 << seat
    if not trick:
        return _lead(hand, others, seat, taker, called, known, long_hand)
    return _follow(cards, others, trick, seat, leader, n, allies, called)


def _follow(cards: list[int], others: list[int], trick: list[int], seat: int, leader: int,
            n: int, allies: int, called: int | None) -> int:
    best = _winning(trick)
    last = len(trick) == n - 1
    if best >= 0:
        if called is not None and called in cards and _beats(called, best):
            return called  # the partner wins and shows itself (T22)
        best_seat = (leader + trick.index(best)) % n
        if allies >> best_seat & 1:
            if last or best >= HIGH_TRUMP or (PLAIN_SUIT[best] and KINGS >> best & 1):
                top = -1
                key = (-1, -1)
                for c in others:
                    if PLAIN_SUIT[c] or c == PETIT and last:
                        k = (HALF_POINTS[c], c)
                        if k > key:
                            top, key = c, k
                if top >= 0:
                    return top
            return _cheapest(others)
        winners = [c for c in others if _beats(c, best)]
    else:
        winners = others
    if winners:
        if last:
            return PETIT if PETIT in winners else winners[0]
        if len(winners) > 1 and winners[0] == PETIT:
            return winners[1]  # a Petit risks capture
        return winners[0]
    if cards[-1] == EXCUSE and min(HALF_POINTS[c] for c in others) >= 3:
        return EXCUSE  # T11: cheaper than giving away a court card
    return _cheapest(others)


def _winning(trick: list[int]) -> int:
    """T10 on the trick so far: the card winning it, -1 while only the Excuse is down."""
    best = -1
    for c in trick:
        if IS_TRUMP[c] and c > best:
            best = c
    if best >= 0:
        return best
    for c in trick:
        if c != EXCUSE:
            best = c
            break
    if best >= 0:
        suit = SUIT_OF[best]
        for c in trick:
            if SUIT_OF[c] == suit and c > best:
                best = c
    return best


def _lead(hand: int, cards: list[int], seat: int, taker: int | None, called: int | None,
          known: int, long_hand: int) -> int:
    for c in cards:
        if KINGS >> c & 1:
            return c
    if called is not None and seat == taker and not known >> seat & 1:
        # Look for the partner: a low card of the called suit lets the called card win.
        mask = SUIT_MASK[SUIT_OF[called]]
        for c in cards:
            if mask >> c & 1:
                return c
    trumps = [c for c in cards if IS_TRUMP[c]]
    if seat == taker and len(trumps) * 18 >= long_hand and trumps[-1] >= HIGH_TRUMP:
        return trumps[-1]  # draw the defenders' trumps from the top
    plain = [c for c in cards if PLAIN_SUIT[c]]
    if not plain:
        return _cheapest(cards)
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    best = plain[0]
    key = (-lengths[SUIT_OF[best]], best)
    for c in plain:
        k = (-lengths[SUIT_OF[c]], c)
        if k < key:
            best, key = c, k
    return best

