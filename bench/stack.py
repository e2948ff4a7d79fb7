"""`--only stack`: three abuses, each against the service as it was deployed before its
hardening (one gunicorn, 2 sync workers, `bench/server.py`) and against the production stack
(`deploy/stack.py`: nginx in front of a rules pool of 2 sync workers and an AI pool of 2
gthread workers, one search each), in the same run:

- slow: 2 bodies stalled after their first bytes and 20 slowloris connections (headers a
  line a second) stay open while a probe times healthy requests; target p99 <= 100 ms;
- ai: 16 concurrent strong ai-move calls at budget_ms 10000 (each retried after
  Retry-After when turned away) while the probe runs; target p99 <= 50 ms;
- rollout: 4 clients on /move, deal and /healthz while the rules servers are restarted
  one after another (before: the one gunicorn, SIGTERM and a new one); failed requests;
- flood: 2,000 connections from 127.0.0.1 that never finish their headers (each reopened
  when the server closes it) while one probe runs from that address and another from a
  second one, 127.0.0.2; target p99 <= 100 ms from both;
- compression (after only): the bytes of a Tarot SVG render and of a whole deal's replay
  with every state, plain, gzip and br, and the median time of each through nginx.

Issue 40's abuses, each from 127.0.0.1 while 127.0.0.2 is served, against `make serve-prod`
(deploy/stack.py run as a process: nginx, one rules server of 2 sync workers, the AI pool
of 2) of this tree and, with `--stack-baseline REV`, of REV checked out in a temporary
worktree, in the same run:

- fair ai: two strong searches at budget_ms 10000 kept in flight (each sent again when
  answered, after Retry-After when turned away); the other address asks random, basic and
  strong (budget_ms 200) moves in turn: its share answered 200;
- several hogs: the same from each of three addresses (127.0.0.1, .3, .4), more than the
  AI pool's slots; the other address's moves as above, a round a second as a table asks,
  once the hogs have searched for HOGS_WARMUP_S (each spending the budget a client starts
  with), for 6 times the seconds;
- heavy: eight connections sending 500-deal Tarot evenings (~115 KB) back to back; the
  other address's probe;
- accept-language: 56 requests a second, each with a different 4,000-byte
  Accept-Language; the other address's probe.

The probe: one client, one keep-alive connection, /healthz and a Durak /move in turn,
each timed to its last byte; a request unanswered within PROBE_TIMEOUT counts as a timeout
(and at PROBE_TIMEOUT in the percentiles).
"""

from __future__ import annotations

import contextlib
import os
import random
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import requests

from bench import ROOT, traffic
from bench.instructions import checkout
from bench.server import Gunicorn
from deploy.stack import Limits, Stack, free_port, stop, wait_healthy
from rules.ai import complete
from schemas.registry import GAMES
from tests.support.servers import SourceAdapter, session_from

SERVICE_APP = "service.app:create_app()"
PROBE_TIMEOUT = 2.0
SLOWLORIS, STALLED = 20, 2
STRONG_CALLS, STRONG_BUDGET_MS = 16, 10000
FLOOD = 2000
SECOND_ADDRESS = "127.0.0.2"
# The rollout's four clients share one address: limits they never meet, as a fleet of
# clients behind the address would not.
UNLIMITED = Limits(connections=10_000, rate=100_000, burst=100_000, ai_connections=10_000)


class Target:
    """What is measured: `url`, and `restart()` for the rollout."""

    def __init__(self, url: str, restart: Callable[[], None]):
        self.url, self.restart = url, restart


@contextlib.contextmanager
def before(limits: Limits | None = None) -> Iterator[Target]:
    """The service as deployed before its hardening: one gunicorn, nothing in front."""
    servers = [Gunicorn(SERVICE_APP, workers=2).__enter__()]

    def restart() -> None:
        # A rollout of a lone server: SIGTERM it (it drains), start its successor.
        old = servers[-1]
        old.stop()
        new = Gunicorn(SERVICE_APP, workers=2)
        new.port = old.port
        servers.append(new.__enter__())

    try:
        yield Target(f"http://127.0.0.1:{servers[0].port}", restart)
    finally:
        servers[-1].stop()


@contextlib.contextmanager
def after(limits: Limits | None = None) -> Iterator[Target]:
    with tempfile.TemporaryFile() as log, Stack(rules=2, log=log, limits=limits) as stack:
        def restart() -> None:
            for i in range(len(stack.rules)):
                stack.restart_rules(i)
                time.sleep(1.0)
        yield Target(stack.url, restart)


def probe(url: str, seconds: float, move_body: dict, source: str | None = None) -> dict:
    latencies: list[float] = []
    outcomes: Counter[str] = Counter()
    deadline = time.perf_counter() + seconds
    with requests.Session() as session:
        if source is not None:
            session.mount("http://", SourceAdapter(source))
        while time.perf_counter() < deadline:
            for method, path, body in (("GET", "/healthz", None),
                                       ("POST", "/v1/games/durak/move", move_body)):
                t0 = time.perf_counter()
                try:
                    answer = session.request(method, url + path, json=body,
                                             timeout=PROBE_TIMEOUT)
                    kind = "200" if answer.status_code == 200 else str(answer.status_code)
                except requests.Timeout:
                    kind = "timeout"
                except requests.RequestException:
                    kind = "error"
                latencies.append(min(time.perf_counter() - t0, PROBE_TIMEOUT))
                outcomes[kind] += 1
                if kind != "200":
                    session.close()  # a fresh connection after a failure
    summary = traffic.summary(traffic.Tally(latencies), seconds)
    return {"requests": len(latencies), "outcomes": dict(outcomes),
            **{k: summary[k] for k in ("p50_ms", "p99_ms", "max_ms")}}


def slow_clients(target: Target, seconds: float, move_body: dict) -> dict:
    host, port = target.url.removeprefix("http://").rsplit(":", 1)
    socks = []
    try:
        for i in range(SLOWLORIS):
            s = socket.create_connection((host, int(port)))
            s.sendall(f"GET /healthz?{i} HTTP/1.1\r\nHost: x\r\n".encode())
            socks.append(s)
        for _ in range(STALLED):
            s = socket.create_connection((host, int(port)))
            s.sendall(b"POST /v1/games/durak/move HTTP/1.1\r\nHost: x\r\nContent-Type: "
                      b"application/json\r\nContent-Length: 100000\r\n\r\n{\"state\":")
            socks.append(s)
        stop_trickle = threading.Event()

        def trickle() -> None:
            while not stop_trickle.wait(1.0):
                for s in socks[:SLOWLORIS]:
                    with contextlib.suppress(OSError):
                        s.sendall(b"X-Slow: 1\r\n")

        t = threading.Thread(target=trickle, daemon=True)
        t.start()
        time.sleep(0.5)
        out = probe(target.url, seconds, move_body)
        stop_trickle.set()
        t.join()
        return out
    finally:
        for s in socks:
            s.close()


def long_searches(target: Target, seconds: float, move_body: dict, state: dict) -> dict:
    body: dict[str, Any] = {"state": state, "level": "strong", "budget_ms": STRONG_BUDGET_MS,
                            "seed": 3}
    done = threading.Event()
    answers: Counter[str] = Counter()

    def caller() -> None:
        while not done.is_set():
            try:
                a = requests.post(f"{target.url}/v1/games/durak/ai-move", json=body,
                                  timeout=seconds + 15)
            except requests.RequestException:
                answers["error"] += 1
                return
            answers[str(a.status_code)] += 1
            if a.status_code != 503:
                return
            done.wait(int(a.headers.get("Retry-After", "1")))

    callers = [threading.Thread(target=caller, daemon=True) for _ in range(STRONG_CALLS)]
    for c in callers:
        c.start()
    time.sleep(1.0)
    out = probe(target.url, seconds, move_body)
    done.set()
    out["ai_answers"] = dict(answers)  # so far: searches still under way are not counted
    return out


def rollout(target: Target, seconds: float, move_body: dict) -> dict:
    stop_load = threading.Event()
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()

    def client() -> None:
        with requests.Session() as session:
            while not stop_load.is_set():
                for method, path, body in (("POST", "/v1/games/durak/move", move_body),
                                           ("POST", "/v1/games/tarot/deal", {"seed": 5}),
                                           ("GET", "/healthz", None)):
                    try:
                        kind = str(session.request(method, target.url + path, json=body,
                                                   timeout=30).status_code)
                    except requests.RequestException as e:
                        kind = type(e).__name__
                        session.close()
                    with lock:
                        outcomes[kind] += 1

    clients = [threading.Thread(target=client, daemon=True) for _ in range(4)]
    for c in clients:
        c.start()
    time.sleep(seconds / 2)
    target.restart()
    time.sleep(seconds / 2)
    stop_load.set()
    for c in clients:
        c.join()
    return {"requests": sum(outcomes.values()), "outcomes": dict(outcomes),
            "failed": sum(v for k, v in outcomes.items() if k != "200")}


def flood(target: Target, seconds: float, move_body: dict) -> dict:
    """FLOOD half-sent requests from 127.0.0.1, kept up, while two probes run at once: one
    from that address, one from SECOND_ADDRESS."""
    host, port = target.url.removeprefix("http://").rsplit(":", 1)
    held = HalfSent(host, int(port))
    keeper = threading.Thread(target=held.keep_up, daemon=True)
    keeper.start()
    deadline = time.monotonic() + 30
    while len(held.socks) < FLOOD and time.monotonic() < deadline:
        time.sleep(0.1)
    results: dict[str, dict] = {}

    def probe_from(name: str, source: str) -> None:
        results[name] = probe(target.url, seconds, move_body, source)

    probes = [threading.Thread(target=probe_from, args=(n, a)) for n, a in
              (("same", "127.0.0.1"), ("other", SECOND_ADDRESS))]
    for t in probes:
        t.start()
    for t in probes:
        t.join()
    held.stop.set()
    keeper.join()
    for sock in held.socks:
        if sock is not None:
            sock.close()
    return {**results, "opened": dict(held.opened)}


class HalfSent:
    """FLOOD connections from 127.0.0.1 each holding a request's first lines, reopened
    whenever the server closes one, until `stop` is set."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.stop = threading.Event()
        self.opened = Counter[str]()
        self.socks: list[socket.socket | None] = []

    def connect(self) -> socket.socket | None:
        try:
            s = socket.socket()
            s.setblocking(True)
            s.settimeout(2)
            s.bind(("127.0.0.1", 0))
            s.connect((self.host, self.port))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            s.setblocking(False)
            self.opened["connections"] += 1
            return s
        except OSError:
            self.opened["refused"] += 1
            return None

    def keep_up(self) -> None:
        socks = self.socks
        while len(socks) < FLOOD and not self.stop.is_set():
            socks.append(self.connect())
        while not self.stop.wait(0.5):
            for i, s in enumerate(socks):
                if s is None or closed(s):
                    if s is not None:
                        s.close()
                    socks[i] = self.connect()


def closed(s: socket.socket) -> bool:
    """Whether the server has closed a non-blocking connection."""
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def compression(target: Target, rounds: int = 20) -> dict:
    """Bytes on the wire and the median time of a large SVG and a large replay, per
    Accept-Encoding, through nginx."""
    schemas = GAMES["tarot"]
    rng = random.Random(2)
    state = schemas.game.deal(rng)
    first = schemas.dump_state(state)
    moves = []
    while schemas.game.legal_moves(state):
        move = complete(rng.choice(schemas.game.legal_moves(state)), rng)
        moves.append(schemas.dump_move(move))
        state = schemas.game.apply(state, move)
    middle = schemas.dump_state(schemas.game.deal(random.Random(3)))
    out = {}
    # (name, path, JSON body) of each request measured
    posts: tuple[tuple[str, str, dict[str, Any]], ...] = (
        ("render svg", "/v1/games/tarot/render", {"state": middle}),
        ("replay all", "/v1/games/tarot/replay",
         {"state": first, "moves": moves, "include": "all"}))
    for name, path, body in posts:
        row = {}
        with requests.Session() as session:
            for encoding in ("identity", "gzip", "br"):
                times, size, got = [], 0, ""
                for _ in range(rounds):
                    t0 = time.perf_counter()
                    r = session.post(target.url + path, json=body, stream=True, timeout=30,
                                     headers={"Accept-Encoding": encoding})
                    size = len(r.raw.read())
                    times.append(time.perf_counter() - t0)
                    got = r.headers.get("Content-Encoding", "identity")
                times.sort()
                row[encoding] = {"bytes": size, "encoding": got,
                                 "median_ms": round(times[len(times) // 2] * 1000, 2)}
        out[name] = row
    return out


HOG, OTHER = "127.0.0.1", SECOND_ADDRESS
# More addresses than the AI pool has slots (2), each keeping one search in flight (nginx
# allows one an address); the probe starts once each has spent a default bucket (2 of the
# 10 s searches: 30 s of the pool's 2 slots for 3 addresses) and lasts 6 times --stack-seconds.
HOGS = ("127.0.0.1", "127.0.0.3", "127.0.0.4")
HOGS_WARMUP_S, HOGS_PROBE_TIMES = 35.0, 6
HEAVY_CLIENTS, EVENING_DEALS = 8, 500
LANGUAGE_RATE, LANGUAGE_BYTES = 56, 4000


@contextlib.contextmanager
def served(tree: Path) -> Iterator[Target]:
    """`make serve-prod` of the tree at `tree` (this one, or a baseline checked out) as a
    process: its own deploy/stack.py, nginx.conf and service, default limits."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDAVIA_")}
    env.update(HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2", CARDAVIA_AI_WORKERS="2",
               PYTHONPATH=str(tree))
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen([sys.executable, "deploy/stack.py"], cwd=tree, env=env,
                                stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                start_new_session=True)
        try:
            wait_healthy(f"http://127.0.0.1:{port}/healthz", proc, timeout=120)
            yield Target(f"http://127.0.0.1:{port}", lambda: None)
        finally:
            stop(proc)


def fair_ai(target: Target, seconds: float, dealt: dict) -> dict:
    """Two 10 s searches kept in flight from HOG; OTHER's ai-moves, level by level."""
    return searched_from((HOG, HOG), target, seconds, dealt, warmup=1.5, pace=0.0)


def several_hogs(target: Target, seconds: float, dealt: dict) -> dict:
    """A 10 s search kept in flight from each of HOGS; OTHER's ai-moves, level by level,
    a round a second as a table asks them, once HOGS_WARMUP_S have passed (the state that
    lasts: with a budget per client, each hog first spends its full bucket)."""
    return searched_from(HOGS, target, seconds * HOGS_PROBE_TIMES, dealt,
                         warmup=HOGS_WARMUP_S, pace=1.0)


def searched_from(hogs: tuple[str, ...], target: Target, seconds: float, dealt: dict,
                  warmup: float, pace: float) -> dict:
    """A 10 s search kept in flight from each address of `hogs` (asked again when answered,
    after Retry-After when turned away); after `warmup` s, OTHER's ai-moves in turn, a
    round (random, basic, strong) every `pace` s at most."""
    url = f"{target.url}/v1/games/durak/ai-move"
    done = threading.Event()
    hog_answers: Counter[str] = Counter()

    def hog(source: str) -> None:
        body: dict[str, Any] = {"state": dealt, "level": "strong",
                                "budget_ms": STRONG_BUDGET_MS, "seed": 3}
        with session_from(source) as s:
            while not done.is_set():
                try:
                    a = s.post(url, json=body, timeout=seconds + 30)
                except requests.RequestException:
                    hog_answers["error"] += 1
                    continue
                hog_answers[str(a.status_code)] += 1
                if a.status_code in (429, 503):
                    done.wait(float(a.headers.get("Retry-After", "1")))

    threads = [threading.Thread(target=hog, args=(h,), daemon=True) for h in hogs]
    for h in threads:
        h.start()
    time.sleep(warmup)
    warmed = Counter(hog_answers)
    answered: dict[str, Counter[str]] = {}
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    with session_from(OTHER) as s:
        while (started := time.perf_counter()) < deadline:
            for level, extra in (("random", {}), ("basic", {}), ("strong", {"budget_ms": 200})):
                t0 = time.perf_counter()
                try:
                    kind = str(s.post(url, json={"state": dealt, "level": level, **extra},
                                      timeout=PROBE_TIMEOUT * 5).status_code)
                except requests.RequestException:
                    kind = "error"
                latencies.append(time.perf_counter() - t0)
                answered.setdefault(level, Counter())[kind] += 1
            time.sleep(max(0.0, started + pace - time.perf_counter()))
    done.set()
    during = Counter(hog_answers)  # while OTHER asked
    during.subtract(warmed)
    summary = traffic.summary(traffic.Tally(latencies), seconds)
    total = sum(sum(c.values()) for c in answered.values())
    ok = sum(c["200"] for c in answered.values())
    return {"requests": total, "answered": ok,
            "by_level": {k: dict(v) for k, v in answered.items()},
            "hog": dict(+during), **{k: summary[k] for k in ("p50_ms", "p99_ms", "max_ms")}}


def evening(deals: int = EVENING_DEALS) -> dict:
    """A Tarot evening of five players, every sheet one a deal gives, with the bonuses a
    score keeper writes: the size of the issue's (~115 KB)."""
    rng = random.Random(deals)
    sheets = []
    for _ in range(deals):
        bouts = rng.randrange(4)
        sheets.append({
            "contract": rng.choice(["prise", "garde", "garde_sans", "garde_contre"]),
            "taker": rng.randrange(5), "partner": rng.choice([None, rng.randrange(5)]),
            "bouts": bouts, "points": rng.randrange(20 + 5 * bouts, 60),
            "poignees": [{"camp": rng.choice(["taker", "defense"]), "level": "simple"}],
            "petit_au_bout": "taker" if bouts else None,
            "chelem": {"announced": False, "made_by": None}})
    return {"players": ["Anne", "Bruno", "Chloé", "Dmytro", "Eve"], "deals": sheets}


def heavy(target: Target, seconds: float, move_body: dict) -> dict:
    """HEAVY_CLIENTS connections from HOG sending evenings back to back; OTHER's probe."""
    body = evening()
    done = threading.Event()
    answers: Counter[str] = Counter()

    def sender() -> None:
        with session_from(HOG) as s:
            while not done.is_set():
                try:
                    answers[str(s.post(f"{target.url}/v1/games/tarot/session", json=body,
                                       timeout=60).status_code)] += 1
                except requests.RequestException:
                    answers["error"] += 1

    senders = [threading.Thread(target=sender, daemon=True) for _ in range(HEAVY_CLIENTS)]
    for t in senders:
        t.start()
    time.sleep(1.0)
    out = probe(target.url, seconds, move_body, OTHER)
    done.set()
    for t in senders:
        t.join(timeout=60)
    out["heavy_answers"] = dict(answers)
    return out


def accept_language(target: Target, seconds: float, move_body: dict) -> dict:
    """LANGUAGE_RATE requests a second from HOG, each with its own long Accept-Language;
    OTHER's probe."""
    done = threading.Event()
    sent: Counter[str] = Counter()
    rng = random.Random(40)

    def header() -> str:
        ranges: list[str] = []
        while sum(len(r) + 1 for r in ranges) < LANGUAGE_BYTES - 16:
            ranges.append("".join(rng.choices(string.ascii_lowercase, k=2)) + "-"
                          + "".join(rng.choices(string.ascii_uppercase, k=2))
                          + f";q=0.{rng.randrange(1, 10)}")
        return ",".join(ranges)[:LANGUAGE_BYTES]

    def sender(offset: float) -> None:
        period = 4 / LANGUAGE_RATE  # four senders
        next_at = time.perf_counter() + offset
        with session_from(HOG) as s:
            while not done.is_set():
                try:
                    sent[str(s.get(f"{target.url}/v1/games", timeout=30,
                                   headers={"Accept-Language": header()}).status_code)] += 1
                except requests.RequestException:
                    sent["error"] += 1
                next_at += period
                done.wait(max(0.0, next_at - time.perf_counter()))

    senders = [threading.Thread(target=sender, args=(i / LANGUAGE_RATE,), daemon=True)
               for i in range(4)]
    for t in senders:
        t.start()
    time.sleep(1.0)
    out = probe(target.url, seconds, move_body, OTHER)
    done.set()
    for t in senders:
        t.join(timeout=30)
    out["language_answers"] = dict(sent)
    return out


def issue40(seconds: float, move_body: dict, dealt: dict, baseline: str | None) -> dict:
    """Issue 40's abuses against this tree's serve-prod and, given one, REV's."""
    trees: list[tuple[str, Any]] = [("now", contextlib.nullcontext(ROOT))]
    if baseline:
        trees.insert(0, (baseline, checkout(baseline)))
    out: dict = {}
    for name, tree_of in trees:
        with tree_of as tree:
            row = out[name] = {}
            for abuse, run_one in (("fair ai", lambda t: fair_ai(t, seconds, dealt)),
                                   ("several hogs", lambda t: several_hogs(t, seconds, dealt)),
                                   ("heavy", lambda t: heavy(t, seconds, move_body)),
                                   ("accept-language",
                                    lambda t: accept_language(t, seconds, move_body))):
                with served(tree) as target:  # a fresh stack for each
                    row[abuse] = run_one(target)
    return out


def run(seconds: float = 8.0, baseline: str | None = None, only_issue40: bool = False
        ) -> dict:
    state, move = traffic.mid_game("durak")
    move_body = {"state": state, "move": move}
    schemas = GAMES["durak"]
    dealt = schemas.dump_state(schemas.game.deal(random.Random(1)))  # six attacks to weigh
    out: dict = {"probe_timeout_s": PROBE_TIMEOUT, "seconds": seconds}
    out["issue40"] = issue40(seconds, move_body, dealt, baseline)
    if only_issue40:
        return out
    for name, deployment in (("before", before), ("after", after)):
        with deployment() as target:
            out[name] = {"slow": slow_clients(target, seconds, move_body)}
        # A fresh deployment each: a saturated sync pool stays stuck on its queue of
        # searches long after the probe ends.
        with deployment() as target:
            out[name]["ai"] = long_searches(target, seconds, move_body, dealt)
        with deployment(UNLIMITED) if name == "after" else deployment() as target:
            out[name]["rollout"] = rollout(target, seconds, move_body)
        with deployment() as target:
            out[name]["flood"] = flood(target, seconds, move_body)
            if name == "after":
                out["compression"] = compression(target)
    return out


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["abuse", "deployment", "probe requests", "p50", "p99", "max", "outcomes",
               "target"]
    body = issue40_rows(result)
    if "before" in result:
        body += abuse_rows(result)
    return headers, body


def issue40_rows(result: dict) -> list[list[str]]:
    """Issue 40's abuses, against each deployment measured (now, and serve-prod at REV)."""
    body = []
    for name, row in result["issue40"].items():
        deployment = "now" if name == "now" else f"serve-prod at {name}"
        for abuse in ("fair ai", "several hogs"):
            r = row[abuse]
            hogs = " ".join(f"{k}:{v}" for k, v in sorted(r["hog"].items()))
            body.append([f"{abuse} (other address)", deployment, str(r["requests"]),
                         f"{r['p50_ms']:.1f} ms", f"{r['p99_ms']:.1f} ms",
                         f"{r['max_ms']:.1f} ms",
                         f"answered {r['answered']} of {r['requests']}; "
                         + "; ".join(f"{level} " + " ".join(
                             f"{k}:{v}" for k, v in sorted(c.items()))
                             for level, c in r["by_level"].items())
                         + f"; the hogs' answers {hogs}",
                         "all answered"])
        for abuse in ("heavy", "accept-language"):
            r = row[abuse]
            body.append([f"{abuse} (other address)", deployment, str(r["requests"]),
                         f"{r['p50_ms']:.1f} ms", f"{r['p99_ms']:.1f} ms",
                         f"{r['max_ms']:.1f} ms",
                         " ".join(f"{k}:{v}" for k, v in sorted(r["outcomes"].items())),
                         "p99 <= 100 ms"])
    return body


def abuse_rows(result: dict) -> list[list[str]]:
    """The earlier abuses, bare gunicorn (before) against deploy/stack.py (after)."""
    body = []
    for abuse, target in (("slow", "p99 <= 100 ms"), ("ai", "p99 <= 50 ms")):
        for name in ("before", "after"):
            r = result[name][abuse]
            body.append([abuse, name, str(r["requests"]), f"{r['p50_ms']:.1f} ms",
                         f"{r['p99_ms']:.1f} ms", f"{r['max_ms']:.1f} ms",
                         " ".join(f"{k}:{v}" for k, v in sorted(r["outcomes"].items())),
                         target])
    for name in ("before", "after"):
        r = result[name]["rollout"]
        body.append(["rollout", name, str(r["requests"]), "", "", "",
                     " ".join(f"{k}:{v}" for k, v in sorted(r["outcomes"].items())),
                     "0 failed"])
    for name in ("before", "after"):
        for side in ("same", "other"):
            r = result[name]["flood"][side]
            body.append([f"flood ({side} address)", name, str(r["requests"]),
                         f"{r['p50_ms']:.1f} ms", f"{r['p99_ms']:.1f} ms",
                         f"{r['max_ms']:.1f} ms",
                         " ".join(f"{k}:{v}" for k, v in sorted(r["outcomes"].items())),
                         "p99 <= 100 ms"])
    for name, row in result.get("compression", {}).items():
        body.append([f"compression: {name}", "after", "", "", "", "",
                     "; ".join(f"{e} {v['bytes']:,} B {v['median_ms']:.1f} ms"
                               for e, v in row.items()), "Vary: Accept-Encoding"])
    return body


