"""Few playouts for the tests that compare the strong level's moves."""

from __future__ import annotations

import pytest

from rules.game import Game
from rules.registry import ai_of

# With a tiny rate the strong level's playout count stays small however large the budget,
# and a budget of 10 s keeps its wall-clock guard out of the way: the move is then a
# function of the request alone, which is what the fairness tests compare.
FEW_PLAYOUTS = 0.0005


def few_playouts(mp: pytest.MonkeyPatch, game: Game) -> None:
    """The strong level's rate made tiny in Python and in the compiled core alike (a game
    the core plays reads the core's rate, rules/ai/search.py `playout_count`): otherwise a
    long budget buys millions of playouts, and the deadline, which depends on the machine's
    load, decides where the search stops."""
    ai = ai_of(game)
    mp.setattr(ai, "rate", FEW_PLAYOUTS)
    if ai.core is not None:
        mp.setattr(ai.core, "rate", FEW_PLAYOUTS)
