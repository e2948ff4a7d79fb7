"""The tests' floor: each registered game's `TESTS` (tests/support/<game>.py)."""

from __future__ import annotations

from rules.registry import floor
from tests.support import durak, ganjifa, tarot
from tests.support.game import GameTests

TESTS: dict[str, GameTests] = floor(
    "tests", (durak.TESTS, tarot.TESTS, ganjifa.TESTS), lambda t: t.game)
