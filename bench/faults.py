"""`--only faults`: SIGKILL a worker in the middle of a saturating load and count what it
costs.

One gunicorn (gunicorn.conf.py, WEB_CONCURRENCY=2 sync workers); `clients` threads cycle
through every endpoint of `--only load` for `seconds`. At `kills` evenly spaced moments
the bench sends SIGKILL to one worker (in turn the oldest one), then polls the master's
children every few milliseconds until a new pid appears: gunicorn's master reaps the dead
worker and forks a new one. Every failed request (reset, empty answer, timeout, 5xx, other
status) is stamped with its time and put down to the kill before it.

The bound: a sync worker handles one request at a time, so it holds at most one accepted
connection when it dies; connections not yet accepted wait in the listening socket's
queue, which belongs to the master (and every worker) and survives the worker, so the
surviving or the new worker accepts them. So each kill may cost at most one request.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from bench import traffic
from bench.server import Gunicorn

SERVICE_APP = "service.app:create_app()"
MAX_FAILURES_PER_KILL = 1  # the killed sync worker's one in-flight request


def proc_state(pid: int) -> str | None:
    """The one-letter state of a process (R running, S sleeping…), None once gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


class Killer:
    """Kills the oldest live worker at each of `kill_at` (seconds into the load), and
    notes when each victim is gone and which new worker replaced it."""

    def __init__(self, server: Gunicorn, kill_at: list[float]):
        self.server, self.kill_at = server, kill_at
        self.seen: list[int] = list(server.worker_pids())  # every pid, in order of appearance
        self.events: list[dict] = []
        self.pending: list[dict] = []  # kills whose replacement has not shown yet

    def watch(self, elapsed: float) -> None:
        pids = self.server.worker_pids()
        for pid in pids:
            if pid not in self.seen:
                self.seen.append(pid)
                if self.pending:
                    ev = self.pending.pop(0)
                    ev["new_pid"] = pid
                    ev["replaced_after_ms"] = (elapsed - ev["t"]) * 1000
        for ev in self.events:
            if ev.get("gone_after_ms") is None and ev["pid"] not in pids:
                ev["gone_after_ms"] = (elapsed - ev["t"]) * 1000
        if len(self.events) < len(self.kill_at) and elapsed >= self.kill_at[len(self.events)]:
            victim = next(p for p in self.seen if p in pids)  # the oldest live worker
            state = proc_state(victim)
            os.kill(victim, signal.SIGKILL)
            ev = {"t": elapsed, "pid": victim, "state_before": state, "new_pid": None,
                  "replaced_after_ms": None, "gone_after_ms": None}
            self.events.append(ev)
            self.pending.append(ev)


def run(seconds: float = 12.0, kills: int = 3, clients: int = 8, workers: int = 2,
        max_requests: int = 500_000) -> dict:
    started = time.perf_counter()
    reqs = traffic.requests()
    with Gunicorn(SERVICE_APP, workers=workers) as server:
        traffic.check(server.port, reqs)
        killer = Killer(server, [seconds * (i + 1) / (kills + 1) for i in range(kills)])
        first_pids = sorted(killer.seen)
        out = traffic.drive(server.port, reqs, seconds, clients, max_requests,
                            monitor=killer.watch, interval=0.005)
        # A replacement still booting at the end of the load: give it a moment.
        deadline = time.perf_counter() + 5
        while killer.pending and time.perf_counter() < deadline:
            killer.watch(out["seconds"])
            time.sleep(0.01)
        last_pids = sorted(server.worker_pids())
        log = server.log_tail(20000)
    events = killer.events
    failures = sorted(f for t in out["tallies"].values() for f in t.failures)
    before = failures_per_kill(events, failures)
    ok = sum(len(t.latencies) for t in out["tallies"].values())
    log_lines = [line for line in log.splitlines()
                 if "SIGKILL" in line or "Booting worker" in line or "WORKER TIMEOUT" in line]
    return {
        "workers": workers, "clients": clients, "seconds": out["seconds"], "kills": events,
        "requests": ok, "failed": len(failures), "failed_before_first_kill": len(before),
        "rps": ok / out["seconds"], "first_pids": first_pids, "last_pids": last_pids,
        "workers_after": len(last_pids),
        "bound_per_kill": MAX_FAILURES_PER_KILL,
        # Each kill within its bound and replaced, no failure before, every worker back.
        "within_bound": not before and len(last_pids) == workers
        and all(ev["within_bound"] and ev["new_pid"] for ev in events),
        "machine_busy_cores": out["machine_busy_cores"], "gunicorn_log": log_lines,
        "wall_seconds": time.perf_counter() - started,
    }


def failures_per_kill(events: list[dict], failures: list) -> list:
    """Each kill's failures, up to the next kill, noted on its event; the failures before
    the first kill returned."""
    for i, ev in enumerate(events):
        end = events[i + 1]["t"] if i + 1 < len(events) else float("inf")
        mine = [f for f in failures if ev["t"] <= f[0] < end]
        ev["failures"] = len(mine)
        ev["failure_kinds"] = sorted({f[1] for f in mine})
        ev["failure_after_ms"] = [round((f[0] - ev["t"]) * 1000, 1) for f in mine]
        ev["within_bound"] = len(mine) <= MAX_FAILURES_PER_KILL
    return [f for f in failures if not events or f[0] < events[0]["t"]]


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["kill at", "killed pid", "its state", "gone after", "new pid", "new after",
               "failed requests", "kinds", "failure at (after kill)", "<= bound"]

    def ms(v) -> str:
        return "-" if v is None else f"{v:.0f} ms"

    body = [[f"{ev['t']:.2f} s", str(ev["pid"]), ev["state_before"] or "-",
             ms(ev["gone_after_ms"]), str(ev["new_pid"] or "NONE"), ms(ev["replaced_after_ms"]),
             str(ev["failures"]), ",".join(ev["failure_kinds"]) or "-",
             " ".join(f"{v:g} ms" for v in ev["failure_after_ms"]) or "-",
             "yes" if ev["within_bound"] else "NO"] for ev in result["kills"]]
    return headers, body
