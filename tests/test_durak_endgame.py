"""The exact solver of a two-player Durak deal of perfect information
(rules/ai/durak_endgame.py): its values against brute force on small positions, its moves
against the rules, and exact play never throwing away a won deal."""

from __future__ import annotations

import random

import pytest

from rules.ai import durak_endgame as endgame
from rules.ai.durak import basic_move
from rules.ai.levels import choose
from rules.cards import mask_of
from rules.durak import DECK, GAME
from tests.support.durak import apply, build, deal


def small_position(rng: random.Random, cards: int, stock: int = 0):
    """`cards` cards in the two hands (at least one each), `stock` in the stock in a known
    order, the rest beaten off: a position of perfect information as D14 leaves it open.
    `cards` is even (the discard pile is pairs, D11). With a stock, the hands are short of
    D12's six so that minimax stays small: the stock is put in after the rules built the
    position (they would refuse it), the trump the suit of its last card (D2); D12 draws
    the same whatever the hands held."""
    order = list(range(len(DECK)))
    rng.shuffle(order)
    n0 = rng.randint(1, cards - 1)
    hands = [order[:n0], order[n0:cards]]
    pile = order[cards:cards + stock]
    trump = "SHDC"[pile[-1] // 9 if pile else rng.randrange(4)]
    state = build(trump, hands, [], order[cards:], rng.randrange(2), [], False)
    return state._replace(stock=tuple(pile), discard=mask_of(order[cards + stock:]))


def brute(state, seat: int) -> int:
    """D15's value for `seat` under best play by both seats: plain minimax, no table."""
    if state.to_act is None:
        return GAME.settlement(state)["scores"][seat]
    values = [brute(apply(state, m), seat) for m in GAME.legal_moves(state)]
    return max(values) if state.to_act == seat else min(values)


@pytest.mark.parametrize(("cards", "stock"), [(2, 0), (4, 0), (6, 0), (2, 1), (4, 1), (4, 2),
                                             (2, 3)])
def test_D15_solver_values_match_brute_force_on_small_positions(cards, stock):
    """Both shapes of position (the rules' states, the bitmasks), with a stock of known
    order drawn by D12 and the turned-up card last (D2), against plain minimax."""
    rng = random.Random(cards * 10 + stock)
    outcomes = set()
    for _ in range(20 if cards + stock < 6 else 6):
        state = small_position(rng, cards, stock)
        seat = state.to_act
        want = brute(state, seat)
        value, move = endgame.solve(GAME, state, seat, 10**6)
        assert value == want
        assert move in GAME.legal_moves(state)
        assert brute(apply(state, move), seat) == value  # the move keeps the value
        slow = endgame.Solver(endgame.Rules(GAME), seat, 10**6)
        assert slow.value(state, endgame.LOSS - 1, endgame.WIN + 1) == want
        outcomes.add(value)
    assert len(outcomes) > 1  # positions won and lost: the comparison is not vacuous


def test_a_solve_past_its_count_of_positions_gives_up():
    state = small_position(random.Random(3), 12)
    assert endgame.solve(GAME, state, state.to_act, 5) is None


def endgames(seeds: range):
    """Views of the seat to act once no stock card is hidden, along deals played by basic."""
    for seed in seeds:
        state = deal(random.Random(seed))
        k = 0
        while (seat := GAME.to_act(state)) is not None:
            view = GAME.observe(state, seat)
            if endgame.perfect(view):
                yield state, view
            state = apply(state, basic_move(state, seat, random.Random(seed * 100 + k)))
            k += 1


def test_only_views_without_a_hidden_stock_card_are_perfect():
    state = deal(random.Random(1))
    assert not endgame.perfect(GAME.observe(state, 0))
    assert endgame.exact_move(GAME, GAME.observe(state, 0), 800) == (None, 0.0)
    found = [v for _, v in endgames(range(3))]
    assert found and all(v.hidden[2] == 0 for v in found)


def test_exact_moves_are_legal_and_the_same_for_the_same_view():
    tried = 0
    for state, view in endgames(range(3)):
        move, spent = endgame.exact_move(GAME, view, 800)
        if move is None:
            assert spent == endgame.PERFECT_SHARE  # two players: the fast engine's deal
            continue
        tried += 1
        assert move in GAME.legal_moves(state) and GAME.verify(state, move) is None
        assert endgame.exact_move(GAME, view, 800) == (move, spent)
    assert tried > 10


def test_D15_a_won_endgame_stays_won_against_any_defence():
    """From a position the solver values as won, its moves win whatever the other seat
    plays (here: random, and basic)."""
    won = 0
    for i, (state, view) in enumerate(endgames(range(8))):
        if i % 4:
            continue
        found = endgame.solve(GAME, state, view.seat, 20_000)
        if found is None or found[0] != endgame.WIN:
            continue
        won += 1
        me = view.seat
        rng = random.Random(i)
        while (seat := GAME.to_act(state)) is not None:
            if seat == me:
                move = endgame.solve(GAME, state, me, 10**6)[1]  # a won position's
                # solve is cut short by its first winning move: cheap
            else:
                move, _ = choose(GAME, GAME.observe(state, seat), ("random", "basic")[won % 2],
                                 rng, 200)
            state = apply(state, move)
        assert GAME.settlement(state)["scores"][me] == 1
    assert won >= 3


def test_D21_with_passing_on_the_solver_plays_the_rules_and_keeps_the_value():
    """Two players with passing on: the solver's rules-state shape (no bitmask engine
    plays D21) finds a legal move of the minimax value once every card is known."""
    solved = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = deal(rng, transfer=True)
        while state.to_act is not None and (
                state.stock or sum(h.bit_count() for h in state.hands) + 2 * len(state.table) > 6):
            state = apply(state, rng.choice(GAME.legal_moves(state)))
        if state.to_act is None:
            continue
        seat = state.to_act
        value, move = endgame.solve(GAME, state, seat, 10**6)
        assert move in GAME.legal_moves(state) and value == brute(state, seat)
        assert brute(apply(state, move), seat) == value
        solved += 1
    assert solved > 10, solved
