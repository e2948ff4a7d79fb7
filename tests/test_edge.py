"""The production stack's edge (deploy/nginx/nginx.conf through deploy/stack.py), started
for real: what nginx answers itself is a problem document, never an HTML page, and it meets
every size limit before gunicorn does; text answers are compressed where the client asks,
with Vary: Accept-Encoding; one address past its limits gets 429s while another is served;
and connections that never finish their headers, more than the old table held, leave
/healthz and /move answered from the same address and from another."""

from __future__ import annotations

import contextlib
import gzip
import os
import random
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from unittest import mock

import pytest
import requests

from deploy.stack import BROTLI_MODULE, Limits, Stack, free_port, nginx_command, stop
from rules.ai import complete
from schemas.registry import GAMES
from tests.support.servers import session_from

pytestmark = pytest.mark.http

PROBLEM = "application/problem+json"
OTHER = "127.0.0.2"  # a second client address on loopback


BALANCER = "127.0.0.3"  # a load balancer in front, trusted to name its clients


@pytest.fixture(scope="module")
def edge_stack():
    # Limits low enough for a test to pass them from one address; one ai-move at a time.
    with mock.patch.dict(os.environ, {"CARDAVIA_TRUSTED_PROXIES": BALANCER}), \
            tempfile.TemporaryFile() as log, Stack(log=log, limits=Limits(8, 20, 20, 1)) as s:
        yield s


def exchange(edge_stack: Stack, data: bytes, source: str = "127.0.0.1") -> tuple[int, dict, bytes]:
    """One raw request; the status, headers and body of the answer."""
    with socket.socket() as c:
        c.bind((source, 0))
        c.connect((edge_stack.host, edge_stack.port))
        c.settimeout(10)
        c.sendall(data)
        out = b""
        while b"\r\n\r\n" not in out or len(out.partition(b"\r\n\r\n")[2]) < length(out):
            chunk = c.recv(65536)
            if not chunk:
                break
            out += chunk
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def length(out: bytes) -> int:
    for line in out.partition(b"\r\n\r\n")[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 1 << 30


@pytest.mark.parametrize(("name", "request_bytes", "status", "slug"), [
    ("TRACE", b"TRACE / HTTP/1.1\r\nHost: x\r\n\r\n", 405, "method-not-allowed"),
    ("not HTTP", b"GARBAGE\r\n\r\n", 400, "http-error"),
    ("no Host", b"GET /healthz HTTP/1.1\r\n\r\n", 400, "http-error"),
    ("HTTP/9", b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505, "http-error"),
    ("URI too long", b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414,
     "request-too-large"),
    ("header too long", b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 5000 + b"\r\n\r\n",
     431, "request-too-large"),
    ("headers too long", b"GET / HTTP/1.1\r\nHost: x\r\n"
     + b"".join(b"X-%d: %s\r\n" % (i, b"a" * 100) for i in range(200)) + b"\r\n", 431,
     "request-too-large"),
    ("body too large", b"POST /v1/games/durak/move HTTP/1.1\r\nHost: x\r\n"
     b"Content-Length: 2000000\r\n\r\n", 413, "body-too-large"),
    ("unknown coding", b"POST /v1/games/durak/move HTTP/1.1\r\nHost: x\r\n"
     b"Transfer-Encoding: gzip\r\n\r\n", 501, "http-error"),
])
def test_what_nginx_answers_itself_is_a_problem(edge_stack, name, request_bytes, status, slug):
    """…with what the service's answers carry (issue 40.7): nosniff, a request id, and
    CORS exposing Retry-After, so that a page can read why and when to come back."""
    got, headers, body = exchange(edge_stack, request_bytes)
    assert got == status, (name, got, body[:200])
    assert headers["content-type"] == PROBLEM, (name, body[:200])
    assert f'"type":"/problems/{slug}"'.encode() in body and b"<html" not in body
    assert headers["x-content-type-options"] == "nosniff"
    assert re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"]), headers
    assert headers["access-control-allow-origin"] == "*"
    exposed = {h.strip().lower() for h in headers["access-control-expose-headers"].split(",")}
    assert {"x-request-id", "content-language", "retry-after"} <= exposed
    assert headers["content-language"] == "en"


def test_nginx_answers_with_the_clients_request_id_as_the_service_does(edge_stack):
    given = b"X-Request-ID: trace-1.2:3\r\n"
    got, headers, _ = exchange(edge_stack, b"TRACE / HTTP/1.1\r\nHost: x\r\n" + given
                               + b"\r\n")
    assert (got, headers["x-request-id"]) == (405, "trace-1.2:3")
    got, headers, _ = exchange(edge_stack, b"TRACE / HTTP/1.1\r\nHost: x\r\nX-Request-ID: "
                               b"<script>\r\n\r\n")
    assert got == 405 and re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"])


def test_what_nginx_lets_through_is_answered_by_the_service_not_gunicorn(edge_stack):
    """Within nginx's limits, gunicorn's own are never met: many short headers (gunicorn
    takes 100 by default) and a long one reach the service."""
    many = b"".join(b"X-%d: a\r\n" % i for i in range(800))
    got, headers, body = exchange(edge_stack, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + many
                                  + b"Connection: close\r\n\r\n")
    assert (got, body) == (200, b'{"status":"ok"}'), body[:300]
    got, headers, body = exchange(edge_stack, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: "
                                  + b"a" * 4000 + b"\r\nConnection: close\r\n\r\n")
    assert (got, body) == (200, b'{"status":"ok"}'), body[:300]
    got, headers, body = exchange(edge_stack, b"GET /" + b"a" * 3900 + b" HTTP/1.1\r\nHost: x\r\n"
                                  b"Connection: close\r\n\r\n")
    assert got == 404 and headers["content-type"] == PROBLEM


@pytest.mark.parametrize("header", [b"User-Agent: \x1b[31m", b"Accept-Language: \x01hu",
                                    b"X-A: a\x7fb"])
def test_a_header_nginx_passes_and_gunicorn_refuses_is_a_problem_too(edge_stack, header):
    """A control character in a header value is nginx's to pass on and gunicorn's to
    refuse (RFC 9110 §5.5): its answer too is a problem with nosniff, a request id and
    CORS (service/unread.py), never gunicorn's HTML page."""
    got, headers, body = exchange(edge_stack, b"GET /v1/games HTTP/1.1\r\nHost: x\r\n"
                                  + header + b"\r\nConnection: close\r\n\r\n")
    assert got == 400 and headers["content-type"] == PROBLEM, body[:300]
    assert b'"type":"/problems/http-error"' in body and b"<html" not in body
    assert headers["x-content-type-options"] == "nosniff"
    assert re.fullmatch(r"[0-9a-f]{32}", headers["x-request-id"]), headers
    assert headers["access-control-allow-origin"] == "*"
    assert headers["content-language"] == "en"


@pytest.fixture(scope="module")
def tarot_deal(edge_stack):
    r = requests.post(f"{edge_stack.url}/v1/games/tarot/deal", json={"seed": 4}, timeout=10)
    return r.json()


def test_text_answers_are_compressed_where_asked(edge_stack, tarot_deal):
    state = tarot_deal["state"]
    rng = random.Random(4)
    schemas = GAMES["tarot"]
    built = schemas.game.build(**schemas.requests["state"].load({"state": state})["state"])
    moves = []
    while schemas.game.legal_moves(built):
        move = complete(rng.choice(schemas.game.legal_moves(built)), rng)
        moves.append(schemas.dump_move(move))
        built = schemas.game.apply(built, move)
    for path, body in [("/v1/games/tarot/render", {"state": state}),
                       ("/v1/games/tarot/replay", {"state": state, "moves": moves,
                                                   "include": "all"})]:
        plain = requests.post(f"{edge_stack.url}{path}", json=body, timeout=30,
                              headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
        assert "Accept-Encoding" in plain.headers["Vary"]
        r = requests.post(f"{edge_stack.url}{path}", json=body, timeout=30, stream=True,
                          headers={"Accept-Encoding": "gzip"})
        sent = r.raw.read()
        assert r.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in r.headers["Vary"]
        assert gzip.decompress(sent) == plain.content
        assert len(sent) * 5 < len(plain.content), (path, len(sent), len(plain.content))
    small = requests.get(f"{edge_stack.url}/healthz", headers={"Accept-Encoding": "gzip"},
                         timeout=10)
    assert "Content-Encoding" not in small.headers  # under 1 KiB: not worth it


@pytest.mark.skipif(not BROTLI_MODULE.is_file(), reason="Debian's nginx brotli module "
                    "(libnginx-mod-http-brotli-filter) is not installed")
def test_brotli_where_the_module_is_installed(edge_stack, tarot_deal):
    r = requests.post(f"{edge_stack.url}/v1/games/tarot/render",
                      json={"state": tarot_deal["state"]},
                      headers={"Accept-Encoding": "gzip, br"}, timeout=30, stream=True)
    assert r.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in r.headers["Vary"]


def test_one_address_past_its_limits_is_turned_away_and_another_is_served(edge_stack):
    outcomes: Counter[int] = Counter()
    lock = threading.Lock()

    def flood() -> None:
        with requests.Session() as s:
            for _ in range(40):
                r = s.get(f"{edge_stack.url}/healthz", timeout=10)
                with lock:
                    outcomes[r.status_code] += 1
                if r.status_code == 429:
                    assert r.headers["Content-Type"] == PROBLEM
                    assert r.headers["Retry-After"] == "1"
                    assert "Retry-After" in r.headers["Access-Control-Expose-Headers"]
                    assert r.json()["type"] == "/problems/too-many-requests"

    threads = [threading.Thread(target=flood) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes[429] > 0 and set(outcomes) <= {200, 429}, outcomes
    with session_from(OTHER) as other:
        answers = [other.get(f"{edge_stack.url}/healthz", timeout=10).status_code
                   for _ in range(10)]
    assert answers == [200] * 10


def test_connections_that_never_finish_their_headers_shut_nobody_out(edge_stack):
    """More half-sent requests from one address than nginx's old connection table held
    (1,024): /healthz still answers from that address and from another."""
    socks = []
    try:
        for i in range(1200):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            s.connect((edge_stack.host, edge_stack.port))
            s.sendall(f"GET /healthz?{i} HTTP/1.1\r\nHost: x\r\n".encode())
            socks.append(s)
        for source in ("127.0.0.1", OTHER):
            with session_from(source) as session:
                assert session.get(f"{edge_stack.url}/healthz", timeout=4).status_code == 200
    finally:
        for s in socks:
            s.close()


def test_nginx_names_only_a_listed_origin_when_cors_origins_narrows_them(monkeypatch):
    """CARDAVIA_CORS_ORIGINS reaches nginx's own answers as it does the service's: the
    Origin when listed, none otherwise, and Vary: Origin either way."""
    monkeypatch.setenv("CARDAVIA_CORS_ORIGINS", "https://table.example, http://b.example:81")
    port = free_port()
    with tempfile.TemporaryDirectory() as prefix:
        # nginx alone: its own answers need no pool behind it
        command = nginx_command(Path(prefix), f"127.0.0.1:{port}", ["127.0.0.1:9"],
                                ["127.0.0.1:9"])
        proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port, proc)
            answers = {}
            for origin in ("https://table.example", "http://b.example:81",
                           "https://elsewhere.example", None):
                sent = b"" if origin is None else b"Origin: %s\r\n" % origin.encode()
                with socket.create_connection(("127.0.0.1", port), timeout=10) as c:
                    c.sendall(b"TRACE / HTTP/1.1\r\nHost: x\r\n" + sent + b"\r\n")
                    head = c.recv(65536).partition(b"\r\n\r\n")[0].decode("latin-1")
                lines = head.split("\r\n")
                headers = {k.lower(): v.strip() for k, _, v in
                           (line.partition(":") for line in lines[1:])}
                assert lines[0].split()[1] == "405" and headers["vary"] == "Origin"
                answers[origin] = headers.get("access-control-allow-origin")
        finally:
            stop(proc, signal.SIGQUIT)
    assert answers == {"https://table.example": "https://table.example",
                       "http://b.example:81": "http://b.example:81",
                       "https://elsewhere.example": None, None: None}


def wait_for_port(port: int, proc: subprocess.Popen) -> None:
    for _ in range(200):
        assert proc.poll() is None, "nginx exited"
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.05)
    raise AssertionError("nginx did not listen")


def search_under_way(edge_stack: Stack, source: str, headers: dict | None = None):
    """A strong search of budget_ms 8000 from `source`, in a thread; the thread, once
    nginx holds it (another ai-move from there is turned away)."""
    dealt = requests.post(f"{edge_stack.url}/v1/games/durak/deal", json={"seed": 1},
                          timeout=10).json()["state"]
    body = {"state": dealt, "level": "strong", "budget_ms": 8000, "seed": 1}
    answer: dict = {}

    def search() -> None:
        with session_from(source) as s:
            # The caller's first check may come first and hold the address's one ai-move
            # for a millisecond: then again.
            for _ in range(50):
                r = s.post(f"{edge_stack.url}/v1/games/durak/ai-move", json=body,
                           headers=headers, timeout=60)
                answer["status"] = r.status_code
                if r.status_code != 429:
                    return
                time.sleep(0.02)

    thread = threading.Thread(target=search)
    thread.start()
    return thread, answer, {"state": dealt, "level": "random"}


def ai_move(edge_stack: Stack, source: str, body: dict, game: str = "durak", headers=None) -> int:
    with session_from(source) as s:
        return s.post(f"{edge_stack.url}/v1/games/{game}/ai-move", json=body, headers=headers,
                      timeout=30).status_code


def served_in_time(edge_stack: Stack, source: str, body: dict) -> int:
    """A search's status once the AI pool has a free slot: its workers share
    CARDAVIA_AI_CONCURRENCY searches, and one may be another address's, so a busy pool
    answers 503 with Retry-After, as any client may meet, and a later try finds room."""
    for _ in range(20):
        status = ai_move(edge_stack, source, body)
        if status != 503:
            return status
        time.sleep(0.1)
    return status


def wait_turned_away(edge_stack: Stack, source: str, body: dict, answer: dict, headers=None
                     ) -> None:
    seen = []
    for _ in range(100):
        seen.append(ai_move(edge_stack, source, body, headers=headers))
        if seen[-1] == 429:
            return
        time.sleep(0.05)
    raise AssertionError(f"the search never held its address's ai-move: {answer}, {seen}")


def test_one_address_holds_one_ai_move_at_once_and_another_is_served(edge_stack):
    """Issue 40.1: an address with a 8 s search under way is turned away (429) for its
    next ai-move, in any case of the game id (it too goes to the AI pool, not the rules
    workers), while another address is served at once."""
    thread, answer, quick = search_under_way(edge_stack, "127.0.0.1")
    try:
        wait_turned_away(edge_stack, "127.0.0.1", quick, answer)
        assert ai_move(edge_stack, "127.0.0.1", quick, game="DURAK") == 429
        assert ai_move(edge_stack, OTHER, quick) == 200
        strong = {**quick, "level": "strong", "budget_ms": 50}
        assert served_in_time(edge_stack, OTHER, strong) == 200
    finally:
        thread.join()
    assert answer["status"] == 200
    assert ai_move(edge_stack, "127.0.0.1", quick) == 200  # its own once the search is done


def test_behind_a_trusted_balancer_the_client_is_the_one_it_forwards(edge_stack):
    """CARDAVIA_TRUSTED_PROXIES (issue 40.8): every request through the balancer comes
    from its address, yet the per-address limits count the clients it names."""
    one, two = {"X-Forwarded-For": "203.0.113.7"}, {"X-Forwarded-For": "203.0.113.8"}
    thread, answer, quick = search_under_way(edge_stack, BALANCER, one)
    try:
        wait_turned_away(edge_stack, BALANCER, quick, answer, one)
        assert ai_move(edge_stack, BALANCER, quick, headers=two) == 200
        # an address that is no balancer names nobody else: it is itself
        assert ai_move(edge_stack, OTHER, quick, headers=one) == 200
    finally:
        thread.join()
    assert answer["status"] == 200
