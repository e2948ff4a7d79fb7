"""Hostile bodies, shared by tests/test_abuse.py and the contract fuzz test: every
list field of every request schema, a value put anywhere in a body, bodies too big or too
deep for orjson.dumps to write, and valid mid-deal states to damage."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from marshmallow import Schema, fields

from rules.ai import complete
from schemas.common import CardList, CardLists
from schemas.registry import GAMES
from schemas.tarot import SCORE_SHEET
from service.body import MAX_BODY
from service.replay import REQUESTS as REPLAY

Path = tuple  # of str keys and int indices

# Which endpoint takes each request schema of schemas.registry.
ENDPOINTS = {"deal": "deal", "state": "legal-moves", "move": "move", "ai": "ai-move",
             "view": "view"}


def list_fields(schema: Schema, path: Path = ()) -> Iterator[Path]:
    """The path of every list field of `schema`, a list's item written as index 0."""
    for name, field in schema.load_fields.items():
        yield from _lists_in(field, (*path, field.data_key or name))


def _lists_in(field: fields.Field, path: Path) -> Iterator[Path]:
    if isinstance(field, CardLists):
        yield path
        yield (*path, 0)
    elif isinstance(field, CardList):
        yield path
    elif isinstance(field, fields.List):
        yield path
        yield from _lists_in(field.inner, (*path, 0))
    elif isinstance(field, fields.Nested):
        yield from list_fields(field.schema, path)


def every_list_field() -> Iterator[tuple[str, str, Path]]:
    """(game, endpoint, path) for every list field of every request body of the service."""
    for game_id, schemas in GAMES.items():
        seen: set[Path] = set()
        for name, request in schemas.requests.items():
            for path in list_fields(request.schema):
                # A State's fields once (through legal-moves), the others where they are.
                key = path if path[0] != "state" else ("state", *path[1:])
                if key not in seen:
                    seen.add(key)
                    yield game_id, ENDPOINTS[name], path
    for path in list_fields(SCORE_SHEET):
        yield "tarot", "settlement", path
    for game_id, request in REPLAY.items():
        for path in list_fields(request.schema):
            if path[0] not in ("state", "deal"):  # as in the other requests, seen above
                yield game_id, "replay", path


def place(body: dict, path: Path, value) -> dict:
    """`body` with `value` at `path`, the objects and lists on the way made when missing
    (a list with one object, an index being 0)."""
    node: Any = body
    for key, after in zip(path, path[1:], strict=False):
        child = node[key] if (node.__class__ is dict and key in node) or (
            node.__class__ is list and key < len(node)) else None
        want = list if isinstance(after, int) else dict
        if child.__class__ is not want or (want is list and not child):
            child = [{}] if want is list else {}
        node[key] = child
        node = child
    node[path[-1]] = value
    return body


MARK = "\u2063HOSTILE\u2063"  # a string no body holds, replaced by raw JSON


def raw_with(body: dict, path: Path, raw_value: bytes) -> bytes:
    """The JSON of `body` with the raw JSON `raw_value` at `path`: values orjson cannot
    write itself (nested deeper than 255 levels), in bodies of a chosen size."""
    text = orjson.dumps(place(body, path, MARK))
    return text.replace(orjson.dumps(MARK), raw_value, 1)


def nested(levels: int, leaf: bytes = b'"6S"') -> bytes:
    return b"[" * levels + leaf + b"]" * levels


def listing(body: dict, path: Path, count: int, item: bytes = b"{}") -> bytes:
    """`body` with, at `path`, a list of `count` times `item`."""
    return raw_with(body, path, b"[" + b",".join([item] * count) + b"]")


def filling(body: dict, path: Path, item: bytes = b"{}", size: int = MAX_BODY) -> bytes:
    """`body` with, at `path`, a list of `item` as long as fits in `size` bytes."""
    room = size - len(raw_with(body, path, b"[]"))
    count = (room + 1) // (len(item) + 1)
    return raw_with(body, path, b"[" + b",".join([item] * count) + b"]")


def base_body(game_id: str, endpoint: str, state: dict) -> dict:
    """A well-formed body for `endpoint` around a copy of `state`, for a hostile value to go
    in."""
    state = orjson.loads(orjson.dumps(state))
    bodies: dict[str, Callable[[], dict]] = {
        "deal": lambda: {},
        "legal-moves": lambda: {"state": state},
        "move": lambda: {"state": state, "move": {"seat": 0, "action": "play", "card": "x"}},
        "ai-move": lambda: {"state": state},
        "view": lambda: {"state": state, "seat": 0},
        "settlement": lambda: {"contract": "garde", "bouts": 1, "points": 40},
        "replay": lambda: {"state": state, "moves": []},
    }
    return bodies[endpoint]()


def every_count() -> list[tuple[str, int]]:
    """(game, count of players) for every registered game and every count it deals for."""
    return [(game_id, n) for game_id, schemas in sorted(GAMES.items())
            for n in schemas.game.counts]


def mid_deal_states(game_id: str, count: int, seed: int = 0,
                    players: int | None = None) -> list[dict]:
    """`count` states of seeded deals played part-way at random (the deal's end included),
    as JSON; dealt for `players` seats, or the game's default count."""
    schemas = GAMES[game_id]
    game = schemas.game
    # keywords of Game.deal's `**options: Any`
    options: dict[str, Any] = (
        {} if players is None or players == game.players else {"players": players})
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.deal(rng, **options)
        for _ in range(rng.randrange(0, 140)):
            legal = game.legal_moves(state)
            if not legal:
                break
            state = game.apply(state, complete(rng.choice(legal), rng))
        out.append(schemas.dump_state(state))
    return out


def card_lists(value, codes: frozenset[str], path: Path = ()) -> Iterator[Path]:
    """The path of every list of two card codes or more in a JSON value (a state)."""
    if value.__class__ is list and len(value) >= 2 and all(
            v.__class__ is str and v in codes for v in value):
        yield path
    if value.__class__ is dict:
        for k, v in value.items():
            yield from card_lists(v, codes, (*path, k))
    elif value.__class__ is list:
        for i, v in enumerate(value):
            yield from card_lists(v, codes, (*path, i))


def with_a_repeat(state: dict, path: Path, at: int = 1) -> dict:
    """A copy of `state` whose card list at `path` holds its first card again at `at`, in
    place of another (its length unchanged)."""
    state = orjson.loads(orjson.dumps(state))
    cards = state
    for key in path:
        cards = cards[key]
    cards[at] = cards[0]
    return state


class Trickling(io.RawIOBase):
    """A WSGI input that hands its body over a few bytes a read, as PEP 3333 allows."""

    def __init__(self, body: bytes, step: int = 3):
        self.body, self.step = body, step

    def read(self, size: int = -1) -> bytes:
        n = self.step if size < 0 else min(size, self.step)
        out, self.body = self.body[:n], self.body[n:]
        return out


class Failing(io.RawIOBase):
    """A WSGI input as gunicorn's reads a chunked body that breaks off: `read` raises."""

    def __init__(self, error: Exception):
        self.error = error

    def read(self, size: int = -1) -> bytes:
        raise self.error
