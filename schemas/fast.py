"""The fast path of request loading: a marshmallow schema compiled into Python source.

marshmallow spends most of a request's validation time in its per-field machinery, not
in our checks. For a well-formed body the compiled loader runs the same checks, schema
validators and post-load hooks directly. On anything unexpected it gives up, and the
schema itself loads the body again, so every error message comes from marshmallow: one
definition of each shape, two speeds.

Even a closure per field cost more than the checks themselves (a call to the field's
loader, then to its `_deserialize`, then isinstance checks), so each schema is written
out once, at import, as the source of one function (like fastjsonschema does), with the
checks of our own fields inlined as expressions. A field class of schemas/common.py
describes its check with a method `fast_load(v, const)`: an expression of the loaded
value of the raw value `v` (a variable or an item of one: cheap to repeat), which raises
(`fallback()`, or a KeyError or TypeError of a lookup) on any doubt; `const(obj)` names
an object the expression refers to. The expression is only used for the very class that
defines `_deserialize`, so a subclass with checks of its own is never taken for its parent.

The source is kept on the FastSchema (`.source`) and shows in tracebacks and profiles.
"""

from __future__ import annotations

import linecache
from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, missing, validate

Loader = Callable[[Any], Any]


class Fallback(Exception):
    """The fast path cannot vouch for this body: let the schema load it."""


def fallback():
    """Raise Fallback from within an expression of the generated source."""
    raise Fallback


def _own_fast_load(field: fields.Field):
    """The field's `fast_load` if the class that defines its `_deserialize` defines it."""
    for cls in type(field).__mro__:
        if "_deserialize" in vars(cls):
            return getattr(field, "fast_load", None) if "fast_load" in vars(cls) else None
    return None


class _Source:
    """The source of one request schema's loader: a function per (nested) schema, and the
    namespace of the objects it refers to."""

    def __init__(self):
        self.namespace: dict[str, Any] = {"Fallback": Fallback, "fallback": fallback}
        self.names: dict[int, str] = {}  # id of a constant -> its name, one name each
        self.functions: list[str] = []
        self.items = 0  # list items named so far: x0, x1…

    def const(self, value, hint: str = "") -> str:
        """The name of `value` in the source (`hint` makes it telling)."""
        name = self.names.get(id(value))
        if name is None:
            name = f"{hint or type(value).__name__}_{len(self.names)}"
            self.names[id(value)] = name
            self.namespace[name] = value
        return name

    def field(self, field: fields.Field, v: str) -> str | None:
        """An expression of the field's loaded value from its raw value `v` (a variable, or an
        item of one), raising on any doubt; None if the field can't be compiled."""
        if field.load_default is not missing or field.pre_load or field.post_load:
            return None
        validators = list(field.validators)
        expr = self.checked(field, v, validators)
        if expr is None:
            return None
        if validators:
            # And returns its value, and runs the validators as the field does.
            expr = f"{self.const(validate.And(*validators), 'validate')}({expr})"
        if field.allow_none:
            expr = f"None if {v} is None else {expr}"
        return expr

    def checked(self, field: fields.Field, v: str, validators: list) -> str | None:
        """The field's own check of `v`, by its kind; the validators it checks inline are
        taken out of `validators`."""
        own = _own_fast_load(field)
        if own is not None:
            return own(v, self.const)
        if isinstance(field, fields.Nested):
            function = None if field.many else self.schema(field.schema)
            return None if function is None else f"{function}({v})"
        if isinstance(field, fields.List):
            return self.listed(field, v, validators)
        if isinstance(field, fields.Dict) and field.key_field is None and \
                field.value_field is None:
            return f"dict({v}) if {v}.__class__ is dict else fallback()"  # a copy, as Dict
        if type(field)._deserialize is not fields.Field._deserialize and \
                type(field).__module__.startswith("schemas."):
            # Our own fields without an inline check do all their checking in _deserialize;
            # None never reaches it in marshmallow.
            deserialize = self.const(field._deserialize, type(field).__name__)
            return f"fallback() if {v} is None else {deserialize}({v}, None, None)"
        return None

    def listed(self, field: fields.List, v: str, validators: list) -> str | None:
        """A list's items loaded one by one; its Length checked inline, with its type."""
        x = f"x{self.items}"
        self.items += 1
        item = self.field(field.inner, x)
        if item is None:
            return None
        # A Length of the loaded list is the raw list's.
        test = f"{v}.__class__ is list"
        for length in [val for val in validators if type(val) is validate.Length]:
            validators.remove(length)
            for bound, op in ((length.equal, "=="), (length.min, ">="), (length.max, "<=")):
                if bound is not None:
                    test += f" and len({v}) {op} {bound!r}"
        # An item loaded by one call (a nested schema's function) is best called by map.
        call = item.removesuffix(f"({x})")
        items = f"[*map({call}, {v})]" if call.isidentifier() else f"[{item} for {x} in {v}]"
        return f"{items} if {test} else fallback()"

    def schema(self, schema: Schema) -> str | None:
        """The name of the function loading `schema`, or None if it can't be compiled."""
        plan = _plan(schema)
        if plan is None:
            return None
        exprs = []
        for i, (_, _, field) in enumerate(plan):
            expr = self.field(field, f"v{i}")
            if expr is None:
                return None
            exprs.append(expr)
        function = f"load_{type(schema).__name__}_{len(self.functions)}"
        lines = [f"def {function}(d):", "    if d.__class__ is not dict:", "        raise Fallback",
                 *_loading(plan, exprs)]
        hooks = schema._hooks
        for name, _, _ in hooks.get("validates_schema", ()):
            hook = self.const(getattr(schema, name), name)
            lines.append(f"    {hook}(out, many=False, partial=None)")
        for name, _, _ in hooks.get("post_load", ()):
            hook = self.const(getattr(schema, name), name)
            lines.append(f"    out = {hook}(out, many=False, partial=None)")
        lines.append("    return out")
        self.functions.append("\n".join(lines) + "\n")  # after the schemas it nests
        return function


Plan = list[tuple[str, str, fields.Field]]


def _plan(schema: Schema) -> Plan | None:
    """Each field to load, as (name, key in the body, field); None if a hook or a field of
    the schema is beyond the fast path."""
    hooks = schema._hooks
    if schema.many or hooks.get("pre_load") or hooks.get("validates") or any(
        many or kw.get("pass_original") for tag in ("validates_schema", "post_load")
        for _, many, kw in hooks.get(tag, ())
    ):
        return None
    plan = [(name, field.data_key or name, field) for name, field in schema.load_fields.items()]
    # A field loaded under another name (`attribute`) or read from a key that another
    # field reads too is beyond it.
    if any(field.attribute for _, _, field in plan) or \
            len({key for _, key, _ in plan}) != len(plan):
        return None
    return plan


def _loading(plan: Plan, exprs: list[str]) -> list[str]:
    """The lines that load a body's fields into `out`. The leading required fields go in
    one dict display; the others, in field order as marshmallow, one by one. A missing
    required key is a KeyError: fallback."""
    lead = 0
    while lead < len(plan) and plan[lead][2].required:
        lead += 1
    lines = [f"    v{i} = d[{plan[i][1]!r}]" for i in range(lead)]
    lines.append("    out = {" + ", ".join(f"{plan[i][0]!r}: {exprs[i]}"
                                          for i in range(lead)) + "}")
    # Unknown keys: the body's keys are all known iff it has as many as the known keys it
    # has, counted on the way (cheaper than a set comparison).
    required = sum(field.required for _, _, field in plan)
    optional = len(plan) - required
    if optional:
        lines.append(f"    keys = {required}")
    for i in range(lead, len(plan)):
        name, key, field = plan[i]
        if field.required:
            lines += [f"    v{i} = d[{key!r}]", f"    out[{name!r}] = {exprs[i]}"]
        else:
            lines += [f"    if {key!r} in d:", f"        v{i} = d[{key!r}]",
                      f"        out[{name!r}] = {exprs[i]}", "        keys += 1"]
    lines += [f"    if len(d) != {'keys' if optional else required}:", "        raise Fallback"]
    return lines


def compile_loader(schema: Schema) -> tuple[Loader | None, str | None]:
    """The compiled fast path of `schema` and its source, or (None, None) if any of its
    fields or hooks is beyond it."""
    source = _Source()
    function = source.schema(schema)
    if function is None:
        return None, None
    text = "\n\n".join(source.functions)
    filename = f"<fast {type(schema).__name__} {id(schema):x}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), source.namespace)  # noqa: S102 - our own source
    return source.namespace[function], text


class FastSchema:
    """A schema with its compiled fast path; `load` answers exactly as `schema.load`."""

    __slots__ = ("schema", "fast", "source")

    def __init__(self, schema: Schema):
        self.schema = schema
        self.fast, self.source = compile_loader(schema)

    def load(self, data):
        if self.fast is not None:
            try:
                return self.fast(data)
            except Exception:  # noqa: BLE001 - any doubt: the schema decides, and explains
                pass
        return self.schema.load(data)
