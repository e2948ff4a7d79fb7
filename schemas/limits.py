"""Structural limits of a request body, checked before any schema loads it (issue 16).

No request body of API.md nests objects and lists more than MAX_DEPTH deep, counting the
body itself: the deepest is a Ganjifa state's captured Dukal, body > state > dukals > Dukal
> discards > discard > cards (tests/test_abuse.py finds it in seeded deals). A deeper body
is refused before a schema or the signature's canonical JSON sees it: either would recurse
once per level, and a value ~1,000 levels deep exhausts Python's recursion limit.

No object of a request has more than MAX_MEMBERS members either (a Tarot state, the
largest, has 17 with its signature): marshmallow names each unknown member in an error of
its own, so a 1 MiB object of unknown members cost seconds and a 422 of megabytes.

And no body holds more than MAX_VALUES values, counted on its bytes before it is parsed,
as its commas and opening brackets (one per value but the first of each object or list,
one per object or list): a 1 MiB body of `[{}, {}, …]` is 260,000 objects, which orjson
builds in tens of milliseconds and whose memory the worker keeps once they are freed.
A real state holds under 1,000 values, a replay's 1,000 moves some 5,000. Bytes inside
strings count too, but no real string holds a comma or a bracket.

The walk goes level by level and never below MAX_DEPTH, so it costs one look at each value
of the first MAX_DEPTH levels; an empty object or list is not looked into, since it cannot
go deeper.
"""

from __future__ import annotations

from collections.abc import Callable

MAX_DEPTH = 7
MAX_MEMBERS = 32
MAX_VALUES = 16_384
_CONTAINERS = frozenset({dict, list})


def too_many_values(raw: bytes) -> bool:
    """More than MAX_VALUES values in a JSON text, at most: three scans at C speed."""
    return raw.count(b",") + raw.count(b"[") + raw.count(b"{") > MAX_VALUES


def misshapen(body) -> tuple[tuple, str] | None:
    """The path of the first object or list of `body` (a parsed JSON value, itself at level
    1) that breaks a structural limit, and what is wrong there; None when none does."""
    level = [body] if body.__class__ in _CONTAINERS else []
    for depth in range(1, MAX_DEPTH + 1):
        inner = []  # the containers of the next level
        for container in level:
            if container.__class__ is dict:
                if len(container) > MAX_MEMBERS:
                    return _first(body, _crowded), (f"Too many members: no object of a "
                                                    f"request has more than {MAX_MEMBERS}.")
                values = container.values()
            else:
                values = container
            if not _CONTAINERS.isdisjoint(map(type, values)):  # skipped at C speed if none
                inner += [v for v in values if v.__class__ is dict or v.__class__ is list]
        if not inner:
            return None
        if depth == MAX_DEPTH:
            return _first(body, _too_deep), (f"Nested too deep: no request nests objects and "
                                             f"lists more than {MAX_DEPTH} levels.")
        level = [v for v in inner if v]  # an empty one goes no deeper
    return None


def _crowded(path: tuple, value) -> bool:
    return value.__class__ is dict and len(value) > MAX_MEMBERS


def _too_deep(path: tuple, value) -> bool:
    return len(path) == MAX_DEPTH  # a container at level MAX_DEPTH + 1


def _first(body, wrong: Callable[[tuple, object], bool]) -> tuple:
    """The path of the first container of `body`, depth first and no deeper than one level
    below the limit, for which `wrong` holds (walked only once something is known wrong)."""
    stack: list[tuple[tuple, object]] = [((), body)]
    while stack:
        path, value = stack.pop()
        if wrong(path, value):
            return path
        if len(path) < MAX_DEPTH:
            items = value.items() if value.__class__ is dict else enumerate(value)
            stack.extend(reversed([((*path, k), v) for k, v in items
                                   if v.__class__ in _CONTAINERS]))
    raise AssertionError("no such container")  # the level walk found one
