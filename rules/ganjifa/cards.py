"""G1–G4 as data: the ten suits in avatar order, the ranks and their strength in each suit
group, the deck, the periods' trumps, the players and their hands' size; card sets as
bitmasks, a suit one 12-bit chunk."""

from __future__ import annotations

from rules.cards import Card, Deck, mask_of
from rules.texts import ENGLISH, in_digits, word

# G1: the ten suits in avatar order. The avatars' names and the suits' emblems are the
# catalogues' `ganjifa.avatar.<suit>` and `ganjifa.emblem.<suit>`; [decided] G1 names no
# emblem for Krishna and Balarama: the discus (chakra) and the plough (hala).
SUITS = ("MAT", "KUR", "VAR", "NAR", "VAM", "PAR", "RAM", "KRI", "BAL", "KAL")
# In a reason, `avatar` is a suit said as its avatar, `suit` as its avatar and code.
word("avatar", "ganjifa.avatar.")
word("suit", "ganjifa.avatar.", with_code=True)
SUIT_COUNT = len(SUITS)
# A card's index is 12 * suit + rank index, ranks in this order; a suit fills one 12-bit
# chunk of a hand mask, so a move_chunks chunk is exactly one suit.
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "M", "R")
RANK_LABELS = (*RANKS[:10], "Mantri", "Raja")
SUIT_SIZE = len(RANKS)
PIPS = 10
MANTRI, RAJA = 10, 11  # rank indices
HAND_SIZE = 40  # G4
PLAYERS = 3
PERIODS = {"day": SUITS.index("RAM"), "night": SUITS.index("KRI")}  # G3
PERIOD_OF = {trump: period for period, trump in PERIODS.items()}


def _strength(suit: int, rank: int) -> int:
    """G2: 11 for the Raja, 10 for the Mantri, then the pips: in the first five suits
    1 is high and 10 low, in the last five 10 is high and 1 low."""
    if rank >= MANTRI:
        return rank
    return PIPS - 1 - rank if suit < 5 else rank


# G2: each suit group's ranks from high to low, as data for the game-info endpoint.
RANK_ORDER = {
    "first": ("R", "M", *RANKS[:10]),
    "last": ("R", "M", *reversed(RANKS[:10])),
}

def name_card(catalogue: dict[str, str], suit: str, rank: str) -> str:
    """A card's name in a catalogue's words: its pip number or court, of its avatar."""
    local_rank = catalogue.get(f"ganjifa.rank.{rank}") or in_digits(catalogue, rank)
    return catalogue["ganjifa.card"].format(rank=local_rank,
                                            suit=catalogue[f"ganjifa.avatar.{suit}"])


DECK = Deck(
    Card(
        RANKS[r] + SUITS[s],
        SUITS[s],
        RANKS[r],
        name_card(ENGLISH, SUITS[s], RANKS[r]),
        RANK_LABELS[r],
    )
    for s in range(SUIT_COUNT)
    for r in range(SUIT_SIZE)
)
SUIT_OF = tuple(i // SUIT_SIZE for i in range(len(DECK)))
RANK_OF = tuple(i % SUIT_SIZE for i in range(len(DECK)))
STRENGTH = tuple(_strength(SUIT_OF[i], RANK_OF[i]) for i in range(len(DECK)))
SUIT_MASK = tuple(((1 << SUIT_SIZE) - 1) << (SUIT_SIZE * s) for s in range(SUIT_COUNT))
RAJAS = tuple(SUIT_SIZE * s + RAJA for s in range(SUIT_COUNT))
MANTRIS = tuple(SUIT_SIZE * s + MANTRI for s in range(SUIT_COUNT))
MANTRI_BITS = mask_of(MANTRIS)
PIP_BITS = (1 << PIPS) - 1
# G6: the suits after each suit in avatar order, wrapping from Kalki to Matsya.
AFTER = tuple(tuple((s + i) % SUIT_COUNT for i in range(1, SUIT_COUNT)) for s in
              range(SUIT_COUNT))
