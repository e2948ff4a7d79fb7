"""What a newcomer's first mistakes are answered, over a real gunicorn: a state of another
game is one problem naming its `game`; a card left null, a seed out of range and a game id
in capitals each get a message that says what to send."""

from __future__ import annotations

import copy

import pytest
import requests

pytestmark = pytest.mark.http
PROBLEM = "application/problem+json"
INT64 = "between -9223372036854775808 and 9223372036854775807"


def post(server: str, path: str, body: dict) -> requests.Response:
    return requests.post(server + path, json=body, timeout=30)


def only_error(r: requests.Response) -> dict:
    assert r.status_code == 422 and r.headers["Content-Type"] == PROBLEM, r.text
    problem = r.json()
    assert problem["detail"] == "1 field(s) break the schema.", problem
    (error,) = problem["errors"]
    return error


@pytest.fixture(scope="module")
def deal_states(server) -> dict[str, dict]:
    return {game: post(server, f"/v1/games/{game}/deal", {"seed": 1}).json()["state"]
            for game in ("durak", "tarot", "ganjifa")}


@pytest.mark.parametrize(("sent", "to", "action"), [
    ("tarot", "durak", "move"), ("tarot", "durak", "legal-moves"),
    ("durak", "ganjifa", "view"), ("ganjifa", "tarot", "render"), ("durak", "tarot", "ai-move"),
])
def test_a_state_of_another_game_is_one_problem_naming_state_game(server, deal_states, sent, to,
                                                                  action):
    body = {"state": deal_states[sent], "seat": 0, "move": {"seat": 0, "action": "take"}}
    error = only_error(post(server, f"/v1/games/{to}/{action}", body))
    assert error["field"] == "state.game" and error["pointer"] == "/state/game"
    assert error["message"] == (f"This is a {sent} state, sent to {to}'s endpoint: send it "
                                f"to /v1/games/{sent}/{action}.")


def test_a_record_of_another_game_is_one_problem_naming_its_game(server):
    record = {"game": "tarot", "deal": {"seed": 1}, "moves": [{"seat": 0, "action": "bid",
                                                               "contract": "pass"}]}
    error = only_error(post(server, "/v1/games/durak/replay", record))
    assert error["field"] == "game"
    assert "tarot game record" in error["message"] and "/v1/games/tarot/replay" in error["message"]
    # Sent where it belongs, the same record is replayed.
    assert post(server, "/v1/games/tarot/replay", record).json()["legal"] is True


def test_an_unknown_game_in_a_state_is_one_problem_too(server, deal_states):
    state = {**deal_states["durak"], "game": "chess"}
    error = only_error(post(server, "/v1/games/durak/legal-moves", {"state": state}))
    assert error == {"field": "state.game", "pointer": "/state/game",
                     "message": "Must be 'durak' at this endpoint, not 'chess'."}


def test_a_null_card_is_said_as_json_says_it(server, deal_states):
    state = copy.deepcopy(deal_states["durak"])
    state["hands"][0][0] = None
    error = only_error(post(server, "/v1/games/durak/legal-moves", {"state": state}))
    assert error["field"] == "state.hands.0.0"
    assert error["message"] == "A card code is needed here, not null."
    state["hands"][0][0] = 12
    assert only_error(post(server, "/v1/games/durak/legal-moves", {"state": state}))[
        "message"] == "Must be a card code (a string), not 12."
    state["hands"][0][0] = "ZZ"
    assert only_error(post(server, "/v1/games/durak/legal-moves", {"state": state}))[
        "message"] == 'Unknown card code "ZZ".'


@pytest.mark.parametrize("seed", [10**29, -(10**29), 2**63, 1.5, "1"])
def test_a_seed_out_of_range_says_the_range(server, seed):
    error = only_error(post(server, "/v1/games/durak/deal", {"seed": seed}))
    assert error["field"] == "seed" and INT64 in error["message"], error


def test_a_negative_seed_deals_hands_of_its_own(server):
    """Python seeds with a negative integer's absolute value; the service reads a negative
    seed as its 64-bit two's complement, so -1 and 1 deal apart, each reproducibly."""
    def hands(seed: int) -> list:
        return post(server, "/v1/games/tarot/deal", {"seed": seed}).json()["state"]["hands"]

    assert hands(-1) == hands(-1) and hands(-1) != hands(1)
    assert hands(-(2**63)) != hands(0) and hands(2**63 - 1) != hands(-1)


def test_a_game_id_in_any_case_is_the_game(server, deal_states):
    r = requests.get(f"{server}/v1/games/Durak", timeout=30)
    assert r.status_code == 200 and r.json()["id"] == "durak"
    assert post(server, "/v1/games/TAROT/deal", {"seed": 1}).json()["state"] == deal_states["tarot"]
    listed = post(server, "/v1/games/GanJifa/legal-moves", {"state": deal_states["ganjifa"]})
    assert listed.status_code == 200 and listed.json()["moves"]
    # An id that is no game's, in any case, is a 404 that names the games.
    missing = requests.get(f"{server}/v1/games/Chess", timeout=30)
    assert missing.status_code == 404
    assert missing.json()["detail"] == "No game 'Chess'; the games are durak, tarot, ganjifa."
