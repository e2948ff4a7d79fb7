"""The three levels of API.md, "The AI": the move of one level for the seat of a view."""

from __future__ import annotations

import random

from rules.ai import random_move
from rules.ai.search import strong_move
from rules.game import Game, Move, View
from rules.registry import ai_of


def choose(game: Game, view: View, level: str, rng: random.Random, budget_ms: int,
           playouts: int | None = None) -> tuple[Move, str]:
    """The AI's move for `view.seat` and the level that chose it. `playouts` fixes the
    strong level's number of playouts instead of deriving it from `budget_ms`."""
    if level == "strong":
        return strong_move(game, view, rng, budget_ms, playouts), "strong"
    world = game.sample(view, rng)
    if level == "random":
        return random_move(game, world, view.seat, rng), "random"
    ai = ai_of(game)
    return (ai.level or ai.basic)(world, view.seat, rng), "basic"
