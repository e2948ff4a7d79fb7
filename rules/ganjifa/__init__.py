"""Dashavatara Ganjifa for three players, one deal, with Dukal captures: rules G1–G9 of
RULES.md.

The package holds one module a rule block: `cards` (the suits, ranks and deck, G1–G4),
`dukal` (G8), `tricks` (G6, G7), `state`, `scoring` (G9), `checks` (a state given as
fields, one check a rule block), `history` (its tricks and Dukals) and `game` (the Game).
The names below are the package's surface.

Points G1–G9 leave open, decided here (each is cited where it applies):
- G6: the "first suit after the led suit of which they hold any" is searched in avatar
  order from the led suit, wrapping, and the trump suit is not skipped: when the trump
  suit is that first held suit, the void player's only choice is a trump.
- G8: "a run of consecutive pip numbers" is one unbroken run (3, 4, 5, 6), not two runs
  (3, 4, 5 and 8, 9, 10) and never wrapping from 10 to 1; any run of three or more held
  pips may be led, so a player holding 3…7 may lead 3–5, 4–6, 5–7, 3–6, 4–7 or 3–7.
- G8: "may not exceed any opponent's hand" allows a Dukal of exactly an opponent's hand
  size (that opponent then discards every card). G4 deals equal hands and every trick and
  every Dukal takes as many cards from each hand, so at each lead all hands are equal and
  the limit can never bind in a state `build` accepts; `verify` still enforces it.
- G8: "each opponent in turn order" means the seat after the leader answers first, then
  the next one; the second answer sees the first one's discards (they are public, like
  every captured card).
- G8: after a Dukal the leader captures the 3k cards and `leader` stays that seat, with
  an empty trick; the leader may lead another Dukal at once.
- G5: the opening is the first lead of the deal, recognised by nothing being captured yet;
  the trump Raja is then the only legal lead, and the other two follow it under G6.
- G1: RULES.md names no emblem for Krishna and Balarama; the traditional suit signs used
  here are the discus (chakra) and the plough.
"""

from rules.ganjifa.cards import (
    AFTER,
    DECK,
    HAND_SIZE,
    MANTRI_BITS,
    MANTRIS,
    PERIOD_OF,
    PERIODS,
    PIP_BITS,
    PLAYERS,
    RAJAS,
    RANK_ORDER,
    RANKS,
    STRENGTH,
    SUIT_COUNT,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SIZE,
    SUITS,
    name_card,
)
from rules.ganjifa.dukal import dukal_flaw, dukal_moves
from rules.ganjifa.game import GAME, Ganjifa
from rules.ganjifa.scoring import settlement_of
from rules.ganjifa.state import Dukal, GanjifaState, opening, turn
from rules.ganjifa.tricks import (
    BEATERS,
    SHOWN_VOID,
    follow_options,
    next_held_suit,
    trick_winner,
    void_options,
)

__all__ = [
    "AFTER", "BEATERS", "DECK", "Dukal", "GAME", "Ganjifa", "GanjifaState", "HAND_SIZE",
    "MANTRIS", "MANTRI_BITS", "PERIODS", "PERIOD_OF", "PIP_BITS", "PLAYERS", "RAJAS", "RANKS",
    "RANK_ORDER", "SHOWN_VOID", "STRENGTH", "SUITS", "SUIT_COUNT", "SUIT_MASK", "SUIT_OF",
    "SUIT_SIZE", "dukal_flaw", "dukal_moves", "follow_options", "name_card", "next_held_suit",
    "opening", "settlement_of", "trick_winner", "turn", "void_options",
]
