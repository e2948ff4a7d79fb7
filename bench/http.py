"""(b) `POST /v1/games/durak/move` requests per second through gunicorn, against a bare
Flask echo app under the same gunicorn settings, side by side in one run; then (c) the
peak memory of both servers' workers after that load.

Both servers run from gunicorn.conf.py with WEB_CONCURRENCY=1 on free loopback ports and
receive the very same request bytes from the same load generator. Rounds alternate echo,
move, echo, move…; each side's figure is the median of its rounds. The whole of (b) is
bounded by a time budget, each round by a request count, and the servers are stopped
(their whole process group) however the run ends.
"""

from __future__ import annotations

import contextlib
import random
import statistics
import time

import orjson

from bench import memory
from bench.load import exchange, request_bytes, round_
from bench.server import Gunicorn
from rules.ai import complete
from schemas.registry import GAMES

MOVE_PATH = "/v1/games/durak/move"
SERVICE_APP = "service.app:create_app()"
ECHO_APP = "bench.echo_app:create_app()"
TARGET_RATIO = 1.0  # move rps / echo rps (issue 39)
STOP_RESERVE = 5.0  # seconds of the budget kept for stopping the servers


def move_body(seed: int = 1, moves: int = 10) -> bytes:
    """A legal move on a mid-game Durak state: deal `seed`, `moves` random moves, one more."""
    schemas = GAMES["durak"]
    game = schemas.game
    rng = random.Random(seed)
    state = game.deal(rng)
    for _ in range(moves):
        state, _events = game.play(state, complete(rng.choice(game.legal_moves(state)), rng))
    move = complete(rng.choice(game.legal_moves(state)), rng)
    return orjson.dumps({"state": schemas.dump_state(state), "move": schemas.dump_move(move)})


def answer_json(raw: bytes):
    head, _, body = raw.partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0].decode(errors="replace")
    if not status.startswith("HTTP/1.1 200"):
        raise RuntimeError(f"expected 200, got {status!r}: {body[:500]!r}")
    return orjson.loads(body)


def check(port_echo: int, port_service: int, data: bytes, body: bytes) -> None:
    """Before measuring: the echo answers the body unchanged, the service accepts the move."""
    if answer_json(exchange(port_echo, data)) != orjson.loads(body):
        raise RuntimeError("the echo app did not answer the body unchanged")
    answer = answer_json(exchange(port_service, data))
    if answer.get("legal") is not True:
        raise RuntimeError(f"the service refused the bench's move: {answer}")


def run(rounds: int = 6, seconds: float = 3.0, clients: int = 4, budget: float = 60.0,
        max_requests: int = 100_000, warmup: float = 1.0) -> tuple[dict, dict]:
    """(b) and (c): the HTTP figures and the memory figures."""
    started = time.perf_counter()
    body = move_body()
    data = request_bytes(MOVE_PATH, body)
    samples: dict[str, list[dict]] = {"echo": [], "move": []}
    with contextlib.ExitStack() as stack:
        servers = {"echo": stack.enter_context(Gunicorn(ECHO_APP)),
                   "move": stack.enter_context(Gunicorn(SERVICE_APP))}
        check(servers["echo"].port, servers["move"].port, data, body)

        def measure(name: str, length: float) -> dict:
            server = servers[name]
            return round_(server.port, data, length, clients, max_requests,
                          server.worker_pids())

        for name in servers:
            measure(name, warmup)  # imports, first requests, caches: not counted
        order = ["echo", "move"] * rounds
        for name in order:
            if budget - STOP_RESERVE - (time.perf_counter() - started) < seconds:
                break  # out of time: the rounds so far are kept in pairs
            samples[name].append(measure(name, seconds))
        mem = memory.compare(servers["move"], servers["echo"])
    n = min(len(samples["echo"]), len(samples["move"]))
    if n == 0:
        raise RuntimeError(f"no complete round within the {budget:.0f} s budget")
    for side in samples.values():
        for s in side:
            if not s["requests"]:
                raise RuntimeError(f"a round answered no request: {s['first_error']}")
    echo = statistics.median(s["rps"] for s in samples["echo"][:n])
    move = statistics.median(s["rps"] for s in samples["move"][:n])
    echo_cpu = statistics.median(s["worker_cpu_us_per_request"] for s in samples["echo"][:n])
    move_cpu = statistics.median(s["worker_cpu_us_per_request"] for s in samples["move"][:n])
    result = {
        "path": MOVE_PATH, "body_bytes": len(body), "clients": clients, "workers": 1,
        "round_seconds": seconds, "rounds": n,
        "echo_rps": echo, "move_rps": move, "ratio": move / echo,
        "target_ratio": TARGET_RATIO, "meets_target": move / echo >= TARGET_RATIO,
        "echo_worker_cpu_us_per_request": echo_cpu, "move_worker_cpu_us_per_request": move_cpu,
        "cpu_ratio": echo_cpu / move_cpu,
        "round_ratios": [m["rps"] / e["rps"]
                         for e, m in zip(samples["echo"][:n], samples["move"][:n], strict=True)],
        "errors": sum(s["errors"] for side in samples.values() for s in side),
        "samples": samples,
        "seconds": time.perf_counter() - started,
    }
    return result, mem


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["server", "rps (median)", "rounds (rps)", "worker CPU/request", "worker busy",
               "load CPU", "other CPU", "errors"]
    body = []
    for name in ("echo", "move"):
        side = result["samples"][name][:result["rounds"]]
        body.append([
            name, f"{result[name + '_rps']:,.0f}", " ".join(f"{s['rps']:.0f}" for s in side),
            f"{result[name + '_worker_cpu_us_per_request']:,.0f} us",
            f"{statistics.median(s['worker_cpu'] for s in side):.0%}",
            f"{statistics.median(s['client_cpu'] for s in side):.0%}",
            f"{statistics.median(s['other_cpu'] for s in side):.0%}",
            str(sum(s["errors"] for s in side)),
        ])
    verdict = "ok" if result["meets_target"] else "BELOW"
    body.append(["move/echo", f"{result['ratio']:.2f}",
                 f"target >= {result['target_ratio']}: {verdict}",
                 f"{result['cpu_ratio']:.2f} (echo/move)", "", "", "", ""])
    return headers, body
