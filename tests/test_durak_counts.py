"""Durak for every count, deck and option (D16–D25): seeded random deals through the rules,
every invariant checked at every step."""

from __future__ import annotations

import random

import pytest

from rules.durak import GAME, MOST_PLAYERS
from schemas.registry import GAMES
from tests.support import durak as helper
from tests.support import round_trip

DEALS = 300
CANDIDATES = 3  # moves of any seat and card tried against `verify` at each step
# D19, D21, D16: the variants, each with a further option so that every option is dealt.
VARIANTS = {
    "throw_in": {},
    "transfer": {"transfer": True, "known": True},
    "neighbours": {"throw_in": "neighbours", "first_bout": 5},
}
CASES = [(players, cards, variant) for cards in (24, 36, 52) for players in range(2, 7)
         if players <= MOST_PLAYERS[cards] for variant in VARIANTS]


@pytest.mark.parametrize(("players", "cards", "variant"), CASES)
def test_D16_to_D25_random_deals_keep_every_invariant(players, cards, variant):
    schemas = GAMES["durak"]
    options = {"players": players, "cards": cards, **VARIANTS[variant]}
    rng = random.Random(f"{players}-{cards}-{variant}")
    durak = draws = 0
    for deal_no in range(DEALS):
        state = GAME.deal(rng, **options)
        for _ in range(5_000):
            helper.check_state(state)
            legal = GAME.legal_moves(state)
            if not legal:
                break
            assert all(m.seat == GAME.to_act(state) for m in legal)
            for m in legal:
                assert GAME.verify(state, m) is None, (deal_no, m)
            for m in rng.sample(helper.candidate_moves(state, rng), CANDIDATES):
                assert (GAME.verify(state, m) is None) == (m in legal), (deal_no, m)
            if deal_no % 60 == 0:
                assert round_trip(schemas, state) == state
            state, events = GAME.play(state, rng.choice(legal))
            assert events
        else:
            pytest.fail(f"deal {deal_no} did not end")  # D24: every deal ends
        settlement = GAME.settlement(state)
        assert settlement is not None
        helper.check_final(state, settlement)
        durak += settlement["durak"] is not None
        draws += settlement["durak"] is None
        assert round_trip(schemas, state) == state
    assert durak + draws == DEALS and durak  # the deals end, most with a durak
