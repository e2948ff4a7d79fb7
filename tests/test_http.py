"""Seeded random deals of every game through a real gunicorn, over HTTP with requests:
the public API must agree with itself at every step."""

from __future__ import annotations

import importlib
import random

import pytest
import requests

from rules.ai import complete
from schemas.registry import GAMES
from tests.openapi_check import assert_conforms

pytestmark = pytest.mark.http
DEALS = {"durak": 100, "tarot": 50, "ganjifa": 50}
MOVE = "/v1/games/{game}/move"
LEGAL = "/v1/games/{game}/legal-moves"


def post(session, server, template, game_id, body):
    r = session.post(server + template.format(game=game_id), json=body, timeout=30)
    assert_conforms("post", template, r)
    return r


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_deals_over_http(server, game_id):
    schemas = GAMES[game_id]
    game = schemas.game
    helper = importlib.import_module(f"tests.support.{game_id}")
    rng = random.Random(7)
    session = requests.Session()
    for deal_no in range(DEALS[game_id]):
        r = session.post(f"{server}/v1/games/{game_id}/deal", json={"seed": deal_no}, timeout=30)
        assert_conforms("post", "/v1/games/{game}/deal", r)
        assert r.status_code == 200
        state = r.json()["state"]
        for step in range(10_000):
            listed = post(session, server, LEGAL, game_id, {"state": state}).json()
            assert listed["to_act"] == state["to_act"]
            if not listed["moves"]:
                assert state["phase"] == "over" and state["result"] is not None
                break
            # The rules in-process list the same moves as the service.
            local = game.build(**schemas.requests["state"].load({"state": state})["state"])
            assert [schemas.dump_move(m) for m in game.legal_moves(local)] == listed["moves"]
            if step % 7 == 0:
                # A sample of other moves is refused with a reason and a rule.
                candidate = rng.choice(helper.candidate_moves(local, rng))
                if game.verify(local, candidate) is not None:
                    body = {"state": state, "move": schemas.dump_move(candidate)}
                    answer = post(session, server, MOVE, game_id, body).json()
                    assert answer["legal"] is False
                    assert answer["reason"]["code"] and answer["reason"]["rule"]
            chosen = complete(rng.choice(game.legal_moves(local)), rng)
            sent = {"state": state, "move": schemas.dump_move(chosen)}
            snapshot = repr(sent)
            answer = post(session, server, MOVE, game_id, sent).json()
            assert repr(sent) == snapshot  # the client's state is untouched
            assert answer["legal"] is True, (deal_no, step, answer)
            state = answer["state"]
            assert (answer["settlement"] is not None) == (state["phase"] == "over")
            if answer["settlement"] is not None:
                assert answer["settlement"] == state["result"]
                helper.check_final(
                    game.build(**schemas.requests["state"].load({"state": state})["state"]),
                    state["result"])
        else:
            pytest.fail(f"deal {deal_no} did not end")
