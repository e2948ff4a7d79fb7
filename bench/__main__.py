"""`make bench`: (a) random deals in-process, (b) HTTP move vs echo, (c) worker memory.

Prints a table per part and writes the same figures to bench/results/latest.json.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from bench import RESULTS, deals, http, memory
from bench.report import machine, table, write_json


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    p.add_argument("--only", choices=("deals", "http"), help="run one part ((c) goes with http)")
    p.add_argument("--deal-seconds", type=float, default=3.0, help="per game (default 3)")
    p.add_argument("--games", nargs="+", help="games for (a) (default: every game in GAMES)")
    p.add_argument("--rounds", type=int, default=6, help="rounds per server in (b) (default 6)")
    p.add_argument("--round-seconds", type=float, default=3.0, help="(default 3)")
    p.add_argument("--clients", type=int, default=4, help="load threads in (b) (default 4)")
    p.add_argument("--budget", type=float, default=60.0, help="seconds for all of (b)")
    p.add_argument("--output", type=Path, default=RESULTS / "latest.json")
    args = p.parse_args(argv)
    # A SIGTERM unwinds like Ctrl-C, so the servers of (b) are stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    results: dict = {"machine": machine()}
    m = results["machine"]
    print(f"Cardavia bench — {m['when']}, commit {m['commit']}, Python {m['python']}, "
          f"{m['cores']} cores, {m['cpu']}\n", flush=True)
    if args.only in (None, "deals"):
        results["deals"] = deals.run(args.deal_seconds, args.games)
        d = results["deals"]
        print(table(f"(a) random deals in-process, one core, {d['seconds_per_game']:g} s per "
                    "game; the bare loop makes one rng.random() call per move",
                    *deals.rows(d)), end="\n\n", flush=True)
    if args.only in (None, "http"):
        results["http"], results["memory"] = http.run(
            args.rounds, args.round_seconds, args.clients, args.budget)
        h = results["http"]
        print(table(f"(b) POST {h['path']} ({h['body_bytes']} B body) vs bare Flask echo, "
                    f"gunicorn.conf.py, 1 sync worker each, {h['clients']} load threads, "
                    f"{h['rounds']} x {h['round_seconds']:g} s alternating rounds",
                    *http.rows(h)), end="\n\n")
        print(table("(c) peak memory per gunicorn worker after (b)'s load",
                    *memory.rows(results["memory"])), end="\n\n")
    write_json(args.output, results)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
