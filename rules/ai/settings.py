"""What the AI needs to know of one game, declared beside that game's AI module
(`SETTINGS` in rules/ai/<game>.py) and registered with the game (rules/registry.py), so
that the search (rules/ai/search.py) names no game."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.game import Game, Move, View


@dataclass
class Explain:
    """Worlds drawn until one in which the playouts' model explains the play in progress
    (Ganjifa's trick on the table): `applies(view)` says whether the view shows such play;
    at most `tries` draws a world, each draw and its test costing `cost` times a playout's
    share of the budget. `sample(game, view, rng, tries)` gives the world and the draws it
    used."""

    tries: int
    cost: float
    sample: Callable[[Game, View, random.Random, int], tuple[Any, int]]
    applies: Callable[[View], bool]


@dataclass
class Core:
    """The compiled core's search of a game's views (rules/ai/native.py): `covers(view)`
    says whether it plays the view's deal (and that the core is built); `search(game, view,
    moves, playouts, seed, seconds)` gives the index of the candidate among `moves` it
    chooses after about `playouts` playouts, within `seconds` (0 for no deadline); `rate`
    and `fixed_cost` are `Settings.rate` and `Settings.fixed_cost` for its playouts, and
    `rate_scale(view)` a factor on `rate` for this view, or None."""

    covers: Callable[[View], bool]
    search: Callable[[Game, View, list[Move], int, int, float], int]
    rate: float
    fixed_cost: int = 0
    rate_scale: Callable[[View], float] | None = None


@dataclass
class Settings:
    """`basic(state, seat, rng)`: the basic level's move, also the playouts' policy.
    `level(state, seat, rng)`: the basic level's move where it is more than the playouts'
    policy (two-player Durak: the end played exactly once every card is known).
    `value(settlement, seat)`: the seat's result scaled to [0, 1].
    `rate`: playouts per millisecond of budget from a fresh deal, about half of what one
    core runs, so that the deadline stays a guard and not the rule (bench/README.md).
    `fixed_cost`: what a playout costs beside playing its cards (sampling the world,
    dealing, settling), in cards' worth. `epsilon`: the share of random moves in a playout,
    so that playouts differ.
    `play_class(state, seat)`: a key under which moves that play alike are tried once.
    `model(view)`: the view narrowed by what the opponents' play says of their hands, had
    they played as the playouts model them. `playout(state, seat)`: a faster private
    playout of basic's exact play (no rng), in place of the generic epsilon-basic one, or
    None for a deal it does not play (the generic one plays it).
    `exact(game, view, playouts)`: exact play where the view leaves nothing to guess,
    before any search, within work worth the playouts the budget buys: the move, or None
    and the share of the playouts the attempt used.
    `draw(game, view, rng)`: a world of the view in place of `game.sample`'s, one the
    model does not contradict when a few draws find one (Ganjifa: no Dukal in a hand
    whose owner, as basic, would have led it).
    `propose(state, seat)`: root candidates for a template move (a combination of cards)
    in place of random completions, read from the seat's own cards; none to keep them.
    `core`: the compiled core's search, in place of the Python playouts where it covers
    the view.
    `rate_scale(view)`: a factor on `rate` for this view, for a game whose playouts cost
    more or less by its variant (Tarot's count of players, T18) or run faster where the
    game's own `playout` plays the deal (two-player Durak).
    A setting is mutable so that a test may lower `rate` for one game."""

    basic: Callable[[Any, int, random.Random], Move]
    value: Callable[[dict, int], float]
    rate: float
    fixed_cost: int = 0
    epsilon: float = 0.1
    play_class: Callable[[Any, int], Callable[[Move], Any]] | None = None
    model: Callable[[View], View] | None = None
    playout: Callable[[Any, int], float | None] | None = None
    explain: Explain | None = None
    exact: Callable[[Game, View, int], tuple[Move | None, float]] | None = None
    rate_scale: Callable[[View], float] | None = None
    draw: Callable[[Game, View, random.Random], Any] | None = None
    propose: Callable[[Any, int], list[Move]] | None = None
    core: Core | None = None
    level: Callable[[Any, int, random.Random], Move] | None = None

