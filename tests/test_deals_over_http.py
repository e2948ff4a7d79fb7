"""Deals played to their end through a real gunicorn, over HTTP with requests: seeded
random deals of every game, where at every step the service lists the moves the rules list,
accepts the chosen one and answers the state the rules reach; and Durak's deals of each
count, deck and option (API.md, "Durak for 2 to 6 players") through legal-moves, move,
view and ai-move."""

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


# -- Durak for 2 to 6 players, 24/36/52 cards and passing (D16-D25) ---------------------------

BASE = "/v1/games/durak"
DEALS = [
    {"players": 2, "cards": 24, "transfer": True},
    {"players": 3},
    {"players": 4, "transfer": True, "known": True},
    {"players": 5, "cards": 52, "throw_in": "neighbours", "first_bout": 5},
    {"players": 6, "transfer": True, "known": True},
]


def durak_post(s: requests.Session, server: str, path: str, body: dict) -> requests.Response:
    return s.post(f"{server}{BASE}/{path}", json=body, timeout=30)


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: f"{d['players']}p")
def test_D16_to_D25_a_deal_of_each_count_played_to_its_end(server, deal):
    with requests.Session() as s:
        r = durak_post(s, server, "deal", {"seed": 5, **deal})
        assert r.status_code == 200
        state = r.json()["state"]
        players = deal["players"]
        assert len(state["hands"]) == players
        assert sum(map(len, state["hands"])) + len(state["stock"]) == deal.get("cards", 36)
        assert ("out" in state) == (players > 2) and ("defender" in state) == (players > 2)
        assert state.get("transfer", False) == deal.get("transfer", False)
        assert ("known" in state) == deal.get("known", False)
        if players * 6 == deal.get("cards", 36):
            assert state["trump_card"] in state["hands"][-1]  # D17: shown, kept
        transfers = 0
        for n in range(600):
            listed = durak_post(s, server, "legal-moves", {"state": state}).json()
            if not listed["moves"]:
                break
            seat = listed["to_act"]
            view = durak_post(s, server, "view", {"state": state, "seat": seat}).json()["view"]
            assert view["hands"][seat] == state["hands"][seat]
            assert view.get("known") == state.get("known")
            if n % 5 == 0:
                move = durak_post(s, server, "ai-move", {"state": state, "level": "basic",
                                                   "seed": n}).json()["move"]
            else:
                move = listed["moves"][n * 7 % len(listed["moves"])]
            transfers += move["action"] == "transfer"
            answer = durak_post(s, server, "move", {"state": state, "move": move}).json()
            assert answer["legal"] is True, (move, answer)
            state = answer["state"]
        result = state["result"]
        assert result["players"] == players and sum(result["scores"]) == 0
        assert sorted(s for group in result["out"] for s in group) == sorted(
            s for s in range(players) if s != result["durak"])
        assert answer["settlement"] == result
        if deal.get("transfer"):
            legal = durak_post(s, server, "move", {"state": state, "move": move}).json()
            assert legal["legal"] is False and legal["reason"]["code"] == "deal_over"
