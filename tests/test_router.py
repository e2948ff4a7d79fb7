"""service/router.py: the JSON API's one dispatcher. Each path of its table answered by it
alone, in any spelling; its 404, 405 and OPTIONS; the hosts and CORS of every request; and
the service refusing to start with a path that two dispatchers could answer."""

from __future__ import annotations

import ast
import json
import logging
import os
import subprocess
import sys

import pytest
import requests
from flask import Blueprint, Flask

from schemas.registry import GAMES
from service import router
from service.app import TestingConfig, create_app
from tests.conftest import LOGGED_HOSTS, ROOT

ACTIONS = ("deal", "legal-moves", "move", "ai-move", "view", "replay", "render")
SERVICE = ROOT / "service"


def test_every_game_action_and_every_games_own_endpoint_is_in_the_table():
    for game_id, schemas in GAMES.items():
        for action in (*ACTIONS, *schemas.posts):
            assert (game_id, action) in router.TABLE, (game_id, action)
    assert router.TABLE[("tarot", "session")]
    assert ("durak", "session") not in router.TABLE


@pytest.mark.parametrize("action", ACTIONS)
def test_an_unknown_game_is_a_404_naming_it(router_client, action):
    r = router_client.post(f"/v1/games/chess/{action}", json={})
    assert r.status_code == 404 and r.json["type"] == "/problems/unknown-game"
    assert "'chess'" in r.json["detail"]


@pytest.mark.parametrize("path", [
    "/v1/games/Durak/deal", "/v1/games/DURAK/DEAL", "/v1/games/durak/deal/",
    "/v1/games//durak/Deal//", "/v1//games/durak/deal",
])
def test_a_path_of_the_table_is_read_in_any_case_and_slashes(router_client, path):
    usual = router_client.post("/v1/games/durak/deal", json={"seed": 5})
    r = router_client.post(path, json={"seed": 5})
    assert r.status_code == 200 and r.json == usual.json


@pytest.mark.parametrize("path, body", [
    ("/v1/games/TAROT/settlement", {"contract": "garde", "bouts": 2, "points": 45}),
    ("/v1/games/Tarot/session", {"players": ["a", "b", "c", "d"], "deals": []}),
    ("/v1/games/tarot/Settlement/", {"contract": "garde", "bouts": 2, "points": 45}),
])
def test_a_games_own_endpoint_is_read_in_any_case_too(router_client, path, body):
    """Issue 40.7: game ids are accepted in any case, on a game's own endpoints as well."""
    usual = router_client.post(path.lower().rstrip("/"), json=body)
    r = router_client.post(path, json=body)
    assert usual.status_code == 200 and r.status_code == 200, r.json
    assert r.get_data() == usual.get_data()


def test_an_action_the_game_has_not_or_no_action_is_a_404(router_client):
    for path in ("/v1/games/durak/settlement", "/v1/games/ganjifa/session",
                 "/v1/games/durak/shuffle"):
        r = router_client.post(path, json={})
        assert r.status_code == 404 and r.json["type"] == "/problems/not-found", path


@pytest.mark.parametrize("method", ["GET", "HEAD", "PUT", "DELETE", "PATCH"])
def test_another_method_is_a_405_saying_what_is_allowed(router_client, method):
    for path in ("/v1/games/durak/move", "/v1/games/Tarot/settlement/"):
        r = router_client.open(path, method=method)
        assert r.status_code == 405 and r.headers["Allow"] == "OPTIONS, POST", path
        if method == "HEAD":  # its headers alone, as a GET's 405 would have them
            assert r.get_data() == b"" and int(r.headers["Content-Length"]) > 0
        else:
            assert r.json["type"] == "/problems/method-not-allowed"


def test_options_answers_the_allowed_methods(router_client):
    for path, allowed in [("/v1/games/durak/move", "OPTIONS, POST"),
                          ("/v1/games/TAROT/session", "OPTIONS, POST"),
                          ("/v1/games/ganjifa", "GET, HEAD, OPTIONS")]:
        r = router_client.options(path)
        assert r.status_code == 200 and r.headers["Allow"] == allowed and not r.get_data()


# Each request's `Allow`: a 405's and an OPTIONS answer's, on a path of the table and
# elsewhere.
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


def with_view(monkeypatch, view) -> Flask:
    """An app whose table answers `POST /v1/games/durak/move` with `view`."""
    monkeypatch.setitem(router.TABLE, ("durak", "move"), view)
    return create_app(TestingConfig)


def test_a_bug_in_a_view_is_a_logged_500_problem(monkeypatch, caplog):
    def broken(game_id):
        raise RuntimeError("a bug of ours")
    client = with_view(monkeypatch, broken).test_client()
    for path in ("/v1/games/durak/move", "/v1/games/Durak/move/"):
        with caplog.at_level(logging.ERROR, logger="cardavia"):
            r = client.post(path, json={})
        assert r.status_code == 500 and r.json["type"] == "/problems/internal-error"
        assert "a bug of ours" not in r.get_data(as_text=True)
    assert any("a bug of ours" in (rec.exc_text or "") for rec in caplog.records)


@pytest.mark.parametrize("answer", [b"not an answer", (b"{}", 299, ()), None])
def test_an_answer_the_router_cannot_send_is_a_500_problem(monkeypatch, answer):
    client = with_view(monkeypatch, lambda game_id: answer).test_client()
    r = client.post("/v1/games/durak/move", json={})
    assert r.status_code == 500 and r.json["type"] == "/problems/internal-error"


# -- hosts and CORS, for every request -------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/games/durak/deal", "/v1/games/Durak/deal/"])
def test_a_host_outside_the_allowed_ones_is_refused_in_the_language(path):
    client = create_app({"TESTING": True, "ALLOWED_HOSTS": "api.example.org"}).test_client()
    r = client.post(path, json={}, headers={"Host": "evil.example"})
    assert r.status_code == 400 and r.json["type"] == "/problems/http-error"
    assert "evil" not in r.get_data(as_text=True)  # the refusal repeats no Host
    r = client.post(path, json={}, headers={"Host": "evil.example", "Accept-Language": "uk"})
    assert r.status_code == 400 and r.headers["Content-Language"] == "uk"
    assert "Host" in r.json["detail"] and "evil" not in r.json["detail"]
    r = client.post(path, json={}, headers={"Host": "api.example.org"})
    assert r.status_code == 200 and "state" in r.json


@pytest.mark.parametrize("path", ["/v1/games/durak/deal", "/v1/games/durak", "/healthz"])
def test_a_host_name_is_allowed_in_any_case(path):
    """Host names are case-insensitive (RFC 9110 §4.2.3), in the request and in
    CARDAVIA_ALLOWED_HOSTS alike, on the router's paths and on Flask's."""
    client = create_app({"TESTING": True,
                         "ALLOWED_HOSTS": "Api.Example.org, localhost"}).test_client()
    method = "POST" if path.endswith("deal") else "GET"
    for host in ("api.example.org", "API.EXAMPLE.ORG", "LOCALHOST:8000", "LocalHost"):
        r = client.open(path, method=method, json={}, headers={"Host": host})
        assert r.status_code == 200, (host, r.json)
    for host in ("EVIL.example", "LOCALHOST.evil.example"):
        r = client.open(path, method=method, json={}, headers={"Host": host})
        assert r.status_code == 400 and r.json["type"] == "/problems/http-error", host


@pytest.mark.parametrize("path", ["/v1/games/durak/move", "/v1/games", "/table/"])
def test_a_preflight_from_a_host_outside_the_allowed_ones_is_refused(path):
    """Issue 40.7: a preflight is a request like any other, and CARDAVIA_ALLOWED_HOSTS
    shuts it out too."""
    client = create_app({"TESTING": True, "ALLOWED_HOSTS": "api.example.org"}).test_client()
    preflight = {"Origin": "https://table.example", "Access-Control-Request-Method": "POST"}
    r = client.options(path, headers={**preflight, "Host": "evil.example"})
    assert r.status_code == 400 and r.json["type"] == "/problems/http-error"
    assert "Access-Control-Allow-Methods" not in r.headers
    r = client.options(path, headers={**preflight, "Host": "API.example.org"})
    assert r.status_code == 204 and "POST" in r.headers["Access-Control-Allow-Methods"]


def test_every_answer_carries_the_cors_headers(router_client):
    for method, path in [("POST", "/v1/games/durak/deal"), ("POST", "/v1/games/chess/deal"),
                         ("GET", "/v1/games/durak/deal"), ("GET", "/v1/games"),
                         ("GET", "/nowhere")]:
        r = router_client.open(path, method=method, json={} if method == "POST" else None)
        assert r.headers["Access-Control-Allow-Origin"] == "*", (method, path)
        assert "X-Request-ID" in r.headers["Access-Control-Expose-Headers"], (method, path)


# -- over a real gunicorn ---------------------------------------------------------------------


@pytest.mark.http
def test_allow_is_sorted_on_every_path_over_http(server):
    for method, path, allowed in [("GET", "/v1/games/durak/move", "OPTIONS, POST"),
                                  ("OPTIONS", "/v1/games/tarot/move", "OPTIONS, POST"),
                                  ("DELETE", "/v1/games", "GET, HEAD, OPTIONS"),
                                  ("OPTIONS", "/healthz", "GET, HEAD, OPTIONS")]:
        r = requests.request(method, server + path, timeout=30)
        assert r.headers["Allow"] == allowed, (method, path, r.status_code)


@pytest.mark.http
@pytest.mark.parametrize("path", ["/v1/games/durak/deal", "/v1/games/durak/deal/"])
def test_an_allowed_host_is_served_in_any_case_over_http(logged_server, path):
    base, _ = logged_server
    port = base.rsplit(":", 1)[1]
    assert "127.0.0.1" in LOGGED_HOSTS and "api.example.org" in LOGGED_HOSTS.lower()
    for host in ("API.EXAMPLE.ORG", f"api.example.ORG:{port}", "127.0.0.1"):
        r = requests.post(base + path, json={}, headers={"Host": host}, timeout=30)
        assert r.status_code == 200 and "state" in r.json(), (host, r.text[:200])
    r = requests.post(base + path, json={}, headers={"Host": "API.EVIL.EXAMPLE"}, timeout=30)
    assert r.status_code == 400 and r.headers["Content-Type"] == "application/problem+json"


@pytest.mark.http
@pytest.mark.parametrize("header", ["SCRIPT_NAME", "PATH_INFO"])
@pytest.mark.parametrize("value", ["/elsewhere", "/v1", "/healthz"])
def test_no_request_header_moves_the_service(server, header, value):
    """Issue 40.7: gunicorn let a loopback client name the mount point in a `SCRIPT_NAME`
    header, and answered its own HTML 500 when the path did not start with it
    (gunicorn.conf.py's forwarder_headers)."""
    r = requests.get(f"{server}/v1/games", headers={header: value}, timeout=30)
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    assert {g["id"] for g in r.json()["games"]} == set(GAMES)


# -- one dispatcher a path, by construction ---------------------------------------------------


def flask_with(rule: str, methods: list[str]) -> Flask:
    app = Flask(__name__)
    blueprint = Blueprint("added", __name__)
    blueprint.add_url_rule(rule, "added", lambda **_: "", methods=methods)
    app.register_blueprint(blueprint)
    return app


@pytest.mark.parametrize("rule, methods", [
    ("/v1/games/<game_id>/move", ["POST"]),  # what Flask once answered beside the table
    ("/v1/games/<game_id>/move", ["GET"]),   # a GET on a path of the table
    ("/v1/games/durak/deal", ["PUT"]),
    ("/v1/games/<game_id>/hint", ["POST"]),  # a new POST belongs to the table
])
def test_a_flask_route_two_dispatchers_could_answer_is_refused_at_start(rule, methods):
    with pytest.raises(RuntimeError, match="router"):
        router.check_disjoint(flask_with(rule, methods).url_map, router.TABLE)


def test_a_flask_get_beside_the_table_is_allowed():
    router.check_disjoint(flask_with("/v1/games/<game_id>/hint", ["GET"]).url_map,
                          router.TABLE)


def test_a_second_view_for_a_path_of_the_table_is_refused():
    with pytest.raises(ValueError, match="two views"):
        router.post("move")(lambda game_id: (b"", 200, ()))


def reads_flask_request(path) -> list[str]:
    """Where a module names Flask's request (`from flask import request`, `flask.request`)."""
    def names_it(node: ast.AST) -> bool:
        if isinstance(node, ast.ImportFrom):
            return node.module == "flask" and any(alias.name in ("request", "g")
                                                  for alias in node.names)
        return isinstance(node, ast.Attribute) and node.attr in ("request", "g") and \
            isinstance(node.value, ast.Name) and node.value.id == "flask"

    return [f"{path.name}:{node.lineno}" for node in ast.walk(ast.parse(path.read_text()))
            if names_it(node)]


def test_every_view_reads_its_request_through_call():
    """One way to read a request (service/call.py): a view that read Flask's would work
    under Flask's dispatch and fail under the router's."""
    assert [where for path in sorted(SERVICE.glob("*.py"))
            for where in reads_flask_request(path)] == []


@pytest.fixture(scope="module")
def router_client():
    return create_app(TestingConfig).test_client()
