"""Structural limits of a request body, checked before any schema loads it (issue 16).

No request body of API.md nests objects and lists more than MAX_DEPTH deep, counting the
body itself: the deepest is a Ganjifa state's captured Dukal, body > state > dukals > Dukal
> discards > discard > cards (tests/test_abuse.py finds it in seeded deals). A deeper body
is refused before a schema or the signature's canonical JSON sees it: either would recurse
once per level, and a value ~1,000 levels deep exhausts Python's recursion limit.

The walk goes level by level and never below MAX_DEPTH, so it costs one look at each value
of the first MAX_DEPTH levels; an empty object or list is not looked into, since it cannot
go deeper.
"""

from __future__ import annotations

MAX_DEPTH = 7
_CONTAINERS = frozenset({dict, list})


def _values(container):
    return container.values() if container.__class__ is dict else container


def too_deep(body, limit: int = MAX_DEPTH) -> tuple | None:
    """The path of the first object or list nested deeper than `limit` levels in `body` (a
    parsed JSON value, `body` itself at level 1), or None when there is none."""
    level = [body] if body.__class__ in _CONTAINERS else []
    for depth in range(1, limit + 1):
        inner = []  # the containers of the next level
        for container in level:
            values = _values(container)
            if not _CONTAINERS.isdisjoint(map(type, values)):  # skipped at C speed if none
                inner += [v for v in values if v.__class__ is dict or v.__class__ is list]
        if not inner:
            return None
        if depth == limit:
            return _path_below(body, limit)
        level = [v for v in inner if v]  # an empty one goes no deeper


def _path_below(body, limit: int) -> tuple | None:
    """The path of the first container below level `limit`, depth first (only walked for a
    body already known to be too deep)."""
    stack: list[tuple[tuple, object]] = [((), body)]
    while stack:
        path, value = stack.pop()
        if value.__class__ not in _CONTAINERS:
            continue
        if len(path) == limit:
            return path
        items = value.items() if value.__class__ is dict else enumerate(value)
        stack.extend(reversed([((*path, k), v) for k, v in items
                               if v.__class__ in _CONTAINERS]))
    return None
