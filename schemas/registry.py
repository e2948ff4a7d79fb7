"""This floor's part of every game of the registry (rules/registry.py): each game's JSON
shapes beside its rules, what the service dispatches on."""

from __future__ import annotations

from rules.registry import floor
from schemas import durak, ganjifa, tarot
from schemas.game import GameSchemas

GAMES: dict[str, GameSchemas] = floor(
    "schemas", (durak.SCHEMAS, tarot.SCHEMAS, ganjifa.SCHEMAS), lambda s: s.game)
