"""The surface every game shares: moves, problems and the Game interface.

As in OpenSpiel, a Game holds the fixed facts (players, deck, rule ids) and the
functions over its frozen states; a state never changes once built.

States, in every game, follow one convention. A state is a NamedTuple (`DurakState`,
`TarotState`, `GanjifaState`) whose fields are those of the game's JSON state in API.md, in
its order, derived ones included (phase, to_act; Tarot's taker, contract, partner) except
`result`, which `settlement` computes on demand: as in OpenSpiel, a state carries its phase
and the seat to act, and the move that decides them sets them. Card sets are int bitmasks
over deck indices (rules/cards.py), the seats' piles one tuple entry a seat, an ordered pile
(a stock, a trick) a tuple of card indices. A field's encoding may differ from its JSON
(Durak's trump and Ganjifa's period are suit indices; Tarot's `leader` gives its trick's
seats), and what the JSON does not carry comes last (Ganjifa's history). A state class
declares fields only, no properties computed from them: `build` finds the derived fields
from the facts once, and the invariant test holds what each move stores to what the facts
give. A state is made only by `deal_from`, `build` and `play`/`apply` (a hot path builds
one from a tuple with `tuple.__new__`, at C speed), and read by unpacking it or by field
name. One exception, for speed: Durak's default deal (two players, 36 cards, no option) is
a plain tuple of the same fields, which CPython unpacks and builds on a fast path no tuple
subclass takes; `rules.durak.named` gives it its names (a `ClassicState`), and the
Game's own readers (`to_act`, `hand`, `seats`, `derived`) take either. A form faster for
the AI's playouts lives in the compiled core (rules/ai/core/), and a test holds it to these
rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.cards import Deck
from rules.reasons import Reason
from rules.texts import card_name, english


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
    if phase is UNSET and to_act is UNSET and result is UNSET:
        return []
    now, acting, settled = game.derived(state)
    problems = []
    if phase is not UNSET and phase != now:
        problems.append(Problem("phase", "phase", {"now": now, "given": phase}))
    if to_act is not UNSET and to_act != acting:
        problems.append(Problem("to_act", "to_act", {"now": acting, "given": to_act}))
    if result is not UNSET and not same_json(result, settled):
        problems.append(Problem("result", "result"))
    return problems


def same_json(given, derived) -> bool:
    """Equal as JSON values: `false` is not `0`, as it is to Python (a whole float and its
    int stay equal: JavaScript writes 45.0 as 45)."""
    if given.__class__ is bool or derived.__class__ is bool:
        return given is derived
    if isinstance(given, dict) and isinstance(derived, dict):
        return given.keys() == derived.keys() and all(
            same_json(value, derived[key]) for key, value in given.items())
    if isinstance(given, list | tuple) and isinstance(derived, list | tuple):
        return len(given) == len(derived) and all(map(same_json, given, derived))
    return given == derived


class View(NamedTuple):
    """What one seat may see of a state (API.md, "A View"; OpenSpiel's observer).

    `public` is the state with every card hidden from `seat` taken out of its pile;
    `hidden` counts the cards taken out of each hidden place, the hands first (one count per
    seat, 0 for the seat's own) then the game's other hidden piles (Durak: the stock;
    Tarot: the chien, the écart). `phase` and `to_act` are kept as the state has them, since
    a state's derived fields may read the hidden cards. Two states that differ only in
    cards hidden from `seat` have equal (and equally hashed) views."""

    seat: int
    public: Any
    hidden: tuple[int, ...]
    phase: str
    to_act: int | None


class Problem(NamedTuple):
    """One thing wrong with a state: the field at fault (a dotted path), a code and the
    values its message names; the message is the catalogue's entry `state.<code>`."""

    field: str
    code: str
    values: dict[str, Any] | None = None

    @property
    def message(self) -> str:
        return english(f"state.{self.code}", self.values)


class InvalidState(ValueError):
    """A state that no legal play can reach; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in problems))
        self.problems = problems


class MalformedMove(ValueError):
    """A move that is no move of the game: `field` names the field at fault (python-chess's
    distinction of malformed notation from an illegal move)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field


def missing(move: Move, field: str) -> MalformedMove:
    """The error of a move without a field its action needs."""
    return MalformedMove(field, f"{move.action!r} needs a {field}")


class IllegalMove(ValueError):
    """A well-formed move that the rules refuse in this state, and the reason `verify`
    gives; `reason` is None when the unchecked `apply` refused it on its own (a card not in
    the hand), which `play` never leaves to it."""

    def __init__(self, reason: Reason | str):
        if isinstance(reason, Reason):
            super().__init__(f"{reason.code} ({reason.rule}): {reason.message}")
            self.reason: Reason | None = reason
        else:
            super().__init__(reason)
            self.reason = None


class NoWorldFits(Exception):
    """No deal of the hidden cards fits a view: what it says the seats lack or hold
    contradicts itself (a view narrowed by a model of play the players did not follow)."""


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
    # The fields of Move each action needs: card, cards, contract, announce.
    move_fields: dict[str, tuple[str, ...]]
    # How a deal is won, for a client's figures over many deals: "score", a seat wins with
    # a positive score and loses with a negative one (Durak's D25); "camp", the same for
    # the seat's camp, and a deal may be annulled, neither won nor lost (Tarot's T3, T17);
    # "winners", the settlement names the winners, who share the win (Ganjifa's G9).
    won_by = "score"

    @property
    def all_cards(self) -> Deck:
        """Every card any deal of the game may hold, by index: the deck, unless the game
        deals decks of several sizes (Durak's D16), whose cards share one numbering."""
        return self.deck

    @property
    def decks(self) -> dict[int, tuple[int, ...]]:
        """Each deck the game deals, by its size: its cards (indices of `all_cards`) in
        suit and rank order. One deck, unless the game deals several (Durak's D16)."""
        return {len(self.deck): tuple(range(len(self.deck)))}

    @property
    def counts(self) -> tuple[int, ...]:
        """The counts of players the game deals for (Tarot's T18); `players` is the
        default one."""
        return (self.players,)

    def score_bounds(self, players: int) -> tuple[int, int] | None:
        """The lowest and highest score of a seat in one deal of `players`, for a client's
        figures over many deals (an interval clipped to what a deal can give); None where
        they lie far beyond any mean a match sees."""
        return None

    def build(self, *args: Any, **fields: Any) -> Any:
        """A state from its fields as the game's state schema loads them (cards as deck
        indices; the derived fields phase, to_act and result optional, checked when given),
        or InvalidState with every problem found, its field paths those of API.md."""
        raise NotImplementedError

    def card_name(self, catalogue: dict[str, str], suit: str, rank: str) -> str:
        """A card's name in a catalogue's words (rules/texts.py)."""
        return card_name(catalogue, self.id, suit, rank)

    def deal(self, rng: random.Random, order: list[int] | None = None, **options: Any):
        """A new deal: stacked from `order` (first = top) when given, else shuffled by rng.
        A stacked order that is not the whole deck once raises InvalidState."""
        if order is None:
            order = self.shuffle(rng)
        else:
            problems = conservation_problems(self.deck, (order,), lambda: placed("deck", order))
            if problems:
                raise InvalidState(problems)
        return self.deal_from(order, **options)

    def shuffle(self, rng: random.Random, **options: Any) -> list[int]:
        """The whole deck in a random order (first = top): what `deal` deals from when it is
        given no order, so that a client can be told the order and deal it again."""
        # Sorting by independent uniform keys is a uniform shuffle (two keys tie with
        # probability ~n²/2⁵³), and costs a fraction of `rng.shuffle`'s Python-level
        # draws, a measurable share of a short random deal.
        keys = [rng.random() for _ in self.deck.codes]
        return sorted(range(len(keys)), key=keys.__getitem__)

    def deal_from(self, *args: Any, **options: Any) -> Any:
        """The stacked deal of RULES.md (D2, T2, G4) from a full ordered deck."""
        raise NotImplementedError

    def to_act(self, state) -> int | None:
        return state.to_act

    def seats(self, state) -> int:
        """The count of players at the state's table."""
        return len(state.hands)

    def hand(self, state, seat: int) -> int:
        """The seat's hand, a bitmask."""
        return state.hands[seat]

    def legal_moves(self, state) -> Sequence[Move | Template]:
        raise NotImplementedError

    # The rules check their own input, whoever calls them (PokerKit's verify / can / do):
    # `verify` says why a move is illegal, `can` whether it is legal, and `play` plays it or
    # raises, leaving the state as it was (states are never changed). A malformed move (an
    # unknown action, a field its action needs missing or out of range) raises
    # MalformedMove from all three, whether or not a schema has read it first.

    def verify(self, state, move: Move) -> Reason | None:
        """None when the move is legal, else the reason it is not; MalformedMove when it is
        not a move of this game at all. Each game's `verify` starts with `check_form`."""
        raise NotImplementedError

    def check_form(self, state, move: Move) -> None:
        """MalformedMove, naming the field, unless `move` is a Move of a seat of `state`
        with an action of this game and the fields that action needs (`move_fields`), each
        of its type: a card a deck index, cards a tuple of deck indices."""
        if not isinstance(move, Move):
            raise MalformedMove("", f"not a Move: {move!r}")
        seat, action = move.seat, move.action
        if type(seat) is not int or not 0 <= seat < self.seats(state):
            raise MalformedMove("seat", f"no seat {seat!r} at this table")
        needs = self.move_fields.get(action) if type(action) is str else None
        if needs is None:
            raise MalformedMove("action", f"{self.id} has no action {action!r}")
        size = len(self.all_cards)
        for name in needs:
            value = getattr(move, name)
            if name == "card":
                ok = type(value) is int and 0 <= value < size
            elif name == "cards":
                # a card given twice is no malformed move but an illegal one: its reason
                # (repeated_card) names the rule
                ok = type(value) is tuple and all(type(c) is int and 0 <= c < size
                                                  for c in value)
            elif name == "announce":
                ok = type(value) is bool
            else:
                ok = type(value) is str
            if not ok:
                raise MalformedMove(name, f"{action!r} needs a valid {name}, not {value!r}")

    def can(self, state, move: Move) -> bool:
        """Whether `move` is legal (a malformed move is not)."""
        try:
            return self.verify(state, move) is None
        except MalformedMove:
            return False

    def play(self, state, move: Move) -> tuple[Any, list[dict]]:
        """The next state and the events (API.md, "Events"), cards as indices; IllegalMove
        with the reason, or MalformedMove, when the move may not be played."""
        reason = self.verify(state, move)
        if reason is not None:
            raise IllegalMove(reason)
        return self.transition(state, move)

    def transition(self, state, move: Move) -> tuple[Any, list[dict]]:
        """`play` of a move that `verify` accepts, unchecked."""
        raise NotImplementedError

    def apply(self, state, move: Move):
        """The next state alone, unchecked: what search and random playouts need, for the
        moves `legal_moves` lists; `play` checks a move from anywhere else."""
        return self.transition(state, move)[0]

    def settlement(self, state) -> dict | None:
        raise NotImplementedError

    def derived(self, state) -> tuple[str, int | None, dict | None]:
        """The state's derived fields (API.md, "States"): phase, to_act and result."""
        return state.phase, state.to_act, self.settlement(state)

    def observe(self, state, seat: int) -> View:
        """What `seat` may see of `state`: its own hand and everything public; the other
        cards only as counts per hidden place (API.md, "A View")."""
        raise NotImplementedError

    def sample(self, view: View, rng: random.Random):
        """A whole state that `seat` could be in: the hidden cards dealt at random among
        the hidden places, respecting the counts and every constraint the view reveals
        (cards shown, suits a player is known to lack), so that `observe(sample(view),
        view.seat) == view`."""
        raise NotImplementedError

    def view_settlement(self, view: View) -> dict | None:
        """The settlement as the seat learns it when the deal ends: any sampled world gives
        the same one, since by then the hidden places can only hold the cards not seen."""
        if view.phase != "over":
            return None
        return self.settlement(self.sample(view, random.Random(0)))


def placed(path: str, cards) -> list[tuple[str, int]]:
    """The cards of one pile with the field path of each: `hands.0.3`."""
    return [(f"{path}.{i}", c) for i, c in enumerate(cards)]


def repeat_problems(deck: Deck, path: str, cards) -> list[Problem]:
    """A list of cards that names one card twice, each repeat at its second place. For the
    lists outside a state's piles (Tarot's shown chien, a poignée): conservation counts
    the piles, and a list that is read as a set would otherwise drop a repeat unseen."""
    if len(set(cards)) == len(cards):
        return []
    seen: dict[int, str] = {}
    problems = []
    for where, card in placed(path, cards):
        if card in seen:
            problems.append(Problem(where, "card_twice", {"card": deck.codes[card],
                                                          "also": seen[card]}))
        else:
            seen[card] = where
    return problems


def conservation_problems(deck: Deck, piles, places: Callable[[], list[tuple[str, int]]]
                          ) -> list[Problem]:
    """Every card of the deck exactly once across a state's piles (D1, T1, G1).

    `piles` are the state's lists of card indices. A valid state passes on a count and a
    set of them; only one that fails pays for `places()`, (field path, card) for every card
    placed, a string built per card, which would otherwise be most of a mid-deal `build`.
    A duplicate is reported at its second place, the missing cards once at the state's
    root."""
    total = 0
    cards: set[int] = set()
    for pile in piles:
        total += len(pile)
        cards.update(pile)
    if total == len(cards) == len(deck):
        return []
    seen: dict[int, str] = {}
    problems = []
    codes = deck.codes
    for where, card in places():
        if card in seen:
            problems.append(Problem(where, "card_twice", {"card": codes[card],
                                                          "also": seen[card]}))
        else:
            seen[card] = where
    if len(seen) < len(deck):
        missing = [codes[c] for c in range(len(deck)) if c not in seen]
        problems.append(Problem("", "cards_missing", {"count": len(missing),
                                                      "cards": missing}))
    return problems
