"""The strong Tarot level's own material: the écarts it weighs (T5, T20), held to the
rules and fair by construction (the move depends on the seat's view and the seed alone)."""

from __future__ import annotations

import random

import pytest

from rules.ai.levels import choose
from rules.ai.tarot import basic_move, ecart_options
from rules.tarot import GAME, KINGS, ORDINARY, SUIT_MASK


def bidding_states(players: int, seeds):
    """Every bidding state of seeded deals whose auction basic plays."""
    for seed in seeds:
        state = GAME.deal(random.Random(seed), players=players)
        while state.phase == "bidding" and (seat := GAME.to_act(state)) is not None:
            yield state
            state = GAME.apply(state, basic_move(state, seat, random.Random(0)))


def discard_states(players: int, seeds):
    """The écart of seeded deals in which the first seat to bid takes a prise and the
    others bid as basic (T4, T5)."""
    for seed in seeds:
        state = GAME.deal(random.Random(seed), players=players)
        first = GAME.to_act(state)
        while state.phase not in ("discard", "play", "over"):
            seat = GAME.to_act(state)
            move = basic_move(state, seat, random.Random(0))
            if state.phase == "bidding" and seat == first:
                move = move._replace(contract="prise")
            state = GAME.apply(state, move)
        if state.phase == "discard":
            yield state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_T5_T20_every_ecart_weighed_is_legal_and_voids_a_suit_where_it_can(players):
    """The écarts the search weighs beside basic's are legal (T5: no King, no bout, no
    trump while ordinary cards remain; T20: the chien's size), distinct, and among them a
    suit without a King is made void whenever its cards fit in the écart."""
    checked = voided = 0
    for state in discard_states(players, range(60)):
        taker = state.taker
        hand = state.hands[taker]
        options = ecart_options(state, taker)
        assert len(set(options)) == len(options)
        for move in options:
            assert GAME.verify(state, move) is None, move
        size = state.chien_shown.bit_count()
        voidable = [s for s in range(4) if not hand & SUIT_MASK[s] & KINGS
                    and 0 < (hand & SUIT_MASK[s]).bit_count() <= size]
        if options and voidable:
            left = [hand & ~sum(1 << c for c in m.cards) for m in options]
            assert any(not rest & SUIT_MASK[s] for rest in left for s in voidable)
            voided += 1
        checked += bool(options)
        if (hand & ORDINARY & ~KINGS).bit_count() <= size:
            assert options == []
    assert checked >= 10 and voided >= 5


def test_T5_the_search_weighs_the_ecarts_proposed_beside_basics():
    """At the écart the strong level's root candidates are basic's écart and the ones
    `ecart_options` proposes, not random completions of the template (T5)."""
    from rules.ai import search

    checked = 0
    for state in discard_states(4, range(20)):
        taker = state.taker
        proposed = ecart_options(state, taker)
        moves = search.candidates(GAME, state, taker, random.Random(0))
        assert moves[0] == basic_move(state, taker, random.Random(0))
        if proposed:
            assert set(moves) == {moves[0], *proposed}
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("players", [3, 4, 5])
def test_T4_T5_strong_bid_and_ecart_are_the_same_for_twin_states(players):
    """States that differ only in cards hidden from the seat get the same strong bid and
    écart for the same seed: the écarts weighed are read from the taker's own cards."""
    states = [s for s in bidding_states(players, range(4))][:6]
    states += list(discard_states(players, range(8)))[:4]
    differing = 0
    for i, state in enumerate(states):
        seat = GAME.to_act(state)
        view = GAME.observe(state, seat)
        twin = GAME.sample(view, random.Random(100 + i))
        assert GAME.observe(twin, seat) == view
        differing += twin != state
        moves = [choose(GAME, GAME.observe(s, seat), "strong", random.Random(i), 10_000,
                        playouts=9)[0] for s in (state, twin)]
        assert moves[0] == moves[1]
        assert GAME.verify(state, moves[0]) is None
    assert differing >= 8

