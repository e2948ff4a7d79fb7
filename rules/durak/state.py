"""Durak's state (rules/game.py's convention) and the seats' places at the table (D18)."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from rules.durak.options import CLASSIC, Setup


class Bout(NamedTuple):
    """A bout of the deal's history, as everybody saw it: its attacker at its end (after
    passing on, D21, the last who passed it on) and defender, the table as it ended, the
    cards passed on in the order laid, and whether the defender took (D10) or beat it off
    (D11)."""

    attacker: int
    defender: int
    table: tuple[tuple[int, int], ...]  # (attack, defence or -1 when taken unbeaten)
    passed: tuple[int, ...]
    taken: bool


class ClassicFields(NamedTuple):
    """A state of the default deal (two players, 36 cards, no option: D1–D15): the fields
    of API.md's JSON state, in its order. What a state of any other deal stores beside
    them (`DurakState`) is the same for every such state, so it is the class's, not a
    field: the default deal is the hot path of every random deal and search, where each
    field a state carries costs every move (bench/README.md, "instructions")."""

    trump: int  # suit index into SUITS
    hands: tuple[int, ...]  # bitmasks, one a seat
    stock: tuple[int, ...]  # drawing order; last is the turned-up card (D2)
    discard: int  # bitmask of the beaten-off cards, out of play (D11)
    attacker: int
    table: tuple[tuple[int, int], ...]  # (attack, defence or -1 while unbeaten)
    taking: bool  # the defender has declared take in this bout (D10)
    phase: str  # attack | defend | over
    to_act: int | None



class ClassicState(ClassicFields):
    """A state of the default deal with its fields' names, as `named` gives it; what any
    other deal stores beside its fields, as the class's constants."""

    __slots__ = ()

    setup: ClassVar[Setup] = CLASSIC
    out: ClassVar[tuple[tuple[int, ...], ...]] = ()  # with two players: from the hands
    trump_card: ClassVar[int] = -1
    known: ClassVar[tuple[tuple[int, ...], ...] | None] = None
    history: ClassVar[tuple[Bout, ...] | None] = None
    passed_on: ClassVar[tuple[int, ...] | None] = None


class DurakState(NamedTuple):
    """A state of any deal but the default one: the fields of API.md's JSON state, in its
    order: those of the two-player game first, then the deal's setup (D16: the count is
    `len(hands)`, the options the JSON's `transfer`, `throw_in`, `first_bout`), `out`,
    `trump_card`, `known`, `history` and `passed_on`. `defender` is derived from `attacker`
    and `out` where it is asked for (`defender_of`)."""

    trump: int  # suit index into SUITS
    hands: tuple[int, ...]  # bitmasks, one a seat
    stock: tuple[int, ...]  # drawing order; last is the turned-up card (D2)
    discard: int  # bitmask of the beaten-off cards, out of play (D11)
    attacker: int  # the bout's attacker (D18; after passing on, D21, the last who did)
    table: tuple[tuple[int, int], ...]  # (attack, defence or -1 while unbeaten)
    taking: bool  # the defender has declared take in this bout (D10)
    phase: str  # attack | defend | over
    to_act: int | None  # D20: in the attack phase, the seat of the round being asked
    setup: Setup
    out: tuple[tuple[int, ...], ...]  # D23, D25: who went out, one tuple a bout
    trump_card: int  # D17: the card shown when the hands took the whole deck, else -1
    known: tuple[tuple[int, ...], ...] | None  # cards each hand is seen to hold, if asked
    history: tuple[Bout, ...] | None  # the bouts played, if asked (docs/api.md)
    passed_on: tuple[int, ...] | None  # with `history`: the bout's cards passed on (D21)


# The default deal's state is a plain tuple of ClassicState's fields: CPython unpacks and
# builds exact tuples on a fast path that no tuple subclass takes, twice a move of every
# random deal and search (bench/README.md, "instructions"). Whatever reads it by name asks
# `named` first; every other deal's state is a DurakState.
Plain = tuple[Any, ...]
Named = ClassicState | DurakState
State = Named | Plain

# The hot paths build a state from a tuple at C speed: a NamedTuple's own constructor is a
# Python function, a measurable share of a random deal.
new_state = tuple.__new__


def named(state: State) -> Named:
    """The state with its fields' names: the default deal's plain tuple as a ClassicState,
    any other as it is."""
    if state.__class__ is tuple:
        return new_state(ClassicState, state)
    return state  # type: ignore[return-value]  # a ClassicState or a DurakState


def plain(state: State) -> State:
    """The state as the rules keep it: a ClassicState as its plain tuple."""
    return tuple(state) if state.__class__ is ClassicState else state


def gone(out: tuple[tuple[int, ...], ...]) -> int:
    """The seats that went out (D23), as a mask."""
    m = 0
    for group in out:
        for s in group:
            m |= 1 << s
    return m


def next_in(seat: int, players: int, out_mask: int) -> int:
    """D18: the first player in after `seat` (the seat itself when nobody else is in)."""
    s = seat
    for _ in range(players):
        s = (s + 1) % players
        if not out_mask >> s & 1:
            return s
    return seat


def defender_of(state: Named) -> int | None:
    """D18: the bout's defender, the first player in after its attacker; None once the
    deal is over."""
    if state.phase == "over":
        return None
    return next_in(state.attacker, len(state.hands), gone(state.out))


def round_of(attacker: int, defender: int, players: int, out_mask: int, throw_in: str
             ) -> tuple[int, ...]:
    """D19, D20: the seats asked to add, in order: the attacker, then each thrower in seat
    order after the attacker (with `neighbours`, only the first player in after the
    defender)."""
    if throw_in == "neighbours":
        neighbour = next_in(defender, players, out_mask)
        return (attacker,) if neighbour == attacker else (attacker, neighbour)
    seats = [attacker]
    for k in range(1, players):
        s = (attacker + k) % players
        if s != defender and not out_mask >> s & 1:
            seats.append(s)
    return tuple(seats)
