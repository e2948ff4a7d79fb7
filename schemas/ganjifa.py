"""Ganjifa's state and move as JSON (API.md, "States: Ganjifa"), and its game-info extras."""

from __future__ import annotations

from marshmallow import ValidationError, fields, post_load, validates_schema

from rules.ganjifa import (
    DECK,
    GAME,
    HAND_SIZE,
    PERIOD_OF,
    PERIODS,
    RANK_ORDER,
    SUIT_OF,
    SUITS,
    Dukal,
    GanjifaState,
)
from schemas.common import (
    BaseSchema,
    CardCode,
    CardList,
    CardLists,
    ListOf,
    MoveSchema,
    StateSchema,
    one_of,
    request_schemas,
    seat_field,
)
from schemas.game import GameSchemas
from schemas.views import View, hide_hands, with_derived

PLAYERS = GAME.players
SUIT_SIZE = len(DECK) // len(SUITS)  # G8: a Dukal is cards of one suit


class TrickEntry(BaseSchema):
    seat = seat_field(PLAYERS, required=True)
    card = CardCode(DECK, required=True)

    @post_load
    def _pair(self, data, **kwargs):
        return data["seat"], data["card"]


class DiscardEntry(BaseSchema):
    seat = seat_field(PLAYERS, required=True)
    cards = CardList(DECK, required=True, max_length=SUIT_SIZE)

    @post_load
    def _pair(self, data, **kwargs):
        return data["seat"], data["cards"]


class DukalEntry(BaseSchema):
    """A Dukal waiting for its discards (G8)."""

    seat = seat_field(PLAYERS, required=True)
    cards = CardList(DECK, required=True, max_length=SUIT_SIZE)
    discards = ListOf(fields.Nested(DiscardEntry), PLAYERS - 1, required=True)


class CompletedTrick(BaseSchema):
    """A trick of the deal's history: its three plays in turn order, and its winner (G7)."""

    cards = ListOf(fields.Nested(TrickEntry), equal=PLAYERS, required=True)
    winner = seat_field(PLAYERS, required=True)

    @post_load
    def _pair(self, data, **kwargs):
        return data["cards"], data["winner"]


class GanjifaStateSchema(StateSchema):
    game = one_of("ganjifa", required=True)
    period = one_of(*PERIODS, required=True)
    hands = CardLists(DECK, PLAYERS, max_length=HAND_SIZE, required=True)
    captured = CardLists(DECK, PLAYERS, required=True)
    leader = seat_field(PLAYERS, required=True)
    trick = ListOf(fields.Nested(TrickEntry), PLAYERS, required=True)
    dukal = fields.Nested(DukalEntry, required=True, allow_none=True)
    # The deal's history (added to API.md's state; optional, both or neither): the
    # completed tricks and the captured Dukals, oldest first.
    tricks = ListOf(fields.Nested(CompletedTrick), HAND_SIZE)
    # A Dukal takes at least five cards from each hand (G8).
    dukals = ListOf(fields.Nested(DukalEntry), HAND_SIZE // 5)
    phase = one_of("play", "dukal", "over")
    to_act = seat_field(PLAYERS, allow_none=True)
    result = fields.Dict(allow_none=True)


class GanjifaMoveSchema(MoveSchema):
    seat = seat_field(PLAYERS, required=True)
    action = one_of(*GAME.actions, required=True)
    card = CardCode(DECK)
    # Any length is well-formed: a Dukal or a discard of the wrong size is an illegal move,
    # answered with its reason (G8), not a malformed one.
    cards = CardList(DECK)

    @validates_schema(skip_on_field_errors=True)
    def _fields_per_action(self, data, **kwargs):
        if data["action"] == "play":
            if "card" not in data:
                raise ValidationError("A card is required to play.", "card")
            if "cards" in data:
                raise ValidationError("A play is one card: use `card`.", "cards")
        else:
            if "cards" not in data:
                raise ValidationError("Cards are required for this action.", "cards")
            if "card" in data:
                raise ValidationError("This action takes `cards`, not `card`.", "card")


def _dukal(dukal: Dukal) -> dict:
    return {"seat": dukal.seat, "cards": DECK.codes_of(dukal.cards),
            "discards": [{"seat": (dukal.seat + 1 + j) % PLAYERS, "cards": DECK.codes_of(m)}
                         for j, m in enumerate(dukal.discards)]}


def _plays(all_codes, leader: int, cards) -> list[dict]:
    return [{"seat": (leader + i) % PLAYERS, "card": all_codes[c]} for i, c in enumerate(cards)]


def dump_state(state: GanjifaState) -> dict:
    all_codes = DECK.codes
    dukal = state.dukal
    out = {
        "game": "ganjifa",
        "period": PERIOD_OF[state.trump],
        "hands": [DECK.codes_of(h) for h in state.hands],
        "captured": [DECK.codes_of(c) for c in state.captured],
        "leader": state.leader,
        "trick": _plays(all_codes, state.leader, state.trick),
        "dukal": None if dukal is None else _dukal(dukal),
    }
    if state.tricks is not None:
        out["tricks"] = [{"cards": _plays(all_codes, leader, cards), "winner": winner}
                         for leader, cards, winner in state.tricks]
        out["dukals"] = [_dukal(d) for d in state.dukals or ()]
    out["phase"] = state.phase
    out["to_act"] = state.to_act
    out["result"] = GAME.settlement(state)
    return out


def extra_info(catalogue: dict[str, str]) -> dict:
    """G1–G3 as data for `GET /v1/games/ganjifa`: the avatar order (which wraps from Kalki
    to Matsya), each suit's avatar, emblem and rank order, and the trump of each period."""
    return {
        "avatar_order": list(SUITS),
        "avatars": [
            {"suit": code, **words_of(code, catalogue),
             "rank_order": list(RANK_ORDER["first" if i < 5 else "last"])}
            for i, code in enumerate(SUITS)
        ],
        "trumps": {period: SUITS[trump] for period, trump in PERIODS.items()},
    }


def extra_card(card: int, catalogue: dict[str, str]) -> dict:
    """G1: each card's avatar and emblem, beside the generic card fields."""
    return words_of(SUITS[SUIT_OF[card]], catalogue)


def words_of(suit: str, catalogue: dict[str, str]) -> dict:
    """A suit's avatar and emblem in a catalogue's words."""
    return {"avatar": catalogue[f"ganjifa.avatar.{suit}"],
            "emblem": catalogue[f"ganjifa.emblem.{suit}"]}


REQUESTS = request_schemas(GAME, GanjifaStateSchema, GanjifaMoveSchema,
                           {"period": one_of(*PERIODS, metadata={
                               "description": "the period, which sets the trump (G3)"})})


def dump_view(view: View) -> dict:
    """Hidden: the other two hands."""
    out = dump_state(view.public)
    hide_hands(out, view, GAME.players)
    return with_derived(out, GAME, view)


SCHEMAS = GameSchemas(GAME, REQUESTS, dump_state, dump_view, extra_info, extra_card)
