"""Basic's Tarot card play (T9–T12, T22, T23): win tricks cheaply, feed points to a seat of
its camp that is winning, throw the cheapest card otherwise.

With five players the camps are not all known (T22): the partner is the holder of the
called card, which only the partner knows until the card is played (the taker knows it is
alone when the card is in its own hand or écart, everyone when it lies in the shown chien).
Until then a seat that cannot tell another's camp treats it as an opponent: it feeds points
only to a seat it knows is with it, and otherwise plays to win the trick itself. The taker
looks for its partner by leading a low card of the called suit (after the first trick, T23),
so that the called card can win it; the partner shows itself by playing the called card as
soon as it can win a trick or is led to."""

from __future__ import annotations

from rules.ai.tarot_bidding import FOUR_PLAYER_HAND, HIGH_TRUMP
from rules.cards import bit_list
from rules.game import Move
from rules.tarot import (
    COUNTS,
    EXCUSE,
    HALF_POINTS,
    KINGS,
    PETIT,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_SUIT,
    TarotState,
    attack,
    led_card,
    partner_known,
    playable_now,
    top_trump,
)

KING_CARDS = frozenset(bit_list(KINGS))


def allies(state: TarotState, seat: int) -> int:
    """The seats `seat` knows play in its camp, itself included, as a mask of seats: the
    attack camp or the defence (T22), or, for a seat that cannot tell the partner yet,
    itself alone."""
    taker = state.taker
    if taker is None or not partner_known(state, seat):
        return 1 << seat
    camp = attack(taker, state.partner)
    if camp >> seat & 1:
        return camp
    return ((1 << len(state.hands)) - 1) & ~camp


def best_card(trick, leader: int, players: int) -> tuple[int, int]:
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


def beats(card: int, best: int) -> bool:
    if card == EXCUSE:
        return False
    if SUIT_OF[card] == TRUMP_SUIT:
        return SUIT_OF[best] != TRUMP_SUIT or card > best
    return SUIT_OF[card] == SUIT_OF[best] and card > best


def cost(card: int) -> tuple[int, int]:
    """What a card is worth keeping: points, and the Petit dearest of all."""
    return (20 if card == PETIT else HALF_POINTS[card], card)


def play(state: TarotState, seat: int) -> Move:
    """Basic's card: the Excuse played before the last trick (T12), else a lead or an
    answer to the trick on the table."""
    cards = bit_list(playable_now(state, seat))
    if len(cards) == 1:
        return Move(seat, "play", card=cards[0])
    late = len(state.tricks) >= COUNTS[len(state.hands)].hand - 3
    if EXCUSE in cards and late:
        return Move(seat, "play", card=EXCUSE)  # T12: kept to the last trick, it is lost
    others = [c for c in cards if c != EXCUSE]
    if not state.trick:
        return Move(seat, "play", card=_lead(state, seat, others))
    return Move(seat, "play", card=_follow(state, seat, cards, others))


def _follow(state: TarotState, seat: int, cards: list[int], others: list[int]) -> int:
    players = len(state.hands)
    best, best_seat = best_card(state.trick, state.leader, players)
    last = len(state.trick) == players - 1
    called = state.called
    if called is not None and called in cards and best >= 0 and beats(called, best):
        return called  # the partner wins and shows itself (T22)
    if best >= 0 and allies(state, seat) >> best_seat & 1:
        return _feed(best, others, last)
    return _answer(best, EXCUSE in cards, others, last)


def _feed(best: int, others: list[int], last: bool) -> int:
    """An answer to a trick the seat's camp is winning with `best`: points on it when it
    is safe (the last card, a high trump, a King), else the cheapest card."""
    if last or best >= HIGH_TRUMP or (SUIT_OF[best] != TRUMP_SUIT and best in KING_CARDS):
        plain = [c for c in others if SUIT_OF[c] != TRUMP_SUIT or c == PETIT and last]
        if plain:
            return max(plain, key=lambda c: (HALF_POINTS[c], c))
    return min(others, key=cost)


def _answer(best: int, excuse: bool, others: list[int], last: bool) -> int:
    """An answer to a trick an opponent is winning with `best` (-1 while only the Excuse is
    down): the cheapest winner, the Petit kept back but on the last card; else the Excuse
    rather than a court card; else the cheapest card."""
    winners = [c for c in others if best < 0 or beats(c, best)]
    if winners:
        if not last:
            winners = [c for c in winners if c != PETIT] or winners  # a Petit risks capture
        return min(winners, key=lambda c: (c != PETIT or not last, c))
    if excuse and min(HALF_POINTS[c] for c in others) >= 3:
        return EXCUSE  # T11: cheaper than giving away a court card
    return min(others, key=cost)


def _lead(state: TarotState, seat: int, cards: list[int]) -> int:
    """A King first; then the taker's lead (`_taking_lead`); else the lowest card of the
    longest plain suit, or the cheapest trump."""
    kings = [c for c in cards if c in KING_CARDS]
    if kings:
        return kings[0]
    if seat == state.taker:
        card = _taking_lead(state, seat, cards)
        if card is not None:
            return card
    plain = [c for c in cards if SUIT_OF[c] != TRUMP_SUIT]
    if not plain:
        return min(cards, key=cost)
    hand = state.hands[seat]
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    return min(plain, key=lambda c: (-lengths[SUIT_OF[c]], c))


def _taking_lead(state: TarotState, seat: int, cards: list[int]) -> int | None:
    """The taker looking for its partner leads a low card of the called suit, so that the
    called card can win it (T22); a taker long in trumps, its highest. None otherwise."""
    called = state.called
    if called is not None and not partner_known(state, seat):
        suit = [c for c in cards if SUIT_OF[c] == SUIT_OF[called]]
        if suit:
            return min(suit)
    trumps = [c for c in cards if SUIT_OF[c] == TRUMP_SUIT]
    long_trumps = len(trumps) * FOUR_PLAYER_HAND >= 8 * COUNTS[len(state.hands)].hand
    if long_trumps and trumps[-1] >= HIGH_TRUMP:
        return trumps[-1]  # draw the defenders' trumps from the top
    return None
