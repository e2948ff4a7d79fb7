"""Durak's AI for every count and option (D16–D25): legal, fair by construction (it reads
its seat's view only, the cards others are known to hold included), and twin states that
differ only in hidden cards get the same move for the same seed."""

from __future__ import annotations

import random

import pytest

from rules.ai.levels import choose
from rules.durak import GAME
from rules.game import Move

SETUPS = [
    {"players": 3},
    {"players": 4, "transfer": True, "known": True},
    {"players": 6, "transfer": True, "known": True, "throw_in": "neighbours"},
    {"players": 5, "cards": 52, "known": True},
]


def reached(options: dict, seed: int, steps: int):
    rng = random.Random(seed)
    state = GAME.deal(rng, **options)
    for _ in range(steps):
        legal = GAME.legal_moves(state)
        if not legal:
            break
        state = GAME.apply(state, rng.choice(legal))
    return state


@pytest.mark.parametrize("options", SETUPS)
def test_every_level_plays_legal_moves_to_the_end(options):
    rng = random.Random(7)
    state = GAME.deal(rng, **options)
    levels = ("basic", "strong", "random")
    while (seat := GAME.to_act(state)) is not None:
        view = GAME.observe(state, seat)
        move, _ = choose(GAME, view, levels[seat % 3], rng, 20, playouts=4)
        assert GAME.verify(state, move) is None, move
        state = GAME.apply(state, move)
    assert GAME.result(state) is not None


@pytest.mark.parametrize("options", SETUPS)
def test_twin_states_differing_in_hidden_cards_get_the_same_move(options):
    twins = 0
    for seed in range(6):
        state = reached(options, seed, 15 + 7 * seed)
        seat = GAME.to_act(state)
        if seat is None:
            continue
        view = GAME.observe(state, seat)
        twin = GAME.sample(view, random.Random(seed + 100))
        assert GAME.observe(twin, seat) == view
        if twin.hands == state.hands:
            continue  # nothing was hidden that differs
        twins += 1
        for level in ("basic", "strong"):
            # A budget the deadline never cuts: the playouts are fixed, the move is timeless.
            moves = [choose(GAME, GAME.observe(s, seat), level, random.Random(seed), 10_000,
                            playouts=6)[0] for s in (state, twin)]
            assert moves[0] == moves[1]
    assert twins


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
