"""D2, D17: the deal; D5: the first attacker."""

from __future__ import annotations

from rules.cards import mask_of
from rules.durak.cards import HAND_SIZE, SUIT_OF, lowest_trump
from rules.durak.options import CLASSIC, Setup
from rules.durak.state import DurakState, State


def first_attacker(hands: tuple[int, ...], trump: int) -> int:
    """D5 (D18: among all hands): the holder of the lowest trump; seat 0 when no hand
    holds one."""
    best, seat = None, 0
    for s, hand in enumerate(hands):
        low = lowest_trump(hand, trump)
        if low is not None and (best is None or low < best):
            best, seat = low, s
    return seat


def deal_from(order: list[int], setup: Setup) -> State:
    """D17 [decided]: hand s is cards 6s+1 … 6s+6 of the order; the next card is turned up
    and goes under the stock. When the hands take the whole deck, the last card dealt is
    shown, sets the trump and stays in its hand."""
    players = setup.players
    hands = tuple(mask_of(order[HAND_SIZE * s:HAND_SIZE * s + HAND_SIZE])
                  for s in range(players))
    dealt = HAND_SIZE * players
    stock: tuple[int, ...]
    if dealt == len(order):
        shown = order[-1]
        trump, stock = SUIT_OF[shown], ()
    else:
        shown = -1
        turned = order[dealt]
        trump, stock = SUIT_OF[turned], (*order[dealt + 1:], turned)
    attacker = first_attacker(hands, trump)
    if setup is CLASSIC:
        return (trump, hands, stock, 0, attacker, (), False, "attack", attacker)
    known = None
    if setup.known:
        known = tuple((shown,) if shown >= 0 and hands[s] >> shown & 1 else ()
                      for s in range(players))
    history, passed_on = ((), ()) if setup.history else (None, None)
    return DurakState(trump, hands, stock, 0, attacker, (), False, "attack", attacker, setup,
                      (), shown, known, history, passed_on)
