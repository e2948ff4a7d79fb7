"""A state read from its fields (`Durak.build`): the fields as the state schema loads them,
every rule block's checks of them, and the state they make."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from rules.durak import bout, checks, end
from rules.durak.cards import BOUT_LIMIT, SUITS
from rules.durak.history import history_problems
from rules.durak.options import CLASSIC, COUNTS, Setup, setup, setup_problems
from rules.durak.state import Bout, DurakState, State, named, next_in
from rules.game import UNSET, InvalidState, Problem

Table = list[tuple[int, int | None]]


class Fields(NamedTuple):
    """A state's fields as API.md's JSON state names them, cards as indices; the derived
    ones (`phase`, `to_act`, `result`, `defender`) UNSET when not given, checked when
    given. A field of no Durak state is refused by name (a TypeError), as by a signature."""

    trump: str
    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    attacker: int
    table: Table
    taking: bool
    phase: Any = UNSET
    to_act: Any = UNSET
    result: Any = UNSET
    transfer: bool = False
    throw_in: str = "all"
    first_bout: int = BOUT_LIMIT
    trump_card: int | None = None
    out: list[list[int]] | None = None
    defender: Any = UNSET
    known: list[list[int]] | None = None
    history: list[Bout] | None = None
    passed_on: list[int] | None = None


class Reading(NamedTuple):
    """What the piles and the deal's setup say, read once for every check after them."""

    players: int
    trump: int  # suit index into SUITS
    masks: tuple[int, ...]  # the hands, one bitmask a seat
    discard: int  # the discard pile's mask
    chosen: Setup
    out_mask: int  # the seats gone out (D23)
    defender: int  # the first player in after the attacker (D18)
    whole: bool  # the piles hold each card once (D1), so a history can be read against them


def read(f: Fields) -> tuple[Reading, list[Problem]]:
    """D1, D16, D23: the piles, the deal's setup and who went out, with the problems found;
    InvalidState at once where no later check could read the state (a count of players,
    an attacker, a setup out of range)."""
    players = len(f.hands)
    if players not in COUNTS:
        raise InvalidState([Problem("hands", "durak_players", {"players": players})])
    if not 0 <= f.attacker < players:
        raise InvalidState([Problem("attacker", "seat_range",
                                    {"seat": f.attacker, "players": players})])
    problems = [Problem("out", "durak_out_two")] if f.out is not None and players == 2 else []
    size, broken, masks, discard_mask = checks.pile_problems(f.hands, f.stock, f.discard,
                                                             f.table)
    problems += broken
    wrong_setup = setup_problems(players, size, f.throw_in, f.first_bout, "hands")
    if wrong_setup:  # the checks after this one read the deal's setup
        raise InvalidState(problems + wrong_setup)
    chosen = setup(players, size, bool(f.transfer), f.throw_in, f.first_bout,
                   f.known is not None, f.history is not None)
    out_mask = 0
    if players > 2:  # with two, going out ends the deal: the hands say who (D24)
        out_mask, found = checks.out_problems(f.hands, f.stock, f.table, f.attacker,
                                              out_lists(f))
        problems += found
    reading = Reading(players, SUITS.index(f.trump), masks, discard_mask, chosen, out_mask,
                      next_in(f.attacker, players, out_mask), not broken)
    return reading, problems


def out_lists(f: Fields) -> list[list[int]]:
    return [list(g) for g in f.out] if f.out is not None else []


def rule_problems(f: Fields, r: Reading) -> list[Problem]:
    """D2, D17: the trump; D4, D8-D10, D21: the table; D11: the discard pile; D5: the
    first attacker; D9, D12: the bout and how each seat began it; the cards everybody has
    seen in a hand."""
    problems = checks.trump_problems(r.trump, f.stock, f.trump_card, r.chosen.whole_deck_dealt)
    problems += checks.table_problems(r.trump, f.table, f.taking, r.chosen.transfer)
    problems += checks.discard_problems(r.trump, f.discard)
    problems += checks.first_attacker_problems(r.masks, f.stock, f.discard, f.table,
                                               f.attacker, r.trump, r.chosen.cards,
                                               out_lists(f))
    deal_over = r.players - r.out_mask.bit_count() <= 1 and not f.stock and not f.table
    if not deal_over:
        problems += checks.bout_problems(f.hands, f.stock, f.discard, f.attacker, r.defender,
                                         f.table, r.chosen)
    # With two, the hands say the deal ended (D14): a hand emptied by the last bout.
    ended = deal_over or r.players == 2 and not f.stock and not f.table and not all(f.hands)
    if (r.players > 2 or r.chosen.transfer) and not ended:
        problems += checks.start_problems(r.trump, f.hands, f.stock, f.discard, f.table,
                                          f.taking, f.attacker, r.defender, r.out_mask,
                                          r.chosen)
    if f.known is not None:
        problems += checks.known_problems(f.known, f.hands)
    if r.whole:  # the history is read against whole piles (D11)
        problems += history_problems(r.trump, f.history, f.passed_on, r.discard, f.table,
                                     f.attacker, r.chosen)
    return problems


def turn(f: Fields, r: Reading, pairs: tuple[tuple[int, int], ...]) -> tuple[str, int | None]:
    """The phase and the seat to act: derived with two players (D6, D7, D14); with more,
    the seat asked in the attack phase is a fact of the state, checked (D20)."""
    if r.players == 2:
        return bout.turn(r.masks, f.stock, f.attacker, pairs, f.taking)
    if not pairs and not f.stock and r.players - r.out_mask.bit_count() <= 1:
        return "over", None
    if bout.first_unbeaten(pairs) >= 0 and not f.taking:
        return "defend", r.defender
    acting = None if f.to_act is UNSET else f.to_act
    problems = checks.to_act_problems(acting, f.attacker, r.defender, r.players, r.out_mask,
                                      f.throw_in, bool(pairs))
    if problems:
        raise InvalidState(problems)
    return "attack", acting


def made(f: Fields, r: Reading) -> State:
    """The state the fields describe: the default deal's plain tuple, or a DurakState."""
    pairs = tuple([(a, -1 if d is None else d) for a, d in f.table])
    now, acting = turn(f, r, pairs)
    if r.chosen is CLASSIC:
        return (r.trump, r.masks, tuple(f.stock), r.discard, f.attacker, pairs, bool(f.taking),
                now, acting)
    groups = end.two_player_out(r.masks, now == "over") if r.players == 2 else \
        tuple(tuple(g) for g in out_lists(f))
    return DurakState(r.trump, r.masks, tuple(f.stock), r.discard, f.attacker, pairs,
                      bool(f.taking), now, acting, r.chosen, groups,
                      -1 if f.trump_card is None else f.trump_card,
                      None if f.known is None else tuple(tuple(k) for k in f.known),
                      None if f.history is None else tuple(f.history),
                      None if f.passed_on is None else tuple(f.passed_on))


def result_problems(f: Fields, state: State, defender_of: Callable[[State], int | None]
                    ) -> list[Problem]:
    """The derived `result` and `defender`, when given, agree with the state."""
    problems = []
    if f.result is not UNSET and f.result != end.result(named(state)):
        problems.append(Problem("result", "result"))
    if f.defender is not UNSET and f.defender != defender_of(state):
        problems.append(Problem("defender", "durak_defender",
                                {"now": defender_of(state), "given": f.defender}))
    return problems
