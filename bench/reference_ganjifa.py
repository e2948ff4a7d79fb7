"""Ganjifa's outside reference players (bench/reference.py). No rule-based Dashavatara
player is described anywhere we found, so two trick-takers as others describe them:

`standard`: the "Standard" computer player of the Spades app play-spades.com as its help
page describes it, for a seat that still wants tricks (in Ganjifa every card counts, G9):
it tries to take the trick with its highest valid card, and plays its lowest valid card
when it has no chance to take it (no valid card beats the trick, G7); it leads its
highest card.

`highest`: the rule-based trick-taker of the card-game theses, "always play the highest
card" (V. Lopes Carreiro, *Examining different strategies for the card game Sueca*,
Leiden bachelor thesis, 2016, §5.3): the highest legal card by G2's ranks, trumps above
every other suit (G7).

Both play single cards only, so they lead no Dukal (G8), and answer one, which is no
trick, keeping their highest cards: they give up their k lowest. They keep their own
small helpers: an outside reference shares no code with the levels it measures."""

from __future__ import annotations

import random

from rules.game import Game, Move, Template, View
from rules.ganjifa import BEATERS, STRENGTH, SUIT_OF


def highest_ganjifa(game: Game, view: View, rng: random.Random) -> Move:
    return _play(game, view, rng, chances=False)


def standard_ganjifa(game: Game, view: View, rng: random.Random) -> Move:
    return _play(game, view, rng, chances=True)


def _play(game: Game, view: View, rng: random.Random, chances: bool) -> Move:
    """The highest single card, or with `chances` the lowest when none takes the trick;
    a Dukal answered with the lowest cards."""
    trump, trick, seat = view.public.trump, view.public.trick, view.seat

    def height(card: int) -> tuple[bool, int]:
        return (SUIT_OF[card] == trump, STRENGTH[card])  # G2, G7

    # The seat's own moves depend only on what it sees: any world of its view lists them.
    own = [m for m in game.legal_moves(game.sample(view, rng)) if m.seat == seat]
    if isinstance(own[0], Template):  # G8: the Dukal's answer, any k of the hand's cards
        answer = own[0]
        lowest = sorted(answer.choose_from, key=height)[:answer.count]
        return Move(seat, answer.action, cards=tuple(sorted(lowest)))
    cards = [m.card for m in own if isinstance(m, Move) and m.card is not None]
    top = max(cards, key=height)
    if chances and trick and not _takes(trick, top, trump):
        return Move(seat, "play", card=min(cards, key=height))
    return Move(seat, "play", card=top)


def _takes(trick: tuple[int, ...], card: int, trump: int) -> bool:
    """Whether `card` would win the trick so far (G7)."""
    beaters = BEATERS[trump]
    best = trick[0]
    for c in trick[1:]:
        if beaters[best] >> c & 1:
            best = c
    return bool(beaters[best] >> card & 1)
