"""The compiled fast path of request loading answers exactly as the marshmallow schema:
the same result for every well-formed body, and no result where the schema refuses."""

from __future__ import annotations

import contextlib
import copy
import random

import pytest
from marshmallow import ValidationError

from rules.ai import complete
from schemas.fast import Fallback
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


def damaged(body, rng: random.Random):
    """The body with one random place deleted, replaced by junk, or given an extra key."""
    body = copy.deepcopy(body)
    paths = []

    def walk(node, path):
        paths.append(path)
        children = node.items() if isinstance(node, dict) else (
            enumerate(node) if isinstance(node, list) else ())
        for k, v in children:
            walk(v, (*path, k))

    walk(body, ())
    path = rng.choice(paths[1:])
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
