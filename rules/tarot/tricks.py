"""The play of the cards: following (T9), winning a trick (T10, T12), the five-player
opening lead (T23), and what a play says of the hand it came from."""

from __future__ import annotations

from rules.reasons import Reason
from rules.tarot.cards import (
    ABOVE,
    DECK,
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_SUIT,
    TRUMPS,
)
from rules.tarot.deal import COUNTS, PLAYERS
from rules.tarot.state import attack


def led_card(trick) -> int:
    """T9: the card that sets the suit to follow; an Excuse led hands that to the next card.
    -1 while no such card is on the table."""
    for c in trick:
        if c != EXCUSE:
            return c
    return -1


def top_trump(trick) -> int:
    top = -1
    for c in trick:
        if FIRST_TRUMP <= c < EXCUSE and c > top:
            top = c
    return top


def playable(hand: int, trick) -> int:
    """T9: the cards of `hand` that may go on `trick`."""
    if not trick:
        return hand
    led = trick[0]
    if led == EXCUSE:
        if len(trick) == 1:
            return hand
        led = trick[1]
    suit = SUIT_OF[led]
    excuse = hand & EXCUSE_BIT
    if suit != TRUMP_SUIT:
        follow = hand & SUIT_MASK[suit]
        if follow:
            return follow | excuse
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    top = -1
    for c in trick:
        if FIRST_TRUMP <= c < EXCUSE and c > top:
            top = c
    if top >= 0:
        over = trumps & ABOVE[top]
        if over:
            return over | excuse
    return trumps | excuse


def opening_bar(called: int | None) -> int:
    """T23: the cards that may not open the deal's first trick: the called card's suit but
    the called card itself (none before a call, or without one)."""
    if called is None:
        return 0
    return SUIT_MASK[SUIT_OF[called]] & ~(1 << called)


def playable_now(state, seat: int) -> int:
    """T9 and T23: the cards the seat may play on the state's trick. With 15 cards a hand
    T23 never bars them all: a suit has 14, and a hand that holds them all holds the
    called card."""
    cards = playable(state.hands[seat], state.trick)
    if state.called is not None and not state.tricks and not state.trick:
        cards &= ~opening_bar(state.called)
    return cards


def follow_reason(seat: int, hand: int, trick, card: int) -> Reason | None:
    """T9 as a reason: why `card` may not go on `trick`, or None. Agrees with `playable`."""
    if card == EXCUSE:
        return None
    led = led_card(trick)
    if led < 0:
        return None
    suit = SUIT_OF[led]
    card_suit = SUIT_OF[card]
    if suit != TRUMP_SUIT:
        if card_suit == suit:
            return None
        if hand & SUIT_MASK[suit]:
            return Reason("must_follow_suit", "T9", {"seat": seat})
    trumps = hand & TRUMPS
    if not trumps:
        return None
    if card_suit != TRUMP_SUIT:
        # Trumps led are followed with trumps; a void suit is answered with one.
        return Reason("must_follow_suit" if suit == TRUMP_SUIT else "must_trump", "T9",
                      {"seat": seat})
    top = top_trump(trick)
    if top > card and trumps & ABOVE[top]:
        return Reason("must_overtrump", "T9", {"seat": seat, "highest": DECK.codes[top]})
    return None


def opening_reason(called: int | None, card: int) -> Reason | None:
    """T23 as a reason, for the first card of the deal's first trick."""
    if called is not None and opening_bar(called) >> card & 1:  # a bar is a called suit
        return Reason("called_suit_opening", "T23", {"card": DECK.codes[card],
                                                     "called": DECK.codes[called]})
    return None


def trick_winner(cards, leader: int, taker: int | None, earlier_winners,
                 partner: int | None = None, players: int = PLAYERS) -> int:
    """T10: the seat that wins a complete trick; T12's exception on the last trick: a camp
    that won every earlier trick and leads the Excuse to the last one wins it."""
    if cards[0] == EXCUSE and len(earlier_winners) == COUNTS[players].hand - 1:
        camp = attack(taker, partner)
        leads = camp >> leader & 1
        if all((camp >> w & 1) == leads for w in earlier_winners):
            return leader
    top = top_trump(cards)
    if top >= 0:
        best = top
    else:
        led = led_card(cards)
        suit = SUIT_OF[led]
        best = led
        for c in cards:
            if SUIT_OF[c] == suit and c > best:
                best = c
    return (leader + cards.index(best)) % players


def void_shown(before, card: int) -> int:
    """T9 read backwards: the cards a player cannot have held when playing `card` on the
    cards `before` it in the trick — the led suit it did not follow, the trumps it did not
    play, the trumps above the highest when it did not overtrump."""
    if card == EXCUSE:
        return 0
    led = led_card(before)
    if led < 0:
        return 0
    suit, card_suit = SUIT_OF[led], SUIT_OF[card]
    if suit == card_suit and suit != TRUMP_SUIT:
        return 0
    lacks = SUIT_MASK[suit] if suit != TRUMP_SUIT else 0
    if card_suit != TRUMP_SUIT:
        return lacks | TRUMPS
    top = top_trump(before)
    return lacks | (ABOVE[top] if top > card else 0)
