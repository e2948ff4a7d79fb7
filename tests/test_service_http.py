"""The service's edges over a real gunicorn, on the lane's paths and on Flask's alike: the
`Allow` header, the allowed hosts in any case, and bodies a client never finishes, which
are the client's 400 and no 500 of ours in the logs."""

from __future__ import annotations

import json
import socket
import tempfile
import time

import pytest
import requests

from service.api import INCOMPLETE
from tests.support.servers import serving_to

pytestmark = pytest.mark.http

PROBLEM = "application/problem+json"
HOSTS = "Api.Example.org, 127.0.0.1"
LANE = "/v1/games/durak/deal"
FLASK = "/v1/games/durak/deal/"  # a trailing slash goes on to Flask (service/lane.py)
PATHS = pytest.mark.parametrize("path", [LANE, FLASK], ids=["lane", "flask"])


@pytest.fixture(scope="module")
def logged():
    """A gunicorn with its access log on and CARDAVIA_ALLOWED_HOSTS set: its base URL, and
    a function reading what it has logged so far."""
    with tempfile.TemporaryFile() as log, \
            serving_to(log, CARDAVIA_ACCESS_LOG="1", CARDAVIA_ALLOWED_HOSTS=HOSTS) as base:
        def read() -> str:
            log.seek(0)
            return log.read().decode(errors="replace")
        yield base, read


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
    return "-".join([test, "lane" if path == LANE else "flask", *case.split()])


def logged_line(read, request_id: str) -> dict:
    """The access-log line of a request, once it is written."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for line in read().splitlines():
            if request_id in line and line.startswith("{"):
                return json.loads(line)
        time.sleep(0.1)
    raise AssertionError(f"no access-log line for {request_id}: {read()[-2000:]}")


def test_allow_is_sorted_on_every_path(logged):
    base, _ = logged
    for method, path, allowed in [("GET", "/v1/games/durak/move", "OPTIONS, POST"),
                                  ("OPTIONS", "/v1/games/tarot/move", "OPTIONS, POST"),
                                  ("DELETE", "/v1/games", "GET, HEAD, OPTIONS"),
                                  ("OPTIONS", "/healthz", "GET, HEAD, OPTIONS")]:
        r = requests.request(method, base + path, timeout=30)
        assert r.headers["Allow"] == allowed, (method, path, r.status_code)


@PATHS
def test_an_allowed_host_is_served_in_any_case(logged, path):
    base, _ = logged
    port = base.rsplit(":", 1)[1]
    for host in ("API.EXAMPLE.ORG", f"api.example.ORG:{port}", "127.0.0.1"):
        r = requests.post(base + path, json={}, headers={"Host": host}, timeout=30)
        assert r.status_code == 200 and "state" in r.json(), (host, r.text[:200])
    r = requests.post(base + path, json={}, headers={"Host": "API.EVIL.EXAMPLE"}, timeout=30)
    assert r.status_code == 400 and r.headers["Content-Type"] == PROBLEM


HEAD = (b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"X-Request-ID: %s\r\n")
CHUNKED = b"Transfer-Encoding: chunked\r\n\r\n"
# Bodies a client stops sending before their end: gunicorn's own handling of each (a
# Content-Length body cut short is handed over short; chunks broken off raise).
UNFINISHED = {
    "content-length cut short": b'Content-Length: 20\r\n\r\n{"seed": 5',
    "none of a content-length": b"Content-Length: 20\r\n\r\n",
    "mid-chunk": CHUNKED + b'14\r\n{"seed": 5',
    "no last chunk": CHUNKED + b'a\r\n{"seed": 5\r\n1\r\n}\r\n',
    "no chunk at all": CHUNKED,
    "last chunk unended": CHUNKED + b'b\r\n{"seed": 5}\r\n0\r\n',
    "ill-formed chunk size": CHUNKED + b'zz\r\n{"seed": 5}\r\n0\r\n\r\n',
}


@PATHS
@pytest.mark.parametrize("case", UNFINISHED)
def test_a_body_left_unfinished_is_a_400_problem(logged, path, case):
    """The client waits for the answer: a problem saying the body did not come whole,
    never the body read as empty (`deal` would take it as {} and deal) nor a 500."""
    base, read = logged
    request_id = request_id_of("unfinished", path, case)
    answer = raw_request(base, HEAD % (path.encode(), request_id.encode()) + UNFINISHED[case],
                         finish=True)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), answer[:300]
    assert b"content-type: application/problem+json" in head.lower()
    problem = json.loads(body)
    assert problem["type"] == "/problems/malformed-json" and problem["detail"] == INCOMPLETE
    assert logged_line(read, request_id)["status"] == 400


@PATHS
@pytest.mark.parametrize("case", ["mid-chunk", "content-length cut short"])
def test_a_client_gone_mid_body_is_logged_as_its_400(logged, path, case):
    """A client that goes away mid-body is no failure of the service: the access log says
    400, and no stack trace of an unhandled error is logged."""
    base, read = logged
    request_id = request_id_of("gone", path, case)
    raw_request(base, HEAD % (path.encode(), request_id.encode()) + UNFINISHED[case],
                finish=False)
    assert logged_line(read, request_id)["status"] == 400
    assert "unhandled error" not in read() and "Traceback" not in read()


def test_a_deck_the_game_has_not_names_the_game_in_the_language(logged):
    base, _ = logged
    r = requests.get(f"{base}/v1/games/tarot", params={"cards": "52"}, timeout=30,
                     headers={"Accept-Language": "hu"})
    assert r.status_code == 422 and r.headers["Content-Language"] == "hu"
    assert r.json()["detail"] == "A(z) „Francia tarot” játéknak nincs 52 lapos paklija: 78."
