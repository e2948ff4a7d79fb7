"""service/lane.py: each game's own JSON paths answered beside Flask, the same answers as
Flask's dispatch gives, whatever the path, the method or the error."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import pytest
from gunicorn.http.errors import NoMoreData

import service.lane
from schemas.registry import GAMES
from service import api
from service.app import TestingConfig, create_app
from tests.conftest import ROOT
from tests.support.abuse import Failing

ACTIONS = ("deal", "legal-moves", "move", "ai-move", "view", "replay")


def flask_only(monkeypatch):
    """The same app with the lane's table empty: every request goes through Flask."""
    monkeypatch.setattr(service.lane, "LANE", {})  # the name the lane looks paths up by


@pytest.mark.parametrize("action", ACTIONS)
def test_every_game_action_is_in_the_lane_and_an_unknown_game_is_flasks_404(client, action):
    for game_id in GAMES:
        assert api.LANE[f"/v1/games/{game_id}/{action}"][1] == game_id
    r = client.post(f"/v1/games/chess/{action}", json={})
    assert r.status_code == 404 and r.json["type"] == "/problems/unknown-game"


def test_a_games_own_endpoints_are_in_the_lane():
    for game_id, schemas in GAMES.items():
        for name in schemas.posts:
            assert api.LANE[f"/v1/games/{game_id}/{name}"][1] == game_id


def exchanges(client):
    """Requests whose answers must not depend on the dispatcher: each kind of answer."""
    state = client.post("/v1/games/durak/deal", json={"seed": 5}).json["state"]
    to_act = state["to_act"]
    legal = client.post("/v1/games/durak/legal-moves", json={"state": state}).json["moves"]
    return [
        ("/v1/games/durak/deal", {"json": {"seed": 5}}),
        ("/v1/games/durak/move", {"json": {"state": state, "move": legal[0]}}),
        ("/v1/games/durak/move", {"json": {"state": state,  # illegal: 200, legal false
                                           "move": {"seat": to_act, "action": "take"}}}),
        ("/v1/games/durak/move", {"json": {"state": {**state, "trump": "XX"},
                                           "move": legal[0]}}),  # 422
        ("/v1/games/durak/move", {"data": b"{not json", "content_type": "application/json"}),
        ("/v1/games/durak/move", {"data": b"x" * (1024 * 1024 + 1),
                                  "content_type": "application/json"}),  # 413
        ("/v1/games/durak/view", {"json": {"state": state, "seat": 7}}),
        ("/v1/games/tarot/move", {"json": {"state": state, "move": legal[0]}}),  # another game
        ("/v1/games/durak/ai-move", {"json": {"state": state, "level": "random", "seed": 1}}),
        ("/v1/games/durak/replay", {"json": {"deal": {"seed": 5}, "moves": [legal[0]]}}),
        ("/v1/games/durak/move", {"data": b'{"sta', "environ_overrides": {  # cut short
            "CONTENT_LENGTH": "20"}}),
        ("/v1/games/durak/deal", {"environ_overrides": {  # chunks broken off
            "HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True,
            "wsgi.input": Failing(NoMoreData())}}),
    ]


def test_the_lane_answers_as_flask_does(client, monkeypatch):
    """Every kind of answer, headers and body, byte for byte, with and without the lane, in
    English and in another language."""
    cases = exchanges(client)
    for lang in ("en", "fa"):
        headers = {"Accept-Language": lang, "X-Request-ID": "lane-1"}
        lane = [client.post(path, headers=headers, **kw) for path, kw in cases]
        with monkeypatch.context() as m:
            flask_only(m)
            flask = [client.post(path, headers=headers, **kw) for path, kw in cases]
        for (path, _), a, b in zip(cases, lane, flask, strict=True):
            assert a.status == b.status, path  # the reason phrase too: `422 UNPROCESSABLE ENTITY`
            body_a, body_b = a.get_json(), b.get_json()
            body_a.pop("elapsed_ms", None)
            body_b.pop("elapsed_ms", None)
            assert body_a == body_b, path
            # elapsed_ms's digits change the length
            untimed = {"Content-Length"} if "elapsed_ms" in a.get_json() else set()
            assert sorted(h for h in a.headers.items() if h[0] not in untimed) == \
                sorted(h for h in b.headers.items() if h[0] not in untimed), path
    assert {a.status_code for a in lane} == {200, 400, 413, 422}


def test_the_ai_busy_answer_is_flasks_too(monkeypatch):
    """The 503 of a worker whose AI slots are all taken: its status line, Retry-After and
    language as Flask's dispatch gave them."""
    app = create_app(TestingConfig)
    client = app.test_client()
    state = client.post("/v1/games/durak/deal", json={"seed": 5}).json["state"]

    def busy():
        with app.extensions["cardavia.ai_slots"].slot():
            return client.post("/v1/games/durak/ai-move", json={"state": state},
                               headers={"Accept-Language": "uk", "X-Request-ID": "busy"})
    lane = busy()
    with monkeypatch.context() as m:
        flask_only(m)
        flask = busy()
    assert lane.status_code == 503 and lane.status == flask.status
    assert lane.headers["Retry-After"] == "1" and lane.headers["Content-Language"] == "uk"
    assert lane.headers.to_wsgi_list() == flask.headers.to_wsgi_list()
    assert lane.get_data() == flask.get_data()


def test_other_methods_cases_and_slashes_go_on_to_flask(client):
    state = client.post("/v1/games/durak/deal", json={"seed": 5}).json["state"]
    r = client.get("/v1/games/durak/move")
    assert r.status_code == 405 and r.headers["Allow"] == "OPTIONS, POST"
    assert r.headers["Content-Type"] == "application/problem+json"
    for path in ("/v1/games/Durak/legal-moves", "/v1/games/durak/legal-moves/"):
        r = client.post(path, json={"state": state})
        assert r.status_code == 200 and r.json["moves"], path


# Each request's `Allow`: a 405's and an OPTIONS answer's, on a lane path and elsewhere.
ALLOWED = [
    ("GET", "/v1/games/durak/move", "OPTIONS, POST"),
    ("OPTIONS", "/v1/games/durak/move", "OPTIONS, POST"),
    ("PUT", "/v1/games/Tarot/deal/", "OPTIONS, POST"),
    ("DELETE", "/v1/games", "GET, HEAD, OPTIONS"),
    ("OPTIONS", "/v1/games/ganjifa", "GET, HEAD, OPTIONS"),
]
ALLOW_PROBE = """
import json, sys
from service.app import TestingConfig, create_app
client = create_app(TestingConfig).test_client()
print(json.dumps([client.open(path, method=method).headers.get("Allow")
                  for method, path in json.loads(sys.argv[1])]))
"""


def allow_headers(hash_seed: str) -> list[str]:
    """The `Allow` of each of ALLOWED's requests, answered by a process of this hash seed."""
    asked = json.dumps([(method, path) for method, path, _ in ALLOWED])
    done = subprocess.run([sys.executable, "-c", ALLOW_PROBE, asked], cwd=ROOT, check=True,
                          env={**os.environ, "PYTHONHASHSEED": hash_seed},
                          capture_output=True, text=True, timeout=120)
    return json.loads(done.stdout)


def test_the_allow_header_is_the_same_whatever_the_hash_seed():
    """werkzeug gathers a path's methods in a set: each server process, started with a hash
    seed of its own, once listed them in its own order."""
    for seed in ("1", "2", "3", "4"):
        assert allow_headers(seed) == [allowed for _, _, allowed in ALLOWED], seed


def test_a_bug_in_a_lane_view_is_a_logged_500_problem(client, monkeypatch, caplog):
    def broken(game_id):
        raise RuntimeError("a bug of ours")
    monkeypatch.setitem(api.LANE, "/v1/games/durak/move", (broken, "durak"))
    with caplog.at_level(logging.ERROR, logger="cardavia"):
        r = client.post("/v1/games/durak/move", json={})
    assert r.status_code == 500 and r.json["type"] == "/problems/internal-error"
    assert "a bug of ours" not in r.get_data(as_text=True)
    assert any("a bug of ours" in (rec.exc_text or "") for rec in caplog.records)


@pytest.mark.parametrize("answer", [b"not an answer", (b"{}", 299, ()), None])
def test_an_answer_the_lane_cannot_send_is_a_500_problem(client, monkeypatch, answer):
    monkeypatch.setitem(api.LANE, "/v1/games/durak/move", (lambda game_id: answer, "durak"))
    r = client.post("/v1/games/durak/move", json={})
    assert r.status_code == 500 and r.json["type"] == "/problems/internal-error"


def test_a_host_outside_the_allowed_ones_is_refused_on_the_lane_too():
    client = create_app({"TESTING": True, "ALLOWED_HOSTS": "api.example.org"}).test_client()
    r = client.post("/v1/games/durak/deal", json={}, headers={"Host": "evil.example"})
    assert r.status_code == 400 and r.json["type"] == "/problems/http-error"
    assert "evil" not in r.get_data(as_text=True)  # the refusal repeats no Host
    r = client.post("/v1/games/durak/deal", json={},
                    headers={"Host": "evil.example", "Accept-Language": "uk"})
    assert r.status_code == 400 and r.headers["Content-Language"] == "uk"
    assert "Host" in r.json["detail"] and "evil" not in r.json["detail"]
    r = client.post("/v1/games/durak/deal", json={}, headers={"Host": "api.example.org"})
    assert r.status_code == 200 and "state" in r.json


@pytest.mark.parametrize("path", ["/v1/games/durak/deal", "/v1/games/durak/deal/"],
                         ids=["lane", "flask"])
def test_a_host_name_is_allowed_in_any_case(path):
    """Host names are case-insensitive (RFC 9110 §4.2.3), in the request and in
    CARDAVIA_ALLOWED_HOSTS alike, on the lane's path and on Flask's."""
    client = create_app({"TESTING": True,
                         "ALLOWED_HOSTS": "Api.Example.org, localhost"}).test_client()
    for host in ("api.example.org", "API.EXAMPLE.ORG", "LOCALHOST:8000", "LocalHost"):
        r = client.post(path, json={}, headers={"Host": host})
        assert r.status_code == 200 and "state" in r.json, (host, r.json)
    assert client.get("/healthz", headers={"Host": "LOCALHOST:8000"}).status_code == 200
    for host in ("EVIL.example", "LOCALHOST.evil.example"):
        r = client.post(path, json={}, headers={"Host": host})
        assert r.status_code == 400 and r.json["type"] == "/problems/http-error", host


def test_the_lane_trusts_the_hosts_flask_trusts_now():
    """The lane reads Flask's TRUSTED_HOSTS when it answers, not a copy taken at start: a
    host that config no longer trusts is refused on the lane too."""
    app = create_app(TestingConfig)
    app.config["TRUSTED_HOSTS"] = ["api.example.org"]
    r = app.test_client().post("/v1/games/durak/deal", json={},
                               headers={"Host": "evil.example"})
    assert r.status_code == 400 and r.json["type"] == "/problems/http-error"
