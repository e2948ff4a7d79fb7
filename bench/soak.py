"""`--only soak`: a steady load on a mix of endpoints for `seconds` (default 600), sampling
every worker's resident set (VmRSS of each child of the gunicorn master) every `interval`
seconds (default 10).

"Flat" means: each worker's least-squares RSS slope after the first `settle` seconds
(default 60: imports, first requests, the allocator's arenas filling) is at most
FLAT_MIB_PER_MIN, and the worker is the same process at the end as at the start.
"""

from __future__ import annotations

import time

from bench import traffic
from bench.server import Gunicorn

SERVICE_APP = "service.app:create_app()"
FLAT_MIB_PER_MIN = 0.1  # i.e. under 1 MiB over ten minutes


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


def run(seconds: float = 600.0, clients: int = 4, workers: int = 2, interval: float = 10.0,
        settle: float = 60.0, max_requests: int = 2_000_000) -> dict:
    started = time.perf_counter()
    reqs = traffic.requests()
    samples: list[dict] = []  # {"t": seconds, "rss": {pid: MiB}}
    with Gunicorn(SERVICE_APP, workers=workers) as server:
        traffic.check(server.port, reqs)
        first_pids = sorted(server.worker_pids())

        def sample(elapsed: float) -> None:
            rss = {pid: traffic.rss_mib(pid) for pid in server.worker_pids()}
            samples.append({"t": round(elapsed, 2),
                            "rss": {str(p): v for p, v in rss.items() if v is not None}})
            if len(samples) % 6 == 1:
                print(f"  {elapsed:5.0f} s  " + "  ".join(
                    f"{p}: {v:.1f} MiB" for p, v in rss.items() if v is not None), flush=True)

        out = traffic.drive(server.port, reqs, seconds, clients, max_requests,
                            monitor=sample, interval=interval)
        sample(out["seconds"])
        last_pids = sorted(server.worker_pids())
    per_worker = []
    for pid in sorted({p for s in samples for p in s["rss"]}, key=int):
        points = [(s["t"], s["rss"][pid]) for s in samples if pid in s["rss"]]
        settled = [(t, v) for t, v in points if t >= settle] or points
        slope = slope_per_min(settled)
        per_worker.append({
            "pid": int(pid), "samples": len(points), "first_mib": points[0][1],
            "last_mib": points[-1][1], "max_mib": max(v for _, v in points),
            "slope_mib_per_min": slope_per_min(points),
            "settled_slope_mib_per_min": slope,
            "flat": slope is not None and slope <= FLAT_MIB_PER_MIN
            and int(pid) in last_pids and int(pid) in first_pids,
        })
    total = {"requests": 0, "errors": 0, "error_kinds": {}}
    latencies: list[float] = []
    for t in out["tallies"].values():
        total["requests"] += len(t.latencies)
        latencies += t.latencies
        total["errors"] += sum(t.errors.values())
        for k, v in t.errors.items():
            total["error_kinds"][k] = total["error_kinds"].get(k, 0) + v
    return {
        "workers": workers, "clients": clients, "seconds": out["seconds"],
        "interval": interval, "settle_seconds": settle,
        "flat_threshold_mib_per_min": FLAT_MIB_PER_MIN,
        "mix": [r.name for r in reqs], "rps": total["requests"] / out["seconds"],
        "p50_ms": traffic.percentile(latencies, 50) * 1000 if latencies else None,
        "p99_ms": traffic.percentile(latencies, 99) * 1000 if latencies else None,
        **total, "client_cpu": out["client_cpu"],
        "machine_busy_cores": out["machine_busy_cores"],
        "first_pids": first_pids, "last_pids": last_pids,
        "workers_rss": per_worker, "flat": all(w["flat"] for w in per_worker),
        "samples": samples, "wall_seconds": time.perf_counter() - started,
    }


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["worker pid", "samples", "first RSS", "last RSS", "max RSS", "slope (all)",
               f"slope after {result['settle_seconds']:g} s", "flat"]
    body = [[str(w["pid"]), str(w["samples"]), f"{w['first_mib']:.1f} MiB",
             f"{w['last_mib']:.1f} MiB", f"{w['max_mib']:.1f} MiB",
             f"{w['slope_mib_per_min']:+.3f} MiB/min",
             f"{w['settled_slope_mib_per_min']:+.3f} MiB/min",
             "yes" if w["flat"] else "NO"] for w in result["workers_rss"]]
    return headers, body
