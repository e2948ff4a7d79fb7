"""Outside reference players: rule-based opponents as published descriptions of them play,
written here from those descriptions and not tuned against this project's levels, so that
the AI is measured against something nobody here designed to lose to it.

`greedy` (Durak): the rule-based "greedy" player of the Durak AI literature (the opponent
of the MCTS theses and of the rule-based bots of Durak apps): attack with the lowest card
that is not a trump (the lowest trump when only trumps are left), throw in the lowest
non-trump card of a rank on the table while there is one, defend with the cheapest card
that beats (the lowest of the attack's suit, else the lowest trump), and take when none
does. It reads only its own hand and the table, as a player would.

`club` (Tarot, bench/reference_tarot.py): the bid by a published barème, the écart and the
play by the conventions French club guides teach.

`highest` (Ganjifa): no rule-based Dashavatara player is described anywhere we found, so
the rule-based trick-taker of the card-game theses: "always play the highest card" (V.
Lopes Carreiro, *Examining different strategies for the card game Sueca*, Leiden
bachelor thesis, 2016, §5.3), the highest legal card by G2's ranks, trumps above every
other suit (G7). It plays single cards only, so it leads no Dukal (G8), and answers one,
which is no trick, keeping its highest cards: it gives up its k lowest.

`standard` (Ganjifa): the "Standard" computer player of the Spades app play-spades.com as
its help page describes it, for a seat that still wants tricks (in Ganjifa every card
counts, G9): it tries to take the trick with its highest valid card, and plays its lowest
valid card when it has no chance to take it (no valid card beats the trick, G7); it leads
its highest card. Single cards only, as `highest`, and a Dukal answered with its lowest.

Each reference player is `move(game, view, rng)`, given the acting seat's view."""

from __future__ import annotations

import random
from collections.abc import Callable

from bench.reference_tarot import club_tarot
from rules.durak import RANK_OF, SUIT_OF
from rules.game import Game, Move, Template, View
from rules.ganjifa import BEATERS as GANJIFA_BEATERS
from rules.ganjifa import STRENGTH
from rules.ganjifa import SUIT_OF as GANJIFA_SUIT


def greedy_durak(game: Game, view: View, rng: random.Random) -> Move:
    seat = view.seat
    trump, table = view.public.trump, view.public.table

    def card(m: Move) -> int:
        if m.card is None:  # Durak's attacks and defences always name their card
            raise ValueError(f"a Durak {m.action} without a card: {m}")
        return m.card

    def cost(m: Move) -> tuple[bool, int]:
        c = card(m)
        return (SUIT_OF[c] == trump, RANK_OF[c])  # any plain card before any trump

    # The seat's own moves depend only on what it sees: any world of its view lists them.
    world = game.sample(view, rng)
    legal: list[Move] = []
    for m in game.legal_moves(world):
        if not isinstance(m, Move):  # Durak lists no Template: every move one card or none
            raise TypeError(f"greedy_durak reads single moves, not {m!r}")
        if m.seat == seat:
            legal.append(m)
    if view.phase == "defend":
        beats = [m for m in legal if m.action == "defend"]
        if beats:
            return min(beats, key=cost)
        return next(m for m in legal if m.action == "take")
    attacks = [m for m in legal if m.action == "attack"]
    if not table:
        return min(attacks, key=cost)
    plain = [m for m in attacks if SUIT_OF[card(m)] != trump]
    if plain:
        return min(plain, key=cost)
    return next(m for m in legal if m.action == "pass")


def _ganjifa_cards(game: Game, view: View, rng: random.Random,
                   chances: bool) -> Move:
    """The highest single card, or with `chances` the lowest when none beats the trick;
    a Dukal answered with the lowest cards."""
    trump, trick = view.public.trump, view.public.trick

    def height(card: int) -> tuple[bool, int]:
        return (GANJIFA_SUIT[card] == trump, STRENGTH[card])  # G2, G7

    # The seat's own moves depend only on what it sees: any world of its view lists them.
    own = [m for m in game.legal_moves(game.sample(view, rng)) if m.seat == view.seat]
    if isinstance(own[0], Template):  # G8: the Dukal's answer, any k of the hand's cards
        answer = own[0]
        return Move(view.seat, answer.action,
                    cards=tuple(sorted(sorted(answer.choose_from, key=height)[:answer.count])))
    singles = [m for m in own if isinstance(m, Move) and m.card is not None]
    top = max(singles, key=lambda m: height(m.card))  # type: ignore[arg-type]
    if chances and trick and not _takes(trick, top.card, trump):  # type: ignore[arg-type]
        return min(singles, key=lambda m: height(m.card))  # type: ignore[arg-type]
    return top


def _takes(trick: tuple[int, ...], card: int, trump: int) -> bool:
    """Whether `card` would win the trick so far (G7)."""
    best = trick[0]
    for c in trick[1:]:
        if GANJIFA_BEATERS[trump][best] >> c & 1:
            best = c
    return bool(GANJIFA_BEATERS[trump][best] >> card & 1)


def highest_ganjifa(game: Game, view: View, rng: random.Random) -> Move:
    return _ganjifa_cards(game, view, rng, chances=False)


def standard_ganjifa(game: Game, view: View, rng: random.Random) -> Move:
    return _ganjifa_cards(game, view, rng, chances=True)


PLAYERS: dict[tuple[str, str], Callable[[Game, View, random.Random], Move]] = {
    ("durak", "greedy"): greedy_durak,
    ("ganjifa", "highest"): highest_ganjifa,
    ("ganjifa", "standard"): standard_ganjifa,
    ("tarot", "club"): club_tarot,
}
