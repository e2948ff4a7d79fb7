"""A game's part of the tests' floor: what the generic tests (tests/test_invariants.py,
test_http, test_replay, test_properties, test_rulebook) need to know of it, declared in
its module (tests/support/<game>.py) as its `TESTS`, found per registered game by
tests/support/games.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.game import Game, Move


@dataclass(frozen=True)
class GameTests:
    """`check_state(state)` and `check_final(state, settlement)`: the game's own invariants,
    at every step and at the end. `candidate_moves(state, rng)`: moves legal or not, that
    `verify` must judge as `legal_moves` lists them. `deals` and `http_deals`: the seeded
    random deals the invariant test plays in process and over HTTP; `count_deals`, those
    it plays at a count that another test plays deal by deal (Durak's 3 to 6 players, which
    tests/test_durak_counts.py plays with every deck and variant). `deal_options`: request
    options of a deal beside the defaults (Tarot's dealer, Ganjifa's period).
    `over_rule`: the rule a move after the deal's end breaks (D14, T9, G9). `record_seed`:
    the seed of the whole deal the replay tests play. `fullest`: the deal options whose
    state carries every optional field (Durak's `known`), for the tests that walk them."""

    game: Game
    check_state: Callable[[Any], None]
    check_final: Callable[[Any, dict], None]
    candidate_moves: Callable[[Any, random.Random], list[Move]]
    deals: int
    http_deals: int
    deal_options: tuple[dict, ...]
    over_rule: str
    record_seed: int
    fullest: dict = field(default_factory=dict)
    count_deals: dict[int, int] = field(default_factory=dict)

    def deals_at(self, players: int) -> int:
        return self.count_deals.get(players, self.deals)
