"""Any game's cards as SVG, each drawn by its game's `Drawing` (render/registry.py): faces,
backs and their symbols, placed on a table or as a picture of their own."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from html import escape

from render.art import num
from render.registry import DRAWINGS


@cache
def defs(game: str) -> str:
    return "<defs>" + DRAWINGS[game].defs() + "</defs>"


@cache
def back(game: str) -> str:
    return DRAWINGS[game].back()


@cache
def face(game: str, code: str, indices: str | None = None) -> str:
    """A card's face, its courts' corners in the convention `indices` names (the deck's
    own labels when None): drawn once per card, convention and process."""
    drawing = DRAWINGS[game]
    card = drawing.cards.cards[drawing.cards.index[code]]
    if indices is not None:
        card = replace(card, label=drawing.indices[indices].get(card.rank, card.label))
    return drawing.face(card)


def written(game: str, code: str, indices: str | None = None) -> str:
    """A card as text: its code, the very code a player types; in a convention of indices,
    as its corner reads, index and suit mark ("Д♠", "10♥")."""
    if indices is None:
        return code
    drawing = DRAWINGS[game]
    card = drawing.cards.cards[drawing.cards.index[code]]
    return drawing.indices[indices].get(card.rank, card.rank) + drawing.suit_marks[card.suit]


def card(game: str, code: str, x: float, y: float, scale: float = 1.0,
         rotate: float = 0, indices: str | None = None) -> str:
    """One card face up at (x, y), turned by `rotate` degrees about that corner, its code
    in `data-card` (what the tests collect)."""
    turn = f" rotate({num(rotate)})" if rotate else ""
    return (f'<g class="card" data-card="{escape(code)}" transform="translate({num(x)} '
            f'{num(y)}){turn} scale({num(scale)})">{face(game, code, indices)}</g>')


def card_back(game: str, x: float, y: float, scale: float = 1.0) -> str:
    return (f'<g class="back" transform="translate({num(x)} {num(y)}) scale({num(scale)})">'
            f"{back(game)}</g>")


def document(game: str, code: str | None, title: str, indices: str | None = None) -> str:
    """One card's picture as a whole SVG document: a face (its courts' corners in the
    convention `indices`), or the back when `code` is None."""
    w, h = DRAWINGS[game].size
    body = back(game) if code is None else face(game, code, indices)
    data = "" if code is None else f' data-card="{escape(code)}"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" role="img"{data}><title>{escape(title)}</title>'
            f"{defs(game)}{body}</svg>\n")
