"""Whether the AI plays move for move as it did at another revision: a refactor's check.

`python -m bench.same_moves REV` plays the same seeded deals of every game, count and
variant the AI bench plays (`bench/ai.py`'s ids), basic and strong seats alternating, in
this tree and in REV (a temporary worktree, as `--only instructions` makes it), each with
its own rules and AI, and compares every move and every settlement. The strong level gets
a fixed number of playouts and no deadline, so that the machine's load cannot change a
move. It prints the first move that differs in each deal, and exits 1 when any does.

`python -m bench.same_moves REV --games durak durak3 --deals 4 --playouts 12`

A game id that REV does not know is skipped there and reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.instructions import checkout

ROOT = Path(__file__).resolve().parent.parent
# id -> (registry id, deal options), the ids of `bench/ai.py`.
GAMES = {
    "durak": ("durak", {}), "durak3": ("durak", {"players": 3}),
    "durak4t": ("durak", {"players": 4, "transfer": True}),
    "tarot3": ("tarot", {"players": 3}), "tarot": ("tarot", {}),
    "tarot5": ("tarot", {"players": 5}), "ganjifa": ("ganjifa", {}),
}
NO_DEADLINE_MS = 10**9

# The child: imports the tree's own rules, plays, prints one JSON line. It reads only what
# every revision since the AI levels has: Game.deal/observe/apply/settlement, a state's
# `to_act` through the Game, and rules.ai.levels.choose.
CHILD = """
import json, random, sys
games, deals, playouts = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
try:  # the registry's floor before the house work: schemas; after it: rules
    from rules.registry import GAMES
except ImportError:
    from schemas.registry import GAMES
from rules.ai.levels import choose
out = {}
for gid, (rid, options) in games.items():
    game = GAMES[rid].game
    try:
        game.deal(random.Random(0), **options)
    except Exception as e:
        out[gid] = {"skipped": f"{type(e).__name__}: {e}"}
        continue
    played = []
    for seed in range(deals):
        state = game.deal(random.Random(seed), **options)
        moves = []
        while (seat := game.to_act(state)) is not None:
            view = game.observe(state, seat)
            level = "strong" if (seat + seed) % 2 == 0 else "basic"
            rng = random.Random(seed * 100003 + len(moves))
            move, _ = choose(game, view, level, rng, 10**9, playouts=playouts)
            moves.append(repr(tuple(move)))
            state = game.apply(state, move)
        played.append({"moves": moves, "settlement": game.settlement(state)})
    out[gid] = played
print(json.dumps(out))
"""


def play(tree: Path, games: dict, deals: int, playouts: int) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(games), str(deals),
                        str(playouts)], cwd=tree, env=env, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"at {tree}: exit {p.returncode}: "
                           + " | ".join(p.stderr.splitlines()[-3:]))
    return json.loads(p.stdout.splitlines()[-1])


def compare(now: dict, then: dict) -> list[str]:
    """One line a game: the deals alike, or where the first difference is."""
    lines = []
    for gid, deals in now.items():
        old = then.get(gid)
        if isinstance(old, dict) or isinstance(deals, dict):
            lines.append(f"{gid}: skipped ({(old or deals).get('skipped')})")
            continue
        if old is None:  # both trees play the same ids, skipped or not
            raise RuntimeError(f"{gid}: played here, missing at the other revision")
        differ = []
        for seed, (a, b) in enumerate(zip(deals, old, strict=True)):
            pairs = zip(a["moves"], b["moves"], strict=False)  # a deal may end sooner
            first = next((k for k, (x, y) in enumerate(pairs) if x != y), None)
            if first is not None:
                differ.append(f"deal {seed} from move {first}: {a['moves'][first]} "
                              f"against {b['moves'][first]}")
            elif len(a["moves"]) != len(b["moves"]) or a["settlement"] != b["settlement"]:
                differ.append(f"deal {seed}: the same moves, another end")
        count = sum(len(d["moves"]) for d in deals)
        lines.append(f"{gid}: {len(deals)} deals, {count} moves: "
                     + ("the same" if not differ else "DIFFER: " + "; ".join(differ)))
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rev", help="the revision to compare with")
    p.add_argument("--games", nargs="+", choices=tuple(GAMES), default=list(GAMES))
    p.add_argument("--deals", type=int, default=4, help="seeded deals a game (seeds 0…)")
    p.add_argument("--playouts", type=int, default=12, help="the strong level's, a move")
    args = p.parse_args(argv)
    games = {g: GAMES[g] for g in args.games}
    now = play(ROOT, games, args.deals, args.playouts)
    with checkout(args.rev) as tree:
        then = play(tree, games, args.deals, args.playouts)
    lines = compare(now, then)
    print("\n".join(lines))
    return 1 if any("DIFFER" in line for line in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
