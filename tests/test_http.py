"""Seeded random deals of every game through a real gunicorn, over HTTP with requests:
at every step the service lists the moves the rules list, accepts the chosen one and
answers the state the rules reach."""

from __future__ import annotations

import random

import pytest
import requests

from rules.ai import complete
from schemas.registry import GAMES
from tests.openapi_check import assert_conforms
from tests.support.games import TESTS

pytestmark = pytest.mark.http
MOVE = "/v1/games/{game}/move"
LEGAL = "/v1/games/{game}/legal-moves"
CONFORM_EVERY = 25  # validating against openapi.yaml costs tens of ms for a big state
ILLEGAL_EVERY = 5


def post(session, server, template, game_id, body, conform):
    r = session.post(server + template.format(game=game_id), json=body, timeout=30)
    if conform:
        assert_conforms("post", template, r)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_deals_over_http(server, game_id):
    schemas = GAMES[game_id]
    game = schemas.game
    helper = TESTS[game_id]
    rng = random.Random(7)
    session = requests.Session()
    for deal_no in range(helper.http_deals):
        r = session.post(f"{server}/v1/games/{game_id}/deal", json={"seed": deal_no}, timeout=30)
        assert_conforms("post", "/v1/games/{game}/deal", r)
        state = r.json()["state"]
        local = game.deal(random.Random(deal_no))
        assert schemas.dump_state(local) == state  # the seed deals the same cards
        for step in range(10_000):
            helper.check_state(local)
            conform = step % CONFORM_EVERY == 0
            listed = post(session, server, LEGAL, game_id, {"state": state}, conform)
            moves = game.legal_moves(local)
            assert listed == {"to_act": game.to_act(local),
                              "moves": [schemas.dump_move(m) for m in moves]}
            if not moves:
                assert state["phase"] == "over" and state["result"] is not None
                break
            if step % ILLEGAL_EVERY == 0:
                # Another move is refused with a reason and a rule, as the rules refuse it.
                candidate = rng.choice(helper.candidate_moves(local, rng))
                reason = game.verify(local, candidate)
                if reason is not None:
                    body = {"state": state, "move": schemas.dump_move(candidate)}
                    answer = post(session, server, MOVE, game_id, body, conform)
                    assert answer["legal"] is False
                    assert (answer["reason"]["code"], answer["reason"]["rule"]) == (
                        reason.code, reason.rule)
            chosen = complete(rng.choice(moves), rng)
            sent = {"state": state, "move": schemas.dump_move(chosen)}
            snapshot = repr(sent)
            answer = post(session, server, MOVE, game_id, sent, conform)
            assert repr(sent) == snapshot  # the client's state is untouched
            assert answer["legal"] is True, (deal_no, step, answer)
            local = game.apply(local, chosen)
            state = answer["state"]
            assert state == schemas.dump_state(local)
            assert answer["settlement"] == game.settlement(local) == state["result"]
        else:
            pytest.fail(f"deal {deal_no} did not end")
        helper.check_final(local, state["result"])
