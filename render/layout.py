"""A state (or one seat's View) as a table to draw: the same facts for the picture and the
text, read once from the state's JSON (API.md, "States"; a View writes hidden cards "?").

What is drawn card by card: the hands, the bout or trick in progress, the turned-up trump
card, the chien and the écart where they are set aside, the poignées, a pending Dukal.
What is drawn as a count: the stock under its turned-up card, Durak's discard, the tricks
and captured piles, and every card hidden from the viewer."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from render.words import Words

HIDDEN = "?"


class Slot(NamedTuple):
    """One card laid out in the middle, with the card laid across it (Durak's defence) and a
    caption (whose card it is)."""

    card: str
    over: str | None = None
    caption: str = ""


class Row(NamedTuple):
    """Cards laid out together in the middle of the table, and a face-down count."""

    place: str  # the state's field the cards are in: "table", "trick", "chien"…
    title: str
    slots: tuple[Slot, ...]
    hidden: int = 0


class Seat(NamedTuple):
    seat: int
    title: str  # "Seat 1 · defender"
    cards: tuple[str, ...]  # the cards the viewer may see, in the state's order
    hidden: int  # cards face down
    notes: tuple[str, ...]  # captured piles, tricks won
    to_act: bool
    viewer: bool
    won: int  # the size of the seat's pile of won cards (tricks or cards, as its notes say)


class Pile(NamedTuple):
    """Cards out of play, drawn as a count."""

    place: str
    title: str
    size: int


class Layout(NamedTuple):
    game: str
    title: str
    status: str  # the phase and whose turn it is
    facts: tuple[str, ...]  # trump, stock, contract…
    seats: tuple[Seat, ...]  # in drawing order: the others first, the viewer (or seat 0) last
    rows: tuple[Row, ...]
    settlement: tuple[str, ...]
    trump: str | None  # the trump suit's code, for games with a trump suit (D3, G3)
    piles: tuple[Pile, ...] = ()  # piles out of play, drawn as counts (Durak's discard)


def visible(cards: list[str]) -> tuple[str, ...]:
    return tuple(c for c in cards if c != HIDDEN)


def hidden(cards: list[str]) -> int:
    return sum(1 for c in cards if c == HIDDEN)


def scores(words: Words, values: list, zero_sum: bool = True) -> str:
    """The scores by seat; a zero-sum game's with their signs (D15, T17)."""
    return words("render.scores", scores=" · ".join(
        f"{words.seat(s)} {words.number(v, signed=zero_sum)}" for s, v in enumerate(values)))



def _seat_order(players: int, viewer: int | None) -> list[int]:
    """The others from the viewer's left, then the viewer at the bottom (seat 0 for the
    whole table), as a player sees the table."""
    bottom = 0 if viewer is None else viewer
    return [(bottom + i) % players for i in range(1, players)] + [bottom]


def common(state: dict, viewer: int | None, words: Words, game: str) -> tuple[str, str]:
    name = words(f"game.{game}.name")
    title = words("render.title.seat", game=name, seat=viewer) if viewer is not None \
        else words("render.title.all", game=name)
    phase = words(f"phase.{state['phase']}")
    to_act = state["to_act"]
    status = words("render.status", phase=phase) if to_act is None else \
        words("render.status.to_act", phase=phase, seat=to_act)
    return title, status


def seats_of(state: dict, viewer: int | None, words: Words,
           roles: Callable[[int], list[str]], notes: Callable[[int], list[str]],
           won: Callable[[int], int] = lambda s: 0) -> tuple[Seat, ...]:
    hands = state["hands"]
    out = []
    for s in _seat_order(len(hands), viewer):
        cards = hands[s]
        parts = [words.seat(s), *roles(s)]
        if s == state["to_act"]:
            parts.append(words("render.to_act"))
        if s == viewer:
            parts.append(words("render.you"))
        parts.append(words("render.cards", n=len(cards)))
        out.append(Seat(s, " · ".join(parts), visible(cards), hidden(cards),
                        tuple(notes(s)), s == state["to_act"], s == viewer, won(s)))
    return tuple(out)


def plays(words: Words, played: list[dict]) -> tuple[Slot, ...]:
    return tuple(Slot(p["card"], None, words.seat(p["seat"])) for p in played)
