"""The production stack (deploy/stack.py: Debian's nginx in front of
a rules pool and an AI pool, as `make serve-prod` runs it), started for real. Slow clients
and long searches hold nothing that /move and /healthz need, and a rollout of the rules pool
under load loses no request."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from unittest import mock

import pytest
import requests

from deploy.stack import ROOT, Limits, Stack, free_port, stop, wait_healthy
from rules.ai import complete
from schemas.registry import GAMES

pytestmark = pytest.mark.http

SLOWLORIS = 20
STALLED_BODIES = 2
STRONG_CALLS = 16
UNLIMITED = Limits(connections=10_000, rate=100_000, burst=100_000, ai_connections=10_000)


@pytest.fixture(scope="module")
def stack():
    # Two rules servers, so that one can be restarted while the other answers; the AI pool
    # as `make serve-prod` runs it (two workers, one search each). Every client here is on
    # one address: per-client limits it never meets, nginx's and the AI pool's budget of
    # search time (tests/test_edge.py and tests/test_ai_budget.py test them).
    with mock.patch.dict(os.environ, {"CARDAVIA_AI_CLIENT_BUDGET_MS": "0"}), \
            tempfile.TemporaryFile() as log, Stack(rules=2, rules_workers=2, ai_workers=2,
                                                   log=log, limits=UNLIMITED) as s:
        yield s


@pytest.fixture(scope="module")
def durak_move(stack):
    """A mid-deal Durak state and a legal move from it, as a /move body."""
    schemas = GAMES["durak"]
    rng = random.Random(7)
    state = schemas.game.deal(rng)
    for _ in range(4):
        state, _ = schemas.game.play(state, complete(rng.choice(
            schemas.game.legal_moves(state)), rng))
    move = complete(schemas.game.legal_moves(state)[0], rng)
    return {"state": schemas.dump_state(state), "move": schemas.dump_move(move)}


def healthy(stack: Stack, body: dict, session: requests.Session) -> None:
    """One /healthz and one /move through nginx, both answered 200 as they should be."""
    assert session.get(f"{stack.url}/healthz", timeout=10).json() == {"status": "ok"}
    answer = session.post(f"{stack.url}/v1/games/durak/move", json=body, timeout=10)
    assert answer.status_code == 200 and answer.json()["legal"] is True


def still_open(sock: socket.socket) -> bool:
    """The server has neither closed nor answered this connection."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)  # a byte of an answer, or b"" once closed
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)
    return False


def test_slow_clients_hold_no_worker(stack, durak_move):
    """16.3: 20 slowloris connections (headers a line at a time) and 2 bodies that stall
    after their first bytes, more than the rules pool's four sync workers, while healthy
    requests are answered. Without the buffering proxy the first two would hold both
    workers of a pool until gunicorn's timeout."""
    host, port = stack.host, stack.port
    slow = []
    for i in range(SLOWLORIS):
        s = socket.create_connection((host, port))
        s.sendall(f"GET /healthz?{i} HTTP/1.1\r\nHost: x\r\n".encode())
        slow.append(s)
    stalled = []
    for _ in range(STALLED_BODIES):
        s = socket.create_connection((host, port))
        s.sendall(b"POST /v1/games/durak/move HTTP/1.1\r\nHost: x\r\n"
                  b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"state\":")
        stalled.append(s)
    try:
        with requests.Session() as session:
            for i in range(25):
                healthy(stack, durak_move, session)
                if i % 5 == 0:
                    for s in slow:  # a slowloris keeps its request alive, a line at a time
                        s.sendall(b"X-Slow: 1\r\n")
        # The attack was real: every slow connection is still waiting for its answer.
        assert all(still_open(s) for s in slow + stalled)
    finally:
        for s in slow + stalled:
            s.close()


def test_long_searches_hold_nothing_that_move_and_healthz_need(stack, durak_move):
    """16.4: 16 concurrent strong ai-move calls at budget_ms 10000 (each retried after
    Retry-After when the AI pool turns it away) while /move and /healthz are answered:
    every one of those, and the AI pool's own /healthz, is answered before the first search
    ends."""
    dealt = requests.post(f"{stack.url}/v1/games/durak/deal", json={"seed": 1}, timeout=10)
    # Six legal attacks: a real search (about 8 s of its 10 s budget), not a forced move.
    ai_body = {"state": dealt.json()["state"], "level": "strong", "budget_ms": 10000, "seed": 3}
    url = f"{stack.url}/v1/games/durak/ai-move"
    outcomes: Counter[str] = Counter()
    first_search_done: list[float] = []
    busy = threading.Event()
    stop = threading.Event()
    lock = threading.Lock()

    def caller() -> None:
        while not stop.is_set():
            answer = requests.post(url, json=ai_body, timeout=60)
            with lock:
                if answer.status_code == 503 and answer.json()["type"] == "/problems/ai-busy" \
                        and answer.headers["Content-Type"] == "application/problem+json":
                    outcomes["busy"] += 1
                    busy.set()
                    retry = int(answer.headers["Retry-After"])
                elif answer.status_code == 200 and answer.json()["level"] == "strong":
                    outcomes["move"] += 1
                    first_search_done.append(time.monotonic())
                    return
                else:
                    outcomes[f"{answer.status_code} {answer.text[:200]}"] += 1
                    return
            stop.wait(retry)

    callers = [threading.Thread(target=caller, daemon=True) for _ in range(STRONG_CALLS)]
    for t in callers:
        t.start()
    try:
        assert busy.wait(30), "the AI pool never said it was saturated"
        with requests.Session() as session:
            for _ in range(20):
                healthy(stack, durak_move, session)
            # The AI pool's own /healthz (its pods' liveness probe in Kubernetes): a free
            # thread answers it beside the searches.
            ai_health = session.get(f"http://127.0.0.1:{stack.ai_port}/healthz", timeout=10)
            assert ai_health.json() == {"status": "ok"}
        answered = time.monotonic()
    finally:
        stop.set()
        for t in callers:
            t.join(timeout=60)
    assert set(outcomes) == {"busy", "move"}, outcomes
    assert answered < min(first_search_done), "a /move or /healthz waited for a search"


def test_a_rollout_of_the_rules_pool_under_load_loses_no_request(stack, durak_move):
    """16.7: while four clients keep every rules endpoint busy, each rules server in turn
    drains (SIGTERM) and is replaced by a new one; nginx sends what a stopping server
    refuses or resets to the other. Not one request fails."""
    deal = {"seed": 5}
    stop = threading.Event()
    results: Counter[str] = Counter()
    lock = threading.Lock()

    def client() -> None:
        with requests.Session() as session:
            while not stop.is_set():
                try:
                    a = session.post(f"{stack.url}/v1/games/durak/move", json=durak_move,
                                     timeout=30)
                    b = session.post(f"{stack.url}/v1/games/tarot/deal", json=deal, timeout=30)
                    c = session.get(f"{stack.url}/healthz", timeout=30)
                    outcome = "ok" if (a.status_code, b.status_code, c.status_code) == (
                        200, 200, 200) else f"{a.status_code}/{b.status_code}/{c.status_code}"
                except requests.RequestException as e:
                    outcome = type(e).__name__
                with lock:
                    results[outcome] += 1

    clients = [threading.Thread(target=client, daemon=True) for _ in range(4)]
    for t in clients:
        t.start()
    try:
        time.sleep(0.5)
        before = [p.pid for p in stack.rules]
        for i in range(len(stack.rules)):
            stack.restart_rules(i)
            time.sleep(1.0)
        after = [p.pid for p in stack.rules]
    finally:
        stop.set()
        for t in clients:
            t.join(timeout=60)
    assert set(before).isdisjoint(after), "every rules server was replaced"
    assert results["ok"] > 50, results
    assert set(results) == {"ok"}, results


def test_the_image_command_serves_behind_the_proxy():
    """Issue 40.4: the Dockerfile's CMD, run as the image runs it (here without Docker),
    is the whole stack: four bodies stalled after their first bytes hold no worker, where
    bare gunicorn's two sync workers stop for as long as the clients like."""
    (cmd,) = [json.loads(line.split(None, 1)[1]) for line in
              (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD ")]
    command = [sys.executable if part == "python" else part for part in cmd]
    port = free_port()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("CARDAVIA_")},
           "HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": "2"}
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log,
                                start_new_session=True)
        stalled = []
        try:
            wait_healthy(f"{base}/healthz", proc, timeout=120)
            for _ in range(4):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(b"POST /v1/games/durak/move HTTP/1.1\r\nHost: x\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 100000\r\n\r\n{\"state\":")
                stalled.append(s)
            with requests.Session() as session:
                for _ in range(4):
                    assert session.get(f"{base}/healthz", timeout=5).json() == {"status": "ok"}
                assert session.get(f"{base}/livez", timeout=5).status_code == 200
        finally:
            for s in stalled:
                s.close()
            stop(proc)
