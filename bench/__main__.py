"""`make bench`: (a) random deals in-process, (b) HTTP move vs echo, (c) worker memory,
abuse (hostile 1 MiB bodies against one worker: CPU, answer size, RSS).
Not run by default: `--only load` (rps and latency per endpoint at saturation), `--only soak`
(10 minutes of random deals of every game, worker memory sampled), `--only faults` (a
worker SIGKILLed mid-load), `--only ai` (the AI levels' strength, strong-move latency and
playouts/s; ~40-60 min by default), `--only replay` (moves checked per second through
/replay against /move, ~1 min), `--only stack` (slow clients, long searches and a rollout,
against one bare gunicorn and against deploy/stack.py's nginx and two pools),
`--only instructions` (a random deal of each game in CPython instructions under callgrind,
optionally beside a baseline revision, `--insn-baseline REV`), `--only fuzz` (the mutation
fuzzer of the tests, unsigned and signed, `--fuzz-count` cases each from `--fuzz-seed`).

Prints a table per part and writes the same figures to bench/results/latest.json (load,
soak, faults, ai, replay, stack, instructions and fuzz to bench/results/<part>.json).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
from pathlib import Path

from bench import (
    RESULTS,
    abuse,
    ai,
    deals,
    faults,
    fuzz,
    http,
    instructions,
    memory,
    replay,
    saturation,
    soak,
    stack,
)
from bench.report import machine, table, write_json


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    p.add_argument("--only", choices=tuple(PARTS),
                   help="run one part ((c) goes with http); load, soak, faults and ai run "
                   "only when named here")
    p.add_argument("--deal-seconds", type=float, default=3.0, help="per game (default 3)")
    p.add_argument("--games", nargs="+", help="games for (a) (default: every game in GAMES)")
    p.add_argument("--rounds", type=int, default=6, help="rounds per server in (b) (default 6)")
    p.add_argument("--round-seconds", type=float, default=3.0, help="(default 3)")
    p.add_argument("--clients", type=int, default=4, help="load threads in (b) (default 4)")
    p.add_argument("--budget", type=float, default=60.0, help="seconds for all of (b)")
    p.add_argument("--load-seconds", type=float, default=5.0,
                   help="per endpoint in --only load (default 5)")
    p.add_argument("--load-clients", type=int, default=8,
                   help="load threads for load and faults (default 8)")
    p.add_argument("--soak-seconds", type=float, default=600.0, help="(default 600)")
    p.add_argument("--soak-clients", type=int, default=4, help="(default 4)")
    p.add_argument("--fault-seconds", type=float, default=12.0, help="(default 12)")
    p.add_argument("--kills", type=int, default=3, help="workers killed in faults (default 3)")
    ai_options(p)
    p.add_argument("--abuse-count", type=int, default=10,
                   help="requests per hostile shape in abuse (default 10)")
    p.add_argument("--abuse-bodies", type=int, default=100,
                   help="hostile bodies before abuse's RSS is read (default 100)")
    p.add_argument("--replay-deals", type=int, default=20,
                   help="seeded random deals per game for --only replay (default 20)")
    p.add_argument("--replay-rounds", type=int, default=3, help="(default 3)")
    p.add_argument("--fuzz-count", type=int, default=5000,
                   help="damaged requests per mode in --only fuzz (default 5000)")
    p.add_argument("--fuzz-seed", type=int, default=1,
                   help="the seed of --only fuzz (default 1)")
    p.add_argument("--stack-seconds", type=float, default=8.0,
                   help="probe seconds per abuse and deployment in --only stack (default 8)")
    p.add_argument("--stack-baseline", metavar="REV",
                   help="also run issue 40's abuses of --only stack against REV's "
                   "serve-prod, checked out in a temporary worktree")
    p.add_argument("--stack-issue40", action="store_true",
                   help="--only stack: issue 40's abuses alone")
    p.add_argument("--insn-deals", type=int, default=50,
                   help="seeded deals per child in --only instructions (default 50)")
    p.add_argument("--insn-baseline", metavar="REV",
                   help="also count REV (a commit) in --only instructions, in a temporary "
                   "worktree, and print now/REV")
    p.add_argument("--output", type=Path,
                   help="default bench/results/latest.json, or <part>.json for load, soak, "
                   "faults and ai")
    return p


def ai_options(p: argparse.ArgumentParser) -> None:
    """The options of --only ai."""
    p.add_argument("--ai-deals", type=int, default=200,
                   help="seeded deals per pairing in --only ai (default 200)")
    p.add_argument("--ai-budget", type=int, default=200,
                   help="strong level's budget_ms in --only ai (default 200)")
    p.add_argument("--ai-procs", type=int, default=2,
                   help="processes playing the deals of --only ai (default 2)")
    p.add_argument("--ai-games", nargs="+", choices=ai.GAME_IDS,
                   help="games for --only ai (default: durak tarot ganjifa tarot3 tarot5)")
    p.add_argument("--ai-pairings", nargs="+",
                   choices=[f"{t}:{o}" for t, o in ai.PAIRINGS],
                   help="pairings for --only ai, as tested:other (default: all; an outside "
                   "reference player (greedy, mcts, expert, club, highest, standard) only "
                   "where bench/reference.py has one)")
    p.add_argument("--ai-first-seed", type=int, default=0,
                   help="the deals of --only ai are seeds FIRST.. (default 0); a held-out "
                   "run takes seeds never used while tuning")
    p.add_argument("--ai-http", type=int, default=60,
                   help="strong ai-move requests per game for the HTTP latency of --only ai "
                   "(default 60; 0 skips it)")


def run_deals(args: argparse.Namespace, results: dict) -> int:
    results["deals"] = deals.run(args.deal_seconds, args.games)
    d = results["deals"]
    print(table(f"(a) random deals in-process, one core, {d['seconds_per_game']:g} s per "
                "game; the bare loop makes one rng.random() call per move",
                *deals.rows(d)), end="\n\n", flush=True)
    return 0


def run_http(args: argparse.Namespace, results: dict) -> int:
    results["http"], results["memory"] = http.run(
        args.rounds, args.round_seconds, args.clients, args.budget)
    h = results["http"]
    print(table(f"(b) POST {h['path']} ({h['body_bytes']} B body) vs bare Flask echo, "
                f"gunicorn.conf.py, 1 sync worker each, {h['clients']} load threads, "
                f"{h['rounds']} x {h['round_seconds']:g} s alternating rounds",
                *http.rows(h)), end="\n\n")
    print(table("(c) peak memory per gunicorn worker after (b)'s load",
                *memory.rows(results["memory"])), end="\n\n")
    return 0


def run_load(args: argparse.Namespace, results: dict) -> int:
    results["load"] = r = saturation.run(args.load_seconds, args.load_clients)
    print()
    print(table(f"load: each endpoint alone at saturation, {r['workers']} sync workers, "
                f"{r['clients']} load threads, {r['seconds_per_endpoint']:g} s each after "
                f"{r['warmup_seconds']:g} s warm-up; latency = connect to last byte",
                *saturation.rows(r)), end="\n\n")
    print(f"errors: {r['errors']}")
    return 0


def run_soak(args: argparse.Namespace, results: dict) -> int:
    results["soak"] = r = soak.run(args.soak_seconds, args.soak_clients)
    print()
    print(table(f"soak: {r['seconds']:.0f} s, {r['clients']} threads playing random deals "
                f"of every game ({r['deals']:,} deals, {len(r['mix'])} kinds of request), "
                f"{r['workers']} sync workers, VmRSS and USS every {r['interval']:g} s; "
                f"flat = growth after {r['settle_seconds']:g} s <= "
                f"{r['growth_limit_mib']:g} MiB", *soak.rows(r)), end="\n\n")
    print(f"{r['requests']:,} requests, {r['rps']:,.0f} rps, p50 {r['p50_ms']:.1f} ms, "
          f"p99 {r['p99_ms']:.1f} ms, errors {r['errors']} {r['error_kinds'] or ''}; "
          f"machine busy {r['machine_busy_cores']:.2f} cores; memory flat: "
          f"{'yes' if r['flat'] else 'NO'}")
    return 0


def run_faults(args: argparse.Namespace, results: dict) -> int:
    results["faults"] = r = faults.run(args.fault_seconds, args.kills, args.load_clients)
    print(table(f"faults: SIGKILL one of {r['workers']} sync workers, {len(r['kills'])} "
                f"times, under {r['clients']} load threads on every endpoint for "
                f"{r['seconds']:.0f} s", *faults.rows(r)), end="\n\n")
    print(f"{r['requests']:,} requests answered 200, {r['failed']} failed "
          f"({r['failed_before_first_kill']} before the first kill); workers at the end: "
          f"{r['workers_after']} {r['last_pids']} (at the start {r['first_pids']}); "
          f"at most {r['bound_per_kill']} failure per kill: "
          f"{'yes' if r['within_bound'] else 'NO'}")
    print("gunicorn log:", *r["gunicorn_log"], sep="\n  ")
    return 0


def run_ai(args: argparse.Namespace, results: dict) -> int:
    results["ai"] = r = ai.run(args.ai_deals, args.ai_budget, args.ai_procs,
                               args.ai_games, args.ai_http, args.ai_pairings,
                               args.ai_first_seed)
    print()
    for g, pairings in r["games"].items():
        print(table(f"ai: {g}, {r['deals_per_pairing']} seeded deals per pairing, the "
                    "tested level in one seat rotating with the seed, the other level "
                    f"in the others; strong: the playouts of budget_ms "
                    f"{r['budget_ms']}, no deadline",
                    *ai.strength_rows(g, pairings)), end="\n\n")
    print(table(f"ai: strong moves in-process (searched moves only; {r['procs']} "
                f"processes in parallel); the service's deadline is "
                f"{r['deadline_ms']:g} ms", *ai.timing_rows(r)), end="\n\n")
    print(table("ai: playouts per second of the strong search, in-process, one core "
                "per process", *ai.playout_rows(r)), end="\n\n")
    if "http" in r:
        h = r["http"]
        print(table(f"ai: POST /v1/games/<game>/ai-move level strong budget_ms "
                    f"{h['budget_ms']}, one request at a time, {h['workers']} sync "
                    "workers; connect to last byte (server: the answer's elapsed_ms)",
                    *ai.http_rows(h)), end="\n\n")
    return 0


def run_abuse(args: argparse.Namespace, results: dict) -> int:
    print("abuse: hostile bodies against one sync worker", flush=True)
    results["abuse"] = r = abuse.run(args.abuse_count, bodies=args.abuse_bodies)
    print()
    print(table(f"abuse: each hostile body {r['count']} times to one sync worker, CPU "
                f"from /proc/<pid>/stat ({r['clock_tick_ms']:g} ms ticks); targets "
                f"<= {abuse.TARGET_CPU_MS:g} ms, <= 64 KiB", *abuse.rows(r)), end="\n\n")
    print(f"worker RSS {r['rss_before_mib']:.1f} MiB before, {r['rss_after_mib']:.1f} "
          f"MiB after {r['bodies']} hostile bodies: x{r['rss_ratio']:.2f} (target <= "
          f"{abuse.TARGET_RSS_RATIO}); same worker throughout: {r['pid_unchanged']}; "
          f"within every target: {'yes' if r['within_targets'] else 'NO'}")
    return 0


def run_replay(args: argparse.Namespace, results: dict) -> int:
    results["replay"] = r = replay.run(args.replay_deals, args.replay_rounds)
    print(table(f"replay: moves checked per second, POST /replay of whole deals vs the same "
                f"moves one by one to /move, {r['deals_per_game']} seeded random deals per "
                f"game, one request at a time, 1 sync worker, {r['rounds']} alternating "
                "rounds", *replay.rows(r)), end="\n\n")
    return 0


def run_stack(args: argparse.Namespace, results: dict) -> int:
    results["stack"] = r = stack.run(args.stack_seconds, args.stack_baseline,
                                     args.stack_issue40)
    print(table(f"stack: the abuses against one bare gunicorn (before) and "
                f"deploy/stack.py (after: nginx, rules and AI pools); probe: /healthz "
                f"and /move in turn on one connection for {r['seconds']:g} s, "
                f"{r['probe_timeout_s']:g} s timeout", *stack.rows(r)), end="\n\n")
    return 0


def run_fuzz(args: argparse.Namespace, results: dict) -> int:
    results["fuzz"] = r = fuzz.run(args.fuzz_count, args.fuzz_seed)
    print(table(f"fuzz: damaged requests of every game and count to every endpoint "
                f"taking a state, a seat or a score sheet, seed {r['seed']}",
                *fuzz.rows(r)), end="\n\n")
    if any(m["failures"] for m in r["modes"].values()):
        return 1
    return 0


def run_instructions(args: argparse.Namespace, results: dict) -> int:
    results["instructions"] = r = instructions.run(args.insn_deals, args.insn_baseline,
                                                   args.games)
    print(table(f"instructions: CPython instructions of one random deal, callgrind's Ir: "
                f"({r['deals']} seeded deals - 0 deals) / {r['deals']}, PYTHONHASHSEED=0"
                + (f"; baseline {r['baseline']} in a temporary worktree, same driver"
                   if r["baseline"] else ""), *instructions.rows(r)), end="\n\n")
    return 0


# Each part in the order they run, and whether it runs when none is named.
PARTS = {
    "deals": (run_deals, True),
    "http": (run_http, True),
    "load": (run_load, False),
    "soak": (run_soak, False),
    "faults": (run_faults, False),
    "ai": (run_ai, False),
    "abuse": (run_abuse, True),
    "replay": (run_replay, False),
    "stack": (run_stack, False),
    "fuzz": (run_fuzz, False),
    "instructions": (run_instructions, False),
}


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # A SIGTERM unwinds like Ctrl-C, so the servers of (b) are stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    if args.output is None:
        extra = args.only is not None and not PARTS[args.only][1]
        args.output = RESULTS / (f"{args.only}.json" if extra else "latest.json")
    if args.only == "instructions" and shutil.which("valgrind") is None:
        print(instructions.INSTALL)
        return 2
    results: dict = {"machine": machine()}
    m = results["machine"]
    print(f"Cardavia bench — {m['when']}, commit {m['commit']}, Python {m['python']}, "
          f"{m['cores']} cores, {m['cpu']}\n", flush=True)
    for name, (run, by_default) in PARTS.items():
        if args.only == name or args.only is None and by_default:
            code = run(args, results)
            if code:
                write_json(args.output, results)
                return code
    write_json(args.output, results)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
