"""`--only load`: requests/s and p50/p99 latency per endpoint at saturation.

One gunicorn (gunicorn.conf.py, WEB_CONCURRENCY=2 sync workers) on a free loopback port;
for each endpoint in turn, `clients` threads (default 8: four per worker, so a worker
always has a connection waiting in the accept queue) send nothing but that request for
`seconds`, after a warm-up that is not counted. Latency is from connect to the last byte,
so at saturation it includes the time a connection waits in the listen queue: with a
closed loop of `clients` threads, p50 is about clients / rps.
"""

from __future__ import annotations

import time

from bench import traffic
from bench.load import CLK_TCK, cpu_ticks
from bench.server import Gunicorn

SERVICE_APP = "service.app:create_app()"


def run(seconds: float = 5.0, clients: int = 8, workers: int = 2, warmup: float = 1.0,
        max_requests: int = 200_000) -> dict:
    started = time.perf_counter()
    reqs = traffic.requests()
    rows = []
    with Gunicorn(SERVICE_APP, workers=workers) as server:
        traffic.check(server.port, reqs)
        pids = server.worker_pids()
        for r in reqs:
            traffic.drive(server.port, [r], warmup, clients, max_requests)
            cpu0 = sum(cpu_ticks(p) for p in pids)
            out = traffic.drive(server.port, [r], seconds, clients, max_requests)
            worker_cpu = (sum(cpu_ticks(p) for p in pids) - cpu0) / CLK_TCK / out["seconds"]
            s = traffic.summary(out["tallies"][r.name], out["seconds"])
            s.update(name=r.name, path=r.path, method=r.method, body_bytes=r.body_bytes,
                     seconds=out["seconds"], client_cpu=out["client_cpu"],
                     worker_cpu=worker_cpu,
                     other_cpu=max(0.0, out["machine_busy_cores"] - worker_cpu
                                   - out["client_cpu"]))
            rows.append(s)
            print(f"  {r.name}: {s['rps']:.0f} rps, {s['errors']} errors", flush=True)
        if sorted(server.worker_pids()) != sorted(pids):
            raise RuntimeError("a worker was replaced during the load run")
    return {"workers": workers, "clients": clients, "seconds_per_endpoint": seconds,
            "warmup_seconds": warmup, "endpoints": rows,
            "errors": sum(r["errors"] for r in rows),
            "seconds": time.perf_counter() - started}


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["endpoint", "body", "rps", "p50", "p99", "max", "errors", "workers CPU",
               "other CPU", "load CPU"]
    body = [[r["name"], f"{r['body_bytes']} B" if r["body_bytes"] else "-",
             f"{r['rps']:,.0f}", _ms(r["p50_ms"]), _ms(r["p99_ms"]), _ms(r["max_ms"]),
             str(r["errors"]) + (f" {r['error_kinds']}" if r["errors"] else ""),
             f"{r['worker_cpu']:.0%}", f"{r['other_cpu']:.0%}", f"{r['client_cpu']:.0%}"]
            for r in result["endpoints"]]
    return headers, body


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"
