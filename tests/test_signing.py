"""Signed states (CARDAVIA_STATE_KEY): every state answered is signed, every state received
must carry a valid signature, and any altered field is refused; keys rotate. Beside them,
CARDAVIA_ALLOWED_HOSTS, which fails closed at start as the keys do."""

from __future__ import annotations

import copy

import pytest
import requests

from service.app import TestingConfig, create_app
from tests.support.servers import start_fails


def app_with(key=None, old=None, chosen_deals="1"):
    """A client of an app signing with `key`; seeded deals allowed unless told otherwise,
    since these tests replay the same deals."""
    config = type("Signed", (TestingConfig,), {"STATE_KEY": key, "STATE_OLD_KEYS": old,
                                               "ALLOW_CHOSEN_DEALS": chosen_deals})
    return create_app(config).test_client()


def refused(response) -> bool:
    return (response.status_code == 422
            and response.json["type"] == "/problems/state_signature_invalid"
            and response.json["errors"][0]["field"] == "state.signature")


@pytest.fixture(scope="module")
def signed():
    return app_with("k1")


def tarot_in_play(client) -> dict:
    """A signed Tarot state with bids made and a trick won, played by the basic AI."""
    for seed in range(20):
        state = client.post("/v1/games/tarot/deal", json={"seed": seed}).json["state"]
        while not state["tricks"] and state["phase"] != "over":
            move = client.post("/v1/games/tarot/ai-move", json={
                "state": state, "level": "basic", "seed": 1}).json["move"]
            state = client.post("/v1/games/tarot/move", json={"state": state, "move": move}).json[
                "state"]
        if state["tricks"]:
            return state
    raise AssertionError("no deal reached its first trick")


def test_without_a_key_nothing_changes():
    client = app_with()
    state = client.post("/v1/games/durak/deal", json={"seed": 1}).json["state"]
    assert "signature" not in state
    r = client.post("/v1/games/durak/legal-moves", json={"state": {**state, "signature": "x"}})
    assert r.status_code == 200


def test_every_answered_state_is_signed_and_accepted_back(signed):
    state = signed.post("/v1/games/durak/deal", json={"seed": 1}).json["state"]
    assert state["signature"].startswith("v1.")
    move = signed.post("/v1/games/durak/legal-moves", json={"state": state}).json["moves"][0]
    answer = signed.post("/v1/games/durak/move", json={"state": state, "move": move}).json
    assert answer["legal"] and answer["state"]["signature"] != state["signature"]
    again = signed.post("/v1/games/durak/legal-moves", json={"state": answer["state"]})
    assert again.status_code == 200


@pytest.mark.parametrize("endpoint", ["legal-moves", "move", "ai-move", "view"])
def test_an_unsigned_state_is_refused(signed, endpoint):
    state = signed.post("/v1/games/durak/deal", json={"seed": 1}).json["state"]
    del state["signature"]
    body = {"state": state, "move": {"seat": 0, "action": "pass"}, "seat": 0}
    body = {k: v for k, v in body.items()
            if k == "state" or (k == "move") == (endpoint == "move") or (
                k == "seat" and endpoint == "view")}
    assert refused(signed.post(f"/v1/games/durak/{endpoint}", json=body))


def test_one_card_of_a_hand_changed_is_refused(signed):
    state = signed.post("/v1/games/durak/deal", json={"seed": 1}).json["state"]
    bad = copy.deepcopy(state)
    bad["hands"][0][0], bad["hands"][1][0] = bad["hands"][1][0], bad["hands"][0][0]
    assert refused(signed.post("/v1/games/durak/legal-moves", json={"state": bad}))


def test_a_trick_winner_or_a_bid_changed_is_refused(signed):
    state = tarot_in_play(signed)
    assert signed.post("/v1/games/tarot/legal-moves", json={"state": state}).status_code == 200
    winner = copy.deepcopy(state)
    winner["tricks"][0]["winner"] = (winner["tricks"][0]["winner"] + 1) % 4
    assert refused(signed.post("/v1/games/tarot/legal-moves", json={"state": winner}))
    bid = copy.deepcopy(state)
    bid["bids"][0] = "garde_contre" if bid["bids"][0] != "garde_contre" else "pass"
    assert refused(signed.post("/v1/games/tarot/legal-moves", json={"state": bid}))


def test_another_services_signature_is_refused(signed):
    other = app_with("someone-else")
    state = other.post("/v1/games/durak/deal", json={"seed": 1}).json["state"]
    assert refused(signed.post("/v1/games/durak/legal-moves", json={"state": state}))


def test_key_rotation_accepts_old_signatures_and_signs_with_the_new_key():
    old = app_with("k0")
    state = old.post("/v1/games/durak/deal", json={"seed": 2}).json["state"]
    rotated = app_with("k1", "k0")
    assert rotated.post("/v1/games/durak/legal-moves", json={"state": state}).status_code == 200
    move = rotated.post("/v1/games/durak/legal-moves", json={"state": state}).json["moves"][0]
    new = rotated.post("/v1/games/durak/move", json={"state": state, "move": move}).json["state"]
    assert app_with("k1").post("/v1/games/durak/legal-moves",
                               json={"state": new}).status_code == 200
    # Once the old key is dropped, states it signed are refused.
    assert refused(app_with("k1").post("/v1/games/durak/legal-moves", json={"state": state}))


# -- settings that fail closed ----------------------------------------------------


@pytest.mark.parametrize(("settings", "message"), [
    ({"CARDAVIA_STATE_KEY": " \t "}, "CARDAVIA_STATE_KEY is set but blank"),
    ({"CARDAVIA_STATE_KEY": "k1", "CARDAVIA_STATE_OLD_KEYS": "k0, ,k2"},
     "CARDAVIA_STATE_OLD_KEYS has an empty key"),
])
def test_a_setting_that_would_open_signing_stops_gunicorn_at_start(settings, message):
    status, output = start_fails(**settings)
    assert status != 0 and message in output


@pytest.mark.parametrize(("key", "old", "chosen", "message"), [
    ("", None, None, "CARDAVIA_STATE_KEY is set but blank"),
    ("  ", None, None, "CARDAVIA_STATE_KEY is set but blank"),
    ("k1", "k0,,k2", None, "CARDAVIA_STATE_OLD_KEYS has an empty key"),
    ("k1", "k0,", None, "CARDAVIA_STATE_OLD_KEYS has an empty key"),
    ("k1", "", None, "CARDAVIA_STATE_OLD_KEYS has an empty key"),
    (None, "k0", None, "CARDAVIA_STATE_OLD_KEYS is set but CARDAVIA_STATE_KEY is not"),
    ("k1", None, "yes", "CARDAVIA_ALLOW_CHOSEN_DEALS must be 0 or 1"),
])
def test_the_app_factory_refuses_settings_that_would_open_signing(key, old, chosen, message):
    with pytest.raises(ValueError, match=message):
        app_with(key, old, chosen)


def test_allowed_hosts_set_but_blank_stops_gunicorn_at_start():
    status, output = start_fails(CARDAVIA_ALLOWED_HOSTS=" , ")
    assert status != 0 and "CARDAVIA_ALLOWED_HOSTS is set but names no host" in output


@pytest.mark.parametrize("hosts", ["", " \t ", ",", " , ,", []])
def test_the_app_factory_refuses_allowed_hosts_that_name_no_host(hosts):
    """Set but naming no host is refused rather than read as unset, which is any host."""
    with pytest.raises(ValueError, match="CARDAVIA_ALLOWED_HOSTS is set but names no host"):
        create_app({"TESTING": True, "ALLOWED_HOSTS": hosts})


def test_an_empty_item_among_allowed_hosts_is_ignored():
    client = create_app({"TESTING": True,
                         "ALLOWED_HOSTS": "api.example.org,, localhost,"}).test_client()
    assert client.get("/healthz", headers={"Host": "localhost"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "evil.example"}).status_code == 400


def test_old_keys_are_trimmed_so_rotation_works():
    state = app_with("k0").post("/v1/games/durak/deal", json={}).json["state"]
    rotated = app_with("k2", " k1 ,  k0 ")
    assert rotated.post("/v1/games/durak/legal-moves", json={"state": state}).status_code == 200
    assert app_with(" k0 ").post("/v1/games/durak/legal-moves",
                                 json={"state": state}).status_code == 200


def chosen_deal_refused(response, fields: set[str]) -> bool:
    return (response.status_code == 422
            and response.json["type"] == "/problems/chosen-deal-refused"
            and {e["field"] for e in response.json["errors"]} == fields)


@pytest.mark.parametrize("game_id", ["durak", "tarot", "ganjifa"])
def test_with_a_key_a_stacked_or_seeded_deal_is_refused(game_id):
    client = app_with("k1", chosen_deals=None)
    deck = [c["code"] for c in client.get(f"/v1/games/{game_id}").json["cards"]]
    assert chosen_deal_refused(client.post(f"/v1/games/{game_id}/deal", json={"seed": 1}),
                               {"seed"})
    assert chosen_deal_refused(client.post(f"/v1/games/{game_id}/deal", json={"deck": deck}),
                               {"deck"})
    assert chosen_deal_refused(client.post(f"/v1/games/{game_id}/deal",
                                           json={"deck": deck, "seed": 2}), {"deck", "seed"})
    random_deal = client.post(f"/v1/games/{game_id}/deal", json={})
    assert random_deal.status_code == 200 and random_deal.json["state"]["signature"]


def test_chosen_deals_are_allowed_when_the_setting_says_so_or_without_a_key():
    deck_body = {"seed": 5}
    for client in (app_with("k1", chosen_deals="1"), app_with(None, chosen_deals=None)):
        assert client.post("/v1/games/durak/deal", json=deck_body).status_code == 200
    assert app_with("k1", chosen_deals="0").post("/v1/games/durak/deal",
                                                 json=deck_body).status_code == 422


def test_a_replay_from_a_chosen_deal_is_refused_with_a_key():
    client = app_with("k1", chosen_deals=None)
    r = client.post("/v1/games/durak/replay", json={"deal": {"seed": 1}, "moves": []})
    assert chosen_deal_refused(r, {"deal.seed"})
    state = client.post("/v1/games/durak/deal", json={}).json["state"]
    r = client.post("/v1/games/durak/replay", json={"state": state, "moves": []})
    assert r.status_code == 200 and r.json["state"]["signature"]


def test_chosen_deals_are_refused_by_a_real_gunicorn_with_a_key(signed_server):
    r = requests.post(f"{signed_server}/v1/games/tarot/deal", json={"seed": 3}, timeout=10)
    assert r.status_code == 422 and r.json()["type"] == "/problems/chosen-deal-refused"
    assert r.json()["errors"][0]["pointer"] == "/seed"
