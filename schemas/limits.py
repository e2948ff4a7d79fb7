"""Structural limits of a request body, checked before any schema loads it.

No body holds more than MAX_VALUES values, counted on its bytes before it is parsed, as
its commas and opening brackets (one per value but the first of each object or list, one
per object or list): a 1 MiB body of `[{}, {}, …]` is 260,000 objects, which orjson builds
in tens of milliseconds and whose memory the worker keeps once they are freed. A real
state holds under 1,000 values, a replay's 1,000 moves some 5,000. Bytes inside strings
count too, but no real string holds a comma or a bracket.

No body nests objects and lists more than MAX_DEPTH deep, counting the body itself: the
deepest is a Ganjifa state's captured Dukal, body > state > dukals > Dukal > discards >
discard > cards (tests/test_abuse.py finds it in seeded deals). A deeper body is refused
before a schema or the signature's canonical JSON sees it: either would recurse once per
level, and a value ~1,000 levels deep exhausts Python's recursion limit. The depth is read
from the bytes too, at C speed (a walk of the parsed body in Python cost a Ganjifa state
several times its parsing): strings cut out, only brackets kept, the innermost pairs
removed once per level.

A body that orjson itself refuses while it is valid JSON (RFC 8259 sets no depth and no
range) is refused the same way, at the place: nested beyond orjson's own limit (1,024
levels), or holding a number that is infinite as a double (`1e400`). orjson says where it
stopped; `unreadable` walks the text up to there, a token at a time (at most MAX_VALUES of
them, counted before), to name the place as a path.

No object of a request has more than MAX_MEMBERS members either (a Tarot state, the
largest, has 17 with its signature): marshmallow names each unknown member in an error of
its own. The schemas check it (schemas/common.py's BaseSchema), object by object.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

MAX_DEPTH = 7
MAX_MEMBERS = 32
MAX_VALUES = 16_384
_CONTAINERS = frozenset({dict, list})
_BRACKETS_AS_PARENS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_NOT_BRACKETS_OR_QUOTES = bytes(sorted(set(range(256)) - set(b'[]{}"')))


def too_many_values(raw: bytes) -> bool:
    """More than MAX_VALUES values in a JSON text, at most: three scans at C speed."""
    return raw.count(b",") + raw.count(b"[") + raw.count(b"{") > MAX_VALUES


def too_deep(raw: bytes, body) -> tuple | None:
    """The path of the first object or list nested deeper than MAX_DEPTH levels in `body`,
    parsed from the valid JSON `raw`, or None when there is none."""
    nesting = _brackets(raw).translate(_BRACKETS_AS_PARENS)
    for _ in range(MAX_DEPTH):
        nesting = nesting.replace(b"()", b"")  # the innermost level
        if not nesting:
            return None
    return _first_too_deep(body)


def _brackets(raw: bytes) -> bytes:
    """The brackets of the valid JSON `raw` that are not inside a string, in order."""
    if b"\\" not in raw:
        # Brackets and quotes only: a string without brackets is then "", the common case.
        # If no quote is left once those are gone, no string held a bracket (a quote left
        # out of its pair would be left over).
        outside = raw.translate(None, _NOT_BRACKETS_OR_QUOTES).replace(b'""', b"")
        if b'"' not in outside:
            return outside
    # Escaped backslashes, then escaped quotes, go first: the quotes left delimit strings,
    # so that of the pieces between them every second one is a string's text.
    text = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    return b"".join(text.split(b'"')[::2]).translate(None, _NOT_BRACKETS)


def _first_too_deep(body) -> tuple:
    """The path of the first container below level MAX_DEPTH, depth first (walked only for
    a body known to be too deep)."""
    stack: list[tuple[tuple, Any]] = [((), body)]
    while stack:
        path, value = stack.pop()
        if len(path) == MAX_DEPTH:  # a container at level MAX_DEPTH + 1
            return path
        items = value.items() if value.__class__ is dict else enumerate(value)
        stack.extend(reversed([((*path, k), v) for k, v in items
                               if v.__class__ in _CONTAINERS]))
    raise AssertionError("the bytes said too deep, the body does not")


# A string, a structural character, or a run of anything else up to the next one of them.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]|[^\s\[\]{},:"]+|\s+')
_DEPTH_LIMIT = "depth limit exceeded"
_INFINITE = "number is infinity"


def unreadable(raw: bytes, e: orjson.JSONDecodeError) -> tuple[tuple, str] | None:
    """Where a JSON text orjson refused is valid all the same, and why: (path, "depth") for
    one nested beyond orjson's limit, the path of its first container deeper than
    MAX_DEPTH; (path, "number") for a number infinite as a double. None for a text that is
    not JSON at all."""
    message = str(e)
    kind = "depth" if _DEPTH_LIMIT in message else "number" if _INFINITE in message else None
    if kind is None:
        return None
    try:
        text = raw.decode()
        if kind == "number":  # valid but for that, as Python's parser (inf allowed) says
            json.loads(text)
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError included
        return None
    return _place(text, max(0, e.pos), kind)


def _place(text: str, end: int, kind: str) -> tuple[tuple, str] | None:
    """The path of the place the text reaches at `end` (for "depth", of its first container
    deeper than MAX_DEPTH), and `kind`; None for an object's key that is not JSON."""
    # Each frame: [its key or index, whether an object's next string is a key].
    frames: list[list] = []
    for token in _TOKEN.finditer(text, 0, end):
        first = token.group()[0]
        if first in "[{":
            if kind == "depth" and len(frames) == MAX_DEPTH:
                return tuple(f[0] for f in frames), kind
            frames.append([None, True] if first == "{" else [0, False])
        elif first in "]}":
            if frames:
                frames.pop()
        elif frames and not _stepped(frames[-1], first, token.group()):
            return None
    return tuple(f[0] for f in frames), kind


def _stepped(top: list, first: str, token: str) -> bool:
    """A token within a container: a comma moves on to the next index or key, and an
    object's key is read; False for a key that is not JSON."""
    if first == ",":
        if top[0].__class__ is int:
            top[0] += 1
        else:
            top[1] = True
    elif first == '"' and top[1]:
        try:
            top[0] = orjson.loads(token)
        except orjson.JSONDecodeError:
            return False
        top[1] = False
    return True
