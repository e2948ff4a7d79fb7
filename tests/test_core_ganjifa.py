"""The compiled core's Ganjifa (rules/ai/core/ganjifa.c) held to rules/ganjifa, the
authority: move by move along thousands of seeded deals by day and by night (G1–G9), the
basic player's choices (rules/ai/ganjifa_basic.py), the settlement and the value, the
reading's tests of a world, and the search it runs for the strong level."""

from __future__ import annotations

import random

import pytest

from rules.ai import ganjifa_search, search
from rules.ai.ganjifa import basic_move, discard_options, value
from rules.ai.ganjifa_high import high_move
from rules.ai.ganjifa_reading import explains, lacks_by_basic, led_since, misfits
from rules.ai.ganjifa_search import modelled, reading
from rules.ai.levels import choose
from rules.ai.native import CORE
from rules.game import Move, Template
from rules.ganjifa import GAME, GanjifaState
from rules.ganjifa.view import hidden_places

position, pair = ganjifa_search.position, ganjifa_search.pair
PERIODS = ("day", "night")


def listed(state: GanjifaState) -> list[tuple]:
    """The rules' legal moves as the core lists them: a Dukal's answer (G8, a template) as
    ("discard", k, the hand it chooses from)."""
    out = []
    for m in GAME.legal_moves(state):
        if isinstance(m, Template):
            out.append(("discard", m.count, sum(1 << c for c in m.choose_from)))
        else:
            out.append(pair(m))
    return sorted(out, key=repr)


def next_moves(state: GanjifaState, rng: random.Random) -> list[Move]:
    """Moves to check at a state: basic's, a random legal one, and at a Dukal's answer the
    search's candidates (`discard_options`) too."""
    seat = state.to_act
    moves = [basic_move(state, seat, rng)]
    m = rng.choice(GAME.legal_moves(state))
    moves.append(m.sample(rng) if isinstance(m, Template) else m)
    return moves + discard_options(state, seat)


@pytest.mark.parametrize("period", PERIODS)
def test_G1_G9_the_core_lists_plays_and_chooses_as_the_rules_and_basic(period):
    """At every state of seeded deals, half their moves random and half basic's: the core
    lists the rules' legal moves (G5's opening, G6's follows, G8's Dukals and answers),
    chooses `basic_move`'s move, and each move checked (basic's, a random one, the
    candidates for an answer) leads to the rules' next position (G7's winner, G8's
    capture); at the end it settles as G9 and values as `value`."""
    moves = dukals = 0
    for seed in range(1000):
        rng = random.Random(seed)
        state = GAME.deal(random.Random(seed), period=period)
        while state.to_act is not None:
            pos = position(state)
            assert sorted(CORE.ganjifa_legal(pos), key=repr) == listed(state)
            tried = next_moves(state, rng)
            assert CORE.ganjifa_basic(pos) == pair(tried[0])
            for move in tried:
                after = GAME.apply(state, move)
                assert CORE.ganjifa_apply(pos, pair(move)) == (*position(after), after.to_act)
            dukals += tried[0].action == "dukal"
            state = GAME.apply(state, tried[rng.random() < 0.5])
            moves += 1
        settled = GAME.settlement(state)
        for seat in range(3):
            captured, winners, worth = CORE.ganjifa_settle(position(state), seat)
            assert captured == settled["captured"] and winners == settled["winners"]
            assert worth == pytest.approx(value(settled, seat))
    assert moves > 100_000 and dukals > 100


def part_played(seed: int, rng: random.Random, basic_share: float) -> GanjifaState:
    """Deal `seed` after up to 115 moves, each basic's with probability `basic_share`."""
    state = GAME.deal(random.Random(seed), period=PERIODS[seed % 2])
    for _ in range(rng.randrange(115)):
        if state.to_act is None:
            break
        if rng.random() < basic_share:
            move = basic_move(state, state.to_act, rng)
        else:
            m = rng.choice(GAME.legal_moves(state))
            move = m.sample(rng) if isinstance(m, Template) else m
        state = GAME.apply(state, move)
    return state


def test_G6_G9_the_core_playout_ends_where_basic_play_by_the_rules_does():
    """From part-played states (tricks and Dukal answers in progress), basic's play for
    every seat to the end in the core reaches the rules' end."""
    rng = random.Random(7)
    checked = 0
    for seed in range(300):
        state = part_played(seed, rng, basic_share=0.7)
        if state.to_act is None:
            continue
        end = state
        while end.to_act is not None:
            end = GAME.apply(end, basic_move(end, end.to_act, rng))
        assert CORE.ganjifa_play_out(position(state), (0, 0, 0)) == (*position(end), None)
        checked += 1
    assert checked > 250


def test_the_core_tests_a_world_as_the_reading_does():
    """`misfits` (a Dukal a seat that led a card would have led, G8; the broken clauses)
    and `explains` (basic plays the trick in progress) give the same in the core, on true
    deals and on worlds drawn from the views."""
    rng = random.Random(5)
    unexplained = broken = 0
    for seed in range(150):
        state = part_played(seed, rng, basic_share=0.9)
        if state.to_act is None:
            continue
        for seat in range(3):
            view = GAME.observe(state, seat)
            lacks, clauses, unlike = lacks_by_basic(view.public, seat)
            since = led_since(view.public, seat, unlike)
            core_clauses = [(s, o, c & GAME.deck.full, a, h) for s, o, c, a, h in clauses]
            for world in [state, *(GAME.sample(view, random.Random(k)) for k in range(4))]:
                assert CORE.ganjifa_misfits(position(world), since, core_clauses) == misfits(
                    world, since, clauses)
                for who, models in ((unlike, (0, 0, 0)), ((False,) * 3, (0, 0, 0)),
                                    ((True,) * 3, (1, 1, 1)), (unlike, (0, 1, 1))):
                    assert CORE.ganjifa_explains(position(world), seat, who, models) == \
                        explains(world, seat, who, models)
                unexplained += not explains(world, seat, unlike)
                broken += misfits(world, since, clauses) > 0
    assert unexplained > 50 and broken > 50


def views(seeds: range, every: int = 4):
    """Views of the seat to act along deals basic plays."""
    for seed in seeds:
        state = GAME.deal(random.Random(seed), period=PERIODS[seed % 2])
        k = 0
        while state.to_act is not None:
            if k % every == 0:
                yield state, GAME.observe(state, state.to_act)
            state = GAME.apply(state, basic_move(state, state.to_act, None))
            k += 1


def core_search(view, moves: list[Move], playouts: int, seed: int, seconds: float = 0.0):
    model = modelled(view)
    _, allowed = hidden_places(model)
    read = reading(model.public, view.seat)
    return CORE.ganjifa_search(
        position(model.public), view.seat, model.hidden, allowed, read.since,
        [(s, o, c & GAME.deck.full, a, h) for s, o, c, a, h in read.clauses], read.unlike,
        read.models, 3 * playouts if view.public.trick else 0, 8, [pair(m) for m in moves],
        playouts, seed, seconds)


def test_the_search_chooses_one_of_its_candidates_the_same_for_the_same_seed():
    searched = 0
    for state, view in views(range(2)):
        own = [m for m in GAME.legal_moves(state) if m.seat == view.seat]
        if len(own) < 2 or isinstance(own[0], Template):
            continue
        own = own[:10]
        found = core_search(view, own, 400, 7)
        best, playouts, worlds, cut, means = found
        assert 0 <= best < len(own) and not cut and len(means) == len(own)
        assert playouts >= min(400, len(own)) and worlds >= 1
        assert core_search(view, own, 400, 7) == found
        searched += 1
    assert searched > 20


def test_the_deadline_cuts_a_search_short_with_a_candidate():
    state = GAME.deal(random.Random(1))
    state = GAME.apply(state, basic_move(state, state.to_act, None))
    view = GAME.observe(state, state.to_act)
    own = GAME.legal_moves(state)
    best, playouts, _, cut, _ = core_search(view, own, 10**9, 1, 0.01)
    assert cut and 0 <= best < len(own) and playouts < 10**9


def test_strong_plays_legal_moves_through_the_core_and_without_it(monkeypatch):
    """The strong level's move comes from the core where it is built, and from the
    Python search where it is not (rules/ai/native.py's fallback): legal either way."""
    for state, view in list(views(range(2), every=9)):
        assert search.compiled(GAME, view) is not None
        move, _ = choose(GAME, view, "strong", random.Random(0), 50)
        assert GAME.verify(state, move) is None
    monkeypatch.setattr(ganjifa_search, "CORE", None)
    for state, view in list(views(range(1), every=15)):
        assert search.compiled(GAME, view) is None
        move, _ = choose(GAME, view, "strong", random.Random(0), 20)
        assert GAME.verify(state, move) is None


def test_G6_G8_the_core_high_player_plays_as_its_model():
    """The high player (rules/ai/ganjifa_high.py) in the core: the same move at every
    state of deals it plays against basic, and the same end when the playouts give it
    some seats."""
    rng = random.Random(3)
    checked = 0
    for seed in range(150):
        state = part_played(seed, rng, basic_share=0.6)
        if state.to_act is None:
            continue
        models = tuple(rng.randrange(2) for _ in range(3))
        end = state
        while end.to_act is not None:
            seat = end.to_act
            high = high_move(end, seat)
            assert CORE.ganjifa_high(position(end)) == pair(high)
            end = GAME.apply(end, high if models[seat] else basic_move(end, seat, None))
            checked += 1
        assert CORE.ganjifa_play_out(position(state), models) == (*position(end), None)
    assert checked > 5000
