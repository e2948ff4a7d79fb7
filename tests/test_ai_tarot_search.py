"""The strong Tarot level's own material: the écarts it weighs (T5, T20), held to the
rules and fair by construction (the move depends on the seat's view and the seed alone)."""

from __future__ import annotations

import random

import pytest

from rules.ai.levels import choose
from rules.ai.tarot import basic_move
from rules.ai.tarot_ecart import ecart_options
from rules.ai.tarot_reading import play_read, read_sample
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



def played_states(players: int, seeds):
    """Every state of seeded deals of basic seats from the first card played on."""
    for seed in seeds:
        state = GAME.deal(random.Random(seed), players=players)
        while (seat := GAME.to_act(state)) is not None:
            if state.phase == "play" and (state.tricks or state.trick):
                yield state
            state = GAME.apply(state, basic_move(state, seat, random.Random(0)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_T9_T22_the_play_read_as_basics_never_rules_out_a_card_basic_holds(players):
    """`play_read` reads the tricks as basic plays them: along deals of basic seats, no
    card it rules out of a hand is in that hand, and it rules out cards beyond the voids
    (T9) the rules' own sampler keeps."""
    read = 0
    for state in played_states(players, range(12)):
        for seat in range(players):
            lacks = play_read(GAME.observe(state, seat))
            assert lacks[seat] == 0
            for s in range(players):
                assert not lacks[s] & state.hands[s], (state, seat, s)
            read += sum(bin(m).count("1") for m in lacks)
    assert read


def test_T9_a_lead_below_the_king_says_its_leader_holds_no_king():
    """Basic leads its Kings first and the lowest card of a suit: a seat that led the 2 of
    a suit holds no King and not the 1 of that suit in any world the search draws."""
    for state in played_states(4, range(40)):
        if len(state.trick) != 1 or state.trick[0] >= 56 or state.trick[0] % 14 == 13:
            continue
        leader, led = state.leader, state.trick[0]
        seat = (leader + 1) % 4
        view = GAME.observe(state, seat)
        for i in range(20):
            world = read_sample(view, random.Random(i))
            assert not world.hands[leader] & KINGS
            assert not world.hands[leader] & SUIT_MASK[led // 14] & ((1 << led) - 1)
        return
    raise AssertionError("no lead below a King in 40 deals")


def test_T22_a_seat_that_let_the_called_card_win_unplayed_does_not_hold_it():
    """Its holder plays the called card on a trick it wins (basic's partner shows itself):
    a seat that followed the called suit below the called card without playing it does not
    hold it in the worlds drawn."""
    for state in played_states(5, range(80)):
        called = state.called
        trick = state.trick
        if (called is None or len(trick) < 2 or called in trick or trick[0] >= 56
                or trick[0] // 14 != called // 14 or max(trick) >= 56
                or any(called in cards for _, cards, _ in state.tricks)):
            continue
        follower = (state.leader + 1) % 5
        if trick[1] // 14 != called // 14 or max(trick[:2]) > called:
            continue
        seat = next(s for s in range(5) if s not in (follower, state.leader))
        view = GAME.observe(state, seat)
        for i in range(20):
            assert not read_sample(view, random.Random(i)).hands[follower] >> called & 1
        return
    raise AssertionError("no trick of the called suit followed below it in 80 deals")
