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
from tests.support.durak import apply, deal, sample

# Deals the two-player engine leaves to the generic playout: more seats, passing on.
OTHER_DEALS = [{"players": 3}, {"players": 6, "throw_in": "neighbours"},
               {"players": 5, "cards": 52}, {"players": 2, "transfer": True}]


def reached(options: dict, seed: int, steps: int):
    rng = random.Random(seed)
    state = deal(rng, **options)
    for _ in range(steps):
        legal = GAME.legal_moves(state)
        if not legal:
            break
        state = apply(state, rng.choice(legal))
    return state


def test_known_cards_stay_in_their_hands_in_every_sampled_world():
    state = deal(random.Random(4), order=list(range(36)), players=6, known=True)
    shown = state.trump_card  # D17: the last card dealt, in hand 5, seen by everyone
    view = GAME.observe(state, 0)
    for k in range(20):
        world = sample(view, random.Random(k))
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
        state = apply(state, rng.choice(legal))
    pytest.fail("no state where a plain card could pass the attack on")


def test_value_scales_every_count_to_zero_one():
    from rules.ai.durak import value
    assert value({"scores": [1, -1]}, 1) == 0.0 and value({"scores": [1, -1]}, 0) == 1.0
    assert value({"scores": [1, 1, -2]}, 2) == 0.0
    assert value({"scores": [0, 0, 0, 0]}, 1) == 0.75
    assert Move(0, "pass") == Move(0, "pass")


def test_two_player_views_search_the_cores_count_of_playouts():
    """The core's deals (two players, no passing on) get its own count of playouts, many
    times the generic count; passing on with two keeps the generic count, more seats a
    smaller one (their deals are longer)."""
    from rules.ai.durak import CORE_RATE, RATE, rate_scale
    from rules.ai.search import playout_count
    early = GAME.observe(deal(random.Random(2)), 0)
    assert playout_count(GAME, early, 100) > 10 * 100 * RATE
    assert CORE_RATE > 100 * RATE
    for options in OTHER_DEALS:
        view = GAME.observe(deal(random.Random(2), **options), 0)
        scale = rate_scale(view)
        # passing on with two: the generic rate; more seats: fewer of the longer playouts
        assert scale == 1.0 if options["players"] == 2 else 0 < scale < 0.5
        assert playout_count(GAME, view, 100) <= 100 * RATE / 0.2


@pytest.mark.parametrize("cards", [24, 36, 52])
def test_D16_the_core_counts_playouts_by_the_cards_left_whatever_the_deck(cards):
    """A two-player deal of any deck gets the core's count for the cards it has left, as
    search.playout_count measures a playout against a fresh 36-card deal: a 24-card deal
    is not given half as many again, nor a 52-card one a third fewer."""
    from rules.ai.durak import CORE_FIXED, CORE_RATE
    from rules.ai.search import playout_count
    view = GAME.observe(deal(random.Random(5), cards=cards), 0)
    left = sum(view.hidden) + view.public.hands[0].bit_count()
    want = 1000 * CORE_RATE / ((CORE_FIXED + left) / (CORE_FIXED + 36))
    assert abs(playout_count(GAME, view, 1000) - want) <= 1


def test_D14_basic_plays_the_end_exactly_once_every_card_is_known():
    """Two players, the stock down to its turned-up card (D2): the other hand is every card
    the seat has not seen, and the basic level plays the solver's winning (or drawing)
    move, the club player's where every move loses or the solve does not fit. Along
    club-played deals it finds results the club player would have thrown."""
    from rules.ai import durak, durak_endgame
    from rules.ai.durak_club import club_move

    corrected = 0
    for seed in range(40):
        state = deal(random.Random(seed))
        while (seat := GAME.to_act(state)) is not None:
            move, _ = choose(GAME, GAME.observe(state, seat), "basic", random.Random(0), 200)
            club = club_move(state, seat, random.Random(0))
            found = None
            if len(state.stock) <= 1:
                found = durak_endgame.solve(GAME, state, seat, durak.LEVEL_NODES, club)
            if found is None or found[0] == durak_endgame.LOSS:
                assert move == club
            else:
                assert move == found[1]
                corrected += move != club
            state = apply(state, club)
    assert corrected > 0
