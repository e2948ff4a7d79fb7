"""Durak for 2 to 6 players, 24/36/52 cards and passing over HTTP (API.md, "Durak for 2 to
6 players"), against a real gunicorn: deals of each count played to the end through
legal-moves, move, view and ai-move; the invalid states and deals named as 422."""

from __future__ import annotations

import pytest
import requests

pytestmark = pytest.mark.http

BASE = "/v1/games/durak"
DEALS = [
    {"players": 2, "cards": 24, "transfer": True},
    {"players": 3},
    {"players": 4, "transfer": True, "known": True},
    {"players": 5, "cards": 52, "throw_in": "neighbours", "first_bout": 5},
    {"players": 6, "transfer": True, "known": True},
]


def post(s: requests.Session, server: str, path: str, body: dict) -> requests.Response:
    return s.post(f"{server}{BASE}/{path}", json=body, timeout=30)


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: f"{d['players']}p")
def test_D16_to_D25_a_deal_of_each_count_played_to_its_end(server, deal):
    with requests.Session() as s:
        r = post(s, server, "deal", {"seed": 5, **deal})
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
            listed = post(s, server, "legal-moves", {"state": state}).json()
            if not listed["moves"]:
                break
            seat = listed["to_act"]
            view = post(s, server, "view", {"state": state, "seat": seat}).json()["view"]
            assert view["hands"][seat] == state["hands"][seat]
            assert view.get("known") == state.get("known")
            if n % 5 == 0:
                move = post(s, server, "ai-move", {"state": state, "level": "basic",
                                                   "seed": n}).json()["move"]
            else:
                move = listed["moves"][n * 7 % len(listed["moves"])]
            transfers += move["action"] == "transfer"
            answer = post(s, server, "move", {"state": state, "move": move}).json()
            assert answer["legal"] is True, (move, answer)
            state = answer["state"]
        result = state["result"]
        assert result["players"] == players and sum(result["scores"]) == 0
        assert sorted(s for group in result["out"] for s in group) == sorted(
            s for s in range(players) if s != result["durak"])
        assert answer["settlement"] == result
        if deal.get("transfer"):
            legal = post(s, server, "move", {"state": state, "move": move}).json()
            assert legal["legal"] is False and legal["reason"]["code"] == "deal_over"


def problem_fields(r: requests.Response) -> list[str]:
    assert r.status_code == 422 and r.headers["content-type"].startswith(
        "application/problem+json"), r.text
    return [e["field"] for e in r.json()["errors"]]


def test_invalid_deals_and_states_are_named_as_422(server):
    with requests.Session() as s:
        assert problem_fields(post(s, server, "deal", {"players": 5, "cards": 24})) == [
            "players"]  # D16: 24 cards serve at most 4
        assert problem_fields(post(s, server, "deal", {"cards": 40})) == ["cards"]
        assert "deck" in problem_fields(post(s, server, "deal", {"deck": ["6S", "7S"]}))
        deck24 = post(s, server, "deal", {"seed": 1, "cards": 24}).json()["deck"]
        assert problem_fields(post(s, server, "deal", {"deck": deck24, "cards": 36})) == [
            "cards"]
        state = post(s, server, "deal", {"seed": 2, "players": 3}).json()["state"]
        moved = post(s, server, "move", {"state": state, "move": {
            "seat": state["to_act"], "action": "attack",
            "card": state["hands"][state["to_act"]][0]}}).json()["state"]
        beaten = post(s, server, "legal-moves", {"state": moved}).json()["moves"]
        beat = [m for m in beaten if m["action"] == "defend"]
        if beat:
            after = post(s, server, "move", {"state": moved, "move": beat[0]}).json()["state"]
            asked = after["attacker"]
            defender = after["defender"]
            bad = {**after, "to_act": defender}  # D20: the defender is never asked to add
            assert problem_fields(post(s, server, "legal-moves", {"state": bad})) == [
                "state.to_act"]
            missing = {k: v for k, v in after.items() if k != "to_act"}
            assert problem_fields(post(s, server, "legal-moves", {"state": missing})) == [
                "state.to_act"]
            assert after["to_act"] == asked
        # Hands of a count against the state's other fields, a deck none of the three.
        two_more = {**state, "hands": state["hands"] + [[], [], [], []]}
        assert problem_fields(post(s, server, "legal-moves", {"state": two_more}))
        short = {**state, "hands": [state["hands"][0][1:], *state["hands"][1:]]}
        assert "state" in problem_fields(post(s, server, "legal-moves", {"state": short}))
        out = {**state, "out": [[1]]}  # seat 1 holds cards and the stock is not empty
        fields = problem_fields(post(s, server, "legal-moves", {"state": out}))
        assert "state.out.0.0" in fields and "state.out" in fields
        stray = {**state, "known": [[state["hands"][1][0]], [], []]}
        assert problem_fields(post(s, server, "legal-moves", {"state": stray})) == [
            "state.known.0.0"]
        two = post(s, server, "deal", {"seed": 3}).json()["state"]
        led = post(s, server, "move", {"state": two, "move": {
            "seat": two["to_act"], "action": "attack",
            "card": two["hands"][two["to_act"]][0]}}).json()["state"]
        second = [c for c in led["hands"][led["attacker"]]][0]
        passing = {**led, "table": led["table"] + [{"attack": second, "defense": None}],
                   "hands": [[c for c in h if c != second] for h in led["hands"]]}
        # D21: several unbeaten attacks without passing are refused (naming the table).
        assert "state.table" in problem_fields(post(s, server, "legal-moves",
                                                    {"state": passing}))
        r = post(s, server, "move", {"state": led, "move": {
            "seat": 1 - led["attacker"], "action": "transfer", "card": led["hands"][
                1 - led["attacker"]][0]}})
        assert r.status_code == 200 and r.json()["legal"] is False
        assert r.json()["reason"]["code"] in ("transfer_not_allowed", "card_not_in_hand")
        assert problem_fields(post(s, server, "view", {"state": state, "seat": 3})) == [
            "seat"]


@pytest.mark.parametrize("size", [24, 36, 52])
def test_D16_game_info_lists_each_deck_every_card_of_its_deals_named(server, size):
    with requests.Session() as s:
        info = s.get(f"{server}{BASE}", params={"cards": size}, timeout=30).json()
        listed = [c["code"] for c in info["cards"]]
        deck = post(s, server, "deal", {"seed": size, "cards": size}).json()["deck"]
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


@pytest.mark.parametrize("asked", ["40", "0", "-36", "thirty", "36.0", "²", ""])
def test_D16_game_info_of_a_deck_the_game_has_not_is_a_422_naming_cards(server, asked):
    r = requests.get(f"{server}{BASE}", params={"cards": asked}, timeout=30)
    assert r.status_code == 422 and problem_fields(r) == ["cards"]
    assert r.json()["type"] == "/problems/invalid-deck" and "24, 36, 52" in r.json()["detail"]
    tarot = requests.get(f"{server}/v1/games/tarot?cards=52", timeout=30)
    assert tarot.status_code == 422 and "78" in tarot.json()["detail"]
    assert requests.get(f"{server}/v1/games/tarot?cards=78", timeout=30).status_code == 200
