"""Durak's AI for every count and option (D16–D25): what only Durak has (known cards,
passing on, the value of a multi-player settlement). That every level plays legal moves
and twin states get the same move, at every count and option of every game, is
tests/test_ai.py's and tests/test_fair_ai.py's."""

from __future__ import annotations

import random

import pytest

from rules.ai.levels import choose
from rules.durak import ALL, GAME, named
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


def club_positions(options: dict, deals: int):
    """States along random deals of a two-player setup, at every depth."""
    for seed in range(deals):
        yield reached(options, seed, seed % 60)


@pytest.mark.parametrize("options", [{}, {"cards": 24}, {"cards": 52}, {"first_bout": 5},
                                     {"known": True}])
def test_D1_D15_the_fast_playout_plays_the_rules_and_the_club_player(options):
    """rules/ai/durak_playout.py, move by move against rules/durak (D1–D15, D16's decks
    and first bout) and the club player: each move it makes is the club player's, legal,
    and the deal ends where the rules end it with the same hands."""
    from rules.ai.durak_club import club_move
    from rules.ai.durak_playout import play, playout
    ended = 0
    for state in club_positions(options, 40):
        trace: list = []
        hands = play(state, trace)
        for seat, action, card in trace:
            move = club_move(state, seat, random.Random(0))
            assert (move.seat, move.action, move.card) == (seat, action, card)
            assert GAME.verify(state, move) is None
            state = apply(state, move)
        assert state.phase == "over" and state.hands == hands
        ended += bool(trace)
        value = playout(state, 0)
        assert value == {1: 1.0, 0: 0.5, -1: 0.0}[GAME.settlement(state)["scores"][0]]
    assert ended > 30


def test_the_fast_playout_leaves_other_deals_to_the_generic_one():
    from rules.ai.durak_playout import playout
    for options in OTHER_DEALS:
        assert playout(deal(random.Random(0), **options), 0) is None


@pytest.mark.parametrize(("options", "seeds"), [({}, 12), ({"cards": 24}, 4), ({"cards": 52}, 3),
                                               ({"first_bout": 5}, 4)])
def test_D15_the_bitmask_solver_agrees_with_the_rules_step_by_step_and_in_value(options, seeds):
    """rules/ai/durak_endgame.py's `Bits` against rules/durak along deals of every deck and
    the short first bout (D16): its moves are the rules' moves and each leads to the
    position the rules reach (mid-bout, taking, cards drawn from a stock of several and the
    turned-up card last: D2, D12, the deal's end: D14), and its values are those of the
    same solver over the rules' own moves (with a stock of several cards:
    tests/test_durak_endgame.py, against brute force)."""
    from rules.ai import durak_endgame as endgame
    from rules.ai.durak import basic_move
    kinds = set()
    compared = 0
    for seed in range(seeds):
        state = deal(random.Random(seed), **options)
        rng = random.Random(seed)
        fast = endgame.Bits(state.trump)
        while state.to_act is not None:
            if len(state.stock) <= 4 or options:  # the first bout too (D16)
                position, moves, children = fast.root(state)
                assert sorted(moves) == sorted(GAME.legal_moves(state))
                assert children == fast.children(position)
                for move, child in zip(moves, children, strict=True):
                    after = apply(state, move)
                    if child[1] is None:
                        assert GAME.settlement(after)["scores"][0] == child[2]
                    else:
                        assert fast.root(after)[0] == child[1]
                    kinds.add((min(len(state.stock), 2), move.action))
            cards = sum(h.bit_count() for h in state.hands) + 2 * len(state.table)
            if len(state.stock) <= 1 and cards <= 12:
                slow = endgame.Solver(endgame.Rules(GAME), state.to_act, 3_000)
                try:
                    want = slow.value(state, -2, 2)
                except endgame.OutOfNodes:
                    want = None
                if want is not None:
                    solver = endgame.Solver(fast, state.to_act, 10**6)
                    assert solver.value(position, -2, 2) == want
                    compared += 1
            move = (rng.choice(GAME.legal_moves(state)) if rng.random() < 0.3
                    else basic_move(state, state.to_act, rng))
            state = apply(state, move)
    assert compared > (30 if not options else 2), compared
    assert {(2, "pass"), (1, "pass"), (1, "take"), (0, "defend")} <= kinds, kinds


def test_two_player_views_search_more_playouts_than_the_generic_rate_buys():
    """The fast engine's deals get its own count of playouts: more than the generic rate
    buys, by less late in the deal, where its fixed overhead weighs more in a short
    playout; passing on with two keeps the generic count, more seats a smaller one."""
    from rules.ai.durak import rate_scale
    early = GAME.observe(deal(random.Random(2)), 0)
    late = GAME.observe(reached({}, 2, 40), 0)
    assert 1 < rate_scale(late) < rate_scale(early)
    for options in OTHER_DEALS:
        scale = rate_scale(GAME.observe(deal(random.Random(2), **options), 0))
        # passing on with two: the generic rate; more seats: fewer of the longer playouts
        assert scale == 1.0 if options["players"] == 2 else 0 < scale < 0.5


@pytest.mark.parametrize("cards", [24, 36, 52])
def test_D16_the_fast_engine_counts_playouts_by_the_cards_left_whatever_the_deck(cards):
    """A two-player deal of any deck gets the fast engine's count for the cards it has
    left, as search.playout_count measures a playout against a fresh 36-card deal: a
    24-card deal is not given half as many again, nor a 52-card one a third fewer."""
    from rules.ai.durak import FAST_FIXED, FAST_RATE
    from rules.ai.search import playout_count
    view = GAME.observe(deal(random.Random(5), cards=cards), 0)
    left = sum(view.hidden) + view.public.hands[0].bit_count()
    want = 1000 * FAST_RATE / ((FAST_FIXED + left) / (FAST_FIXED + 36))
    assert abs(playout_count(GAME, view, 1000) - want) <= 1


def test_D9_D16_the_bitmask_solver_keeps_a_short_first_bout_to_five_attacks():
    """With `first_bout: 5`, the first bout's sixth attack is no move of the bitmask
    solver either (the random deals above rarely reach it)."""
    from rules.ai import durak_endgame as endgame
    ix = ALL.index
    on_table = [("6S", "6H"), ("6C", "7H"), ("6D", "8H"), ("7S", "9H"), ("7C", "10H")]
    placed = {c for pair in on_table for c in pair} | {"7D", "JH"}
    stock = [c for c in ALL.codes[:36] if c not in placed and c != "AH"] + ["AH"]
    state = named(GAME.build(trump="H", hands=[[ix["7D"]], [ix["JH"]]],
                             stock=[ix[c] for c in stock], discard=[], attacker=0,
                             table=[(ix[a], ix[d]) for a, d in on_table], taking=False,
                             first_bout=5))
    assert GAME.legal_moves(state) == [Move(0, "pass")]
    assert endgame.Bits(state.trump).root(state)[1] == [Move(0, "pass")]
