"""What the tests of every game share; one module per game beside it, each found through
tests/support/games.py."""

from __future__ import annotations


def round_trip(schemas, state):
    """A state dumped to JSON and loaded back is the same state."""
    loaded = schemas.requests["state"].load({"state": schemas.dump_state(state)})
    return schemas.game.build(**loaded["state"])
