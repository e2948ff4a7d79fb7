"""AI players, fair by construction: every level receives only the view of its seat
(API.md, "The AI"), never the state. Random and basic act on a world sampled from the view,
so their choice depends on what the seat sees and the seeded rng alone; strong searches
over many such worlds (rules/ai/search.py)."""

from __future__ import annotations

import random

from rules.ai import settings
from rules.ai.search import strong_move
from rules.game import Game, Move, Template, View

LEVELS = ("random", "basic", "strong")


def complete(move: Move | Template, rng: random.Random) -> Move:
    """A concrete move from a listed one: a template becomes a uniform random choice."""
    return move.sample(rng) if isinstance(move, Template) else move


def random_move(game: Game, state, seat: int, rng: random.Random) -> Move:
    moves = [m for m in game.legal_moves(state) if m.seat == seat]
    return complete(rng.choice(moves), rng)


def choose(game: Game, view: View, level: str, rng: random.Random, budget_ms: int,
           playouts: int | None = None) -> tuple[Move, str]:
    """The AI's move for `view.seat` and the level that chose it. `playouts` fixes the
    strong level's number of playouts instead of deriving it from `budget_ms`."""
    if level == "strong":
        return strong_move(game, view, rng, budget_ms, playouts), "strong"
    world = game.sample(view, rng)
    if level == "random":
        return random_move(game, world, view.seat, rng), "random"
    return settings.of(game).basic(world, view.seat, rng), "basic"
