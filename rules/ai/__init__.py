"""AI players. Every level decides from what its seat may see (API.md, "The AI")."""

from __future__ import annotations

import random

from rules.ai import durak, ganjifa, tarot
from rules.game import Game, Move, Template

LEVELS = ("random", "basic", "strong")
BASIC = {"durak": durak.basic_move, "tarot": tarot.basic_move, "ganjifa": ganjifa.basic_move}


def complete(move: Move | Template, rng: random.Random) -> Move:
    """A concrete move from a listed one: a template becomes a uniform random choice."""
    return move.sample(rng) if isinstance(move, Template) else move


def random_move(game: Game, state, seat: int, rng: random.Random) -> Move:
    moves = [m for m in game.legal_moves(state) if m.seat == seat]
    return complete(rng.choice(moves), rng)


def choose(game: Game, state, seat: int, level: str, rng: random.Random,
           budget_ms: int) -> tuple[Move, str]:
    """The AI's move for `seat` and the level that chose it."""
    if level == "random":
        return random_move(game, state, seat, rng), "random"
    # The strong level arrives with its own issue; until then basic plays and says so.
    return BASIC[game.id](state, seat, rng), "basic"
