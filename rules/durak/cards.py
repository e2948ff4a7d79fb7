"""Durak's cards and decks (D1, D16) and the tables the moves read (D4, D8).

Every deck is a set of one card universe, the 52 cards, so a card has one index whatever
the deck: 0–35 are the 36-card deck of D1 in its order (suits `S H D C`, ranks 6 to A),
36–51 the ranks 2 to 5 that only the 52-card deck holds (suit by suit). The 24-card deck
is the 36-card one without its 6, 7 and 8. Within a suit a higher rank is a higher card,
but not always a higher index: the order of strength is `RANK_OF`, never the index.
"""

from __future__ import annotations

from rules.cards import Card, Deck, lowest, mask_of, move_chunks
from rules.game import Move
from rules.texts import ENGLISH, card_name

SUITS = "SHDC"
# D1, D16: every rank of the 52-card deck, low to high.
ALL_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANKS = ALL_RANKS[4:]  # D1: the 36-card deck's ranks, low to high
# The letters a deck prints in the corners of its courts and aces, by the players' usage:
# D1's Atlasnye deck carries the Cyrillic ones (Валет, Дама, Король, Туз), an English or
# international deck J Q K A, a French one V D R A (valet, dame, roi, as). A picture may be
# drawn with any of them, as its reader plays; the pips are numbered alike in all.
INDICES = {
    "russian": {"J": "В", "Q": "Д", "K": "К", "A": "Т"},
    "english": {"J": "J", "Q": "Q", "K": "K", "A": "A"},
    "french": {"J": "V", "Q": "D", "K": "R", "A": "A"},
}
LABELS = {rank: INDICES["russian"].get(rank, rank) for rank in ALL_RANKS}  # D1
HAND_SIZE = 6  # D2, D12, D17
BOUT_LIMIT = 6  # D9


def _rank_and_suit(c: int) -> tuple[int, int]:
    """A card's rank (0 = 2 … 12 = A) and suit index, from its universe index."""
    if c < 36:
        return 4 + c % 9, c // 9
    return (c - 36) % 4, (c - 36) // 4


RANK_OF = tuple(_rank_and_suit(c)[0] for c in range(52))
SUIT_OF = tuple(_rank_and_suit(c)[1] for c in range(52))


def _card(c: int) -> Card:
    rank, suit = ALL_RANKS[RANK_OF[c]], SUITS[SUIT_OF[c]]
    return Card(rank + suit, suit, rank, card_name(ENGLISH, "durak", suit, rank), LABELS[rank])


ALL = Deck(_card(c) for c in range(52))  # every card any deck holds: codes and indices
DECK = Deck(ALL.cards[:36])  # D1: the default deck, the one GameInfo lists

# D16: each deck as the set of its cards, by its size.
DECKS = {
    24: mask_of(c for c in range(36) if RANK_OF[c] >= ALL_RANKS.index("9")),
    36: mask_of(range(36)),
    52: mask_of(range(52)),
}
SUIT_MASK = tuple(mask_of(c for c in range(52) if SUIT_OF[c] == s) for s in range(4))
RANK_MASK = tuple(mask_of(c for c in range(52) if RANK_OF[c] == r) for r in range(13))
# The rank mask of each card; index -1 (an unbeaten slot on the table) reads the trailing 0.
RANK_MASK_OF = (*(RANK_MASK[RANK_OF[c]] for c in range(52)), 0)
BIT = (*(1 << c for c in range(52)), 0)  # likewise: BIT[-1] == 0
# A card's place in a sorted hand: by suit, then rank (the 52-card deck's low ranks first).
SORT_KEY = tuple(SUIT_OF[c] * 13 + RANK_OF[c] for c in range(52))


def deck_size_of(cards: int) -> int:
    """The smallest deck (D16) that holds every card of the mask `cards`."""
    for size in (24, 36, 52):
        if not cards & ~DECKS[size]:
            return size
    return 52


def sorted_cards(mask: int) -> list[int]:
    """The cards of a mask in suit and rank order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    out.sort(key=SORT_KEY.__getitem__)
    return out


def _beaters(trump: int, attack: int) -> int:
    """D4: the cards that beat `attack` when `trump` is the trump suit."""
    suit, rank = SUIT_OF[attack], RANK_OF[attack]
    higher = mask_of(c for c in range(52) if SUIT_OF[c] == suit and RANK_OF[c] > rank)
    return higher if suit == trump else higher | SUIT_MASK[trump]


BEATERS = tuple(tuple(_beaters(t, a) for a in range(52)) for t in range(4))


def lowest_trump(hand: int, trump: int) -> int | None:
    """D5: the rank of the lowest trump of a hand, or None when it holds none."""
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return None
    # Within a suit the index order is the rank order, the 52-card deck's low ranks apart.
    low = trumps >> 36
    return RANK_OF[lowest(low) + 36 if low else lowest(trumps)]


MAX_PLAYERS = 6  # D16
SEATS = range(MAX_PLAYERS)
# Every possible move of every seat, one object each, shared by every list that names it.
MOVES = {action: tuple(tuple(Move(s, action, card=c) for c in range(52)) for s in SEATS)
         for action in ("attack", "defend", "transfer")}
TAKES = tuple(Move(s, "take") for s in SEATS)
PASSES = tuple(Move(s, "pass") for s in SEATS)

# The two-player, 36-card game's moves as tables 12 bits at a time: listing a hand's moves
# is then a few lookups, the hot path of every random deal and search of the default game.
ATTACKS = tuple(move_chunks(36, lambda c, s=s: MOVES["attack"][s][c]) for s in (0, 1))
DEFENCES = tuple(move_chunks(36, lambda c, s=s: MOVES["defend"][s][c]) for s in (0, 1))


def moves_of(action: str, seat: int, mask: int) -> list[Move]:
    """The moves `action` of `seat` with each card of `mask`, in index order."""
    table = MOVES[action][seat]
    out = []
    while mask:
        low = mask & -mask
        out.append(table[low.bit_length() - 1])
        mask ^= low
    return out
