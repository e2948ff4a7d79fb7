"""Pictures and text of a state (API.md, "Pictures and text of a state"): pure drawing,
no web imports. Each takes a state's JSON, or a View's JSON with the viewing seat, and the
words of one language; the same input always gives the same output."""

from __future__ import annotations

from render.layout import Layout
from render.registry import DRAWINGS
from render.svg import svg
from render.text import text
from render.words import Words

__all__ = ["Words", "render_svg", "render_text"]


def layout_of(game: str, state: dict, viewer: int | None, words: Words) -> Layout:
    """The table of `state` (a View when `viewer` is a seat, else the whole state)."""
    return DRAWINGS[game].layout(state, viewer, words)


def render_text(game: str, state: dict, viewer: int | None, words: Words) -> str:
    """The table as text that fits an 80-column terminal."""
    return text(layout_of(game, state, viewer, words), words)


def render_svg(game: str, state: dict, viewer: int | None, words: Words) -> str:
    """The table as a self-contained SVG picture."""
    return svg(layout_of(game, state, viewer, words), words)
