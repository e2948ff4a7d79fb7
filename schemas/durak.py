"""Durak's state and move as JSON (API.md, "States: Durak", and its Additions: 2 to 6
players, 24/36/52 cards, passing)."""

from __future__ import annotations

from marshmallow import ValidationError, fields, post_load, validates_schema

from rules.durak import (
    ALL,
    BOUT_LIMIT,
    COUNTS,
    GAME,
    HAND_SIZE,
    INDICES,
    SUITS,
    Bout,
    DurakState,
    State,
    sorted_cards,
)
from rules.durak.options import FIRST_BOUT, THROW_IN, Setup
from schemas.common import (
    BaseSchema,
    Bounded,
    CardCode,
    CardList,
    CardLists,
    ListOf,
    MoveSchema,
    StateSchema,
    StrictBoolean,
    one_of,
    request_schemas,
    seat_field,
    seated,
)
from schemas.game import GameSchemas
from schemas.views import HIDDEN, View, with_derived

MOST = max(COUNTS)  # D16: seats are bounded by the largest table; the rules by the count


class TableEntry(BaseSchema):
    attack = CardCode(ALL, required=True)
    defense = CardCode(ALL, required=True, allow_none=True)

    @post_load
    def _pair(self, data, **kwargs):
        return data["attack"], data["defense"]


# The most bouts a deal's history holds: a bout takes two moves at least (a lead and a
# pass, or a take), and no deal comes near 1,000 moves (API.md, replay).
MOST_BOUTS = 500


class HistoryBout(BaseSchema):
    """A bout of the history (rules/durak/history.py)."""

    attacker = seat_field(MOST, required=True)
    defender = seat_field(MOST, required=True)
    table = ListOf(fields.Nested(TableEntry), BOUT_LIMIT, required=True)  # D9
    passed = CardList(ALL, required=True, max_length=BOUT_LIMIT)  # D21
    taken = StrictBoolean(required=True)  # D10, D11

    @post_load
    def _bout(self, data, **kwargs):
        table = tuple((a, -1 if d is None else d) for a, d in data["table"])
        return Bout(data["attacker"], data["defender"], table, tuple(data["passed"]),
                    data["taken"])


class DurakStateSchema(StateSchema):
    game = one_of("durak", required=True)
    trump = one_of(*SUITS, required=True)
    hands = CardLists(ALL, min(COUNTS), most=MOST, required=True)
    # D2, D17: the stock is what the deal left over, the turned-up trump included.
    stock = CardList(ALL, required=True, max_length=len(ALL) - 2 * HAND_SIZE)
    discard = CardList(ALL, required=True)
    attacker = seat_field(MOST, required=True)
    table = ListOf(fields.Nested(TableEntry), BOUT_LIMIT, required=True)  # D9
    taking = StrictBoolean(required=True)
    transfer = StrictBoolean()  # D21
    throw_in = one_of(*THROW_IN)  # D19
    first_bout = Bounded(min(FIRST_BOUT), max(FIRST_BOUT))  # D16
    trump_card = CardCode(ALL)  # D17
    out = ListOf(ListOf(seat_field(MOST), MOST), MOST)  # D23, D25
    defender = seat_field(MOST, allow_none=True)  # D18, derived
    known = CardLists(ALL, min(COUNTS), most=MOST)
    history = ListOf(fields.Nested(HistoryBout), MOST_BOUTS)
    passed_on = CardList(ALL, max_length=BOUT_LIMIT)  # D21, with `history`
    phase = one_of("attack", "defend", "over")
    to_act = seat_field(MOST, allow_none=True)
    result = fields.Dict(allow_none=True)


class DurakMoveSchema(MoveSchema):
    seat = seat_field(MOST, required=True)
    action = one_of(*GAME.actions, required=True)
    card = CardCode(ALL)

    @validates_schema(skip_on_field_errors=True)
    def _card_when_needed(self, data, **kwargs):
        needs_card = data["action"] in ("attack", "defend", "transfer")
        if needs_card and "card" not in data:
            raise ValidationError("A card is required for this action.", "card")
        if not needs_card and "card" in data:
            raise ValidationError("No card goes with this action.", "card")


# A table slot's defence is -1 while unbeaten: index -1 answers None.
CODE_OR_NONE = (*ALL.codes, None)
CODES = ALL.codes


def dump_state(state: State) -> dict:
    if not isinstance(state, DurakState):  # the default deal's plain tuple
        return dump_classic(state)
    (trump, hands, stock, discard, attacker, table, taking, phase, to_act, setup, out,
     trump_card, known, history, passed_on) = state
    code = CODE_OR_NONE
    if setup.cards == 52:  # its low ranks number after the 36-card deck: sorted here

        def listed(mask: int) -> list[str]:
            return [CODES[c] for c in sorted_cards(mask)]
    else:
        listed = ALL.codes_of
    body: dict = {
        "game": "durak",
        "trump": SUITS[trump],
        "hands": [listed(h) for h in hands],
        "stock": [*map(code.__getitem__, stock)],
        "discard": listed(discard),
        "attacker": attacker,
        "table": [{"attack": code[a], "defense": code[d]} for a, d in table],
        "taking": taking,
        **setup_fields(setup),
    }
    if trump_card >= 0:
        body["trump_card"] = CODES[trump_card]
    if setup.players > 2:
        body["out"] = [list(group) for group in out]
        body["defender"] = GAME.defender(state)
    if known is not None:
        body["known"] = [[CODES[c] for c in cards] for cards in known]
    if history is not None:
        body["history"] = [dump_bout(b) for b in history]
        body["passed_on"] = [CODES[c] for c in passed_on or ()]
    body.update(phase=phase, to_act=to_act, result=GAME.result(state))
    return body


def dump_classic(state: tuple) -> dict:
    """The default deal's plain tuple: two hands, 36 cards, no option."""
    code = CODE_OR_NONE
    trump, hands, stock, discard, attacker, table, taking, phase, to_act = state
    return {
        "game": "durak",
        "trump": SUITS[trump],
        "hands": [ALL.codes_of(hands[0]), ALL.codes_of(hands[1])],
        "stock": [*map(code.__getitem__, stock)],
        "discard": ALL.codes_of(discard),
        "attacker": attacker,
        "table": [{"attack": code[a], "defense": code[d]} for a, d in table],
        "taking": taking,
        "phase": phase,
        "to_act": to_act,
        "result": GAME.result(state),
    }


def setup_fields(setup: Setup) -> dict:
    """The deal's options that differ from the default, as the state's JSON names them."""
    body: dict = {}
    if setup.transfer:
        body["transfer"] = True
    if setup.throw_in != "all":
        body["throw_in"] = setup.throw_in
    if setup.first_bout != BOUT_LIMIT:
        body["first_bout"] = setup.first_bout
    return body


def dump_bout(b: Bout) -> dict:
    code = CODE_OR_NONE
    return {"attacker": b.attacker, "defender": b.defender,
            "table": [{"attack": code[a], "defense": code[d]} for a, d in b.table],
            "passed": [CODES[c] for c in b.passed], "taken": b.taken}


# Each option's description is GameInfo's (`options`), which the command line's flags say.
DEAL_FIELDS = {
    "players": Bounded(min(COUNTS), MOST),  # D16
    # D16: 24, 36 or 52, checked with the deck by the rules
    "cards": Bounded(24, 52, metadata={"description": "the deck: 24, 36 or 52 cards (D16)"}),
    "transfer": StrictBoolean(metadata={"description": "passing on (D21)"}),
    "throw_in": one_of(*THROW_IN, metadata={
        "description": "who may throw in besides the attacker (D19)"}),
    "first_bout": Bounded(min(FIRST_BOUT), max(FIRST_BOUT), metadata={
        "description": "the first bout's limit of attack cards (D16)"}),
    "known": StrictBoolean(metadata={
        "description": "the state lists the cards everyone has seen in each hand"}),
    "history": StrictBoolean(metadata={
        "description":
            "the state keeps the deal's bouts: who took, what was beaten off or passed on"}),
}


def _check_seats(data, **kwargs):
    """D16: a request's seats (`seat`, `move.seat`) among the seats of its state's count."""
    if "state" not in data:
        return
    players = len(data["state"]["hands"])
    errors: dict = {}
    message = [f"Must be between 0 and {players - 1}."]
    seat = data.get("seat")
    if isinstance(seat, int) and seat >= players:
        errors["seat"] = message
    moved = getattr(data.get("move"), "seat", None)
    if isinstance(moved, int) and moved >= players:
        errors["move"] = {"seat": message}
    if errors:
        raise ValidationError(errors)


REQUESTS = {name: seated(fast, _check_seats) for name, fast in request_schemas(
    GAME, DurakStateSchema, DurakMoveSchema, DEAL_FIELDS).items()}


def dump_view(view: View) -> dict:
    """Hidden: the cards of the other hands not known to everybody, and the stock but its
    turned-up last card. A hand shows its known cards, then a "?" for each other card."""
    out = dump_state(view.public)
    players = len(view.public.hands)
    for s in range(players):
        if s != view.seat:
            out["hands"][s] = out["hands"][s] + [HIDDEN] * view.hidden[s]
    out["stock"] = [HIDDEN] * view.hidden[players] + out["stock"]
    return with_derived(out, GAME, view)


def extra_info(catalogue: dict[str, str]) -> dict:
    """The letters each convention prints on the courts and aces, by rank (D1's Cyrillic
    among them): what a client writes a card as when its reader chose one, as the
    pictures draw it (`indices` of `render` and of a card's picture)."""
    return {"indices": {name: dict(letters) for name, letters in INDICES.items()}}


SCHEMAS = GameSchemas(GAME, REQUESTS, dump_state, dump_view, extra_info)
