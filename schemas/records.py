"""Game records and the replay request as JSON (API.md, "Additions: Game records and replay").

A record is `{"game", "deal": DealRequest, "moves": [Move…]}`; a replay request is a
record's `deal` (or a `state`) and `moves`, with `include`. Both are built from each game's
own deal, state and move schemas, so a record's move is refused exactly where `/move`
would refuse it.
"""

from __future__ import annotations

from marshmallow import ValidationError, fields, validates_schema

from schemas.common import BaseSchema, ListOf, one_of
from schemas.fast import FastSchema
from schemas.game import GameSchemas

MAX_MOVES = 1000  # API.md: no deal of these games comes near it (Durak's longest ~125)
INCLUDE = ("final", "all")


class ReplayRequestSchema(BaseSchema):
    """Exactly one of `deal` and `state` to start from."""

    @validates_schema(skip_on_field_errors=True)
    def _one_start(self, data, **kwargs):
        if "deal" in data and "state" in data:
            message = "Give a deal or a state to start from, not both."
            raise ValidationError({"deal": [message], "state": [message]})
        if "deal" not in data and "state" not in data:
            raise ValidationError("A deal or a state to start from is required.")


def replay_request(schemas: GameSchemas) -> FastSchema:
    """`POST /v1/games/{game}/replay` for one game, with its fast path. A record's `game`
    may come along (it must name this game), so that a stored record is sent as it is."""
    move_request = schemas.requests["move"].schema
    state_schema = move_request.fields["state"].nested
    move_schema = move_request.fields["move"].nested
    deal_schema = type(schemas.requests["deal"].schema)
    return FastSchema(ReplayRequestSchema.from_dict({
        "game": one_of(schemas.game.id),
        "deal": fields.Nested(deal_schema),
        "state": fields.Nested(state_schema),
        # Its length checked before its moves (schemas/common.py's ListOf).
        "moves": ListOf(fields.Nested(move_schema), MAX_MOVES, required=True),
        "include": one_of(*INCLUDE),
    }, name="ReplayRequest")())
