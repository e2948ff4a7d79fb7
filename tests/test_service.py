"""The endpoints of API.md, through the Flask test client (unit level)."""

from __future__ import annotations

import random

import pytest

from rules.durak import DECK
from schemas.registry import GAMES


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json == {"status": "ok"}


def test_games_lists_every_game_with_its_facts(client):
    games = {g["id"]: g for g in client.get("/v1/games").json["games"]}
    assert set(games) == set(GAMES)
    durak = games["durak"]
    assert durak["players"] == 2 and durak["name"] == "Durak"
    assert durak["rules"] == [f"D{i}" for i in range(1, 26)]  # D16-D25: 2 to 6 players
    assert durak["deck"]["size"] == 36 and "Atlasnye" in durak["deck"]["name"]
    assert set(durak["deck"]) >= {"name", "size", "origin", "wikipedia"}
    assert durak["summary"]


def test_durak_info_lists_36_cards_with_cyrillic_labels(client):
    info = client.get("/v1/games/durak").json
    assert len(info["cards"]) == 36
    by_code = {c["code"]: c for c in info["cards"]}
    assert by_code["QS"] == {"code": "QS", "suit": "S", "rank": "Q", "name": "Queen of Spades",
                             "label": "Д"}
    assert [by_code[f"{r}H"]["label"] for r in "JQKA"] == ["В", "Д", "К", "Т"]


def test_deal_seeded_is_reproducible(client):
    a = client.post("/v1/games/durak/deal", json={"seed": 42}).json
    b = client.post("/v1/games/durak/deal", json={"seed": 42}).json
    c = client.post("/v1/games/durak/deal", json={"seed": 43}).json
    assert a == b and a != c


def test_deal_without_seed_is_random(client):
    deals = {str(client.post("/v1/games/durak/deal", json={}).json) for _ in range(5)}
    assert len(deals) > 1


def test_deal_stacked_deck_follows_D2(client):
    deck = list(DECK.codes)
    random.Random(5).shuffle(deck)
    state = client.post("/v1/games/durak/deal", json={"deck": deck}).json["state"]
    assert sorted(state["hands"][0]) == sorted(deck[0:6])
    assert sorted(state["hands"][1]) == sorted(deck[6:12])
    assert state["stock"] == deck[13:] + [deck[12]]
    assert state["trump"] == deck[12][-1]
    assert state["phase"] == "attack" and state["result"] is None


def test_move_answers_next_state_events_and_no_settlement(client):
    state = client.post("/v1/games/durak/deal", json={"seed": 1}).json["state"]
    move = client.post("/v1/games/durak/legal-moves", json={"state": state}).json["moves"][0]
    r = client.post("/v1/games/durak/move", json={"state": state, "move": move}).json
    assert r["legal"] is True and r["settlement"] is None
    assert r["events"] == [{"type": "attacked", "seat": move["seat"], "card": move["card"]}]
    assert r["state"]["table"] == [{"attack": move["card"], "defense": None}]


def test_illegal_move_answers_200_with_reason_and_rule(client):
    state = client.post("/v1/games/durak/deal", json={"seed": 1}).json["state"]
    seat = state["to_act"]
    r = client.post("/v1/games/durak/move",
                    json={"state": state, "move": {"seat": seat, "action": "pass"}})
    assert r.status_code == 200
    assert r.json["legal"] is False
    reason = r.json["reason"]
    assert reason["code"] == "cannot_pass_empty_table" and reason["rule"] == "D6"
    assert "pass" in reason["message"].lower()


@pytest.mark.parametrize("level", ["random", "basic"])
def test_ai_move_is_legal_and_reproducible_for_a_seed(client, level):
    state = client.post("/v1/games/durak/deal", json={"seed": 3}).json["state"]
    for _ in range(30):
        body = {"state": state, "level": level, "seed": 9}
        a = client.post("/v1/games/durak/ai-move", json=body).json
        assert a == {**client.post("/v1/games/durak/ai-move", json=body).json,
                     "elapsed_ms": a["elapsed_ms"]}
        assert a["level"] == level
        r = client.post("/v1/games/durak/move", json={"state": state, "move": a["move"]}).json
        assert r["legal"] is True
        state = r["state"]
        if state["phase"] == "over":
            break


def test_ai_strong_is_the_default_level_and_searches(client):
    state = client.post("/v1/games/durak/deal", json={"seed": 3}).json["state"]
    a = client.post("/v1/games/durak/ai-move", json={"state": state, "budget_ms": 50}).json
    assert a["level"] == "strong"
    r = client.post("/v1/games/durak/move", json={"state": state, "move": a["move"]}).json
    assert r["legal"] is True


def test_ai_move_for_a_seat_that_cannot_act_is_422(client):
    state = client.post("/v1/games/durak/deal", json={"seed": 3}).json["state"]
    other = 1 - state["to_act"]
    r = client.post("/v1/games/durak/ai-move", json={"state": state, "seat": other})
    assert r.status_code == 422 and r.json["errors"][0]["field"] == "seat"


def test_openapi_document_is_served(client):
    r = client.get("/openapi.yaml")
    assert r.status_code == 200 and r.data.startswith(b"openapi: 3.1")


def test_a_state_of_another_game_is_sent_on_to_its_games_path_as_called(client):
    """The path the message names is the one called with the game changed: whatever case
    the game id was in, and under the prefix the service is mounted at (SCRIPT_NAME)."""
    tarot = client.post("/v1/games/tarot/deal", json={"seed": 1}).json["state"]
    body = {"state": tarot, "move": {"seat": 0, "action": "take"}}
    for path, base, sent_on in [
        ("/v1/games/Durak/move", "http://localhost", "/v1/games/tarot/move"),
        ("/v1/games/DURAK/move/", "http://localhost", "/v1/games/tarot/move/"),
        ("/v1/games/durak/move", "http://localhost/api", "/api/v1/games/tarot/move"),
    ]:
        r = client.post(path, json=body, base_url=base)
        assert r.status_code == 422, (path, base)
        assert r.json["errors"][0]["message"].endswith(f"send it to {sent_on}."), (path, base)
