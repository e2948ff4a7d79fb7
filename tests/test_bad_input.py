"""Bad input gets a clear problem document, never a 500, and says which field is wrong; a
body a client never finishes is the client's 400, over a real gunicorn too, and no 500 of
ours in the logs."""

from __future__ import annotations

import copy
import json
import logging
import socket
import time

import pytest
import requests
from gunicorn.http.errors import ChunkMissingTerminator, InvalidChunkSize, NoMoreData

from service.body import CHUNKED, INCOMPLETE
from tests.openapi_check import assert_conforms
from tests.support.abuse import Failing, Trickling

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def valid_state(client):
    return client.post("/v1/games/durak/deal", json={"seed": 11}).json["state"]


def fields_of(response) -> set[str]:
    return {e["field"] for e in response.json["errors"]}


def problem(response, status: int):
    assert response.status_code == status, response.json
    assert response.content_type == PROBLEM
    body = response.json
    assert body["status"] == status and body["title"] and body["detail"] and body["type"]
    return body


@pytest.mark.parametrize("raw", [b"", b"{", b"not json", b"\xff\xfe", b'{"state": }'])
def test_non_json_is_400(client, raw):
    problem(client.post("/v1/games/durak/move", data=raw, content_type="application/json"), 400)


@pytest.mark.parametrize("raw", [b"[]", b"3", b'"x"', b"null"])
def test_json_that_is_not_an_object_is_422(client, raw):
    problem(client.post("/v1/games/durak/legal-moves", data=raw), 422)


def test_missing_fields_are_each_named(client):
    r = client.post("/v1/games/durak/move", json={"state": {"game": "durak"}})
    problem(r, 422)
    assert {"move", "state.trump", "state.hands", "state.stock", "state.discard",
            "state.attacker", "state.table", "state.taking"} <= fields_of(r)


@pytest.mark.parametrize(("path", "value", "field"), [
    (("attacker",), "0", "state.attacker"),
    (("attacker",), True, "state.attacker"),
    (("attacker",), 2, "state.attacker"),
    (("taking",), "false", "state.taking"),
    (("trump",), "X", "state.trump"),
    (("hands",), "6S", "state.hands"),
    (("stock",), {"a": 1}, "state.stock"),
    (("game",), "tarot", "state.game"),
    (("phase",), "bidding", "state.phase"),
])
def test_wrong_types_point_at_the_field(client, valid_state, path, value, field):
    state = copy.deepcopy(valid_state)
    state[path[0]] = value
    r = client.post("/v1/games/durak/legal-moves", json={"state": state})
    problem(r, 422)
    assert field in fields_of(r)


def test_unknown_field_is_named(client, valid_state):
    r = client.post("/v1/games/durak/legal-moves", json={"state": {**valid_state, "hand": []}})
    problem(r, 422)
    assert "state.hand" in fields_of(r)


def test_pointers_escape_odd_keys_as_rfc_6901_says(client, valid_state):
    body = {"state": {**valid_state, "a/b": 1, "x.y": 2, "t~": 3}}
    r = client.post("/v1/games/durak/legal-moves", json=body)
    problem(r, 422)
    assert {e["pointer"] for e in r.json["errors"]} == {"/state/a~1b", "/state/x.y", "/state/t~0"}


def test_unknown_card_codes_are_each_named(client, valid_state):
    state = copy.deepcopy(valid_state)
    state["hands"][0][1] = "1S"
    state["stock"][3] = "6s"  # canonical codes are upper case
    r = client.post("/v1/games/durak/legal-moves", json={"state": state})
    problem(r, 422)
    assert {"state.hands.0.1", "state.stock.3"} <= fields_of(r)


def test_duplicated_and_missing_cards_are_an_invalid_state(client, valid_state):
    state = copy.deepcopy(valid_state)
    state["hands"][1][0] = state["hands"][0][0]
    r = client.post("/v1/games/durak/legal-moves", json={"state": state})
    body = problem(r, 422)
    assert body["type"].endswith("invalid-state")
    assert {"state.hands.1.0", "state"} <= fields_of(r)


def test_every_problem_of_a_state_is_reported_not_only_the_first(client, valid_state):
    state = copy.deepcopy(valid_state)
    state["trump"] = "S" if state["trump"] != "S" else "H"
    state["to_act"] = 1 - state["to_act"]
    state["table"] = [{"attack": state["hands"][state["attacker"]][0], "defense": None}]
    r = client.post("/v1/games/durak/legal-moves", json={"state": state})
    problem(r, 422)
    assert {"state.trump", "state.table.0.attack"} <= fields_of(r)


def test_malformed_move_is_422_and_names_the_field(client, valid_state):
    for move, field in [({"seat": 0, "action": "fly"}, "move.action"),
                        ({"seat": 0, "action": "attack"}, "move.card"),
                        ({"seat": 0, "action": "take", "card": "6S"}, "move.card"),
                        ({"seat": 9, "action": "take"}, "move.seat"),
                        ({"action": "take"}, "move.seat")]:
        r = client.post("/v1/games/durak/move", json={"state": valid_state, "move": move})
        problem(r, 422)
        assert field in fields_of(r), (move, r.json)


def test_a_view_is_never_accepted_as_a_state(client, valid_state):
    state = copy.deepcopy(valid_state)
    state["hands"][1] = ["?"] * len(state["hands"][1])
    problem(client.post("/v1/games/durak/legal-moves", json={"state": state}), 422)


def test_unknown_game_is_404_and_wrong_method_405(client):
    problem(client.get("/v1/games/poker"), 404)
    problem(client.post("/v1/games/poker/deal", json={}), 404)
    r = client.get("/v1/games/durak/move")
    problem(r, 405)
    assert "POST" in r.headers["Allow"]
    problem(client.delete("/v1/games"), 405)


def test_bad_deal_options(client):
    for body, field in [({"seed": "x"}, "seed"), ({"seed": 2**64}, "seed"),
                        ({"deck": ["6S"]}, "deck"), ({"deck": ["ZZ"] * 36}, "deck.0"),
                        ({"dealer": 1}, "dealer")]:
        r = client.post("/v1/games/durak/deal", json=body)
        problem(r, 422)
        assert field in fields_of(r), (body, r.json)


def test_bad_ai_requests(client, valid_state):
    for extra, field in [({"level": "godlike"}, "level"), ({"budget_ms": 0}, "budget_ms"),
                         ({"budget_ms": 10_001}, "budget_ms"),
                         ({"seat": 1 - valid_state["to_act"]}, "seat"), ({"seat": 2}, "seat")]:
        r = client.post("/v1/games/durak/ai-move", json={"state": valid_state, **extra})
        problem(r, 422)
        assert field in fields_of(r), (extra, r.json)


@pytest.mark.http
def test_huge_and_deeply_nested_bodies_over_http(server):
    r = requests.post(f"{server}/v1/games/durak/move", data=b" " * (1024 * 1024 + 1),
                      headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 413 and r.headers["Content-Type"] == PROBLEM
    assert_conforms("post", "/v1/games/{game}/move", r)
    # Chunked, so no Content-Length announces the size: refused once 1 MiB is passed.
    chunks = (b" " * 65536 for _ in range(17))
    r = requests.post(f"{server}/v1/games/durak/move", data=chunks,
                      headers={"Content-Type": "application/json"}, timeout=30)
    assert r.status_code == 413 and r.headers["Content-Type"] == PROBLEM
    small_chunked = (part for part in (b'{"state": ', b"1}"))
    r = requests.post(f"{server}/v1/games/durak/move", data=small_chunked, timeout=30)
    assert r.status_code == 422 and "state" in {e["field"] for e in r.json()["errors"]}
    # Valid JSON nested past what the parser reads is still JSON: a 422 at the place.
    nested = b'{"state": ' * 5000 + b"1" + b"}" * 5000
    r = requests.post(f"{server}/v1/games/durak/move", data=nested, timeout=30)
    assert r.status_code == 422 and r.headers["Content-Type"] == PROBLEM
    assert r.json()["errors"][0]["field"].startswith("state")
    deep_but_valid_json = b"[" * 900 + b"]" * 900
    r = requests.post(f"{server}/v1/games/durak/move", data=deep_but_valid_json, timeout=30)
    assert r.status_code == 422 and r.headers["Content-Type"] == PROBLEM
    long_list = {"state": {"game": "durak", "hands": [["6S"] * 100_000, []]}}
    r = requests.post(f"{server}/v1/games/durak/legal-moves", json=long_list, timeout=30)
    assert r.status_code in (413, 422) and r.headers["Content-Type"] == PROBLEM


CHUNKS = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True}
# Bodies that cannot be read whole: the request's keywords, and the detail answering them.
UNFINISHED = {
    "content-length cut short": ({"data": b'{"seed": 5',
                                  "environ_overrides": {"CONTENT_LENGTH": "20"}}, INCOMPLETE),
    "none of a content-length": ({"environ_overrides": {"CONTENT_LENGTH": "20"}}, INCOMPLETE),
    "chunks cut short": ({"environ_overrides": {**CHUNKS, "wsgi.input": Failing(NoMoreData())}},
                         INCOMPLETE),
    "no last chunk": ({"environ_overrides": {
        **CHUNKS, "wsgi.input": Failing(ChunkMissingTerminator(b""))}}, INCOMPLETE),
    "an ill-formed chunk": ({"environ_overrides": {
        **CHUNKS, "wsgi.input": Failing(InvalidChunkSize(b"zz"))}}, INCOMPLETE),
    # A server that does not end a chunked input (no wsgi.input_terminated).
    "chunks with no end": ({"data": b'{"seed": 5}',
                            "environ_overrides": {"HTTP_TRANSFER_ENCODING": "chunked"}}, CHUNKED),
}


@pytest.mark.parametrize("path", ["/v1/games/durak/deal", "/v1/games/durak/deal/"],
                         ids=["usual", "trailing-slash"])
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_body_read_in_parts_is_read_whole(client, path, chunked):
    """A server may hand the body over in parts (PEP 3333): all of it is read, with its
    Content-Length or to the end of its chunks, and dealt from."""
    body = b'{"seed": 5, "players": 3}'
    environ = {"wsgi.input": Trickling(body)}
    environ.update(CHUNKS if chunked else {"CONTENT_LENGTH": str(len(body))})
    r = client.post(path, content_type="application/json", environ_overrides=environ)
    assert r.status_code == 200 and len(r.json["state"]["hands"]) == 3


@pytest.mark.parametrize("path", ["/v1/games/durak/deal", "/v1/games/durak/deal/"],
                         ids=["usual", "trailing-slash"])
@pytest.mark.parametrize("case", UNFINISHED)
def test_a_body_that_cannot_be_read_whole_is_a_400_not_a_500(client, caplog, path, case):
    """Never an empty body (`deal` would take it as {}), nor a 500 logged as our bug."""
    kwargs, detail = UNFINISHED[case]
    with caplog.at_level(logging.ERROR, logger="cardavia"):
        r = client.post(path, content_type="application/json", **kwargs)
    body = problem(r, 400)
    assert body["type"] == "/problems/malformed-json" and body["detail"] == detail
    assert not caplog.records
    hu = client.post(path, content_type="application/json", headers={"Accept-Language": "hu"},
                     **kwargs)
    assert hu.status_code == 400 and hu.headers["Content-Language"] == "hu"
    assert "törzse" in hu.json["detail"]


# -- bodies left unfinished, over a real gunicorn ----------------------------------------------

HTTP_PATHS = pytest.mark.parametrize("path", ["/v1/games/durak/deal", "/v1/games/durak/deal/"],
                                     ids=["usual", "trailing-slash"])


def raw_request(base: str, data: bytes, finish: bool) -> bytes:
    """`data` sent on a connection of its own. With `finish`, the client stops sending and
    reads the answer to its end; without, it goes away without reading any."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as c:
        c.sendall(data)
        if not finish:
            return b""
        c.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := c.recv(65536):
            out += chunk
        return out


def request_id_of(test: str, path: str, case: str) -> str:
    return "-".join([test, "slash" if path.endswith("/") else "usual", *case.split()])


def logged_line(read, request_id: str) -> dict:
    """The access-log line of a request, once it is written."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for line in read().splitlines():
            if request_id in line and line.startswith("{"):
                return json.loads(line)
        time.sleep(0.1)
    raise AssertionError(f"no access-log line for {request_id}: {read()[-2000:]}")


RAW_HEAD = (b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"X-Request-ID: %s\r\n")
RAW_CHUNKED = b"Transfer-Encoding: chunked\r\n\r\n"
# Bodies a client stops sending before their end: gunicorn's own handling of each (a
# Content-Length body cut short is handed over short; chunks broken off raise).
UNFINISHED_HTTP = {
    "content-length cut short": b'Content-Length: 20\r\n\r\n{"seed": 5',
    "none of a content-length": b"Content-Length: 20\r\n\r\n",
    "mid-chunk": RAW_CHUNKED + b'14\r\n{"seed": 5',
    "no last chunk": RAW_CHUNKED + b'a\r\n{"seed": 5\r\n1\r\n}\r\n',
    "no chunk at all": RAW_CHUNKED,
    "last chunk unended": RAW_CHUNKED + b'b\r\n{"seed": 5}\r\n0\r\n',
    "ill-formed chunk size": RAW_CHUNKED + b'zz\r\n{"seed": 5}\r\n0\r\n\r\n',
}


@pytest.mark.http
@HTTP_PATHS
@pytest.mark.parametrize("case", UNFINISHED_HTTP)
def test_a_body_left_unfinished_is_a_400_problem(logged_server, path, case):
    """The client waits for the answer: a problem saying the body did not come whole,
    never the body read as empty (`deal` would take it as {} and deal) nor a 500."""
    base, read = logged_server
    request_id = request_id_of("unfinished", path, case)
    head = RAW_HEAD % (path.encode(), request_id.encode())
    answer = raw_request(base, head + UNFINISHED_HTTP[case], finish=True)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), answer[:300]
    assert b"content-type: application/problem+json" in head.lower()
    problem = json.loads(body)
    assert problem["type"] == "/problems/malformed-json" and problem["detail"] == INCOMPLETE
    assert logged_line(read, request_id)["status"] == 400


@pytest.mark.http
@HTTP_PATHS
@pytest.mark.parametrize("case", ["mid-chunk", "content-length cut short"])
def test_a_client_gone_mid_body_is_logged_as_its_400(logged_server, path, case):
    """A client that goes away mid-body is no failure of the service: the access log says
    400, and no stack trace of an unhandled error is logged."""
    base, read = logged_server
    request_id = request_id_of("gone", path, case)
    raw_request(base, RAW_HEAD % (path.encode(), request_id.encode()) + UNFINISHED_HTTP[case],
                finish=False)
    assert logged_line(read, request_id)["status"] == 400
    assert "unhandled error" not in read() and "Traceback" not in read()


# What gunicorn refuses before the service sees the request: a header holding a control
# character (nginx passes it on), and under bare gunicorn its request-line and header limits.
UNREADABLE = {
    "ESC in User-Agent": (b"GET /v1/games HTTP/1.1\r\nHost: x\r\nUser-Agent: \x1b[31m\r\n", 400,
                          "http-error"),
    "SOH in Accept-Language": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nAccept-Language: \x01hu\r\n",
                               400, "http-error"),
    "DEL in a header": (b"POST /v1/games/durak/deal HTTP/1.1\r\nHost: x\r\nX-A: a\x7fb\r\n"
                        b"Content-Length: 2\r\n", 400, "http-error"),
    "request line too long": (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n", 414,
                              "request-too-large"),
    "header too long": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 9000 + b"\r\n",
                        431, "request-too-large"),
}


@pytest.mark.http
@pytest.mark.parametrize("case", UNREADABLE)
def test_a_request_gunicorn_cannot_read_is_a_problem_not_its_html(server, case):
    """Issue 40.7's class: gunicorn's own answer is a problem document with what every
    answer carries (nosniff, a request id, CORS, a language), not its HTML page."""
    head, status, slug = UNREADABLE[case]
    answer = raw_request(server, head + b"Connection: close\r\n\r\n", finish=True)
    head_bytes, _, body = answer.partition(b"\r\n\r\n")
    lines = head_bytes.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    assert lines[0].startswith(f"HTTP/1.1 {status} "), answer[:300]
    assert headers["content-type"] == PROBLEM and b"<html" not in body
    problem = json.loads(body)
    assert (problem["type"], problem["status"]) == (f"/problems/{slug}", status)
    assert headers["x-content-type-options"] == "nosniff"
    assert len(headers["x-request-id"]) == 32 and headers["content-language"] == "en"
    assert headers["access-control-allow-origin"] == "*"
    assert "X-Request-ID" in headers["access-control-expose-headers"]
    assert int(headers["content-length"]) == len(body)
