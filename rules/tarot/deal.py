"""The player counts and their deal sizes (T2, T18–T21), and the deal itself."""

from __future__ import annotations

from typing import NamedTuple

from rules.cards import mask_of
from rules.tarot.cards import EXCUSE_BIT, PETIT_BIT, TRUMPS


class Count(NamedTuple):
    """What the number of players fixes: each hand's cards (one trick a card), the chien's
    and so the écart's size, and the poignée levels by the trumps they show."""

    players: int
    hand: int  # T2, T19; also the number of tricks (T9)
    chien: int  # T2, T19, T20
    poignees: dict[int, str]  # T8, T21: trumps shown -> level


COUNTS = {
    3: Count(3, 24, 6, {13: "simple", 15: "double", 18: "triple"}),
    4: Count(4, 18, 6, {10: "simple", 13: "double", 15: "triple"}),
    5: Count(5, 15, 3, {8: "simple", 10: "double", 13: "triple"}),
}
PLAYERS = 4  # T18: the default count
MAX_PLAYERS = max(COUNTS)
# The four-player figures, by the names the rules had before T18.
HAND_SIZE = COUNTS[4].hand
CHIEN_SIZE = COUNTS[4].chien
TRICKS = COUNTS[4].hand
POIGNEE_SIZES = COUNTS[4].poignees


def petit_sec(hand: int) -> bool:
    """T3: the Petit is the only trump and the Excuse is not held."""
    return hand & TRUMPS == PETIT_BIT and not hand & EXCUSE_BIT


def dealt(order: list[int], players: int) -> tuple[tuple[int, ...], int]:
    """T2, T19 [decided]: with n cards a hand, hand s is cards n·s+1 … n·s+n of the order,
    the chien the cards after the last hand. The hands and the chien as masks."""
    n = COUNTS[players].hand
    hands = tuple(mask_of(order[n * s:n * s + n]) for s in range(players))
    return hands, mask_of(order[n * players:])
