"""The card vocabulary shared by the three games.

A card is a small integer: its position in its game's deck table. A set of cards
(a hand, a discard pile) is an int bitmask over those positions, so membership,
removal and "which of these can I play" are single integer operations.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a deck, as `GET /v1/games/{game}` lists it."""

    code: str
    suit: str
    rank: str
    name: str
    label: str
    points: float | None = None

    def __repr__(self) -> str:
        return self.code


class Deck:
    """A game's cards in canonical order; a card's index is its integer identity."""

    __slots__ = ("cards", "codes", "index", "full", "_code_bytes")

    def __init__(self, cards: Iterable[Card]):
        self.cards: tuple[Card, ...] = tuple(cards)
        self.codes: tuple[str, ...] = tuple(c.code for c in self.cards)
        self.index: dict[str, int] = {code: i for i, code in enumerate(self.codes)}
        self.full: int = (1 << len(self.cards)) - 1
        # The codes of every byte of a mask, so that a hand is answered a byte at a time
        # (a few thousand small tuples per deck, unlike 12-bit move tables).
        size = len(self.codes)
        self._code_bytes = tuple(
            tuple(tuple(self.codes[base + i] for i in range(8) if v >> i & 1 and base + i < size)
                  for v in range(256))
            for base in range(0, size, 8)
        )

    def __len__(self) -> int:
        return len(self.cards)

    def codes_of(self, mask: int) -> list[str]:
        """The codes of a card mask, in deck order."""
        out: list[str] = []
        for table in self._code_bytes:
            if not mask:
                break
            out += table[mask & 0xFF]
            mask >>= 8
        return out


def bit_list(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def move_chunks(size: int, move_for) -> tuple:
    """Precomputed move lists per card bitmask, 12 bits at a time: `chunks[k][bits]` lists
    the moves of the cards `bits` of cards 12k to 12k+11, so listing the moves of a hand is
    a few table lookups. One move object per card is shared by every entry that lists it,
    so the tables cost pointers, not hundreds of thousands of moves."""
    move = [move_for(c) for c in range(size)]
    return tuple(
        tuple(
            tuple(move[base + i] for i in range(12) if v >> i & 1 and base + i < size)
            for v in range(1 << 12)
        )
        for base in range(0, size, 12)
    )


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def lowest(mask: int) -> int:
    """The lowest-index card of a non-empty bitmask."""
    return (mask & -mask).bit_length() - 1
