"""The compiled fast path of request loading answers exactly as the marshmallow schema:
the same result for every well-formed body, and no result where the schema refuses."""

from __future__ import annotations

import contextlib
import copy
import random

import pytest
from marshmallow import Schema, ValidationError

from rules.ai import complete
from schemas.common import StrictInteger
from schemas.fast import Fallback, FastSchema
from schemas.registry import GAMES

JUNK = [None, "", "?", "6s", -1, 99, 1.5, True, [], {}, [None], ["ZZ"], {"x": 1}]


def bodies(game_id: str, rng: random.Random, count: int):
    """Request bodies taken from random deals: the state and a legal or illegal move."""
    schemas = GAMES[game_id]
    game = schemas.game
    produced = 0
    while produced < count:
        state = game.deal(rng)
        while (moves := game.legal_moves(state)) and produced < count:
            move = complete(rng.choice(moves), rng)
            yield {"state": schemas.dump_state(state), "move": schemas.dump_move(move)}
            produced += 1
            state = game.apply(state, move)


def places(body, every_item: bool = True) -> list[tuple]:
    """Every place of a JSON body as its path of keys and indices, the root `()` first.
    Without `every_item`, a list of more than three items is walked at its first, second
    and last: the loaders read a list's items by one rule, and a whole hand of every junk
    at every card would be most of the suite's time."""
    paths = []

    def walk(node, path):
        paths.append(path)
        children = node.items() if isinstance(node, dict) else (
            enumerate(node) if isinstance(node, list) else ())
        if not every_item and isinstance(node, list) and len(node) > 3:
            children = [(0, node[0]), (1, node[1]), (len(node) - 1, node[-1])]
        for k, v in children:
            walk(v, (*path, k))

    walk(body, ())
    return paths


def damaged(body, rng: random.Random):
    """The body with one random place deleted, replaced by junk, or given an extra key."""
    body = copy.deepcopy(body)
    path = rng.choice(places(body)[1:])
    parent = body
    for k in path[:-1]:
        parent = parent[k]
    what = rng.random()
    if what < 0.2 and isinstance(parent, dict):
        del parent[path[-1]]
    elif what < 0.3 and isinstance(parent, dict):
        parent["unexpected"] = 1
    else:
        parent[path[-1]] = rng.choice(JUNK)
    return body


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_fast_path_agrees_with_the_schema(game_id):
    loader = GAMES[game_id].requests["move"]
    assert loader.fast is not None
    rng = random.Random(5)
    refused = 0
    for body in bodies(game_id, rng, 300):
        assert loader.fast(body) == loader.schema.load(body)
        for _ in range(3):
            bad = damaged(body, rng)
            try:
                expected = loader.schema.load(bad)
            except ValidationError:
                refused += 1
                with pytest.raises((Fallback, ValidationError, TypeError, KeyError)):
                    loader.fast(bad)
            else:
                with contextlib.suppress(Fallback):
                    assert loader.fast(bad) == expected
    assert refused > 500  # the damage really produced bad bodies


def test_an_unknown_field_falls_back_to_the_schema_error():
    loader = GAMES["durak"].requests["state"]
    with pytest.raises(ValidationError) as e:
        loader.load({"state": {}, "extra": 1})
    assert "extra" in e.value.messages


# Every place of a body, replaced by each of these: bools where integers go (a bool is an
# int to isinstance), integers past any bound, unhashable or non-string card codes, None
# inside lists, floats equal to integers, lists too long for a hand.
EVERY_JUNK = [*JUNK, False, 0, 1, 2**64, -(2**63) - 1, 2**63, 1.0, 0.0, "durak", "defend",
              [[]], [{}], [1], [True], [["6S"]], {"6S": 1}, ["6S"] * 200, [None, None]]


def agree(loader, body):
    """The fast path answers as the schema, or not at all (any exception: the fallback)."""
    try:
        expected = loader.schema.load(copy.deepcopy(body))
    except ValidationError:
        expected = refused = object()
    else:
        refused = None
    try:
        got = loader.fast(body)
    except Exception:  # noqa: BLE001 - the fast path abstains, whatever the reason
        return
    assert expected is not refused, (body, got)
    assert got == expected


def request_bodies(game_id: str):
    """One well-formed body of each request (the state a few moves into a deal)."""
    schemas = GAMES[game_id]
    game = schemas.game
    rng = random.Random(3)
    state = game.deal(rng)
    for _ in range(6):
        if not (moves := game.legal_moves(state)):
            break
        state = game.apply(state, complete(rng.choice(moves), rng))
    dumped = schemas.dump_state(state)
    move = schemas.dump_move(complete(rng.choice(game.legal_moves(state)), rng))
    deal = {"seed": 7, "deck": list(game.deck.codes)}
    extra = {"dealer": 1, "period": "day"}
    for name in schemas.requests["deal"].schema.load_fields:
        if name in extra:
            deal[name] = extra[name]
    return {
        "deal": deal,
        "state": {"state": dumped},
        "move": {"state": dumped, "move": move},
        "ai": {"state": dumped, "seat": 0, "level": "basic", "seed": 5, "budget_ms": 20},
        "view": {"state": dumped, "seat": 1},
    }


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_place_of_every_request_with_every_junk(game_id):
    codes = list(GAMES[game_id].game.deck.codes)
    # A whole deck, and one card more than a deck: the longest card list, and one too long.
    junks = (*EVERY_JUNK, codes[0], codes, [*codes, codes[0]], "deleted", "extra key")
    for request, body in request_bodies(game_id).items():
        loader = GAMES[game_id].requests[request]
        assert loader.fast is not None and loader.source
        assert loader.fast(copy.deepcopy(body)) == loader.schema.load(copy.deepcopy(body))
        for path in places(body, every_item=False):
            for junk in junks:
                bad = copy.deepcopy(body)
                parent = bad
                for k in path[:-1]:
                    parent = parent[k]
                if junk == "extra key":
                    node = parent[path[-1]] if path else bad
                    if not isinstance(node, dict):
                        continue
                    node["unexpected"] = 1
                elif not path:
                    continue
                elif junk == "deleted":
                    if not isinstance(parent, dict):
                        continue
                    del parent[path[-1]]
                else:
                    parent[path[-1]] = copy.deepcopy(junk)
                agree(loader, bad)


@pytest.mark.parametrize("data", [None, [], "x", 1, {}, {"n": True}, {"n": 1.0}, {"n": 2**70}])
def test_a_body_that_is_not_an_object_or_not_well_formed_is_refused(data):
    loader = GAMES["durak"].requests["view"]
    with pytest.raises(ValidationError):
        loader.load(data)
    with pytest.raises(ValidationError):
        loader.load({"state": data, "seat": 0})


class Odd(StrictInteger):
    """A subclass with a check of its own, and no inline check."""

    def _deserialize(self, value, attr, data, **kwargs):
        value = super()._deserialize(value, attr, data)
        if value % 2 == 0:
            raise ValidationError("Must be odd.")
        return value


def test_a_subclass_checking_more_is_not_taken_for_its_parent():
    loader = FastSchema(Schema.from_dict({"n": Odd(required=True)})())
    assert loader.load({"n": 3}) == {"n": 3}
    with pytest.raises(ValidationError):
        loader.load({"n": 2})
