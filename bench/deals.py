"""(a) Full random deals per second, in-process on one core, for every game in GAMES.

A deal: `game.deal(rng)` with a seeded rng, then legal_moves -> uniform random choice (a
template move completed at random) -> `apply` (the engine's transition, as search and
playouts use it; `play` adds the events the HTTP answer describes), until no move is legal. The
baseline is a bare loop of `rng.random()` calls, as many as the game's mean moves per
deal: the ratio says how many such bare loops one deal costs, which depends much less on
the machine than deals/s does.
"""

from __future__ import annotations

import random
import time

from bench.load import CLK_TCK, machine_ticks
from rules.game import Template

TARGETS = {"durak": 3000, "tarot": 1000, "ganjifa": 1000}  # deals/s, from the issue
MAX_MOVES = 100_000  # a deal that runs longer is a bug in the rules, not a slow deal


def play_deal(game, rng: random.Random, **options) -> int:
    """Plays one random deal to its end; returns the number of moves.

    The pick is `legal[int(rng.random() * len(legal))]`: uniform like `rng.choice` (to
    within 2**-53), without its three Python-level calls of rejection sampling, which cost
    ~15% of a Durak deal and are not the rules' work."""
    legal_moves, apply, pick = game.legal_moves, game.apply, rng.random
    state = game.deal(rng, **options)
    moves = 0
    legal = legal_moves(state)
    while legal:
        move = legal[int(pick() * len(legal))]
        if type(move) is Template:
            move = move.sample(rng)
        state = apply(state, move)
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"{game.id}: a deal did not end after {MAX_MOVES} moves")
        legal = legal_moves(state)
    return moves


def deal_rate(game, seconds: float, **options) -> dict:
    """Deals with seeds 0, 1, 2… for about `seconds` of CPU time, after a warm-up deal.

    Rates are per second of this process's CPU time, not of the wall clock: on a shared
    machine the process may wait for a core, and that wait is not the rules' cost. The wall
    time is kept beside it, and bounds the run when the machine is busy."""
    play_deal(game, random.Random(-1), **options)
    deals = moves = 0
    cpu, wall = time.process_time, time.perf_counter
    busy0, _ = machine_ticks()
    cpu0, wall0 = cpu(), wall()
    while True:
        moves += play_deal(game, random.Random(deals), **options)
        deals += 1
        elapsed = cpu() - cpu0
        if elapsed >= seconds or wall() - wall0 >= 3 * seconds:
            break
    wall_seconds = wall() - wall0
    other = (machine_ticks()[0] - busy0) / CLK_TCK - elapsed
    return {"deals": deals, "moves": moves, "cpu_seconds": elapsed,
            "wall_seconds": wall_seconds,
            # Cores' worth of other work on the machine meanwhile: noise.
            "other_cpu": max(0.0, other) / wall_seconds,
            "deals_per_s": deals / elapsed, "moves_per_s": moves / elapsed,
            "moves_per_deal": moves / deals}


def bare_step_seconds(steps: int = 500_000, repeats: int = 3) -> float:
    """Seconds per step of the bare baseline loop (one `rng.random()` call): the best of a
    few short timings, so a moment of noise from the machine does not inflate it."""
    rng = random.Random(0)
    clock = time.process_time
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        for _ in range(steps):
            rng.random()
        best = min(best, clock() - start)
    return best / steps


def counts(game_id: str) -> list[tuple[str, dict]]:
    """A row a count of players (Tarot's T18): the default count under the game's id, the
    others as `tarot3`, `tarot5`."""
    from schemas.registry import GAMES  # here, so bench/_deals_only.py imports no schemas

    game = GAMES[game_id].game
    return [(game_id if n == game.players else f"{game_id}{n}",
             {} if n == game.players else {"players": n}) for n in game.counts]


def run(seconds: float = 3.0, games: list[str] | None = None) -> dict:
    """Every count of each game (`counts`), then its variants that bench/ai.py plays
    (`durak4t`: four players with passing on, D21)."""
    from bench.ai import VARIANTS  # the AI's rows of a variant: Durak with passing on
    from schemas.registry import GAMES

    out: dict = {"seconds_per_game": seconds, "games": {}}
    wanted = games or list(GAMES)
    rows_of = [(row, g, options) for g in wanted for row, options in counts(g)]
    names = {row for row, _, _ in rows_of}
    rows_of += [(row, g, options) for row, (g, options) in VARIANTS.items()
                if g in wanted and row not in names]
    for row, game_id, options in rows_of:
        before = bare_step_seconds()
        figures = deal_rate(GAMES[game_id].game, seconds, **options)
        # Timed right beside the deals, before and after, in the same conditions.
        step = min(before, bare_step_seconds())
        bare_loop = step * figures["moves_per_deal"]  # one bare loop of the same length
        target = TARGETS.get(game_id)
        out["games"][row] = {
            "game": game_id,
            **figures,
            "target_deals_per_s": target,
            "meets_target": None if target is None else figures["deals_per_s"] >= target,
            "bare_step_ns": step * 1e9,
            "bare_loops_per_s": 1 / bare_loop,
            "deal_cost_in_bare_loops": 1 / bare_loop / figures["deals_per_s"],
        }
    for g in out["games"].values():
        default = out["games"].get(g["game"], g)
        # Each count within 25% of the default count's rate, measured in this run.
        g["vs_default_count"] = g["deals_per_s"] / default["deals_per_s"]
    return out


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["game", "deals/s", "target", "", "moves/s", "moves/deal", "bare step",
               "bare loops/s", "deal = x bare loops", "other CPU", "vs default count"]
    body = []
    for game_id, g in result["games"].items():
        target = g["target_deals_per_s"]
        body.append([
            game_id, f"{g['deals_per_s']:,.0f}",
            "-" if target is None else f">= {target:,}",
            "" if target is None else ("ok" if g["meets_target"] else "BELOW"),
            f"{g['moves_per_s']:,.0f}", f"{g['moves_per_deal']:.1f}",
            f"{g['bare_step_ns']:.0f} ns",
            f"{g['bare_loops_per_s']:,.0f}", f"{g['deal_cost_in_bare_loops']:.1f}",
            f"{g['other_cpu']:.0%}", f"{g['vs_default_count']:.2f}",
        ])
    return headers, body
