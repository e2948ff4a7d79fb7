"""This floor's part of every game of the registry (rules/registry.py): how it is drawn."""

from __future__ import annotations

from render import durak, ganjifa, tarot
from render.drawing import Drawing
from rules.registry import floor

DRAWINGS: dict[str, Drawing] = floor(
    "render", (durak.DRAWING, tarot.DRAWING, ganjifa.DRAWING), lambda d: d.game)
