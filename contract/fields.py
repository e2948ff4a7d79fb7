"""The marshmallow schemas of schemas/ as the JSON Schemas of openapi.yaml, through apispec's
MarshmallowPlugin: what apispec reads of marshmallow's own fields (Nested, List, Dict and
their validators) it converts itself; this module says what the fields of schemas/common.py
are (a card code of a game's deck, a seat, one of a few strings, a bounded integer).

A schema of one game is converted for that game (`Converter(game_id)`): its cards and seats
are that game's components (`DurakCard`, `DurakSeat`); a request of every game (`None`)
names any game's (`Card`, `Seat`).
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, fields

from schemas import common
from schemas.registry import GAMES

REF = "#/components/schemas/"
_decks = {id(schemas.game.all_cards.index): game_id for game_id, schemas in GAMES.items()}


def ref(name: str) -> dict:
    return {"$ref": REF + name}


def title(game_id: str | None) -> str:
    return "" if game_id is None else game_id.title()


def nullable(schema: dict, field: fields.Field) -> dict:
    """`schema`, or null where the field allows it, as the document writes it."""
    return {"oneOf": [schema, {"type": "null"}]} if field.allow_none else schema


def in_order(schema: dict) -> dict:
    """apispec sorts `required`: here in the order of the properties, as the schema's."""
    if "required" in schema:
        required = set(schema["required"])
        schema["required"] = [name for name in schema["properties"] if name in required]
    return schema


class Converter:
    """marshmallow schemas of one game (or of every game) as JSON Schemas."""

    def __init__(self, game_id: str | None, names: dict[type, str],
                 enums: dict[tuple[str, ...], str]):
        self.game_id = game_id
        self.names = names  # nested schema classes not named by `_name`'s default
        self.enums = enums  # the component name of a list of values
        plugin = MarshmallowPlugin(schema_name_resolver=self._name)
        self.spec = APISpec("contract", "0", "3.1.0", plugins=[plugin])
        converter = plugin.converter
        assert converter is not None  # set by the APISpec the plugin was given to
        self.converter = converter
        # apispec calls an attribute function as a method of its converter.
        self.converter.add_attribute_function(
            lambda _converter, field, **kwargs: self._ours(field, **kwargs))

    def _name(self, schema: Schema | type[Schema]) -> str:
        """The component name of a nested schema: the one `names` gives it, or its game's
        title and its class's name (a new game's `TrickEntry` is `<Game>TrickEntry`)."""
        cls = schema if isinstance(schema, type) else type(schema)
        return self.names.get(cls) or f"{title(self.game_id)}{cls.__name__}"

    def schema(self, schema: Schema | type[Schema]) -> dict:
        """The JSON Schema of a marshmallow schema, its nested schemas as references, its
        required fields in the order it declares them."""
        return in_order(self.converter.schema2jsonschema(schema))

    def components(self) -> dict[str, dict]:
        """The nested schemas the conversions so far referred to, by name."""
        made = self.spec.to_dict().get("components", {}).get("schemas", {})
        return {name: in_order(schema) for name, schema in made.items()}

    def card(self) -> dict:
        return ref(f"{title(self.game_id)}Card" if self.game_id else "Card")

    def seat(self) -> dict:
        return ref(f"{title(self.game_id)}Seat" if self.game_id else "Seat")

    def _ours(self, field: fields.Field, ret: dict | None = None, **kwargs: Any) -> dict:
        """The JSON Schema of one of schemas/common.py's fields (apispec's attribute
        function: what it returns replaces the keys apispec found); {} for another."""
        own = self._field(field)
        if own is None:
            return {}
        if ret is not None:  # apispec's guesses for an unknown field class: none of them
            for key in ("type", "items", "additionalProperties"):
                ret.pop(key, None)
        return nullable(own, field) if "oneOf" not in own else own

    def _field(self, field: fields.Field) -> dict | None:
        if isinstance(field, common.Choice):
            choices = field.listed.split(", ")
            if tuple(choices) in self.enums:
                return ref(self.enums[tuple(choices)])
            return {"const": choices[0]} if len(choices) == 1 and field.required else \
                {"type": "string", "enum": choices}
        if isinstance(field, common.Seat):
            return self.seat()
        if isinstance(field, common.Bounded):
            return {"type": "integer", "minimum": field.low, "maximum": field.high}
        if isinstance(field, common.StrictInteger):
            return {"type": "integer"}
        if isinstance(field, common.CardCode):
            return self.card()
        if isinstance(field, common.CardLists):
            lists = {"type": "array", "minItems": field.count, "maxItems": field.most,
                     "items": self._cards(field.inner)}
            if field.count == 0:
                del lists["minItems"]
            return lists
        if isinstance(field, common.CardList):
            return self._cards(field)
        if isinstance(field, common.StrictBoolean):
            return {"type": "boolean"}
        if isinstance(field, common.Signature):
            return {"type": "string"}
        return None

    def _cards(self, field: common.CardList) -> dict:
        return {"type": "array", "maxItems": field.max_length, "items": self.card()}
