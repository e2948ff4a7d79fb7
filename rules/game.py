"""The surface every game shares: moves, problems and the Game interface.

As in OpenSpiel, a Game holds the fixed facts (players, deck, rule ids) and the
functions over its frozen states; a state never changes once built.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.cards import Deck
from rules.reasons import Reason


class Move(NamedTuple):
    """One move. Which optional fields matter depends on the game and the action.

    A NamedTuple rather than a dataclass: moves are made in the hot loop of every
    search and random deal, and tuples are the cheapest immutable value to build."""

    seat: int
    action: str
    card: int | None = None
    cards: tuple[int, ...] | None = None
    contract: str | None = None
    announce: bool | None = None


@dataclass(frozen=True, slots=True)
class Template:
    """A combination move listed once: any `count` cards made of all of
    `must_include` plus cards of `choose_from` (API.md, legal-moves)."""

    seat: int
    action: str
    count: int
    must_include: tuple[int, ...]
    choose_from: tuple[int, ...]

    def sample(self, rng: random.Random) -> Move:
        extra = rng.sample(self.choose_from, self.count - len(self.must_include))
        return Move(self.seat, self.action, cards=tuple(sorted((*self.must_include, *extra))))


# A derived field (phase, to_act, result) that the client left out: nothing to check.
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()


def derived_problems(game: Game, state, phase=UNSET, to_act=UNSET, result=UNSET) -> list:
    """Derived fields given on input must agree with the state (API.md, "States")."""
    problems = []
    if phase is not UNSET and phase != state.phase:
        problems.append(Problem("phase", f"The phase is {state.phase}, not {phase}."))
    if to_act is not UNSET and to_act != game.to_act(state):
        problems.append(Problem("to_act", f"Seat {game.to_act(state)} is to act, not {to_act}."))
    if result is not UNSET and result != game.settlement(state):
        problems.append(Problem("result", "The result does not match the state."))
    return problems


class Problem(NamedTuple):
    """One thing wrong with a state: the field at fault (a dotted path) and why."""

    field: str
    message: str


class InvalidState(ValueError):
    """A state that no legal play can reach; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in problems))
        self.problems = problems


class Game:
    """The interface of one game. Subclasses fill in the fixed facts and the functions."""

    id: str
    name: str
    players: int
    summary: str
    deck: Deck
    deck_info: dict[str, Any]
    rules: tuple[str, ...]
    actions: tuple[str, ...]

    def deal(self, rng: random.Random, order: list[int] | None = None, **options: Any):
        """A new deal: stacked from `order` (first = top) when given, else shuffled by rng.
        A stacked order that is not the whole deck once raises InvalidState."""
        if order is None:
            order = list(range(len(self.deck)))
            rng.shuffle(order)
        else:
            problems = conservation_problems(self.deck, placed("deck", order))
            if problems:
                raise InvalidState(problems)
        return self.deal_from(order, **options)

    def deal_from(self, order: list[int], **options: Any):
        """The stacked deal of RULES.md (D2, T2, G4) from a full ordered deck."""
        raise NotImplementedError

    def to_act(self, state) -> int | None:
        raise NotImplementedError

    def legal_moves(self, state) -> list[Move | Template]:
        raise NotImplementedError

    def verify(self, state, move: Move) -> Reason | None:
        """None when the move is legal, else the reason it is not."""
        raise NotImplementedError

    def play(self, state, move: Move) -> tuple[Any, list[dict]]:
        """The next state and the events, for a move that `verify` accepts."""
        raise NotImplementedError

    def apply(self, state, move: Move):
        """The next state alone: what search and random playouts need, without events."""
        return self.play(state, move)[0]

    def settlement(self, state) -> dict | None:
        raise NotImplementedError


def placed(path: str, cards) -> list[tuple[str, int]]:
    """The cards of one pile with the field path of each: `hands.0.3`."""
    return [(f"{path}.{i}", c) for i, c in enumerate(cards)]


def conservation_problems(deck: Deck, places: list[tuple[str, int]]) -> list[Problem]:
    """Every card of the deck exactly once across a state's piles (D1, T1, G1).

    `places` holds (field path, card) for every card placed; a duplicate is reported at
    its second place, the missing cards once at the state's root."""
    seen: dict[int, str] = {}
    problems = []
    codes = deck.codes
    for where, card in places:
        if card in seen:
            problems.append(Problem(where, f"{codes[card]} appears twice (also at {seen[card]})."))
        else:
            seen[card] = where
    if len(seen) < len(deck):
        missing = [codes[c] for c in range(len(deck)) if c not in seen]
        problems.append(Problem("", f"{len(missing)} card(s) missing: {', '.join(missing)}."))
    return problems
