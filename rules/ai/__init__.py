"""AI players, fair by construction: every level receives only the view of its seat
(API.md, "The AI"), never the state. Random and basic act on a world sampled from the view,
so their choice depends on what the seat sees and the seeded rng alone; strong searches
over many such worlds (rules/ai/search.py). `choose` (rules/ai/levels.py) plays a level.

This package's own module names no game: each game's settings come from the registry
(rules/registry.py), which imports the games' AI modules beside this one."""

from __future__ import annotations

import random

from rules.game import Game, Move, Template

LEVELS = ("random", "basic", "strong")


def complete(move: Move | Template, rng: random.Random) -> Move:
    """A concrete move from a listed one: a template becomes a uniform random choice."""
    return move.sample(rng) if isinstance(move, Template) else move


def random_move(game: Game, state, seat: int, rng: random.Random) -> Move:
    moves = [m for m in game.legal_moves(state) if m.seat == seat]
    return complete(rng.choice(moves), rng)

