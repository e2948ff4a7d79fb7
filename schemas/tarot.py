"""French Tarot's state, move and score sheet as JSON (API.md, "States: Tarot",
"Settlements")."""

from __future__ import annotations

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from rules.tarot import (
    BIDS,
    CHIEN_SIZE,
    CONTRACTS,
    DECK,
    GAME,
    HAND_SIZE,
    PLAYERS,
    POIGNEE_VALUES,
    TRICKS,
    TarotState,
)
from schemas.common import (
    BaseSchema,
    CardCode,
    CardList,
    CardLists,
    ListOf,
    MoveSchema,
    StateSchema,
    StrictBoolean,
    StrictInteger,
    one_of,
    request_schemas,
    seat_field,
)
from schemas.views import HIDDEN, View, hide_hands, with_derived

CAMP_NAMES = ("taker", "defense")


class PlayEntry(BaseSchema):
    seat = seat_field(4, required=True)
    card = CardCode(DECK, required=True)

    @post_load
    def _pair(self, data, **kwargs):
        return data["seat"], data["card"]


class TrickEntry(BaseSchema):
    cards = ListOf(fields.Nested(PlayEntry), PLAYERS, required=True)
    winner = seat_field(4, required=True)

    @post_load
    def _pair(self, data, **kwargs):
        return data["cards"], data["winner"]


class PoigneeEntry(BaseSchema):
    seat = seat_field(4, required=True)
    cards = CardList(DECK, required=True, max_length=22)

    @post_load
    def _pair(self, data, **kwargs):
        return data["seat"], data["cards"]


class TarotStateSchema(StateSchema):
    game = one_of("tarot", required=True)
    dealer = seat_field(4, required=True)
    # T5: the taker holds the chien beside its hand until it discards.
    hands = CardLists(DECK, 4, HAND_SIZE + CHIEN_SIZE, required=True)
    chien = CardList(DECK, CHIEN_SIZE, required=True)
    chien_shown = CardList(DECK, CHIEN_SIZE, required=True)
    bids = ListOf(one_of(*BIDS), PLAYERS, required=True)  # T4: each seat bids once
    taker = seat_field(4, allow_none=True)
    contract = one_of(*CONTRACTS, allow_none=True)
    ecart = CardList(DECK, CHIEN_SIZE, required=True)
    chelem = StrictBoolean(required=True, allow_none=True)
    poignees = ListOf(fields.Nested(PoigneeEntry), PLAYERS, required=True)  # T8: once each
    trick = ListOf(fields.Nested(PlayEntry), PLAYERS, required=True)
    tricks = ListOf(fields.Nested(TrickEntry), TRICKS, required=True)
    phase = one_of("bidding", "discard", "chelem", "play", "over")
    to_act = seat_field(4, allow_none=True)
    result = fields.Dict(allow_none=True)


# Which field each action needs; every other optional field must be absent.
ACTION_FIELDS = {"bid": "contract", "discard": "cards", "chelem": "announce",
                 "poignee": "cards", "play": "card"}
OPTIONAL = ("contract", "cards", "announce", "card")


class TarotMoveSchema(MoveSchema):
    seat = seat_field(4, required=True)
    action = one_of(*GAME.actions, required=True)
    contract = one_of(*BIDS)
    cards = CardList(DECK)
    announce = StrictBoolean()
    card = CardCode(DECK)

    @validates_schema(skip_on_field_errors=True)
    def _fields_of_the_action(self, data, **kwargs):
        needed = ACTION_FIELDS[data["action"]]
        errors = {}
        for name in OPTIONAL:
            if name == needed and name not in data:
                errors[name] = [f"'{data['action']}' needs a {name}."]
            elif name != needed and name in data:
                errors[name] = [f"No {name} goes with '{data['action']}'."]
        if errors:
            raise ValidationError(errors)


class HalfPoints(fields.Field):
    """T13, T14: card points, 0 to 91, whole or ending in .5; loaded as half points."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValidationError("Must be a number.")
        # The range first: a huge float (1e308) doubles to infinity, which int() refuses.
        if not 0 <= value <= 91 or value * 2 != int(value * 2):
            raise ValidationError("Card points run from 0 to 91 in half points.")
        return int(value * 2)


class SheetPoignee(BaseSchema):
    camp = one_of(*CAMP_NAMES, required=True)
    level = one_of(*POIGNEE_VALUES, required=True)

    @post_load
    def _pair(self, data, **kwargs):
        return {"declared_by": data["camp"]}, data["level"]


class SheetChelem(BaseSchema):
    announced = StrictBoolean(required=True)
    made_by = one_of(*CAMP_NAMES, allow_none=True, load_default=None)


class ScoreSheetSchema(BaseSchema):
    """`POST /v1/games/tarot/settlement`: loads as the arguments of rules.tarot.score."""

    contract = one_of(*CONTRACTS, required=True)
    taker = seat_field(4, load_default=0)
    bouts = StrictInteger(required=True, validate=validate.Range(0, 3))
    points = HalfPoints(required=True)
    petit_au_bout = one_of(*CAMP_NAMES, allow_none=True, load_default=None)
    poignees = ListOf(fields.Nested(SheetPoignee), PLAYERS, load_default=list)
    chelem = fields.Nested(SheetChelem, allow_none=True, load_default=None)

    @post_load
    def _arguments(self, data, **kwargs):
        chelem = data.pop("chelem") or {"announced": False, "made_by": None}
        data["half_points"] = data.pop("points")
        data["chelem_announced"] = chelem["announced"]
        data["chelem_made_by"] = chelem["made_by"]
        return data


def _plays(all_codes, leader: int, cards) -> list[dict]:
    return [{"seat": (leader + j) % 4, "card": all_codes[c]} for j, c in enumerate(cards)]


def dump_state(state: TarotState) -> dict:
    all_codes = DECK.codes
    hands = state.hands
    return {
        "game": "tarot",
        "dealer": state.dealer,
        "hands": [DECK.codes_of(hands[0]), DECK.codes_of(hands[1]), DECK.codes_of(hands[2]),
                  DECK.codes_of(hands[3])],
        "chien": DECK.codes_of(state.chien),
        "chien_shown": DECK.codes_of(state.chien_shown),
        "bids": list(state.bids),
        "taker": state.taker,
        "contract": state.contract,
        "ecart": DECK.codes_of(state.ecart),
        "chelem": state.chelem,
        "poignees": [{"seat": s, "cards": DECK.codes_of(m)} for s, m in state.poignees],
        "trick": _plays(all_codes, state.leader, state.trick),
        "tricks": [{"cards": _plays(all_codes, leader, cards), "winner": winner}
                   for leader, cards, winner in state.tricks],
        "phase": state.phase,
        "to_act": state.to_act,
        "result": GAME.settlement(state),
    }


REQUESTS = request_schemas(GAME, TarotStateSchema, TarotMoveSchema, {"dealer": seat_field(4)})
SCORE_SHEET = ScoreSheetSchema()


def dump_view(view: View) -> dict:
    """Hidden: the other hands, a chien not shown, the non-trump part of the écart for a
    defender (its trumps were shown, T5)."""
    out = dump_state(view.public)
    hide_hands(out, view, GAME.players)
    out["chien"] = [HIDDEN] * view.hidden[4]
    out["ecart"] = out["ecart"] + [HIDDEN] * view.hidden[5]
    return with_derived(out, GAME, view)
