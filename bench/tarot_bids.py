"""Whether a change to the strong level's Tarot bid (T4) pays, paired deal by deal, at a
fraction of a whole pairing's cost.

`python -m bench.tarot_bids REV --game tarot5 --first-seed 200000 --deals 300` finds, in
this tree and at REV, the strong seat's bid in each deal that `bench/ai.py`'s strong:basic
pairing plays (the tested seat `seed % players`, basic at every other seat, the same rng a
move and the playouts the budget buys), then plays to the end, in this tree, only the
deals whose bid differs, once with each tree's bid. A deal whose bid is the same is the
same deal move for move (every move's rng is seeded by the deal and the move): its
difference is 0. So when the two trees differ in the bid alone, the paired mean is the one
two whole pairings over the same seeds would give (this tree's play after the bid standing
for both). It prints this tree's score less REV's, the tested seat's less the mean of the
others' as `tarot_figures` counts it, with its 95% t interval over every deal, the deals
better and worse, each change of bid, and the CPU of the bid's searches.

`python -m bench.tarot_bids HEAD --game tarot --deals 2 --budget 5`   # smoke
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from cardavia_client.stats import mean_ci

from bench.ai import NO_DEADLINE_MS, VARIANTS, move_rng, registry_id, seeded_deal
from bench.instructions import checkout
from rules.ai import search
from rules.ai.levels import choose
from rules.game import Move
from schemas.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
TAROT_IDS = ("tarot3", "tarot", "tarot5")

# The child: each deal's auction up to the tested seat (basic's bids), then the strong
# bid; one JSON line of {seed: [bid, CPU ms]}. It reads what every revision with the AI
# bench has: bench.ai's deal and rng, the search's playout count, levels.choose.
CHILD = """
import json, sys, time
from bench.ai import NO_DEADLINE_MS, move_rng, seeded_deal
from rules.ai import search
from rules.ai.levels import choose
from schemas.registry import GAMES
game_id, first, deals, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = GAMES["tarot"].game
out = {}
for seed in range(first, first + deals):
    state = seeded_deal(game_id, seed)
    seat = seed % len(state.hands)
    k = 0
    while (to_act := game.to_act(state)) is not None and state.phase == "bidding":
        view = game.observe(state, to_act)
        if to_act == seat:
            n = search.playout_count(game, view, budget)
            c0 = time.process_time()
            move, _ = choose(game, view, "strong", move_rng(seed, k), NO_DEADLINE_MS,
                             playouts=n)
            out[seed] = [move.contract, (time.process_time() - c0) * 1000]
            break
        move, _ = choose(game, view, "basic", move_rng(seed, k), budget)
        state = game.apply(state, move)
        k += 1
print(json.dumps(out))
"""


def bids(tree: Path, game_id: str, first: int, deals: int, budget: int) -> dict[int, list]:
    """The tested seat's bid and its search's CPU in ms, by seed, as `tree` bids (a deal
    annulled at the deal, T3, has none)."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    p = subprocess.run([sys.executable, "-c", CHILD, game_id, str(first), str(deals),
                        str(budget)], cwd=tree, env=env, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"at {tree}: exit {p.returncode}: "
                           + " | ".join(p.stderr.splitlines()[-3:]))
    return {int(s): v for s, v in json.loads(p.stdout.splitlines()[-1]).items()}


def play_with_bid(game_id: str, seed: int, bid: str, budget: int) -> float:
    """Deal `seed` as bench/ai.py's strong:basic pairing plays it, the tested seat's bid
    forced to `bid`: the tested seat's score less the mean of the others'."""
    game = GAMES[registry_id(game_id)].game
    state = seeded_deal(game_id, seed)
    seat = seed % len(state.hands)
    k = 0
    while (to_act := game.to_act(state)) is not None:
        view = game.observe(state, to_act)
        rng = move_rng(seed, k)
        if to_act != seat:
            move, _ = choose(game, view, "basic", rng, budget)
        elif state.phase == "bidding":
            move = Move(seat, "bid", contract=bid)
        else:
            n = search.playout_count(game, view, budget)
            move, _ = choose(game, view, "strong", rng, NO_DEADLINE_MS, playouts=n)
        state = game.apply(state, move)
        k += 1
    settled = game.settlement(state)
    assert settled is not None  # nobody is to act: the deal is over
    scores = settled["scores"]
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


def paired(game_id: str, before: dict[int, list], after: dict[int, list], seeds: range,
           budget: int) -> dict:
    """Per deal, this tree's bid's score less REV's: 0 where they bid alike."""
    diffs: list[float] = []
    changes: dict[str, list[float]] = defaultdict(list)
    for seed in seeds:
        if seed not in before or before[seed][0] == after[seed][0]:
            diffs.append(0.0)
            continue
        was, now = before[seed][0], after[seed][0]
        d = (play_with_bid(game_id, seed, now, budget)
             - play_with_bid(game_id, seed, was, budget))
        diffs.append(d)
        changes[f"{was} -> {now}"].append(d)
    mean, ci = mean_ci(diffs)
    assert mean is not None, "no deal"
    return {"deals": len(diffs), "mean": mean, "ci": ci,
            "better": sum(d > 0 for d in diffs), "worse": sum(d < 0 for d in diffs),
            "changed": sum(len(v) for v in changes.values()),
            "changes": {k: (len(v), sum(v) / len(v)) for k, v in sorted(changes.items())}}


def cpu_line(label: str, found: dict[int, list]) -> str:
    cpu = sorted(c for _, c in found.values())
    if not cpu:
        return f"{label}: no bid searched"
    at = [cpu[min(len(cpu) - 1, int(q * len(cpu)))] for q in (0.5, 0.9)]
    return f"{label}: bid CPU p50 / p90 / max {at[0]:.0f} / {at[1]:.0f} / {cpu[-1]:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rev", help="the revision to compare with")
    p.add_argument("--game", choices=TAROT_IDS, default="tarot")
    p.add_argument("--first-seed", type=int, default=200000)
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--budget", type=int, default=200, help="ms, as bench --ai-budget")
    args = p.parse_args(argv)
    assert args.game == "tarot" or args.game in VARIANTS
    c0 = time.perf_counter()
    now = bids(ROOT, args.game, args.first_seed, args.deals, args.budget)
    with checkout(args.rev) as tree:
        then = bids(tree, args.game, args.first_seed, args.deals, args.budget)
    seeds = range(args.first_seed, args.first_seed + args.deals)
    out = paired(args.game, then, now, seeds, args.budget)
    lo, hi = out["ci"] if out["ci"] is not None else (float("nan"), float("nan"))
    print(f"{args.game}, seeds {seeds.start}-{seeds.stop - 1}, this tree less {args.rev}: "
          f"{out['mean']:+.1f} ({lo:+.1f} - {hi:+.1f}) over {out['deals']} deals; "
          f"{out['changed']} bids changed, {out['better']} deals better, "
          f"{out['worse']} worse ({time.perf_counter() - c0:.0f} s)")
    for change, (n, mean) in out["changes"].items():
        print(f"  {change}: {n} deals, {mean:+.1f}")
    print(cpu_line(f"  {args.rev}", then))
    print(cpu_line("  this tree", now))
    return 0


if __name__ == "__main__":
    sys.exit(main())
