"""(c) Peak memory of each gunicorn worker: VmHWM ("high water mark", the peak resident set)
from /proc/<pid>/status of every child of the gunicorn master.

With `preload_app` the workers are forked from a master that already holds the app, so
part of a worker's RSS is shared with the master (copy-on-write). Beside the peak, the
current private memory (USS, from /proc/<pid>/smaps_rollup) says what one more worker
really costs."""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from bench.server import Gunicorn

KIB_PER_MIB = 1024


def kib_fields(path: str) -> dict[str, int]:
    """The "Name:   1234 kB" lines of a /proc file, in KiB."""
    out = {}
    for line in Path(path).read_text().splitlines():
        name, _, value = line.partition(":")
        parts = value.split()
        if len(parts) == 2 and parts[1] == "kB":
            out[name] = int(parts[0])
    return out


def private_kib(pid: int) -> int | None:
    try:
        rollup = kib_fields(f"/proc/{pid}/smaps_rollup")
    except OSError:
        return None
    return rollup.get("Private_Clean", 0) + rollup.get("Private_Dirty", 0)


class Worker(TypedDict):
    pid: int
    peak_rss_mib: float
    rss_mib: float
    private_mib: float | None


def workers_peak(server: Gunicorn) -> dict:
    workers: list[Worker] = []
    for pid in server.worker_pids():
        status = kib_fields(f"/proc/{pid}/status")
        private = private_kib(pid)
        workers.append({"pid": pid, "peak_rss_mib": status["VmHWM"] / KIB_PER_MIB,
                        "rss_mib": status["VmRSS"] / KIB_PER_MIB,
                        "private_mib": None if private is None else private / KIB_PER_MIB})
    if not workers:
        raise RuntimeError(f"gunicorn {server.app} has no worker to measure")
    master = kib_fields(f"/proc/{server.master.pid}/status")
    return {"workers": workers,
            "peak_rss_mib": max(w["peak_rss_mib"] for w in workers),
            "private_mib": max((w["private_mib"] or 0) for w in workers) or None,
            "master_peak_rss_mib": master["VmHWM"] / KIB_PER_MIB}


def compare(service: Gunicorn, echo: Gunicorn) -> dict:
    out = {"service": workers_peak(service), "echo": workers_peak(echo)}
    out["ratio"] = out["service"]["peak_rss_mib"] / out["echo"]["peak_rss_mib"]
    return out


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["server", "workers", "peak RSS/worker (VmHWM)", "private now (USS)",
               "master VmHWM"]

    def mib(value) -> str:
        return "-" if value is None else f"{value:.1f} MiB"

    body = [[name, str(len(result[name]["workers"])), mib(result[name]["peak_rss_mib"]),
             mib(result[name]["private_mib"]), mib(result[name]["master_peak_rss_mib"])]
            for name in ("service", "echo")]
    body.append(["service/echo", "", f"{result['ratio']:.2f}", "", ""])
    return headers, body
