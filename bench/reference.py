"""Outside reference players: rule-based opponents as published descriptions of them play,
written here from those descriptions and not tuned against this project's levels, so that
the AI is measured against something nobody here designed to lose to it.

`greedy` (Durak): the rule-based "greedy" player of the Durak AI literature (the opponent
of the MCTS theses and of the rule-based bots of Durak apps): attack with the lowest card
that is not a trump (the lowest trump when only trumps are left), throw in the lowest
non-trump card of a rank on the table while there is one, defend with the cheapest card
that beats (the lowest of the attack's suit, else the lowest trump), and take when none
does. It reads only its own hand and the table, as a player would.

`expert` and `mcts` (two-player Durak, bench/reference_durak.py): the rule-based expert of
durak-analysis and the determinized MCTS of a bachelor thesis, from their texts.

`club` (Tarot, bench/reference_tarot.py): the bid by a published barème, the écart and the
play by the conventions French club guides teach.

`standard` and `highest` (Ganjifa, bench/reference_ganjifa.py): the trick-takers an app's
help page and a thesis describe.

Each reference player is `move(game, view, rng)`, given the acting seat's view."""

from __future__ import annotations

import random
from collections.abc import Callable

from bench.reference_durak import expert_durak, mcts_durak
from bench.reference_ganjifa import highest_ganjifa, standard_ganjifa
from bench.reference_tarot import club_tarot
from rules.durak import RANK_OF, SUIT_OF
from rules.game import Game, Move, View


def greedy_durak(game: Game, view: View, rng: random.Random) -> Move:
    trump, table = view.public.trump, view.public.table

    def cost(m: Move) -> tuple[bool, int]:
        c = card_of(m)
        return (SUIT_OF[c] == trump, RANK_OF[c])  # any plain card before any trump

    legal = seat_moves(game, view, rng)
    if view.phase == "defend":
        beats = [m for m in legal if m.action == "defend"]
        if beats:
            return min(beats, key=cost)
        return next(m for m in legal if m.action == "take")
    attacks = [m for m in legal if m.action == "attack"]
    if not table:
        return min(attacks, key=cost)
    plain = [m for m in attacks if SUIT_OF[card_of(m)] != trump]
    if plain:
        return min(plain, key=cost)
    return next(m for m in legal if m.action == "pass")


def card_of(m: Move) -> int:
    if m.card is None:  # Durak's attacks and defences always name their card
        raise ValueError(f"a Durak {m.action} without a card: {m}")
    return m.card


def seat_moves(game: Game, view: View, rng: random.Random) -> list[Move]:
    """The seat's own moves, which depend only on what it sees: any world of its view
    lists them."""
    legal: list[Move] = []
    for m in game.legal_moves(game.sample(view, rng)):
        if not isinstance(m, Move):  # Durak lists no Template: every move one card or none
            raise TypeError(f"greedy_durak reads single moves, not {m!r}")
        if m.seat == view.seat:
            legal.append(m)
    return legal


PLAYERS: dict[tuple[str, str], Callable[[Game, View, random.Random], Move]] = {
    ("durak", "expert"): expert_durak,
    ("durak", "greedy"): greedy_durak,
    ("durak", "mcts"): mcts_durak,
    ("ganjifa", "highest"): highest_ganjifa,
    ("ganjifa", "standard"): standard_ganjifa,
    ("tarot", "club"): club_tarot,
}
# The players written for the default deal only (bench/ai.py's game ids they play): the
# expert and the thesis play two seats; the thesis's tree, no passing on either.
ONLY = {("durak", "expert"): ("durak",), ("durak", "mcts"): ("durak",)}
