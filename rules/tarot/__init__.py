"""French Tarot for three, four or five players, one deal: rules T1–T24 of RULES.md.

The package holds one module a rule block: `cards` (the deck, T1, T13), `deal` (the
counts and their sizes, T2, T18–T21), `state`, `bidding` (T3, T4), `call` (T22), `ecart`
(T5, T6, T20), `poignee` (T8, T21), `tricks` (T9–T12, T23), `scoring` (T11–T17, T24),
`checks` (a state given as fields, one check a rule block), `view` (what a seat sees) and
`game` (the Game). The names below are the package's surface.
"""

from rules.cards import mask_of
from rules.tarot.bidding import BID_RANK, BIDS, CHIEN_TAKEN, CONTRACTS, MULTIPLIERS
from rules.tarot.call import CALLING, callable_cards, partner_known
from rules.tarot.cards import (
    ABOVE,
    BOUTS,
    COURTS,
    DECK,
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    HALF_POINTS,
    KINGS,
    MONDE,
    ORDINARY,
    PETIT,
    PETIT_BIT,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    TRUMP_SUIT,
    TRUMPS,
    name_card,
)
from rules.tarot.deal import (
    CHIEN_SIZE,
    COUNTS,
    HAND_SIZE,
    MAX_PLAYERS,
    PLAYERS,
    POIGNEE_SIZES,
    TRICKS,
    Count,
    petit_sec,
)
from rules.tarot.game import GAME, Tarot, listed_plays
from rules.tarot.poignee import (
    POIGNEE_VALUES,
    canonical_poignees,
    poignee_pool,
    poignee_problem,
)
from rules.tarot.scoring import CAMPS, TARGETS, camp_cards, score, settle
from rules.tarot.state import UNKNOWN, TarotState, attack
from rules.tarot.tricks import (
    follow_reason,
    led_card,
    opening_bar,
    playable,
    playable_now,
    top_trump,
    trick_winner,
    void_shown,
)

__all__ = [
    "ABOVE", "BID_RANK", "BIDS", "BOUTS", "CALLING", "CAMPS", "CHIEN_SIZE", "CHIEN_TAKEN",
    "CONTRACTS", "COUNTS", "COURTS", "DECK", "EXCUSE", "EXCUSE_BIT", "FIRST_TRUMP", "GAME",
    "HALF_POINTS", "HAND_SIZE", "KINGS", "MAX_PLAYERS", "MONDE", "MULTIPLIERS", "ORDINARY",
    "PETIT", "PETIT_BIT", "PLAYERS", "POIGNEE_SIZES", "POIGNEE_VALUES", "SUITS", "SUIT_MASK",
    "SUIT_OF", "TARGETS", "TRICKS", "TRUMPS", "TRUMP_SUIT", "UNKNOWN", "Count", "Tarot",
    "TarotState", "attack", "callable_cards", "camp_cards", "canonical_poignees",
    "follow_reason", "led_card", "listed_plays", "mask_of", "name_card", "opening_bar",
    "partner_known", "petit_sec", "playable", "playable_now", "poignee_pool",
    "poignee_problem", "score", "settle", "top_trump", "trick_winner", "void_shown",
]
