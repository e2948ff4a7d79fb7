"""Fields and helpers shared by every game's schemas."""

from __future__ import annotations

import json
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from rules.ai import LEVELS
from rules.cards import Deck
from rules.game import Game, Move, Template
from schemas.fast import FastSchema
from schemas.limits import MAX_MEMBERS

# API.md: ai-move's budget_ms, when absent and at most.
DEFAULT_BUDGET_MS, LONGEST_BUDGET_MS = 200, 10_000


class StrictInteger(fields.Integer):
    """An integer that is really one: no strings, floats or booleans."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Must be an integer.")
        return value

    def fast_load(self, v, const):  # the inline check of schemas/fast.py; a bool's class isn't int
        return f"{v} if {v}.__class__ is int else fallback()"


class OfType(fields.Field):
    """A value of one JSON type, taken as it is: `kind` says which, `message` the error."""

    kind: type = object
    message = ""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, self.kind):
            raise ValidationError(self.message)
        return value

    def fast_load(self, v, const):  # the inline check of schemas/fast.py
        return f"{v} if {v}.__class__ is {const(self.kind)} else fallback()"


class StrictBoolean(OfType):
    kind, message = bool, "Must be true or false."


class Bounded(StrictInteger):
    """An integer within [low, high], checked inline: a marshmallow validator object per
    field costs more than the whole check on the hot path."""

    def __init__(self, low: int, high: int, **kwargs):
        super().__init__(**kwargs)
        self.low, self.high = low, high

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int):
            # The range too: a JSON integer past 64 bits (a seed of 10**29) reaches here
            # parsed as a float.
            raise ValidationError(f"Must be an integer between {self.low} and {self.high}.")
        if not self.low <= value <= self.high:
            raise ValidationError(f"Must be between {self.low} and {self.high}.")
        return value

    def fast_load(self, v, const):  # the inline check of schemas/fast.py
        return (f"{v} if {v}.__class__ is int and {self.low!r} <= {v} <= {self.high!r} "
                "else fallback()")


class Seat(Bounded):
    """A seat of a table of at most `players` (a Bounded that openapi.yaml calls a seat)."""


def seat_field(players: int, **kwargs) -> Bounded:
    return Seat(0, players - 1, **kwargs)


def unknown_card(value: object) -> str:
    """What is wrong with a value that is no card code of the deck, said as JSON would
    write it (`null`, `12`, `"ZZ"`), never as Python's repr (`None`)."""
    if value is None:
        return "A card code is needed here, not null."
    if not isinstance(value, str):
        return f"Must be a card code (a string), not {json.dumps(value)[:40]}."
    return f"Unknown card code {json.dumps(value, ensure_ascii=False)[:40]}."


class CardCode(fields.Field):
    """One canonical card code of a deck, loaded as the card's index (a dict lookup)."""

    def __init__(self, deck: Deck, **kwargs):
        super().__init__(**kwargs)
        self.index = deck.index

    def _deserialize(self, value, attr, data, **kwargs):
        card = self.index.get(value) if isinstance(value, str) else None
        if card is None:
            raise ValidationError(unknown_card(value))
        return card

    def fast_load(self, v, const):  # the inline check of schemas/fast.py: a KeyError if unknown
        cards = const(self.index, "cards")
        return f"{cards}[{v}] if {v}.__class__ is str else fallback()"


class CardList(fields.Field):
    """A list of canonical card codes, loaded as a list of indices in one pass."""

    def __init__(self, deck: Deck, max_length: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.index = deck.index
        self.max_length = max_length if max_length is not None else len(deck)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ValidationError("Must be a list of card codes.")
        if len(value) > self.max_length:
            raise ValidationError(f"At most {self.max_length} cards.")
        index = self.index
        try:
            return [index[code] for code in value]  # the common case, at C speed
        except (KeyError, TypeError):
            pass
        out = []
        errors = {}
        for i, code in enumerate(value):
            card = index.get(code) if isinstance(code, str) else None
            if card is None:
                errors[i] = [unknown_card(code)]
            out.append(card)
        if errors:
            raise ValidationError(errors)
        return out

    def fast_load(self, v, const):
        # The inline check of schemas/fast.py: the common case above (map calls the lookup at C
        # speed), or a KeyError or TypeError.
        cards = const(self.index, "cards")
        return (f"[*map({cards}.__getitem__, {v})] "
                f"if {v}.__class__ is list and len({v}) <= {self.max_length!r} else fallback()")


class ListOf(fields.List):
    """A list of at most `max_length` items (exactly `equal`, if given), whose length is
    checked before its items: marshmallow's List loads every item before its validators
    run, so a 1 MiB list of bad items cost seconds of CPU and an error per item.
    The bound is the longest list a real state holds, as openapi.yaml's maxItems says; the
    Length stays a validator, so the fast path (schemas/fast.py) checks it inline."""

    def __init__(self, inner, max_length: int | None = None, equal: int | None = None,
                 **kwargs):
        self.length = validate.Length(max=max_length, equal=equal)
        super().__init__(inner, validate=self.length, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, list):
            self.length(value)
        return super()._deserialize(value, attr, data, **kwargs)


class BaseSchema(Schema):
    """Unknown fields are refused, so a misspelt field is named rather than ignored; an
    object of more members than any schema has is refused whole, before marshmallow names
    each unknown one in an error of its own (a 1 MiB object cost seconds)."""

    def _deserialize(self, data, *, error_store, **kwargs):
        if isinstance(data, dict) and len(data) > MAX_MEMBERS:
            error_store.store_error([f"Too many members: no object of a request has more "
                                     f"than {MAX_MEMBERS}."], index=kwargs.get("index"))
            return {}
        return super()._deserialize(data, error_store=error_store, **kwargs)


class Choice(fields.Field):
    """One of a fixed set of strings (a set lookup)."""

    def __init__(self, choices: tuple[str, ...], **kwargs):
        super().__init__(**kwargs)
        self.values = choices  # in the order they are listed
        self.choices = frozenset(choices)
        self.listed = ", ".join(choices)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or value not in self.choices:
            raise ValidationError(f"Must be one of: {self.listed}.")
        return value

    def fast_load(self, v, const):  # the inline check of schemas/fast.py
        choices = const(self.choices, "choices")
        return f"{v} if {v}.__class__ is str and {v} in {choices} else fallback()"


def one_of(*choices: str, **kwargs) -> Choice:
    return Choice(choices, **kwargs)


def described(name: str, field: fields.Field) -> dict[str, Any]:
    """A request field as GameInfo lists a deal's option, for a client to offer it (the
    command line's flags): its name, JSON type, bounds or choices, and description."""
    out: dict[str, Any] = {"name": name}
    if isinstance(field, Bounded):
        out.update(type="integer", minimum=field.low, maximum=field.high)
    elif isinstance(field, Choice):
        out.update(type="string", enum=list(field.values))
    elif isinstance(field, StrictBoolean):
        out["type"] = "boolean"
    else:
        raise TypeError(f"{name}: no description of a {type(field).__name__}")
    out["description"] = field.metadata.get("description", "")
    return out


class CardLists(fields.Field):
    """`count` lists of card codes (the hands of every seat), in one field; from `count` to
    `most` lists when the game deals for several counts of players (Tarot's T18)."""

    def __init__(self, deck: Deck, count: int, max_length: int | None = None,
                 most: int | None = None, **kwargs):
        super().__init__(**kwargs)
        self.count = count
        self.most = count if most is None else most
        self.inner = CardList(deck, max_length)
        lists = count if self.most == count else f"{count} to {self.most}"
        self.shape = f"Must be a list of {lists} lists of card codes."

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list) or not self.count <= len(value) <= self.most:
            raise ValidationError(self.shape)
        out, errors = [], {}
        for i, cards in enumerate(value):
            try:
                out.append(self.inner._deserialize(cards, attr, data))
            except ValidationError as e:
                errors[i] = e.messages
        if errors:
            raise ValidationError(errors)
        return out

    def fast_load(self, v, const):  # the inline check of schemas/fast.py
        if self.most != self.count:
            item = self.inner.fast_load("x", const)
            return (f"[{item} for x in {v}] if {v}.__class__ is list and "
                    f"{self.count} <= len({v}) <= {self.most} else fallback()")
        # One list display for a fixed count: no comprehension's frame.
        lists = ", ".join(self.inner.fast_load(f"{v}[{i}]", const) for i in range(self.count))
        return f"[{lists}] if {v}.__class__ is list and len({v}) == {self.count!r} else fallback()"


def flatten_errors(messages, path: tuple = ()) -> list[dict]:
    """marshmallow's nested error messages as a flat list of {field, pointer, message}."""
    out: list[dict] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            out.extend(flatten_errors(value, path if key == "_schema" else (*path, key)))
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        out.extend(error(path, m) for m in messages)
    elif isinstance(messages, list):
        for m in messages:
            out.extend(flatten_errors(m, path))
    else:
        out.append(error(path, str(messages)))
    return out


def error(field: str | tuple, message: str) -> dict:
    """One entry of a problem's `errors`: the field as a dotted path and as a JSON Pointer
    (RFC 6901, so a client's odd key such as "a/b" or "x.y" is still pointed at exactly)."""
    parts = tuple(field.split(".")) if isinstance(field, str) and field else (
        field if isinstance(field, tuple) else ())
    pointer = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    return {"field": ".".join(map(str, parts)), "pointer": pointer, "message": message}


CARD_KEYS = frozenset({"card", "attack", "defense"})
CARDS_KEYS = frozenset({"cards"})


def dump_move(deck: Deck, move: Move | Template) -> dict:
    all_codes = deck.codes
    if isinstance(move, Template):
        return {
            "seat": move.seat,
            "action": move.action,
            "count": move.count,
            "must_include": [all_codes[c] for c in move.must_include],
            "choose_from": [all_codes[c] for c in move.choose_from],
        }
    out: dict = {"seat": move.seat, "action": move.action}
    if move.card is not None:
        out["card"] = all_codes[move.card]
    if move.cards is not None:
        out["cards"] = [all_codes[c] for c in move.cards]
    if move.contract is not None:
        out["contract"] = move.contract
    if move.announce is not None:
        out["announce"] = move.announce
    return out


def dump_event(deck: Deck, event: dict) -> dict:
    """Events name cards by index inside the rules; on the wire by code."""
    all_codes = deck.codes
    out = {}
    for key, value in event.items():
        if key in CARD_KEYS and isinstance(value, int):
            value = all_codes[value]
        elif key in CARDS_KEYS:
            value = [all_codes[c] for c in value]
        out[key] = value
    return out


class Signature(OfType):
    kind, message = str, "Must be a string."


class StateSchema(BaseSchema):
    """Base of every game's state schema: `game` names the game and is then dropped, and a
    View's hidden cards ("?") are refused like any unknown code. A `signature` is checked
    by the service before loading (service/signing.py) and is no part of the rules' state."""

    signature = Signature()

    @post_load
    def _drop_game(self, data, **kwargs):
        data.pop("game", None)
        data.pop("signature", None)
        return data


class MoveSchema(BaseSchema):
    """Base of every game's move schema: loads as a rules Move."""

    @post_load
    def _move(self, data, **kwargs):
        if "cards" in data:
            data["cards"] = tuple(data["cards"])
        return Move(**data)


def request_schemas(game: Game, state_schema: type[Schema], move_schema: type[Schema],
                    deal_fields: dict) -> dict[str, FastSchema]:
    """The request bodies of API.md for one game, built once, each with its fast path. A
    seat is bounded by the game's largest count of players."""
    players = max(game.counts)
    state = fields.Nested(state_schema, required=True)
    seat = seat_field(players)
    schemas = {
        "deal": BaseSchema.from_dict(
            {
                "seed": Bounded(-(2**63), 2**63 - 1),
                "deck": CardList(game.all_cards),
                **deal_fields,
            },
            name="DealRequest",
        )(),
        "state": BaseSchema.from_dict({"state": state}, name="StateRequest")(),
        "move": BaseSchema.from_dict(
            {"state": state, "move": fields.Nested(move_schema, required=True)},
            name="MoveRequest",
        )(),
        "ai": BaseSchema.from_dict(
            {
                "state": state,
                "seat": seat,
                "level": one_of(*LEVELS),
                "seed": Bounded(-(2**63), 2**63 - 1),
                "budget_ms": Bounded(1, LONGEST_BUDGET_MS),
            },
            name="AiRequest",
        )(),
        "view": BaseSchema.from_dict(
            {"state": state, "seat": seat_field(players, required=True)}, name="ViewRequest"
        )(),
    }
    return {name: FastSchema(schema) for name, schema in schemas.items()}


def seated(fast: FastSchema, check_seats) -> FastSchema:
    """A request schema with `check_seats(data)`, the game's check of the seats a request
    names against its state's count, among its validators."""
    cls = type(fast.schema)
    checked = type(cls.__name__, (cls,), {"_seats": validates_schema(
        skip_on_field_errors=True)(lambda self, data, **kwargs: check_seats(data))})
    return FastSchema(checked())
