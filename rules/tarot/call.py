"""The five-player call of a card and the secret partner (T22)."""

from __future__ import annotations

from rules.tarot.cards import COURTS

CALLING = 5  # T22: the count of players at which the taker calls a partner


def callable_cards(hand: int) -> int:
    """T22 [decided]: the four Kings, then each lower court rank (Queens, Knights, Jacks)
    once the hand holds all four of every rank above it: the hand at the call."""
    cards = 0
    for court in COURTS:
        cards |= court
        if hand & court != court:
            break
    return cards


def partner_of(hands, taker: int, called: int) -> int | None:
    """T22: the seat beside the taker whose hand holds the called card; None when the taker
    holds it or it lies in the chien (the taker plays alone)."""
    for s, hand in enumerate(hands):
        if hand >> called & 1:
            return None if s == taker else s
    return None


def partner_known(state, seat: int) -> bool:
    """T22 [decided]: whether `seat` knows the partner. Everyone once the deal is over, once
    the called card is played, or when it lay in a shown chien; the partner itself; the
    taker when it holds the called card. Nobody else, whatever it could infer from play."""
    called = state.called
    if called is None or state.phase == "over":
        return True
    bit = 1 << called
    if state.chien_shown & bit or state.hands[seat] & bit:
        return True
    if seat == state.taker and state.ecart & bit:
        return True  # laid aside from its own hand
    return called in state.trick or any(called in cards for _, cards, _ in state.tricks)
