"""What one game looks like on this floor: its module (render/<game>.py) declares it in its
`DRAWING`, and render/registry.py finds it for each registered game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from render.layout import Layout
from render.words import Words
from rules.cards import Card, Deck
from rules.game import Game


@dataclass(frozen=True)
class Drawing:
    """`size`: a card's box, width and height. `scale`: the cards' scale on the table, the
    viewer's hand and the middle, then the other hands. `overlap`: the least step between
    the cards of a hand, in card widths (a rectangular card shows its index in its left
    corner, a round card its number in the middle). `face(card)`, `back()` and `defs()`: a
    card's SVG, a face-down card's, and the symbols they use. `layout(state, viewer,
    words)`: the table to draw from a state's (or a View's) JSON. `trump_badge(trump, x,
    y)`: the trump suit at a glance, for a game with a trump suit. `deck`: every card
    drawn, when the game's decks hold more than the one its GameInfo lists (Durak's 52,
    D16). `indices`: the letters a reader may choose for the courts' corners, by
    convention and rank (Durak's Cyrillic, English or French), and `suit_marks` the sign
    of each suit, which with an index writes a card as text in that convention ("Д♠")."""

    game: Game
    size: tuple[int, int]
    scale: tuple[float, float]
    overlap: float
    face: Callable[[Card], str]
    defs: Callable[[], str]
    back: Callable[[], str]
    layout: Callable[[dict, int | None, Words], Layout]
    trump_badge: Callable[[str, float, float], str] | None = None
    deck: Deck | None = None
    indices: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    suit_marks: Mapping[str, str] = field(default_factory=dict)

    @property
    def cards(self) -> Deck:
        """Every card this game's pictures may show."""
        return self.game.deck if self.deck is None else self.deck
