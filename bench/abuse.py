"""abuse: what a hostile body costs a gunicorn worker.

One sync worker, started as `make serve` starts it; each shape of 1 MiB body (or a value
965 levels deep) is sent `count` times, one at a time, and the worker's own CPU time is
read from /proc/<pid>/stat before and after (utime + stime, in clock ticks: hence several
requests per shape). The baselines are measured in the same run on the same worker: a
`GET /healthz` and a small `POST /move`. Then `bodies` hostile bodies, every shape in
turn, and the worker's RSS against its RSS before them.

Targets: <= 50 ms of worker CPU and <= 64 KiB of answer per body; RSS after them <=
1.5 x the baseline.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from pathlib import Path
from typing import Any

import orjson
import requests

from bench.memory import KIB_PER_MIB, kib_fields
from bench.server import HOST, Gunicorn
from schemas.registry import GAMES
from tests.support.abuse import base_body, filling, nested, raw_with

TICK = 1 / os.sysconf("SC_CLK_TCK")
TARGET_CPU_MS = 50.0
TARGET_ANSWER = 64 * 1024
TARGET_RSS_RATIO = 1.5


def shapes() -> dict[str, tuple[str, bytes]]:
    """name -> (path, raw body): the hostile shapes the service was hardened against, and a
    few more."""
    states = {g: s.dump_state(s.game.deal(random.Random(3))) for g, s in GAMES.items()}

    def at(game_id: str, endpoint: str, path: tuple, item: bytes = b"{}") -> tuple[str, bytes]:
        body = base_body(game_id, endpoint, states[game_id])
        return f"/v1/games/{game_id}/{endpoint}", filling(body, path, item)

    members = b"{" + b",".join(b'"k%d":0' % i for i in range(90_000)) + b"}"
    return {
        "durak table [{}, ...]": at("durak", "legal-moves", ("state", "table")),
        "tarot trick [{}, ...]": at("tarot", "legal-moves", ("state", "trick")),
        "tarot tricks [{}, ...]": at("tarot", "legal-moves", ("state", "tricks")),
        "tarot poignees [{}, ...]": at("tarot", "legal-moves", ("state", "poignees")),
        "tarot bids [{}, ...]": at("tarot", "legal-moves", ("state", "bids")),
        "ganjifa dukals [{}, ...]": at("ganjifa", "legal-moves", ("state", "dukals")),
        "ganjifa move.cards [{}, ...]": at("ganjifa", "move", ("move", "cards")),
        "durak deal.deck [{}, ...]": at("durak", "deal", ("deck",)),
        "durak hands.0 [\"6S\", ...]": at("durak", "legal-moves", ("state", "hands", 0),
                                          b'"6S"'),
        "durak table [[1], ...]": at("durak", "legal-moves", ("state", "table"), b"[1]"),
        "tarot state of 90,000 members": (
            "/v1/games/tarot/legal-moves",
            raw_with(base_body("tarot", "legal-moves", states["tarot"]), ("state",),
                     members)),
        "durak move.card 965 deep": (
            "/v1/games/durak/move",
            raw_with(base_body("durak", "move", states["durak"]), ("move", "card"),
                     nested(965))),
        "durak deal.deck 965 deep": (
            "/v1/games/durak/deal", raw_with({}, ("deck",), nested(965))),
        "tarot points 1e308": (
            "/v1/games/tarot/settlement",
            orjson.dumps({"contract": "garde", "bouts": 1, "points": 1e308})),
    }


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK  # utime, stime


def rss_mib(pid: int) -> float:
    return kib_fields(f"/proc/{pid}/status")["VmRSS"] / KIB_PER_MIB


def measure(session: requests.Session, server: Gunicorn, method: str, url: str,
            raw: bytes | None, count: int) -> dict:
    """Worker CPU per request, the last answer's status and size, and the wall time; a
    worker that died on the way (killed by gunicorn's timeout) is said, its CPU unknown."""
    [pid] = server.worker_pids()
    started, wall = cpu_seconds(pid), time.perf_counter()
    status, size = None, 0  # None: the connection closed without an answer
    for _ in range(count):
        try:
            r = session.request(method, url, data=raw, timeout=120,
                                headers={"Content-Type": "application/json"})
            status, size = r.status_code, len(r.content)
        except requests.ConnectionError:
            status, size = None, 0
    try:
        cpu_ms: float | None = (cpu_seconds(pid) - started) / count * 1000
    except OSError:
        cpu_ms = None
        server.wait_ready()
    return {"cpu_ms": cpu_ms, "worker_died": cpu_ms is None,
            "wall_ms": (time.perf_counter() - wall) / count * 1000,
            "status": status, "answer_bytes": size,
            "body_bytes": len(raw or b"")}


def run(count: int = 10, baseline_count: int = 200, bodies: int = 100) -> dict:
    hostile = shapes()
    with Gunicorn("service.app:create_app()", workers=1) as server, \
            requests.Session() as session:
        [first] = server.worker_pids()
        base = f"http://{HOST}:{server.port}"
        state = GAMES["durak"].dump_state(GAMES["durak"].game.deal(random.Random(1)))
        legal = session.post(f"{base}/v1/games/durak/legal-moves",
                             json={"state": state}, timeout=30).json()["moves"][0]
        small_move = orjson.dumps({"state": state, "move": legal})
        for _ in range(20):  # warm-up: the first requests fill the worker's caches
            session.post(f"{base}/v1/games/durak/move", data=small_move, timeout=30)
        result: dict[str, Any] = {
            "count": count, "bodies": bodies, "clock_tick_ms": TICK * 1000,
            "baselines": {
                "GET /healthz": measure(session, server, "GET", f"{base}/healthz", None,
                                        baseline_count),
                "POST /move (small)": measure(session, server, "POST",
                                              f"{base}/v1/games/durak/move", small_move,
                                              baseline_count),
            },
            "rss_before_mib": rss_mib(first),
            "shapes": {},
        }
        move_ms = result["baselines"]["POST /move (small)"]["cpu_ms"]
        for name, (path, raw) in hostile.items():
            m = measure(session, server, "POST", base + path, raw, count)
            m["ratio_to_move"] = m["cpu_ms"] / move_ms if move_ms and m["cpu_ms"] else None
            [pid] = server.worker_pids()
            m["rss_after_mib"] = rss_mib(pid)
            result["shapes"][name] = m
            print(f"  {name}: {m['cpu_ms']} ms CPU, {m['status']}, "
                  f"{m['answer_bytes']:,} B", flush=True)
        names = list(hostile)
        for i in range(bodies):
            path, raw = hostile[names[i % len(names)]]
            with contextlib.suppress(requests.ConnectionError):
                session.post(base + path, data=raw, timeout=120,
                             headers={"Content-Type": "application/json"})
        [last] = server.worker_pids()
        result["rss_after_mib"] = rss_mib(last)
        result["rss_ratio"] = result["rss_after_mib"] / result["rss_before_mib"]
        result["pid_unchanged"] = last == first
    cpu = [m["cpu_ms"] for m in result["shapes"].values()]
    result["within_targets"] = (
        None not in cpu and max(cpu) <= TARGET_CPU_MS
        and max(m["answer_bytes"] for m in result["shapes"].values()) <= TARGET_ANSWER
        and result["rss_ratio"] <= TARGET_RSS_RATIO
        and all(m["status"] is not None and m["status"] < 500
                for m in result["shapes"].values()))
    return result


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["body", "bytes", "status", "worker CPU ms", "x /move", "answer B", "wall ms"]
    out = []
    for name, m in result["baselines"].items():
        out.append([name, f"{m['body_bytes']:,}", m["status"], f"{m['cpu_ms']:.2f}", "",
                    f"{m['answer_bytes']:,}", f"{m['wall_ms']:.1f}"])
    for name, m in result["shapes"].items():
        ratio = "" if m["ratio_to_move"] is None else f"{m['ratio_to_move']:.1f}"
        cpu = "worker died" if m["cpu_ms"] is None else f"{m['cpu_ms']:.1f}"
        out.append([name, f"{m['body_bytes']:,}", m["status"] or "closed", cpu, ratio,
                    f"{m['answer_bytes']:,}", f"{m['wall_ms']:.1f}"])
    return headers, out
