"""The counts, decks and options of a deal (D16) as data, and the readings of the rules
where RULES.md leaves a point of multi-player play open, kept here in one place.

Readings, decided as the most-played apps (Durak Online, durak.app) play:

- PASSING_OBEYS_BOUT_LIMIT: a card passed on (D21) is an attack card like any other, so
  D9's cap (6, or 5 in the first bout with `first_bout: 5`) bounds it too; D21's own
  condition (the new defender holds at least as many cards as the attack cards after it)
  is D9's second half for the new defender.
- ROUND_AFTER_TAKE: after *take* (D10) the D20 round starts again with the attacker, as
  after a card laid: nobody has passed yet on the cards the defender will pick up.
- KNOWN_ORDER: cards picked up (D10) join the taker's `known` list in table order, each
  attack card before its defence.
- EMPTY_HAND_IS_ASKED: a thrower with no card left stays in the D20 round until the bout
  ends (D23 takes a player out only after the refill) and is asked, with only the forced
  pass (D13, D19), so that the round is the same whatever the hands hold.
- HISTORY_ATTACKER: a bout of the history names as its attacker the bout's attacker at its
  end (after passing on, D21, the last who passed it on, as D22 reads it), and lists the
  cards passed on in the order laid.
- TRUMP_CARD_REQUIRED: a state of a deal whose hands took the whole deck must name its
  `trump_card` (D17), and one of any other deal must not.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from rules.durak.cards import BOUT_LIMIT, DECKS, HAND_SIZE
from rules.game import Problem

COUNTS = range(2, 7)  # D16: two to six players
PLAYERS = 2  # D16: the default count
CARDS = 36  # D16: the default deck
# D16: the most players each deck serves (six cards each, D17).
MOST_PLAYERS = {24: 4, 36: 6, 52: 6}
THROW_IN = ("all", "neighbours")  # D19
FIRST_BOUT = (5, 6)  # D16


class Setup(NamedTuple):
    """A deal's fixed facts, chosen at the deal (D16): the count of players, the deck's
    size and the options. One object per combination (`setup`), so a state's setup is
    compared by identity on the hot path."""

    players: int
    cards: int
    transfer: bool  # D21
    throw_in: str  # D19
    first_bout: int  # D16
    known: bool  # API.md: the state lists the cards everybody has seen in each hand
    history: bool  # docs/api.md: the state keeps the deal's bouts, as everybody saw them

    @property
    def deck(self) -> int:
        return DECKS[self.cards]

    @property
    def whole_deck_dealt(self) -> bool:
        """D17: the hands take the whole deck, so there is no stock."""
        return self.players * HAND_SIZE == self.cards

    def cap(self, discard: int) -> int:
        """D9, D16: the bout's cap of attack cards; 5 in the first bout with
        `first_bout: 5`, until a bout is beaten off (the discard pile is empty)."""
        return self.first_bout if not discard else BOUT_LIMIT


def setup(players: int = PLAYERS, cards: int = CARDS, transfer: bool = False,
          throw_in: str = "all", first_bout: int = BOUT_LIMIT, known: bool = False,
          history: bool = False) -> Setup:
    """The one Setup object of a combination, however its options are named."""
    return _setup(players, cards, transfer, throw_in, first_bout, known, history)


@cache
def _setup(*fields) -> Setup:
    return Setup(*fields)


CLASSIC = setup()  # the two-player, 36-card deal of D1–D15


def setup_problems(players: int, cards: int, throw_in: str, first_bout: int,
                   players_field: str = "players") -> list[Problem]:
    """D16: what is wrong with a choice of count, deck and options. A state's count is its
    number of hands, so a state names `hands` where a deal request names `players`."""
    problems: list[Problem] = []
    if players not in COUNTS:
        problems.append(Problem(players_field, "durak_players", {"players": players}))
    if cards not in DECKS:
        problems.append(Problem("cards", "durak_deck", {"cards": cards}))
    elif players > MOST_PLAYERS[cards]:
        problems.append(Problem(players_field, "durak_deck_players",
                                {"players": players, "cards": cards,
                                 "most": MOST_PLAYERS[cards]}))
    if throw_in not in THROW_IN:
        problems.append(Problem("throw_in", "durak_throw_in", {"throw_in": throw_in}))
    if first_bout not in FIRST_BOUT:
        problems.append(Problem("first_bout", "durak_first_bout", {"first_bout": first_bout}))
    return problems
