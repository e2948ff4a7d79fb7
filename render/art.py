"""SVG drawing helpers every game's cards use: numbers, text, symbols and the colours of
the paper and ink. Each game's cards are drawn in its module on this floor (render/<game>.py,
the French-suited ones sharing render/french.py), found through render/registry.py; a card is
drawn in its own box, its top left corner at the origin, and `Drawing.defs` holds the pips
and emblems its cards <use>, included once in every picture that draws cards."""

from __future__ import annotations

from html import escape

INK = "#1b1b1b"
RED = "#c62828"
PAPER = "#fffdf6"
GOLD = "#c9a227"
SERIF = "font-family=\"serif\""
SANS = "font-family=\"sans-serif\""


def num(x: float) -> str:
    """A coordinate as few characters as it needs, the same every time."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def text(x: float, y: float, content: str, size: float, fill: str = INK, anchor: str = "middle",
         weight: str = "normal", family: str = SANS, extra: str = "") -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" {family} fill="{fill}" '
            f'text-anchor="{anchor}"{bold}{extra}>{escape(content)}</text>')


def use(symbol: str, cx: float, cy: float, size: float, extra: str = "") -> str:
    h = size / 2
    return (f'<use href="#{symbol}" x="{num(cx - h)}" y="{num(cy - h)}" width="{num(size)}" '
            f'height="{num(size)}"{extra}/>')
