"""What each endpoint of API.md answers: the games and their decks, a deal, the moves, the AI
and the view, through the Flask test client (unit level) or a real gunicorn (marked
`http`); the deals and states the rules refuse, named as 422."""

from __future__ import annotations

import random

import pytest
import requests

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


# -- Durak's counts, decks and options (D16-D25) ----------------------------------------------

BASE = "/v1/games/durak"


def durak_post(s: requests.Session, server: str, path: str, body: dict) -> requests.Response:
    return s.post(f"{server}{BASE}/{path}", json=body, timeout=30)


def problem_fields(r: requests.Response) -> list[str]:
    assert r.status_code == 422 and r.headers["content-type"].startswith(
        "application/problem+json"), r.text
    return [e["field"] for e in r.json()["errors"]]


@pytest.mark.http
def test_D16_to_D25_invalid_deals_and_states_are_named_as_422(server):
    with requests.Session() as s:
        assert problem_fields(durak_post(s, server, "deal", {"players": 5, "cards": 24})) == [
            "players"]  # D16: 24 cards serve at most 4
        assert problem_fields(durak_post(s, server, "deal", {"cards": 40})) == ["cards"]
        assert "deck" in problem_fields(durak_post(s, server, "deal", {"deck": ["6S", "7S"]}))
        deck24 = durak_post(s, server, "deal", {"seed": 1, "cards": 24}).json()["deck"]
        assert problem_fields(durak_post(s, server, "deal", {"deck": deck24, "cards": 36})) == [
            "cards"]
        state = durak_post(s, server, "deal", {"seed": 2, "players": 3}).json()["state"]
        moved = durak_post(s, server, "move", {"state": state, "move": {
            "seat": state["to_act"], "action": "attack",
            "card": state["hands"][state["to_act"]][0]}}).json()["state"]
        beaten = durak_post(s, server, "legal-moves", {"state": moved}).json()["moves"]
        beat = [m for m in beaten if m["action"] == "defend"]
        if beat:
            after = durak_post(s, server, "move", {"state": moved, "move": beat[0]}).json()["state"]
            asked = after["attacker"]
            defender = after["defender"]
            bad = {**after, "to_act": defender}  # D20: the defender is never asked to add
            assert problem_fields(durak_post(s, server, "legal-moves", {"state": bad})) == [
                "state.to_act"]
            missing = {k: v for k, v in after.items() if k != "to_act"}
            assert problem_fields(durak_post(s, server, "legal-moves", {"state": missing})) == [
                "state.to_act"]
            assert after["to_act"] == asked
        # Hands of a count against the state's other fields, a deck none of the three.
        two_more = {**state, "hands": state["hands"] + [[], [], [], []]}
        assert problem_fields(durak_post(s, server, "legal-moves", {"state": two_more}))
        short = {**state, "hands": [state["hands"][0][1:], *state["hands"][1:]]}
        assert "state" in problem_fields(durak_post(s, server, "legal-moves", {"state": short}))
        out = {**state, "out": [[1]]}  # seat 1 holds cards and the stock is not empty
        fields = problem_fields(durak_post(s, server, "legal-moves", {"state": out}))
        assert "state.out.0.0" in fields and "state.out" in fields
        stray = {**state, "known": [[state["hands"][1][0]], [], []]}
        assert problem_fields(durak_post(s, server, "legal-moves", {"state": stray})) == [
            "state.known.0.0"]
        two = durak_post(s, server, "deal", {"seed": 3}).json()["state"]
        led = durak_post(s, server, "move", {"state": two, "move": {
            "seat": two["to_act"], "action": "attack",
            "card": two["hands"][two["to_act"]][0]}}).json()["state"]
        second = [c for c in led["hands"][led["attacker"]]][0]
        passing = {**led, "table": led["table"] + [{"attack": second, "defense": None}],
                   "hands": [[c for c in h if c != second] for h in led["hands"]]}
        # D21: several unbeaten attacks without passing are refused (naming the table).
        assert "state.table" in problem_fields(durak_post(s, server, "legal-moves",
                                                    {"state": passing}))
        r = durak_post(s, server, "move", {"state": led, "move": {
            "seat": 1 - led["attacker"], "action": "transfer", "card": led["hands"][
                1 - led["attacker"]][0]}})
        assert r.status_code == 200 and r.json()["legal"] is False
        assert r.json()["reason"]["code"] in ("transfer_not_allowed", "card_not_in_hand")
        assert problem_fields(durak_post(s, server, "view", {"state": state, "seat": 3})) == [
            "seat"]


@pytest.mark.http
@pytest.mark.parametrize("size", [24, 36, 52])
def test_D16_game_info_lists_each_deck_every_card_of_its_deals_named(server, size):
    with requests.Session() as s:
        info = s.get(f"{server}{BASE}", params={"cards": size}, timeout=30).json()
        listed = [c["code"] for c in info["cards"]]
        deck = durak_post(s, server, "deal", {"seed": size, "cards": size}).json()["deck"]
        assert len(listed) == size and sorted(listed) == sorted(deck)
        # Suit by suit, low to high: the order a hand is shown in.
        ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        order = [("SHDC".index(c["suit"]), ranks.index(c["rank"])) for c in info["cards"]]
        assert order == sorted(order)
        assert info["deck"]["size"] == 36  # `deck` describes the default deck
        hungarian = s.get(f"{server}{BASE}?cards={size}", headers={"Accept-Language": "hu"},
                          timeout=30).json()["cards"]
        assert [c["code"] for c in hungarian] == listed
        assert all(h["name"] != c["name"] for h, c in zip(hungarian, info["cards"], strict=True))
    if size == 36:  # the default listing, unchanged
        assert requests.get(f"{server}{BASE}", timeout=30).json() == info


@pytest.mark.http
@pytest.mark.parametrize("asked", ["40", "0", "-36", "thirty", "36.0", "²", ""])
def test_D16_game_info_of_a_deck_the_game_has_not_is_a_422_naming_cards(server, asked):
    r = requests.get(f"{server}{BASE}", params={"cards": asked}, timeout=30)
    assert r.status_code == 422 and problem_fields(r) == ["cards"]
    assert r.json()["type"] == "/problems/invalid-deck" and "24, 36, 52" in r.json()["detail"]
    tarot = requests.get(f"{server}/v1/games/tarot?cards=52", timeout=30)
    assert tarot.status_code == 422 and "78" in tarot.json()["detail"]
    assert requests.get(f"{server}/v1/games/tarot?cards=78", timeout=30).status_code == 200


@pytest.mark.http
def test_a_deck_the_game_has_not_names_the_game_in_the_language(server):
    r = requests.get(f"{server}/v1/games/tarot", params={"cards": "52"}, timeout=30,
                     headers={"Accept-Language": "hu"})
    assert r.status_code == 422 and r.headers["Content-Language"] == "hu"
    assert r.json()["detail"] == "A(z) „Francia tarot” játéknak nincs 52 lapos paklija: 78."
