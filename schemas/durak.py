"""Durak's state and move as JSON (API.md, "States: Durak")."""

from __future__ import annotations

from marshmallow import ValidationError, fields, post_load, validates_schema

from rules.durak import BOUT_LIMIT, DECK, GAME, HAND_SIZE, SUITS, DurakState
from schemas.common import (
    BaseSchema,
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
)
from schemas.game import GameSchemas
from schemas.views import HIDDEN, View, hide_hands, with_derived


class TableEntry(BaseSchema):
    attack = CardCode(DECK, required=True)
    defense = CardCode(DECK, required=True, allow_none=True)

    @post_load
    def _pair(self, data, **kwargs):
        return data["attack"], data["defense"]


class DurakStateSchema(StateSchema):
    game = one_of("durak", required=True)
    trump = one_of(*SUITS, required=True)
    hands = CardLists(DECK, 2, required=True)
    # D2: the stock is what the deal left over, the turned-up trump included.
    stock = CardList(DECK, required=True, max_length=len(DECK) - 2 * HAND_SIZE)
    discard = CardList(DECK, required=True)
    attacker = seat_field(2, required=True)
    table = ListOf(fields.Nested(TableEntry), BOUT_LIMIT, required=True)  # D9
    taking = StrictBoolean(required=True)
    phase = one_of("attack", "defend", "over")
    to_act = seat_field(2, allow_none=True)
    result = fields.Dict(allow_none=True)


class DurakMoveSchema(MoveSchema):
    seat = seat_field(2, required=True)
    action = one_of(*GAME.actions, required=True)
    card = CardCode(DECK)

    @validates_schema(skip_on_field_errors=True)
    def _card_when_needed(self, data, **kwargs):
        needs_card = data["action"] in ("attack", "defend")
        if needs_card and "card" not in data:
            raise ValidationError("A card is required for this action.", "card")
        if not needs_card and "card" in data:
            raise ValidationError("No card goes with this action.", "card")


# A table slot's defence is -1 while unbeaten: index -1 answers None.
CODE_OR_NONE = (*DECK.codes, None)


def dump_state(state: DurakState) -> dict:
    code = CODE_OR_NONE
    trump, hands, stock, discard, attacker, table, taking, phase, to_act = state
    return {
        "game": "durak",
        "trump": SUITS[trump],
        "hands": [DECK.codes_of(hands[0]), DECK.codes_of(hands[1])],
        "stock": [*map(code.__getitem__, stock)],
        "discard": DECK.codes_of(discard),
        "attacker": attacker,
        "table": [{"attack": code[a], "defense": code[d]} for a, d in table],
        "taking": taking,
        "phase": phase,
        "to_act": to_act,
        "result": GAME.settlement(state),
    }


REQUESTS = request_schemas(GAME, DurakStateSchema, DurakMoveSchema, {})


def dump_view(view: View) -> dict:
    """Hidden: the other hand, and the stock but its turned-up last card."""
    out = dump_state(view.public)
    hide_hands(out, view, GAME.players)
    out["stock"] = [HIDDEN] * view.hidden[2] + out["stock"]
    return with_derived(out, GAME, view)


SCHEMAS = GameSchemas(GAME, REQUESTS, dump_state, dump_view)
