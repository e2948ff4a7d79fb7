"""`--only soak`: `clients` threads play varied random deals of every game over HTTP for
`seconds` (default 600), while every worker's resident set (VmRSS) and private memory (USS)
is sampled every `interval` seconds (default 10).

Each thread plays deal after deal, game after game (Durak, Tarot, Ganjifa in turn), each
from its own random seed: the deal is played in-process with random legal moves, and every
step is sent to the server as a `move` (its answer must be `legal: true`), with, now and
then, `legal-moves`, `view` and `ai-move` at each level (strong with a small budget) on
the same state; a finished Tarot deal's score sheet goes to `settlement`. So the server
sees states it has never seen, all through the run, as it does in production
(a soak of 15 fixed requests never reached the caches that only fill).

"Flat" means: each worker's RSS grows at most GROWTH_LIMIT_MIB from the first sample at or
after `settle` seconds (default 60: imports, first requests, the allocator's arenas
filling) to the end, and the worker is the same process at the end as at the start.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import orjson

from bench import traffic
from bench.load import CLK_TCK, exchange, machine_ticks, request_bytes
from bench.memory import KIB_PER_MIB, private_kib
from bench.server import Gunicorn
from rules.ai import complete
from schemas.registry import GAMES

SERVICE_APP = "service.app:create_app()"
GROWTH_LIMIT_MIB = 3.0  # over ten minutes, after the first
STRONG_BUDGET_MS = 20


def slope_per_min(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (seconds, MiB) points, in MiB per minute."""
    if len(points) < 2:
        return None
    n = len(points)
    mx = sum(t for t, _ in points) / n
    my = sum(v for _, v in points) / n
    sxx = sum((t - mx) ** 2 for t, _ in points)
    if sxx == 0:
        return None
    return sum((t - mx) * (v - my) for t, v in points) / sxx * 60


def post(path: str, body: dict) -> bytes:
    return request_bytes(path, orjson.dumps(body))


def deal_requests(game_id: str, seed: int) -> Iterator[tuple[str, bytes]]:
    """(name, request bytes) for one random deal of `game_id`, step by step."""
    schemas = GAMES[game_id]
    game = schemas.game
    base = f"/v1/games/{game_id}"
    rng = random.Random(seed)
    yield "deal", post(f"{base}/deal", {"seed": seed})
    state = game.deal(random.Random(seed))
    while legal := game.legal_moves(state):
        move = complete(rng.choice(legal), rng)
        dumped = schemas.dump_state(state)
        yield "move", post(f"{base}/move", {"state": dumped, "move": schemas.dump_move(move)})
        roll = rng.random()
        if roll < 0.5:
            yield "legal-moves", post(f"{base}/legal-moves", {"state": dumped})
        if roll < 0.25:
            yield "view", post(f"{base}/view", {"state": dumped, "seat": move.seat})
        if roll < 0.15:
            level = ("random", "basic", "strong")[rng.randrange(3)]
            yield f"ai-move {level}", post(f"{base}/ai-move", {
                "state": dumped, "level": level, "seed": rng.randrange(1 << 30),
                "budget_ms": STRONG_BUDGET_MS})
        state, _events = game.play(state, move)
    if game_id == "tarot":
        yield "settlement", post("/v1/games/tarot/settlement", {
            **traffic.SCORE_SHEET, "points": rng.randrange(0, 92), "bouts": rng.randrange(1, 4)})


def play(port: int, seconds: float, clients: int, seed: int) -> dict:
    """`clients` threads playing deals until `seconds` have passed."""
    tallies: list[dict[str, traffic.Tally]] = [{} for _ in range(clients)]
    deals = [0] * clients
    start = time.perf_counter()
    deadline = start + seconds

    def client(i: int) -> None:
        rng = random.Random(seed * 1000 + i)
        mine = tallies[i]
        g = i
        while time.perf_counter() < deadline:
            game_id = traffic.GAME_IDS[g % len(traffic.GAME_IDS)]
            g += 1
            for name, data in deal_requests(game_id, rng.randrange(1 << 30)):
                if time.perf_counter() >= deadline:
                    return
                t0 = time.perf_counter()
                try:
                    answer: bytes | OSError = exchange(port, data)
                except OSError as e:
                    answer = e
                t1 = time.perf_counter()
                kind = traffic.classify(answer)
                if isinstance(answer, bytes) and name == "move" and kind is None \
                        and b'"legal":true' not in answer:
                    kind = "illegal"
                tally = mine.setdefault(f"{game_id} {name}", traffic.Tally())
                if kind is None:
                    tally.latencies.append(t1 - t0)
                else:
                    tally.errors[kind] = tally.errors.get(kind, 0) + 1
            deals[i] += 1

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    busy0, _ = machine_ticks()
    for t in threads:
        t.start()
    return {"threads": threads, "tallies": tallies, "deals": deals, "start": start,
            "busy0": busy0}


def run(seconds: float = 600.0, clients: int = 4, workers: int = 2, interval: float = 10.0,
        settle: float = 60.0, seed: int = 1) -> dict:
    started = time.perf_counter()
    samples: list[dict] = []  # {"t": seconds, "rss": {pid: MiB}, "uss": {pid: MiB}}
    with Gunicorn(SERVICE_APP, workers=workers) as server:
        traffic.check(server.port, traffic.requests())
        first_pids = sorted(server.worker_pids())

        def sample(elapsed: float) -> None:
            pids = server.worker_pids()
            rss = {str(p): v for p in pids if (v := traffic.rss_mib(p)) is not None}
            uss = {str(p): v / KIB_PER_MIB for p in pids if (v := private_kib(p)) is not None}
            samples.append({"t": round(elapsed, 2), "rss": rss, "uss": uss})
            if len(samples) % 6 == 1:
                print(f"  {elapsed:5.0f} s  " + "  ".join(
                    f"{p}: {v:.1f} MiB (private {uss.get(p, 0):.1f})" for p, v in rss.items()),
                    flush=True)

        load = play(server.port, seconds, clients, seed)
        sample(0.0)
        next_tick = interval
        while any(t.is_alive() for t in load["threads"]):
            elapsed = time.perf_counter() - load["start"]
            if elapsed >= next_tick:
                sample(elapsed)
                next_tick += interval
            time.sleep(0.2)
        elapsed = time.perf_counter() - load["start"]
        sample(elapsed)
        busy1, _ = machine_ticks()
        last_pids = sorted(server.worker_pids())
    per_worker = worker_memory(samples, settle, first_pids, last_pids)
    merged = traffic.merged_tallies(load["tallies"])
    latencies = [x for t in merged.values() for x in t.latencies]
    kinds: dict[str, int] = {}
    for t in merged.values():
        for k, v in t.errors.items():
            kinds[k] = kinds.get(k, 0) + v
    return {
        "workers": workers, "clients": clients, "seconds": elapsed, "interval": interval,
        "settle_seconds": settle, "growth_limit_mib": GROWTH_LIMIT_MIB,
        "deals": sum(load["deals"]),
        "mix": {name: len(t.latencies) + sum(t.errors.values())
                for name, t in sorted(merged.items())},
        "requests": len(latencies), "rps": len(latencies) / elapsed,
        **{k: traffic.summary(traffic.Tally(latencies), elapsed)[k]
           for k in ("p50_ms", "p99_ms")},
        "errors": sum(kinds.values()), "error_kinds": kinds,
        "machine_busy_cores": (busy1 - load["busy0"]) / (CLK_TCK * elapsed),
        "first_pids": first_pids, "last_pids": last_pids,
        "workers_rss": per_worker, "flat": all(w["flat"] for w in per_worker),
        "samples": samples, "wall_seconds": time.perf_counter() - started,
    }


def worker_memory(samples: list[dict], settle: float, first_pids: list[int],
                  last_pids: list[int]) -> list[dict]:
    """Each worker's RSS and private memory over the samples; flat when it grew at most
    GROWTH_LIMIT_MIB after `settle` seconds and served from the start to the end."""
    return [memory_of(pid, samples, settle, int(pid) in first_pids and int(pid) in last_pids)
            for pid in sorted({p for s in samples for p in s["rss"]}, key=int)]


def memory_of(pid: str, samples: list[dict], settle: float, throughout: bool) -> dict:
    """One worker's figures; `throughout`: it served from the start to the end."""
    points = [(s["t"], s["rss"][pid]) for s in samples if pid in s["rss"]]
    private = [s["uss"][pid] for s in samples if pid in s["uss"]]
    settled = [(t, v) for t, v in points if t >= settle] or points
    growth = settled[-1][1] - settled[0][1]
    return {
        "pid": int(pid), "samples": len(points), "first_mib": points[0][1],
        "settled_mib": settled[0][1], "last_mib": points[-1][1],
        "max_mib": max(v for _, v in points),
        "growth_after_settle_mib": growth,
        "first_private_mib": private[0] if private else None,
        "last_private_mib": private[-1] if private else None,
        "settled_slope_mib_per_min": slope_per_min(settled),
        "flat": growth <= GROWTH_LIMIT_MIB and throughout,
    }


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    settle = f"{result['settle_seconds']:g} s"
    headers = ["worker pid", "samples", "first RSS", f"RSS at {settle}", "last RSS",
               f"growth after {settle}", f"slope after {settle}", "private first/last",
               "flat"]

    def mib(v) -> str:
        return "-" if v is None else f"{v:.1f}"

    body = [[str(w["pid"]), str(w["samples"]), f"{w['first_mib']:.1f} MiB",
             f"{w['settled_mib']:.1f} MiB", f"{w['last_mib']:.1f} MiB",
             f"{w['growth_after_settle_mib']:+.2f} MiB",
             "-" if w["settled_slope_mib_per_min"] is None
             else f"{w['settled_slope_mib_per_min']:+.3f} MiB/min",
             f"{mib(w['first_private_mib'])} / {mib(w['last_private_mib'])} MiB",
             "yes" if w["flat"] else "NO"] for w in result["workers_rss"]]
    return headers, body
