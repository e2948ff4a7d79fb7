"""G9: the settlement, one point a captured card."""

from __future__ import annotations

from rules.ganjifa.cards import PLAYERS
from rules.ganjifa.state import GanjifaState


def _settlement(state: GanjifaState) -> dict:
    return settlement_of([c.bit_count() for c in state.captured])


def settlement_of(counts: list[int]) -> dict:
    """G9 from the cards each seat captured: one point per card; every seat on the highest
    score wins. Two seats may share it; all three never do, since captures come in threes
    (G7, G8) and 40 is not a multiple of three."""
    best = max(counts)
    return {"captured": counts, "scores": list(counts),
            "winners": [s for s in range(PLAYERS) if counts[s] == best]}
