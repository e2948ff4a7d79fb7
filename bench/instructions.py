"""`--only instructions`: a random deal of each game counted in CPython instructions.

Wall and CPU times on this shared VM move by +-20% from run to run, too much to show a
change within 10%. `valgrind --tool=callgrind` counts the instructions a process executes:
the same for the same binary and inputs whatever else the machine does. Each figure is
(instructions of bench/_deals_only.py playing N seeded deals, seeds 0..N-1, with
bench.deals.play_deal - the same child playing 0) / N, so start-up and imports cancel; the
child imports only the game's rules module, and PYTHONHASHSEED=0 fixes set and dict order.

With `--insn-baseline REV` the same children run again against REV, checked out in a
temporary worktree (the driver stays this tree's, only `rules` comes from REV), and each row
gets now/REV: the baseline is measured in the same run, by the same instrument.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench import ROOT

CHILD = Path(__file__).resolve().parent / "_deals_only.py"
INSTALL = "valgrind is not installed; install it with: apt-get install -y valgrind"
_COLLECTED = re.compile(r"^==\d+==\s+Collected\s*:\s*([\d,]+)\s*$", re.MULTILINE)


def parse_collected(stderr: str) -> int:
    """The instruction count (event Ir) of callgrind's summary on stderr."""
    found = _COLLECTED.findall(stderr)
    if not found:
        raise ValueError("no 'Collected :' line in valgrind's output")
    return int(found[-1].replace(",", ""))


def per_deal(with_deals: int, without: int, deals: int) -> float:
    """Instructions of one deal: the run of `deals` deals less the run of none, over N."""
    if deals <= 0:
        raise ValueError("deals must be positive")
    return (with_deals - without) / deals


def ratio(now: float | None, base: float | None) -> float | None:
    """now/base, or None when either side could not be measured."""
    if now is None or base is None or base <= 0:
        return None
    return now / base


ENV = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "LANG": "C.UTF-8"}


def child(tree: Path, module: str, deals: int, options: dict) -> list[str]:
    cmd = [sys.executable, str(CHILD), str(tree), module, str(deals)]
    return cmd + [json.dumps(options)] if options else cmd


def warm(tree: Path, module: str, options: dict) -> None:
    """One deal without valgrind first: it writes the .pyc files (compiling them inside the
    first counted child would be counted, ~1.5M instructions a deal at N=50 in a fresh
    worktree), and a child that fails at REV fails here, in a second, not under valgrind."""
    p = subprocess.run(child(tree, module, 1, options), cwd=tree, env=ENV,
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"{module} {options or ''} at {tree}: exit {p.returncode}: "
                           + " | ".join(p.stderr.splitlines()[-2:]))


def measure(tree: Path, module: str, deals: int, options: dict) -> tuple[int, int]:
    """Instructions and moves of one child under callgrind; RuntimeError if it fails."""
    cmd = [shutil.which("valgrind") or "valgrind", "--tool=callgrind",
           "--callgrind-out-file=/dev/null", *child(tree, module, deals, options)]
    p = subprocess.run(cmd, cwd=tree, env=ENV, capture_output=True, text=True)
    if p.returncode:
        tail = [t for t in p.stderr.splitlines() if not t.startswith("==")][-3:]
        raise RuntimeError(f"{module} {options or ''} at {tree}: exit {p.returncode}: "
                           + " | ".join(tail))
    return parse_collected(p.stderr), json.loads(p.stdout.splitlines()[-1])["moves"]


def measure_row(tree: Path, module: str, deals: int, options: dict) -> dict:
    """One row of one tree: the two children, one after the other (never in parallel)."""
    warm(tree, module, options)
    with_deals, moves = measure(tree, module, deals, options)
    without, _ = measure(tree, module, 0, options)
    # The moves say whether both sides played the same deals (a seed may deal otherwise).
    return {"instructions": with_deals, "instructions_0_deals": without, "moves": moves,
            "moves_per_deal": moves / deals, "per_deal": per_deal(with_deals, without, deals)}


@contextmanager
def checkout(rev: str) -> Iterator[Path]:
    """REV in a detached temporary worktree, removed on the way out, also on error; its
    compiled search core built in place when REV has one (setup.py), as an install would."""
    tmp = Path(tempfile.mkdtemp(prefix="insn-baseline-"))
    tree = tmp / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), rev], cwd=ROOT,
                   check=True, capture_output=True, text=True)
    if (tree / "setup.py").exists():
        subprocess.run([sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"],
                       cwd=tree, check=True, capture_output=True, text=True,
                       env={**os.environ, "PYTHONWARNINGS": "ignore"})
    try:
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


def combine(now: dict | None, base: dict | None) -> dict:
    """A row's figures from the two sides (either None when its child failed)."""
    n = None if now is None else now["per_deal"]
    b = None if base is None else base["per_deal"]
    return {"now": now, "baseline": base, "per_deal": n, "baseline_per_deal": b,
            "ratio": ratio(n, b)}


def run(deals: int = 50, baseline: str | None = None, games: list[str] | None = None) -> dict:
    from bench.deals import counts
    from schemas.registry import GAMES

    rows = [c for g in games or list(GAMES) for c in counts(g)]
    trees: list[tuple[str, Path]] = [("now", ROOT)]
    out: dict = {"deals": deals, "baseline": baseline, "python": sys.executable, "rows": {}}
    sides: dict[str, dict] = {row: {} for row, _ in rows}
    errors: list[str] = []
    with checkout(baseline) if baseline else _here() as base_tree:
        if baseline:
            rev = subprocess.run(["git", "rev-parse", "--short", baseline], cwd=base_tree,
                                 capture_output=True, text=True).stdout.strip()
            out["baseline_commit"] = rev
            trees.append(("baseline", base_tree))
        for row, options in rows:
            module = row.rstrip("0123456789")
            for side, tree in trees:
                print(f"instructions: {row} {side} ...", flush=True)
                try:
                    sides[row][side] = measure_row(tree, module, deals, options)
                except (RuntimeError, ValueError) as e:
                    sides[row][side] = None
                    errors.append(str(e))
                    print(f"  failed: {e}", flush=True)
    for row, _ in rows:
        out["rows"][row] = combine(sides[row].get("now"), sides[row].get("baseline"))
    out["errors"] = errors
    return out


@contextmanager
def _here() -> Iterator[Path]:
    yield ROOT


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    def fmt(x: float | None) -> str:
        return "-" if x is None else f"{x:,.0f}"

    def moves(side: dict | None) -> str:
        return "-" if side is None else f"{side['moves_per_deal']:.1f}"

    base = result.get("baseline")
    at = result.get("baseline_commit") or base
    headers = ["game", "instructions/deal now", "moves/deal"]
    if base:
        headers += [f"at {at}", f"moves/deal at {at}", "now/baseline"]
    body = []
    for row, r in result["rows"].items():
        line = [row, fmt(r["per_deal"]), moves(r["now"])]
        if base:
            line += [fmt(r["baseline_per_deal"]), moves(r["baseline"]),
                     "-" if r["ratio"] is None else f"{r['ratio']:.3f}"]
        body.append(line)
    return headers, body
