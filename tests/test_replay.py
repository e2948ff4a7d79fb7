"""Game records and `POST /v1/games/{game}/replay` (API.md, "Additions: Game records and
replay"): the deck a deal answers deals it again, every record example of openapi.yaml
replays to the end of its deal, a replay answers exactly what the moves sent one by one to
`/move` answer, the first illegal move is named with the state before it, and bad input is
a problem pointing at the field at fault."""

from __future__ import annotations

import copy

import pytest
import requests

from schemas.registry import GAMES
from service.app import TestingConfig, create_app
from tests.openapi_check import assert_conforms, assert_request_conforms, registry, spec
from tests.support.games import TESTS
from tests.support.records import record

REPLAY = "/v1/games/{game}/replay"
DEAL = "/v1/games/{game}/deal"


def replay(client, game: str, body: dict, **kwargs):
    return client.post(f"/v1/games/{game}/replay", json=body, **kwargs)


@pytest.fixture(scope="module")
def records() -> dict[str, dict]:
    """A whole deal of each game played by the basic AI (Tarot's with a contract played)."""
    return {game: record(game, {"seed": TESTS[game].record_seed}) for game in GAMES}


def examples() -> dict[str, dict]:
    return {name: e["value"] for name, e in spec()["components"]["examples"].items()
            if name.endswith("Record")}


# -- the deck a deal answers -----------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_deal_answers_the_deck_that_deals_it_again(client, game):
    """Seeded and random deals of every game, Tarot with its dealer and Ganjifa with its
    period: {"deck": …} (with the same options) deals the very same state."""
    for options in TESTS[game].deal_options:
        for seed in ({"seed": 5}, {}):
            first = assert_conforms("POST", DEAL, 200, client.post(
                f"/v1/games/{game}/deal", json={**options, **seed}))
            assert sorted(first["deck"]) == sorted(GAMES[game].game.deck.codes)
            again = client.post(f"/v1/games/{game}/deal",
                                json={**options, "deck": first["deck"]}).json
            assert again == first
    stacked = list(reversed(GAMES[game].game.deck.codes))
    assert client.post(f"/v1/games/{game}/deal", json={"deck": stacked}).json["deck"] == stacked


def test_a_seeded_deal_is_unchanged_by_answering_its_deck(client):
    """The deck is the shuffle `deal` always made: the same seed, the same state as the
    rules deal in process."""
    import random

    for game, schemas in GAMES.items():
        dealt = client.post(f"/v1/games/{game}/deal", json={"seed": 9}).json["state"]
        assert dealt == schemas.dump_state(schemas.game.deal(random.Random(9)))


# -- records ---------------------------------------------------------------------------------


def test_record_examples_are_records_that_replay_to_the_end(client):
    """openapi.yaml's example of each game is a GameRecord, sent to /replay as it is, and its
    moves play the whole deal."""
    from jsonschema import Draft202012Validator

    records_schema = Draft202012Validator(
        {"$ref": "urn:cardavia:openapi#/components/schemas/GameRecord"}, registry=registry())
    found = examples()
    assert {e["game"] for e in found.values()} == set(GAMES)
    for rec in found.values():
        records_schema.validate(rec)
        assert_request_conforms("POST", REPLAY, rec)
        answer = assert_conforms("POST", REPLAY, 200, replay(client, rec["game"], rec))
        assert answer["legal"] and answer["played"] == len(rec["moves"])
        assert answer["state"]["phase"] == "over"
        assert answer["settlement"] is not None
        assert answer["settlement"] == answer["state"]["result"]


# -- replay against /move --------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_replay_answers_what_move_answers_one_by_one(client, records, game):
    rec = records[game]
    answer = replay(client, game, {"deal": rec["deal"], "moves": rec["moves"], "include": "all"})
    # Checked against openapi.yaml for one game: a hundred Ganjifa states take seconds.
    answer = assert_conforms("POST", REPLAY, 200, answer) if game == "durak" else answer.json
    state = client.post(f"/v1/games/{game}/deal", json=rec["deal"]).json["state"]
    events, states = [], []
    for move in rec["moves"]:
        step = client.post(f"/v1/games/{game}/move", json={"state": state, "move": move}).json
        assert step["legal"]
        events.append(step["events"])
        states.append(step["state"])
        state = step["state"]
    assert answer == {"legal": True, "played": len(rec["moves"]), "state": state,
                      "settlement": step["settlement"], "events": events, "states": states}
    final = replay(client, game, {"deal": rec["deal"], "moves": rec["moves"]}).json
    assert final == {"legal": True, "played": len(rec["moves"]), "state": state,
                     "settlement": step["settlement"]}


@pytest.mark.parametrize("game", GAMES)
def test_replay_from_a_state_goes_on_from_it(client, records, game):
    """A run of moves from a state in the middle of the deal, its input not mutated."""
    rec = records[game]
    half = len(rec["moves"]) // 2
    middle = replay(client, game, {"deal": rec["deal"], "moves": rec["moves"][:half]}).json
    given = copy.deepcopy(middle["state"])
    body = {"state": given, "moves": rec["moves"][half:]}
    rest = assert_conforms("POST", REPLAY, 200, replay(client, game, body))
    assert given == middle["state"]
    whole = replay(client, game, {"deal": rec["deal"], "moves": rec["moves"]}).json
    assert rest == {**whole, "played": len(rec["moves"]) - half}
    none = replay(client, game, {"state": given, "moves": [], "include": "all"}).json
    assert none == {"legal": True, "played": 0, "state": given,
                    "settlement": given["result"], "events": [], "states": []}


@pytest.mark.parametrize("game", GAMES)
def test_first_illegal_move_is_named_with_the_state_before_it(client, records, game):
    rec = records[game]
    at = len(rec["moves"]) // 3
    moves = copy.deepcopy(rec["moves"])
    players = GAMES[game].game.players
    moves[at]["seat"] = (moves[at]["seat"] + 1) % players  # not that seat's turn
    moves.append(rec["moves"][0])  # never reached
    before = replay(client, game, {"deal": rec["deal"], "moves": moves[:at]}).json["state"]
    for include in ("final", "all"):
        answer = replay(client, game, {"deal": rec["deal"], "moves": moves, "include": include})
        answer = assert_conforms("POST", REPLAY, 200, answer) if include == "final" else \
            answer.json
        assert answer["legal"] is False
        assert answer["played"] == answer["at"] == at
        assert answer["move"] == moves[at]
        assert answer["reason"]["code"] == "not_your_turn"
        assert answer["state"] == before
        if include == "all":
            assert len(answer["states"]) == len(answer["events"]) == at
            assert answer["states"][-1] == before


@pytest.mark.parametrize("game", GAMES)
def test_D14_T9_G9_a_move_after_the_deal_end_is_deal_over(client, records, game):
    rec = records[game]
    moves = [*rec["moves"], rec["moves"][-1]]
    answer = replay(client, game, {"deal": rec["deal"], "moves": moves}).json
    assert answer["legal"] is False and answer["at"] == len(rec["moves"])
    assert answer["reason"]["code"] == "deal_over"
    # API.md's rule for a move once the deal is over (T3 for an annulled Tarot deal)
    assert answer["reason"]["rule"] == TESTS[game].over_rule
    assert answer["state"]["phase"] == "over"


def test_reason_messages_follow_the_language(client, records):
    rec = records["durak"]
    moves = [*rec["moves"], rec["moves"][-1]]
    r = replay(client, "durak", {"deal": rec["deal"], "moves": moves},
               headers={"Accept-Language": "hu"})
    assert r.headers["Content-Language"] == "hu"
    en = replay(client, "durak", {"deal": rec["deal"], "moves": moves}).json
    assert r.json["reason"]["code"] == en["reason"]["code"]
    assert r.json["reason"]["message"] != en["reason"]["message"]


# -- bad input -------------------------------------------------------------------------------


def bad_bodies(rec: dict, state: dict) -> list[tuple[dict, list[str] | None]]:
    """Bodies that break the request, each with the pointers its problem must name."""
    moves = rec["moves"]
    unknown_card = copy.deepcopy(moves)
    unknown_card[17]["card"] = "XX"
    no_seat = copy.deepcopy(moves)
    del no_seat[3]["seat"]
    deck = [*rec["deal"]["deck"][:-1], rec["deal"]["deck"][0]]
    return [
        ({"deal": rec["deal"], "moves": unknown_card}, ["/moves/17/card"]),
        ({"deal": rec["deal"], "moves": no_seat}, ["/moves/3/seat"]),
        ({"deal": rec["deal"], "moves": [{"seat": 0, "action": "fly"}]}, ["/moves/0/action"]),
        ({"deal": rec["deal"], "state": state, "moves": moves}, ["/deal", "/state"]),
        ({"moves": moves}, [""]),
        ({"deal": rec["deal"]}, ["/moves"]),
        ({"deal": rec["deal"], "moves": moves * 20}, ["/moves"]),
        ({"deal": rec["deal"], "moves": moves, "include": "some"}, ["/include"]),
        ({"game": "tarot", "deal": rec["deal"], "moves": moves}, ["/game"]),
        ({"deal": {"seed": "1"}, "moves": moves}, ["/deal/seed"]),
        ({"deal": {"dealer": 1}, "moves": moves}, ["/deal/dealer"]),
        ({"deal": {"deck": deck}, "moves": moves}, ["/deal/deck/35", "/deal/deck"]),
        ({"state": {**state, "attacker": 1}, "moves": moves}, None),
        ({"deal": rec["deal"], "moves": moves, "extra": 1}, ["/extra"]),
    ]


def test_bad_input_is_a_problem_naming_the_field(client, records):
    rec = record("durak", {"seed": 3}, by_deck=True)
    state = client.post("/v1/games/durak/deal", json=rec["deal"]).json["state"]
    assert len(rec["moves"]) * 20 > 1000
    for body, pointers in bad_bodies(rec, state):
        r = replay(client, "durak", body)
        problem = assert_conforms("POST", REPLAY, 422, r)
        found = [e["pointer"] for e in problem["errors"]]
        if pointers is None:  # an invalid state: the state's fields
            assert problem["type"] == "/problems/invalid-state"
            assert all(p.startswith("/state") for p in found), found
        else:
            assert found == pointers, (body.keys(), found)
    assert_conforms("POST", REPLAY, 400, client.post("/v1/games/durak/replay", data=b"{"))
    assert_conforms("POST", REPLAY, 404, replay(client, "chess", {"moves": []}))
    assert_conforms("GET", REPLAY, 405, client.get("/v1/games/durak/replay"))


def test_a_view_is_no_state_to_replay_from(client, records):
    state = client.post("/v1/games/durak/deal", json={"seed": 1}).json["state"]
    view = client.post("/v1/games/durak/view", json={"state": state, "seat": 0}).json["view"]
    r = replay(client, "durak", {"state": view, "moves": []})
    assert r.status_code == 422 and r.json["type"] == "/problems/invalid-body"


# -- signed states ---------------------------------------------------------------------------


def test_signed_states_are_required_and_answered(records):
    # A record's deal names its deck: a chosen deal, which a signing service replays only
    # when its operator allows chosen deals (a referee's service).
    config = type("Signed", (TestingConfig,), {"STATE_KEY": "k1", "STATE_OLD_KEYS": None,
                                               "ALLOW_CHOSEN_DEALS": "1"})
    client = create_app(config).test_client()
    rec = records["ganjifa"]
    half = len(rec["moves"]) // 2
    answer = replay(client, "ganjifa", {"deal": rec["deal"], "moves": rec["moves"][:half],
                                        "include": "all"}).json
    assert all("signature" in s for s in (answer["state"], *answer["states"]))
    state = answer["state"]
    rest = replay(client, "ganjifa", {"state": state, "moves": rec["moves"][half:]})
    assert rest.status_code == 200 and rest.json["legal"]
    assert "signature" in rest.json["state"]
    # The answered state is accepted back where a state goes.
    r = client.post("/v1/games/ganjifa/legal-moves", json={"state": rest.json["state"]})
    assert r.status_code == 200
    for altered in ({k: v for k, v in state.items() if k != "signature"},
                    {**state, "leader": (state["leader"] + 1) % 3}):
        r = replay(client, "ganjifa", {"state": altered, "moves": rec["moves"][half:]})
        assert r.status_code == 422
        assert r.json["errors"][0]["pointer"] == "/state/signature"
    illegal = replay(client, "ganjifa", {"state": state, "moves": rec["moves"][:1]}).json
    assert illegal["legal"] is False and "signature" in illegal["state"]


# -- over real HTTP --------------------------------------------------------------------------


@pytest.mark.http
def test_records_replay_over_http(server):
    with requests.Session() as s:
        for rec in examples().values():
            r = s.post(f"{server}/v1/games/{rec['game']}/replay", json=rec, timeout=30)
            answer = assert_conforms("POST", REPLAY, 200, r)
            assert answer["legal"] and answer["state"]["phase"] == "over"
