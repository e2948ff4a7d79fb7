"""French Tarot's deck (T1) and card points (T13).

Cards are deck indices: the four suits 0–55 (14 cards each, low to high, so that within a
suit a higher index is a higher card), the trumps T1–T21 at 56–76 (again in order), the
Excuse at 77. Card points are counted in half points (T13) so that every sum is exact.
"""

from __future__ import annotations

from rules.cards import Card, Deck, mask_of
from rules.texts import ENGLISH, card_name, in_digits

SUITS = "SHDC"
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")  # T1
# T1: the French pattern prints its courts as Valet, Cavalier, Dame, Roi.
LABELS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "D", "R")
# T13 in half points, by suit rank: every pip 1/2, J 3/2, C 5/2, Q 7/2, K 9/2.
RANK_HALF_POINTS = (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9)

FIRST_TRUMP = 56
PETIT = FIRST_TRUMP  # T1
MONDE = FIRST_TRUMP + 20  # T21
EXCUSE = 77
TRUMP_SUIT, EXCUSE_SUIT = 4, 5


def name_card(catalogue: dict[str, str], suit: str, rank: str) -> str:
    """A card's name in a catalogue's words: the trumps by number, the Excuse by name."""
    if suit == "T":
        return catalogue["tarot.trump"].format(n=in_digits(catalogue, rank))
    if suit == "EX":
        return catalogue["tarot.excuse"]
    return card_name(catalogue, "tarot", suit, rank)


def _card(i: int) -> Card:
    if i < FIRST_TRUMP:
        s, r = SUITS[i // 14], i % 14
        return Card(RANKS[r] + s, s, RANKS[r], name_card(ENGLISH, s, RANKS[r]), LABELS[r],
                    RANK_HALF_POINTS[r] / 2)
    if i < EXCUSE:
        n = i - FIRST_TRUMP + 1
        return Card(f"T{n}", "T", str(n), name_card(ENGLISH, "T", str(n)), str(n),
                    4.5 if n in (1, 21) else 0.5)
    # The Tarot Nouveau prints a star in the Excuse's corners.
    return Card("EX", "EX", "EX", name_card(ENGLISH, "EX", "EX"), "★", 4.5)


DECK = Deck(_card(i) for i in range(78))
SUIT_OF = tuple(i // 14 if i < FIRST_TRUMP else TRUMP_SUIT if i < EXCUSE else EXCUSE_SUIT
                for i in range(78))
HALF_POINTS = tuple(round((c.points or 0) * 2) for c in DECK.cards)
SUIT_MASK = tuple(mask_of(range(s * 14, s * 14 + 14)) for s in range(4))
TRUMPS = mask_of(range(FIRST_TRUMP, EXCUSE))
EXCUSE_BIT = 1 << EXCUSE
PETIT_BIT = 1 << PETIT
BOUTS = mask_of((PETIT, MONDE, EXCUSE))  # T1
KINGS = mask_of(s * 14 + 13 for s in range(4))
# T22: the courts by rank, highest first: the Kings, Queens, Knights and Jacks.
COURTS = tuple(mask_of(s * 14 + r for s in range(4)) for r in (13, 12, 11, 10))
ORDINARY = mask_of(range(FIRST_TRUMP)) & ~KINGS  # T5: suit cards other than Kings
# ABOVE[t]: the trumps higher than trump t (T9, overtrumping).
ABOVE = tuple(TRUMPS & ~((2 << t) - 1) if t >= FIRST_TRUMP else TRUMPS for t in range(78))
