"""Durak's AI for every count and option (D16–D25): what only Durak has (known cards,
passing on, the value of a multi-player settlement). That every level plays legal moves
and twin states get the same move, at every count and option of every game, is
tests/test_ai.py's and tests/test_fair_ai.py's."""

from __future__ import annotations

import random

import pytest

from rules.ai.levels import choose
from rules.durak import GAME
from rules.game import Move


def reached(options: dict, seed: int, steps: int):
    rng = random.Random(seed)
    state = GAME.deal(rng, **options)
    for _ in range(steps):
        legal = GAME.legal_moves(state)
        if not legal:
            break
        state = GAME.apply(state, rng.choice(legal))
    return state


def test_known_cards_stay_in_their_hands_in_every_sampled_world():
    state = GAME.deal(random.Random(4), order=list(range(36)), players=6, known=True)
    shown = state.trump_card  # D17: the last card dealt, in hand 5, seen by everyone
    view = GAME.observe(state, 0)
    for k in range(20):
        world = GAME.sample(view, random.Random(k))
        assert world.hands[5] >> shown & 1


def test_basic_passes_the_attack_on_with_a_plain_card():
    state = reached({"players": 3, "transfer": True}, 0, 0)
    seat = state.to_act
    rng = random.Random(0)
    for _ in range(400):
        if state.phase == "defend":
            move = choose(GAME, GAME.observe(state, state.to_act), "basic", rng, 20)[0]
            if any(m.action == "transfer" and m.card is not None
                   and m.card // 9 != state.trump for m in GAME.legal_moves(state)
                   if m.card is not None and m.card < 36):
                assert move.action == "transfer"
                return
        legal = GAME.legal_moves(state)
        if not legal:
            state = reached({"players": 3, "transfer": True}, seat + 1, 0)
            seat += 1
            continue
        state = GAME.apply(state, rng.choice(legal))
    pytest.fail("no state where a plain card could pass the attack on")


def test_value_scales_every_count_to_zero_one():
    from rules.ai.durak import value
    assert value({"scores": [1, -1]}, 1) == 0.0 and value({"scores": [1, -1]}, 0) == 1.0
    assert value({"scores": [1, 1, -2]}, 2) == 0.0
    assert value({"scores": [0, 0, 0, 0]}, 1) == 0.75
    assert Move(0, "pass") == Move(0, "pass")
