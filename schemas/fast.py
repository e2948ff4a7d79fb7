"""The fast path of request loading: a marshmallow schema compiled into plain functions.

marshmallow spends most of a request's validation time in its per-field machinery, not
in our checks. For a well-formed body the compiled loader runs the same field checks
(the fields' own `_deserialize`), schema validators and post-load hooks directly. On
anything unexpected it gives up, and the schema itself loads the body again, so every
error message comes from marshmallow: one definition of each shape, two speeds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, missing

Loader = Callable[[Any], Any]


class Fallback(Exception):
    """The fast path cannot vouch for this body: let the schema load it."""


def _field_loader(field: fields.Field) -> Loader | None:
    if field.load_default is not missing:
        return None
    if isinstance(field, fields.Nested):
        inner = _schema_loader(field.schema)
        if inner is None or field.many:
            return None
        load = inner
    elif isinstance(field, fields.List):
        item = _field_loader(field.inner)
        if item is None:
            return None

        def load(value, item=item):
            if type(value) is not list:
                raise Fallback
            return [item(v) for v in value]
    elif isinstance(field, fields.Dict) and field.key_field is None and \
            field.value_field is None:
        def load(value):
            if type(value) is not dict:
                raise Fallback
            return value
    elif type(field)._deserialize is not fields.Field._deserialize and \
            type(field).__module__.startswith("schemas."):
        # Our own fields do all their checking in _deserialize.
        def load(value, deserialize=field._deserialize):
            return deserialize(value, None, None)
    else:
        return None
    if field.validators:
        validators = tuple(field.validators)

        def checked(value, load=load):
            out = load(value)
            for v in validators:
                v(out)
            return out
        return checked
    return load


def _schema_loader(schema: Schema) -> Loader | None:
    hooks = schema._hooks
    if hooks.get("pre_load") or any(
        many or kw.get("pass_original") for tag in ("validates_schema", "post_load")
        for _, many, kw in hooks.get(tag, ())
    ):
        return None
    plan = []
    for name, field in schema.load_fields.items():
        loader = _field_loader(field)
        if loader is None:
            return None
        plan.append((name, field.data_key or name, field.required, field.allow_none, loader))
    known = frozenset(key for _, key, *_ in plan)
    validators = [getattr(schema, name) for name, _, _ in hooks.get("validates_schema", ())]
    post_loads = [getattr(schema, name) for name, _, _ in hooks.get("post_load", ())]

    def load(data):
        if type(data) is not dict or not known.issuperset(data):
            raise Fallback
        out = {}
        for name, key, required, allow_none, loader in plan:
            if key in data:
                value = data[key]
                if value is None:
                    if not allow_none:
                        raise Fallback
                    out[name] = None
                else:
                    out[name] = loader(value)
            elif required:
                raise Fallback
        for validate in validators:
            validate(out, many=False, partial=None)
        for post_load in post_loads:
            out = post_load(out, many=False, partial=None)
        return out

    return load


class FastSchema:
    """A schema with its compiled fast path; `load` answers exactly as `schema.load`."""

    __slots__ = ("schema", "fast")

    def __init__(self, schema: Schema):
        self.schema = schema
        self.fast = _schema_loader(schema)

    def load(self, data):
        if self.fast is not None:
            try:
                return self.fast(data)
            except Exception:  # noqa: BLE001 - any doubt: the schema decides, and explains
                pass
        return self.schema.load(data)
