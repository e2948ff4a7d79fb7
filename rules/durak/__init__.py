"""Durak for two to six players, one deal: rules D1–D25 of RULES.md.

The package holds one module a rule block: `cards` (the decks, D1, D16, and the tables the
moves read), `options` (the counts, decks and options as data, D16, and the readings of
the rules where RULES.md leaves multi-player play open), `state`, `deal` (D2, D5, D17),
`bout` (D6–D11, D13, D19, D20), `passing` (D21), `refill` (D12, D22), `end` (D23–D25),
`checks` (a state given as fields, one check a rule block), `view` (what a seat sees) and
`game` (the Game). The names below are the package's surface.
"""

from rules.durak.bout import IllegalMove, bout_limit, first_unbeaten, table_ranks, turn
from rules.durak.cards import (
    ALL,
    BEATERS,
    BIT,
    BOUT_LIMIT,
    DECK,
    DECKS,
    HAND_SIZE,
    INDICES,
    RANK_MASK,
    RANK_OF,
    RANKS,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    sorted_cards,
)
from rules.durak.game import GAME, Durak
from rules.durak.options import CLASSIC, COUNTS, MOST_PLAYERS, PLAYERS, Setup, setup
from rules.durak.passing import transfer_cards
from rules.durak.state import (
    Bout,
    ClassicState,
    DurakState,
    State,
    defender_of,
    gone,
    named,
    next_in,
    round_of,
)

__all__ = [
    "ALL", "BEATERS", "BIT", "BOUT_LIMIT", "Bout", "CLASSIC", "COUNTS", "DECK", "DECKS", "GAME",
    "HAND_SIZE", "INDICES", "MOST_PLAYERS", "PLAYERS", "RANKS", "RANK_MASK", "RANK_OF",
    "SUITS",
    "SUIT_MASK", "SUIT_OF", "ClassicState", "Durak", "DurakState", "IllegalMove", "Setup",
    "State", "bout_limit", "defender_of", "first_unbeaten", "gone", "named", "next_in",
    "round_of", "setup", "sorted_cards",
    "table_ranks", "transfer_cards", "turn",
]
