"""A Durak deal's history, when the deal asks for it (rules/durak/history.py): the bouts as
everybody saw them, kept by every move, read back whole, refused where it disagrees with
the state (D4, D9, D10, D11, D18, D21), and kept in every seat's view."""

from __future__ import annotations

import copy
import random

import pytest

from rules.durak import GAME, named
from rules.game import InvalidState
from schemas.registry import GAMES
from tests.support import round_trip
from tests.support.durak import apply, deal

SCHEMAS = GAMES["durak"]
DEALS = [{}, {"cards": 24}, {"cards": 52}, {"players": 3}, {"players": 4, "transfer": True},
         {"players": 2, "transfer": True}, {"players": 6, "throw_in": "neighbours"}]


def played(options: dict, seed: int, steps: int | None = None):
    """A deal with history played by random moves, `steps` of them or to its end."""
    rng = random.Random(seed)
    state = deal(rng, history=True, **options)
    k = 0
    while GAME.to_act(state) is not None and (steps is None or k < steps):
        state = apply(state, rng.choice(GAME.legal_moves(state)))
        k += 1
    return named(state)


@pytest.mark.parametrize("options", DEALS)
def test_D10_D11_D21_every_bout_is_kept_as_played(options):
    """Along random deals of every count and option: the bouts beaten off are the discard
    pile card for card (D11), a bout taken went to its defender's hand (D10), the cards
    passed on are attack cards of their bout (D21), and each state reads back whole."""
    bouts = 0
    for seed in range(12):
        state = named(deal(random.Random(seed), history=True, **options))
        rng = random.Random(seed)
        while GAME.to_act(state) is not None:
            before = state
            state = named(apply(state, rng.choice(GAME.legal_moves(state))))
            if len(state.history) > len(before.history):
                (b,) = state.history[len(before.history):]
                assert b.table == before.table and b.taken == before.taking
                assert b.passed == before.passed_on
                assert b.defender == GAME.defender(before)
                cards = 0
                for a, d in b.table:
                    cards |= 1 << a | (1 << d if d >= 0 else 0)
                if b.taken:
                    assert state.hands[b.defender] & cards == cards  # D10
                else:
                    assert state.discard & cards == cards  # D11
                assert state.passed_on == ()
                bouts += 1
            beaten = 0
            for b in state.history:
                if not b.taken:
                    for a, d in b.table:
                        beaten |= 1 << a | 1 << d
            assert beaten == state.discard
            assert round_trip(SCHEMAS, state) == state
    assert bouts > 50


def test_D21_cards_passed_on_are_kept_in_the_bout_and_then_in_its_record():
    passed = 0
    for seed in range(40):
        state = named(deal(random.Random(seed), history=True, players=3, transfer=True))
        rng = random.Random(seed)
        while GAME.to_act(state) is not None:
            moves = GAME.legal_moves(state)
            transfers = [m for m in moves if m.action == "transfer"]
            move = transfers[0] if transfers else rng.choice(moves)
            after = named(apply(state, move))
            if move.action == "transfer":
                assert after.passed_on == (*state.passed_on, move.card)
                passed += 1
            state = after
        assert sum(len(b.passed) for b in state.history) >= 0
    assert passed > 10


def test_without_the_option_a_state_has_no_history():
    state = deal(random.Random(1))
    body = SCHEMAS.dump_state(state)
    assert "history" not in body and "passed_on" not in body
    assert "history" in SCHEMAS.dump_state(deal(random.Random(1), history=True))


def test_every_seat_sees_the_history_whole():
    state = played({}, 4, 60)
    assert state.history
    for seat in range(2):
        view = SCHEMAS.dump_view(GAME.observe(state, seat))
        assert view["history"] == SCHEMAS.dump_state(state)["history"]


def refused(body: dict) -> list[str]:
    """The field paths of the problems of a JSON state."""
    loaded = SCHEMAS.requests["state"].load({"state": body})["state"]
    with pytest.raises(InvalidState) as e:
        GAME.build(**loaded)
    return [p.field for p in e.value.problems]


def state_with_bouts(seed: int = 4, steps: int = 70) -> dict:
    state = played({}, seed, steps)
    assert len(state.history) >= 3 and any(not b.taken for b in state.history)
    return SCHEMAS.dump_state(state)


def test_D11_a_discard_pile_that_is_not_the_bouts_beaten_off_is_refused():
    body = state_with_bouts()
    beaten = next(i for i, b in enumerate(body["history"]) if not b["taken"])
    damaged = copy.deepcopy(body)
    damaged["history"][beaten]["taken"] = True  # its cards in the discard pile, unexplained
    assert "history" in refused(damaged)


def test_D4_a_defence_that_does_not_beat_its_attack_is_refused():
    body = state_with_bouts()
    i = next(i for i, b in enumerate(body["history"]) if not b["taken"])
    damaged = copy.deepcopy(body)
    entry = damaged["history"][i]["table"][0]
    entry["attack"], entry["defense"] = entry["defense"], entry["attack"]
    assert f"history.{i}.table.0.defense" in refused(damaged)


def test_D11_a_bout_beaten_off_with_an_unbeaten_card_is_refused():
    body = state_with_bouts()
    i = next(i for i, b in enumerate(body["history"]) if b["taken"]
             and any(e["defense"] is None for e in b["table"]))
    damaged = copy.deepcopy(body)
    damaged["history"][i]["taken"] = False
    assert f"history.{i}.table" in " ".join(refused(damaged))


def test_D18_with_two_players_the_attackers_follow_the_bouts():
    body = state_with_bouts()
    damaged = copy.deepcopy(body)
    damaged["history"][1]["attacker"], damaged["history"][1]["defender"] = (
        damaged["history"][1]["defender"], damaged["history"][1]["attacker"])
    assert {"history.1.attacker", "history.2.attacker"} & set(refused(damaged))


def test_D21_no_card_is_passed_on_where_the_deal_does_not_pass_on():
    body = state_with_bouts()
    damaged = copy.deepcopy(body)
    damaged["history"][0]["passed"] = [damaged["history"][0]["table"][0]["attack"]]
    assert "history.0.passed" in refused(damaged)


def test_a_history_needs_its_bouts_cards_passed_on_and_the_other_way_round():
    body = state_with_bouts()
    damaged = copy.deepcopy(body)
    del damaged["passed_on"]
    assert refused(damaged) == ["passed_on"]
    damaged = copy.deepcopy(body)
    del damaged["history"]
    assert refused(damaged) == ["history"]


@pytest.mark.parametrize("options", DEALS)
def test_D10_the_cards_the_history_shows_picked_up_are_in_their_hands(options):
    """What the AI reads from the history (rules/ai/durak_search.py `picked_up`): cards
    picked up and not laid since, in the very hand that took them, and among the cards
    the deal's `known` lists there (which adds the cards seen drawn, D2, D17)."""
    from rules.ai.durak_search import picked_up
    found = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = named(deal(rng, history=True, known=True, **options))
        while GAME.to_act(state) is not None:
            for seat, held in enumerate(picked_up(state)):
                assert state.hands[seat] & held == held
                known = 0
                for c in state.known[seat]:
                    known |= 1 << c
                assert known & held == held
                found += held.bit_count()
            state = named(apply(state, rng.choice(GAME.legal_moves(state))))
    assert found > 100
