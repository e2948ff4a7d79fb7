"""The strong level's worlds and search for Ganjifa: the compiled core's search
(rules/ai/core/ganjifa.c draws the worlds under the history's reading, plays each root
candidate in them and basic's play for every seat to the end) fed from a view and its
candidates, and the Python search's own world draws where the core is not built.

Both draw a world the way the reading says basic's play explains best: the cards each
seat cannot hold (the view's voids narrowed by `modelled`) as hard exclusions; of up to
DRAWS deals, the one with the fewest `misfits` (a Dukal a seat that led a card would have
led, a broken clause); with a trick in progress, up to `Explain.tries` such worlds until
basic's play explains the trick (`explains`)."""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from rules.ai.ganjifa_high import high_lacks
from rules.ai.ganjifa_reading import (
    BASIC,
    HIGH,
    Clause,
    explains,
    lacks_by_basic,
    led_since,
    misfits,
)
from rules.ai.native import CORE
from rules.game import Game, Move, View
from rules.ganjifa import DECK, PLAYERS, GanjifaState
from rules.ganjifa.view import hidden_places

DRAWS = 8  # draws of a world at most, while basic's play does not explain it (the core's too)
TRIES = 8  # worlds drawn at most until basic's play explains the trick in progress
# Draws of a world a move may spend, per playout, on explaining the trick in progress (as
# rules/ai/search.py's EXPLAIN_DRAWS for the Python search).
EXPLAIN_DRAWS = 3


class ViewReading(NamedTuple):
    """What the history of one view says, as the search's draws read it: the seats that
    led since the opening and what they played since (`led_since`), the clauses of the
    leads' reading, the seats whose play was no basic's, and each seat's model in the
    playouts (BASIC, or HIGH for a seat whose play the high player's explains and basic's
    does not)."""

    public: Any
    seat: int | None
    since: list[tuple[int, int]]
    clauses: list[Clause]
    unlike: tuple[bool, ...]
    models: tuple[int, ...]


# The view last read (`modelled`, `reading`): one item, replaced whole, so that a thread
# reads a consistent one.
_LAST_READING: list[ViewReading] = [
    ViewReading(None, None, [], [], (False,) * PLAYERS, (BASIC,) * PLAYERS)]


def _read(public: GanjifaState, seat: int) -> tuple[list[int], list[Clause], tuple[bool, ...],
                                                     tuple[int, ...]]:
    """The history read as each seat's model played it: the cards each seat lacks, the
    clauses, the seats unlike basic, and the models."""
    lacks, clauses, unlike = lacks_by_basic(public, seat)
    high, unlike_high = high_lacks(public, seat)
    models = tuple(HIGH if s != seat and unlike[s] and not unlike_high[s] else BASIC
                   for s in range(PLAYERS))
    lacks = [high[s] if models[s] == HIGH else lacks[s] for s in range(PLAYERS)]
    return lacks, clauses, unlike, models


def modelled(view: View) -> View:
    """The view with what the history says (`_read`) added to the cards each other seat is
    known to lack, so that the worlds `Game.sample` draws from it are deals in which each
    seat's model in the playouts would have played the history. A client's opponents may
    play otherwise; the search falls back to the view itself when no deal fits
    (`search.strong_move`)."""
    public = view.public
    if not public.tricks:
        return view
    lacks, clauses, unlike, models = _read(public, view.seat)
    voids = public.voids
    narrowed = public._replace(
        voids=(voids[0] | lacks[0], voids[1] | lacks[1], voids[2] | lacks[2]))
    _LAST_READING[0] = ViewReading(narrowed, view.seat, led_since(public, view.seat, unlike),
                                   clauses, unlike, models)
    return view._replace(public=narrowed)


def reading(public: GanjifaState, seat: int) -> ViewReading:
    """`_LAST_READING`'s item for the view, read again when it is another view's: the same
    worlds whichever view another thread read meanwhile. The clauses are those of a view
    `modelled` gave (its voids hold the reading's lacks); none for the view itself, which
    the search draws from when no deal fits the model: its opponents did not play as
    their models."""
    last = _LAST_READING[0]  # a search draws all its worlds from one view
    if last[0] is public and last[1] == seat:
        return last
    if public.tricks:
        lacks, clauses, unlike, models = _read(public, seat)
        voids = public.voids
        if any(lacks[s] & ~voids[s] for s in range(PLAYERS)):
            clauses = []
    else:
        clauses, unlike, models = [], (False,) * PLAYERS, (BASIC,) * PLAYERS
    last = _LAST_READING[0] = ViewReading(public, seat, led_since(public, seat, unlike),
                                          clauses, unlike, models)
    return last


def draw(game, view: View, rng: random.Random) -> GanjifaState:
    """A world of the view (`Game.sample`) that basic's play of the history explains
    (`misfits`): up to DRAWS draws, else the one that explains the most of it (a client's
    opponents may play otherwise)."""
    world = game.sample(view, rng)
    read = reading(view.public, view.seat)
    since, clauses = read.since, read.clauses
    if not since and not clauses:
        return world
    missed = misfits(world, since, clauses)
    for _ in range(DRAWS - 1):
        if not missed:
            break
        other = game.sample(view, rng)
        other_missed = misfits(other, since, clauses)
        if other_missed < missed:
            world, missed = other, other_missed
    return world


def sample(game, view, rng: random.Random, tries: int) -> tuple[GanjifaState, int]:
    """A world of the view (`draw`) in which basic's play explains the trick in progress
    (`explains`; a seat whose play the history showed unlike basic's is not read): up to
    `tries` draws, else the last one; and the draws made.
    The opponents the search models play basic; a world where they would not have played
    the cards on the table is one the search need not weigh, and the trick's cards, chosen
    from their hands, say much about those hands (a lead that is no boss is the leader's
    cheapest card, a follower that does not win throws its cheapest card)."""
    read = reading(view.public, view.seat)
    for i in range(1, tries + 1):
        world = draw(game, view, rng)
        if explains(world, view.seat, read.unlike, read.models):
            return world, i
    return world, tries


def trick_on_table(view: View) -> bool:
    """Whether a trick is on the table: what `sample` explains."""
    return bool(view.public.trick)


# -- the compiled core -------------------------------------------------------------------

def covers(view: View) -> bool:
    """The core plays every Ganjifa deal, where it is built."""
    return CORE is not None


def position(state: GanjifaState) -> tuple:
    """A state (or a view's public part) as the core's position."""
    d = state.dukal
    return (state.trump, state.hands, state.captured, state.leader, state.trick,
            None if d is None else (d.seat, d.cards, d.discards))


def pair(move: Move) -> tuple[str, int]:
    """A move as the core's (action, card) or (action, mask of cards)."""
    if move.card is not None:
        return move.action, move.card
    return move.action, sum(1 << c for c in move.cards or ())


def search(game: Game, view: View, moves: list[Move], playouts: int, seed: int,
           seconds: float) -> int:
    """The index of the candidate the core's search chooses among `moves`, on worlds of
    `view` (the view the reading narrowed, or the view itself when no deal fits that)."""
    assert CORE is not None  # `covers` said so
    public = view.public
    read = reading(public, view.seat)
    _, allowed = hidden_places(view)
    clauses = [(s, other, cards & DECK.full, above & DECK.full, held)
               for s, other, cards, above, held in read.clauses]
    explain = EXPLAIN_DRAWS * playouts if public.trick else 0
    found = CORE.ganjifa_search(
        position(public), view.seat, view.hidden, allowed, read.since, clauses, read.unlike,
        read.models, explain, TRIES, [pair(m) for m in moves], playouts, seed, seconds)
    return found[0]
