"""What `--only load|soak|faults` send, and how: the requests (one per endpoint, each on a
mid-game state, encoded once and checked before any figure is taken), a closed-loop load
generator that times every request and sorts every failure, and the workers' resident
memory.

The load generator is `bench/load.py`'s exchange — a fresh loopback connection per
request, half-closed once sent, read to EOF — driven by `clients` threads that cycle
through a list of requests, each thread from its own offset. A request counts as an error
unless it is answered `HTTP/1.1 200`; the error kinds are `reset` (the connection was reset
or refused), `timeout`, `empty` (the server closed without a byte: a worker died after
accepting), `5xx` and `other` (any other status).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson

from bench.load import CLK_TCK, exchange, machine_ticks, request_bytes
from bench.memory import KIB_PER_MIB, kib_fields
from rules.ai import complete
from schemas.registry import GAMES

GAME_IDS = ("durak", "tarot", "ganjifa")
# API.md's own example of a score sheet (garde, 2 bouts, 45 points, petit au bout, poignée).
SCORE_SHEET = {"contract": "garde", "taker": 1, "bouts": 2, "points": 45,
               "petit_au_bout": "taker", "poignees": [{"camp": "taker", "level": "simple"}],
               "chelem": {"announced": False, "made_by": None}}
SEED = 1


@dataclass(frozen=True)
class Request:
    name: str  # e.g. "POST durak/move"
    method: str
    path: str
    data: bytes  # the whole request, encoded once
    body_bytes: int
    expect: Callable[[dict], bool] = lambda answer: True


def get_bytes(path: str) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            ).encode("ascii")


def mid_game(game_id: str, seed: int = SEED) -> tuple[dict, dict]:
    """(state, move) half-way through deal `seed` played with random legal moves: the state
    after half the deal's moves, and the random legal move played from it."""
    schemas = GAMES[game_id]
    game = schemas.game
    rng = random.Random(seed)
    state = game.deal(rng)
    history = []
    while game.legal_moves(state):
        move = complete(rng.choice(game.legal_moves(state)), rng)
        history.append((state, move))
        state, _events = game.play(state, move)
    state, move = history[len(history) // 2]
    return schemas.dump_state(state), schemas.dump_move(move)


def requests() -> list[Request]:
    """Every request of `--only load`, in the order of its table."""
    out = [Request("GET /healthz", "GET", "/healthz", get_bytes("/healthz"), 0,
                   lambda a: a == {"status": "ok"}),
           Request("GET durak", "GET", "/v1/games/durak", get_bytes("/v1/games/durak"), 0,
                   lambda a: a.get("id") == "durak")]

    def post(name: str, path: str, body: dict, expect) -> Request:
        raw = orjson.dumps(body)
        return Request(name, "POST", path, request_bytes(path, raw), len(raw), expect)

    for g in GAME_IDS:
        state, move = mid_game(g)
        base = f"/v1/games/{g}"
        out += [
            post(f"POST {g}/deal", f"{base}/deal", {"seed": SEED}, lambda a: "state" in a),
            post(f"POST {g}/legal-moves", f"{base}/legal-moves", {"state": state},
                 lambda a: bool(a.get("moves"))),
            post(f"POST {g}/move", f"{base}/move", {"state": state, "move": move},
                 lambda a: a.get("legal") is True),
            post(f"POST {g}/ai-move basic", f"{base}/ai-move",
                 {"state": state, "level": "basic", "seed": SEED},
                 lambda a: a.get("level") == "basic" and "move" in a),
        ]
    out.append(post("POST tarot/settlement", "/v1/games/tarot/settlement", SCORE_SHEET,
                    lambda a: "scores" in a))
    return out


def check(port: int, reqs: list[Request]) -> None:
    """Before measuring: every request answered 200 with the answer it should have."""
    for r in reqs:
        raw = exchange(port, r.data)
        head, _, body = raw.partition(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0].decode(errors="replace")
        if not status.startswith("HTTP/1.1 200"):
            raise RuntimeError(f"{r.name}: expected 200, got {status!r}: {body[:300]!r}")
        if not r.expect(orjson.loads(body)):
            raise RuntimeError(f"{r.name}: unexpected answer {body[:300]!r}")


def classify(answer: bytes | OSError) -> str | None:
    """None for a 200, else the kind of failure."""
    if isinstance(answer, TimeoutError):
        return "timeout"
    if isinstance(answer, OSError):
        return "reset"
    if answer.startswith(b"HTTP/1.1 200"):
        return None
    if not answer:
        return "empty"
    if answer.startswith(b"HTTP/1.1 5"):
        return "5xx"
    return "other"


@dataclass
class Tally:
    """One request name's outcome in one run."""
    latencies: list[float] = field(default_factory=list)  # seconds, successful requests
    errors: dict[str, int] = field(default_factory=dict)
    # (seconds since the start, kind, client thread) of every failure
    failures: list[tuple[float, str, int]] = field(default_factory=list)


def drive(port: int, reqs: list[Request], seconds: float, clients: int, max_requests: int,
          monitor: Callable[[float], None] | None = None, interval: float = 1.0,
          timeout: float = 10.0) -> dict:
    """`clients` threads cycle through `reqs` for `seconds` (or `max_requests` in all),
    each request timed from connect to EOF. `monitor(elapsed)` runs in the calling thread
    every `interval` seconds meanwhile. Returns the tallies per request name and totals."""
    per_client = max(1, max_requests // clients)
    tallies = [{r.name: Tally() for r in reqs} for _ in range(clients)]
    clock = time.perf_counter
    ready = threading.Barrier(clients + 1)
    start_box: list[float] = []

    def client(i: int) -> None:
        mine = tallies[i]
        ready.wait()
        start = start_box[0]
        deadline = start + seconds
        k = i % len(reqs)
        n = 0
        while n < per_client and clock() < deadline:
            r = reqs[k]
            k = (k + 1) % len(reqs)
            t0 = clock()
            try:
                answer: bytes | OSError = exchange(port, r.data, timeout)
            except OSError as e:
                answer = e
            t1 = clock()
            kind = classify(answer)
            tally = mine[r.name]
            if kind is None:
                tally.latencies.append(t1 - t0)
            else:
                tally.errors[kind] = tally.errors.get(kind, 0) + 1
                tally.failures.append((t1 - start, kind, i))
            n += 1

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    busy0, _ = machine_ticks()
    cpu0 = time.process_time()
    start_box.append(clock())
    ready.wait()
    watch(threads, start_box[0], monitor, interval)
    elapsed = clock() - start_box[0]
    cpu = time.process_time() - cpu0
    busy1, _ = machine_ticks()
    return {"tallies": merged_tallies(tallies), "seconds": elapsed, "client_cpu": cpu / elapsed,
            "machine_busy_cores": (busy1 - busy0) / (CLK_TCK * elapsed)}


def watch(threads: list[threading.Thread], start: float,
          monitor: Callable[[float], None] | None, interval: float) -> None:
    """Until the threads end, `monitor(elapsed)` every `interval` seconds."""
    clock = time.perf_counter
    next_tick = 0.0
    while any(t.is_alive() for t in threads):
        now = clock() - start
        if monitor is not None and now >= next_tick:
            monitor(now)
            next_tick = max(next_tick + interval, clock() - start)
            now = clock() - start
        time.sleep(min(0.2, max(0.005, next_tick - now)) if monitor else 0.2)
    for t in threads:
        t.join()


def merged_tallies(tallies: list[dict[str, Tally]]) -> dict[str, Tally]:
    """The clients' tallies, one a request name."""
    merged: dict[str, Tally] = {}
    for mine in tallies:
        for name, part in mine.items():
            m = merged.setdefault(name, Tally())
            m.latencies += part.latencies
            m.failures += part.failures
            for kind, count in part.errors.items():
                m.errors[kind] = m.errors.get(kind, 0) + count
    return merged


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100) of `values`."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summary(tally: Tally, seconds: float) -> dict:
    ok = len(tally.latencies)
    return {"requests": ok, "rps": ok / seconds,
            "p50_ms": _ms(percentile(tally.latencies, 50)),
            "p99_ms": _ms(percentile(tally.latencies, 99)),
            "max_ms": _ms(max(tally.latencies, default=None)),
            "errors": sum(tally.errors.values()), "error_kinds": dict(tally.errors)}


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else seconds * 1000


def rss_mib(pid: int) -> float | None:
    """VmRSS of a process now, in MiB (None once it is gone)."""
    try:
        return kib_fields(f"/proc/{pid}/status")["VmRSS"] / KIB_PER_MIB
    except (OSError, KeyError):
        return None
