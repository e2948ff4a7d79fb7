"""What the tests of every game share; one module per game beside it."""

from __future__ import annotations

import importlib


def support(game_id: str):
    """The game's test support module: tests/support/<game_id>.py."""
    return importlib.import_module(f"tests.support.{game_id}")


def round_trip(schemas, state):
    """A state dumped to JSON and loaded back is the same state."""
    loaded = schemas.requests["state"].load({"state": schemas.dump_state(state)})
    return schemas.game.build(**loaded["state"])
