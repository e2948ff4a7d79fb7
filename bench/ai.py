"""`--only ai`: how strong the AI levels are, how long a strong move takes, and
how many playouts a second the search runs.

Strength: seeded deals (`game.deal(random.Random(seed))`, seeds 0..N-1) played to their end
by two levels (Tarot also with 3 and 5 players, T18: `tarot3`, `tarot5`), the tested level in
one seat that rotates with the seed (`seed % players`) and the other level in every other
seat. Every move comes from `rules.ai.levels.choose` given the
acting seat's view, with an rng seeded per (deal, move). The strong level gets a fixed
number of playouts, `search.playout_count(game, view, budget_ms)` (what the budget gives),
and a deadline far away, so the moves, hence the figures, do not depend on how busy the
machine is; the moves whose search took longer than the service's deadline
(`DEADLINE_SHARE` of the budget) are counted, as those the service would have cut short
on this machine. The deals run in a pool of processes; `play_deal` is the unit of work.

Latency: POST /v1/games/{game}/ai-move, level strong, on states taken along seeded deals,
one request at a time against a real gunicorn (bench/server.py), connect to last byte; and
the in-process wall and CPU time of every strong move of the strength runs.

Playouts per second: from the same strong moves, playouts run / CPU time of the move (the
search's own overhead included: sampling worlds, listing candidates, allocating playouts).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

import orjson
from cardavia_client.stats import mean_ci, wilson

from bench import reference
from bench.load import CLK_TCK, exchange, machine_ticks, request_bytes
from bench.server import Gunicorn
from bench.traffic import percentile
from rules.ai import LEVELS, search
from rules.ai.levels import choose
from rules.game import Template
from rules.registry import ai_of
from schemas.registry import GAMES

# A game of the registry, or a Tarot variant: (the registry's game, its deal options, the
# keywords of Game.deal's `**options: Any`).
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "tarot3": ("tarot", {"players": 3}), "tarot5": ("tarot", {"players": 5}),
    # D16, D21: Durak for 3, 4 and 6 players, and 4 with passing on.
    "durak3": ("durak", {"players": 3}), "durak4": ("durak", {"players": 4}),
    "durak6": ("durak", {"players": 6}),
    "durak4t": ("durak", {"players": 4, "transfer": True})}
GAME_IDS = ("durak", "tarot", "ganjifa", *VARIANTS)
# A game's deal options beside a variant's: two-player Durak dealt as the table page deals
# it, with the history of bouts and the cards seen in each hand (API.md's `known`,
# rules/durak/history.py), which the strong level reads as a player at the table would.
# The cards dealt are the same; the other levels and players ignore both.
DEAL_OPTIONS: dict[str, dict[str, Any]] = {"durak": {"history": True, "known": True}}
PAIRINGS = (("strong", "random"), ("strong", "basic"), ("basic", "random"),
            ("strong", "greedy"), ("basic", "greedy"), ("strong", "club"), ("basic", "club"),
            ("strong", "highest"), ("basic", "highest"), ("strong", "standard"),
            ("basic", "standard"), ("strong", "mcts"), ("basic", "mcts"),
            ("strong", "expert"), ("basic", "expert"))
MAX_MOVES = 10_000  # a deal that runs longer is a bug in the rules
# The deadline handed to strong_move: far enough never to cut the fixed number of playouts.
NO_DEADLINE_MS = 3_600_000
# The targets: (figure, threshold, strict, text). A verdict compares the figure's
# point estimate with the threshold and says whether its 95% CI clears it.
TARGETS = {
    ("durak", "strong", "random"): ("rate_decided", 0.95, False, ">= 95% of decided"),
    ("durak", "strong", "basic"): ("rate_decided", 0.95, False, ">= 95% of decided"),
    ("tarot", "strong", "basic"): ("diff_mean", 25.0, False, ">= +25"),
    ("tarot3", "strong", "basic"): ("diff_mean", 45.0, False, ">= +45"),
    ("tarot5", "strong", "basic"): ("diff_mean", 25.0, False, ">= +25"),
    ("ganjifa", "strong", "basic"): ("win_share", 0.65, False, ">= 65%"),
    # Issue 38: against the outside players (bench/reference_durak.py).
    ("durak", "strong", "mcts"): ("rate_decided", 0.80, False, ">= 80% of decided"),
    ("durak", "strong", "expert"): ("rate_decided", 0.85, False, ">= 85% of decided"),
    ("durak", "basic", "expert"): ("rate_decided", 0.60, False, ">= 60% of decided"),
    ("ganjifa", "strong", "standard"): ("win_share", 0.92, False, ">= 92%"),
    ("tarot", "strong", "club"): ("diff_mean", 50.0, False, ">= +50"),
}


# -- one deal (runs in a pool worker) -----------------------------------------------------

def registry_id(game_id: str) -> str:
    """The game of the registry that plays `game_id` (a variant's base game)."""
    return VARIANTS[game_id][0] if game_id in VARIANTS else game_id


def seeded_deal(game_id: str, seed: int):
    """Deal `seed` of `game_id`, with the variant's deal options (T18's player count)."""
    game = GAMES[registry_id(game_id)].game
    options = VARIANTS[game_id][1] if game_id in VARIANTS else DEAL_OPTIONS.get(game_id, {})
    return game.deal(random.Random(seed), **options)


def move_rng(seed: int, move: int) -> random.Random:
    """The rng of the `move`-th move of deal `seed`: the same in every pairing."""
    return random.Random(seed * 100_003 + move)


def play_deal(game_id: str, seed: int, tested: str, other: str, budget_ms: int,
              before_move: Callable[[Any], None] | None = None) -> dict:
    """Deal `seed` played to its end: the `tested` level at seat `seed % players`, `other`
    at every other seat. Returns the settlement's figures for the tested seat and the
    timings of the strong moves (searched ones only: a forced move runs no playout).
    `before_move` is given the state before each move (bench/oracle.py's truth)."""
    game = GAMES[registry_id(game_id)].game
    cpu = time.process_time
    cpu_start = cpu()
    state = seeded_deal(game_id, seed)
    players = game.seats(state) if game_id in VARIANTS else game.players
    seat = seed % players
    levels = [other] * players
    levels[seat] = tested
    clock = time.perf_counter
    moves = forced = 0
    wall_ms: list[float] = []
    cpu_ms: list[float] = []
    playouts: list[int] = []
    while (to_act := game.to_act(state)) is not None:
        if moves >= MAX_MOVES:
            raise RuntimeError(f"{game_id} deal {seed} did not end after {MAX_MOVES} moves")
        if before_move is not None:
            before_move(state)
        view = game.observe(state, to_act)
        level = levels[to_act]
        rng = move_rng(seed, moves)
        if level == "strong":
            own = [m for m in game.legal_moves(state) if m.seat == to_act]
            n = search.playout_count(game, view, budget_ms)
            w0, c0 = clock(), cpu()
            move, _ = choose(game, view, "strong", rng, NO_DEADLINE_MS, playouts=n)
            w1, c1 = clock(), cpu()
            if len(own) > 1 or isinstance(own[0], Template):
                wall_ms.append((w1 - w0) * 1000)
                cpu_ms.append((c1 - c0) * 1000)
                playouts.append(n)
            else:
                forced += 1
        elif (registry_id(game_id), level) in reference.PLAYERS:
            move = reference.PLAYERS[registry_id(game_id), level](game, view, rng)
        else:
            move, _ = choose(game, view, level, rng, budget_ms)
        state = game.apply(state, move)
        moves += 1
    settlement = game.settlement(state)
    if settlement is None:  # a Game settles every deal whose to_act is None
        raise RuntimeError(f"{game_id} deal {seed} has no settlement at its end")
    out = {"seed": seed, "seat": seat, "moves": moves, "scores": settlement["scores"],
           "cpu_s": cpu() - cpu_start,
           "strong": {"wall_ms": wall_ms, "cpu_ms": cpu_ms, "playouts": playouts,
                      "forced": forced}}
    return out | settled(registry_id(game_id), settlement)


def settled(game: str, settlement: dict) -> dict:
    """What a game's figures read of a deal's settlement beside the scores."""
    if game == "durak":
        return {"outcome": settlement["outcome"]}
    if game == "tarot":
        return {"annulled": settlement.get("annulled"), "taker": settlement.get("taker"),
                "made": settlement.get("made"),
                "partner": settlement.get("partner")}  # T22: the role of the tested seat
    return {"winners": settlement["winners"]}


# -- figures of one pairing -------------------------------------------------------------

def durak_figures(deals: list[dict]) -> dict:
    """D15: +1 for the winner, -1 for the durak, 0 and 0 for a draw."""
    wins = sum(d["scores"][d["seat"]] > 0 for d in deals)
    losses = sum(d["scores"][d["seat"]] < 0 for d in deals)
    n = len(deals)
    decided = wins + losses
    return {"deals": n, "wins": wins, "losses": losses, "draws": n - decided,
            "rate_decided": wins / decided if decided else None,
            "ci_decided": wilson(wins, decided),
            "rate_all": wins / n if n else None, "ci_all": wilson(wins, n)}


def tarot_figures(deals: list[dict]) -> dict:
    """Per deal: the tested seat's score, the mean of the three others', the difference.
    Annulled deals (T3: all passed, or a petit sec at the deal) score 0 for every seat and
    stay in the means; they are counted."""
    tested, others, diffs = [], [], []
    for d in deals:
        s = d["scores"]
        mine = s[d["seat"]]
        rest = (sum(s) - mine) / (len(s) - 1)
        tested.append(mine)
        others.append(rest)
        diffs.append(mine - rest)
    diff_mean, diff_ci = mean_ci(diffs)
    tested_mean, tested_ci = mean_ci(tested)
    took = [d for d in deals if d["taker"] == d["seat"]]
    return {"deals": len(deals),
            "annulled_all_pass": sum(d["annulled"] == "all_pass" for d in deals),
            "annulled_petit_sec": sum(d["annulled"] == "petit_sec" for d in deals),
            "tested_took": len(took), "tested_made": sum(bool(d["made"]) for d in took),
            "tested_mean": tested_mean, "tested_ci": tested_ci,
            "other_mean": sum(others) / len(others) if others else None,
            "diff_mean": diff_mean, "diff_ci": diff_ci}


def ganjifa_figures(deals: list[dict]) -> dict:
    """G9: every seat on the highest count wins, so two seats may share a win. The win
    share counts a sole win 1 and a shared win 1/2: the three seats' shares sum to 1, so
    an even player's is 1/3. Its CI is Wilson's on the fractional count (a shared win
    varies less than a coin, so the interval errs on the wide side)."""
    n = len(deals)
    sole = sum(d["winners"] == [d["seat"]] for d in deals)
    shared = sum(d["seat"] in d["winners"] and len(d["winners"]) > 1 for d in deals)
    share = sole + sum(1 / len(d["winners"]) for d in deals
                       if d["seat"] in d["winners"] and len(d["winners"]) > 1)
    return {"deals": n, "sole_wins": sole, "shared_wins": shared,
            "losses": n - sole - shared,
            "win_share": share / n if n else None, "ci_share": wilson(share, n),
            "among_winners": (sole + shared) / n if n else None,
            "ci_among_winners": wilson(sole + shared, n), "baseline": 1 / 3}


FIGURES_OF = {"durak": durak_figures, "tarot": tarot_figures}
FIGURES = {"durak": durak_figures, "tarot": tarot_figures, "ganjifa": ganjifa_figures,
           **{v: FIGURES_OF[registry_id(v)] for v in VARIANTS}}
CI_OF = {"rate_decided": "ci_decided", "diff_mean": "diff_ci", "win_share": "ci_share"}


def verdict(figures: dict, target) -> dict | None:
    if target is None:
        return None
    key, threshold, strict, text = target
    value, ci = figures[key], figures[CI_OF[key]]
    if value is None:
        return {"target": text, "ok": None, "clear": False}
    ok = value > threshold if strict else value >= threshold
    clear = ci is not None and (ci[0] > threshold if ok else ci[1] < threshold)
    return {"target": text, "ok": ok, "clear": clear}


def timing_figures(deals: list[dict], budget_ms: int) -> dict:
    """The strong moves' in-process times and playout rate over these deals."""
    wall = [w for d in deals for w in d["strong"]["wall_ms"]]
    cpu = [c for d in deals for c in d["strong"]["cpu_ms"]]
    playouts = [p for d in deals for p in d["strong"]["playouts"]]
    deadline = budget_ms * search.DEADLINE_SHARE
    # The first searched move of each deal: playouts from (nearly) the whole deal.
    first = [(d["strong"]["playouts"][0], d["strong"]["cpu_ms"][0]) for d in deals
             if d["strong"]["playouts"]]
    return {"searched_moves": len(wall),
            "forced_moves": sum(d["strong"]["forced"] for d in deals),
            "wall_ms_p50": percentile(wall, 50), "wall_ms_p99": percentile(wall, 99),
            "wall_ms_max": max(wall, default=None),
            "cpu_ms_p50": percentile(cpu, 50), "cpu_ms_p99": percentile(cpu, 99),
            "deadline_ms": deadline,
            "over_deadline": sum(w > deadline for w in wall),
            "playouts_per_move": sum(playouts) / len(playouts) if playouts else None,
            "playouts": sum(playouts), "cpu_s": sum(cpu) / 1000, "wall_s": sum(wall) / 1000,
            "playouts_per_cpu_s": per_second(sum(playouts), sum(cpu)),
            "playouts_per_wall_s": per_second(sum(playouts), sum(wall)),
            "first_move_playouts_per_cpu_s": per_second(sum(p for p, _ in first),
                                                        sum(c for _, c in first))}


def per_second(count: float, ms: float) -> float | None:
    """`count` a second of `ms` milliseconds; None for none."""
    return count / ms * 1000 if ms else None


# -- the strength runs ------------------------------------------------------------------

def plays(game_id: str, level: str) -> bool:
    """Whether `level` plays `game_id`: the AI's levels play every game, a reference
    player (bench/reference.py) the games it is written for (some only the default
    deal)."""
    key = (registry_id(game_id), level)
    return level in LEVELS or (key in reference.PLAYERS
                               and game_id in reference.ONLY.get(key, (game_id,)))


def run_pairing(pool: ProcessPoolExecutor, game_id: str, tested: str, other: str,
                deals: int, budget_ms: int, procs: int, first_seed: int = 0) -> dict:
    label = f"{game_id} {tested} vs {other}"
    print(f"  {label}: {deals} deals…", flush=True)
    busy0, _ = machine_ticks()
    cpu0 = time.process_time()
    start = time.perf_counter()
    results: list[dict] = []
    step = max(1, deals // 10)
    pending = {pool.submit(play_deal, game_id, seed, tested, other, budget_ms)
               for seed in range(first_seed, first_seed + deals)}
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for f in done:
            results.append(f.result())
            if len(results) % step == 0 and len(results) < deals:
                print(f"    {len(results)}/{deals} deals, {time.perf_counter() - start:.0f} s",
                      flush=True)
    elapsed = time.perf_counter() - start
    results.sort(key=lambda d: d["seed"])
    ours = sum(d["cpu_s"] for d in results) + time.process_time() - cpu0
    other_cpu = max(0.0, (machine_ticks()[0] - busy0) / CLK_TCK - ours) / elapsed
    figures = FIGURES[game_id](results)
    out = {"tested": tested, "other": other, "seconds": elapsed, "procs": procs,
           "first_seed": first_seed,
           "other_cpu": other_cpu, **figures,
           "verdict": verdict(figures, TARGETS.get((game_id, tested, other))),
           "timing": timing_figures(results, budget_ms) if "strong" in (tested, other)
           else None,
           # Per deal, without the per-move timings.
           "per_deal": [{k: v for k, v in d.items() if k != "strong"} for d in results]}
    print(f"  {label}: done in {elapsed:.0f} s ({other_cpu:.0%} other CPU)", flush=True)
    return out


# -- latency over HTTP ------------------------------------------------------------------

def decision_states(game_id: str, count: int, per_deal: int = 10) -> list:
    """`count` states where the seat to act has a choice, taken at evenly spaced points
    along deals seeds 0, 1, 2… played by the basic level in every seat."""
    game = GAMES[registry_id(game_id)].game
    states: list = []
    seed = 0
    while len(states) < count:
        state = seeded_deal(game_id, seed)
        found = []
        k = 0
        while (to_act := game.to_act(state)) is not None:
            own = [m for m in game.legal_moves(state) if m.seat == to_act]
            if len(own) > 1 or isinstance(own[0], Template):
                found.append(state)
            move, _ = choose(game, game.observe(state, to_act), "basic", move_rng(seed, k),
                             200)
            state = game.apply(state, move)
            k += 1
        take = min(per_deal, len(found), count - len(states))
        states += [found[(2 * i + 1) * len(found) // (2 * take)] for i in range(take)]
        seed += 1
    return states


def http_latency(requests_per_game: int, budget_ms: int, games: list[str],
                 warmup: int = 3) -> dict:
    """One strong ai-move at a time against a real gunicorn, as `make serve` runs it."""
    bodies = {}
    for g in games:
        schemas = GAMES[registry_id(g)]
        bodies[g] = [request_bytes(f"/v1/games/{registry_id(g)}/ai-move", orjson.dumps(
            {"state": schemas.dump_state(s), "level": "strong", "budget_ms": budget_ms,
             "seed": i})) for i, s in enumerate(decision_states(g, requests_per_game))]
    out: dict = {"budget_ms": budget_ms, "target_ms": budget_ms + 30, "games": {}}
    with Gunicorn("service.app:create_app()", workers=2) as server:
        out["workers"] = server.workers
        for g in games:
            latencies, server_ms, errors = [], [], []
            for i, data in enumerate(bodies[g][:warmup] + bodies[g]):
                start = time.perf_counter()
                try:
                    raw = exchange(server.port, data, timeout=30)
                except OSError as e:
                    errors.append(repr(e))
                    continue
                elapsed = (time.perf_counter() - start) * 1000
                head, _, body = raw.partition(b"\r\n\r\n")
                if not head.startswith(b"HTTP/1.1 200"):
                    errors.append(raw[:200].decode(errors="replace"))
                    continue
                answer = orjson.loads(body)
                if answer.get("level") != "strong":
                    errors.append(f"level {answer.get('level')!r}")
                    continue
                if i >= warmup:
                    latencies.append(elapsed)
                    server_ms.append(answer["elapsed_ms"])
            p99 = percentile(latencies, 99)
            out["games"][g] = {
                "requests": len(latencies), "errors": len(errors),
                "first_error": errors[0] if errors else None,
                "p50_ms": percentile(latencies, 50), "p99_ms": p99,
                "max_ms": max(latencies, default=None),
                "server_p50_ms": percentile(server_ms, 50),
                "server_p99_ms": percentile(server_ms, 99),
                # p99 is None exactly when there is no latency
                "ok": p99 is not None and not errors and p99 <= budget_ms + 30}
            print(f"  HTTP {g}: {len(latencies)} requests, p99 "
                  f"{_ms(out['games'][g]['p99_ms'])}", flush=True)
    return out


# -- the whole part ---------------------------------------------------------------------

def run(deals: int = 200, budget_ms: int = 200, procs: int = 2,
        games: list[str] | None = None, http_requests: int = 60,
        pairings: list[str] | None = None, first_seed: int = 0) -> dict:
    """`pairings` names some of PAIRINGS as "tested:other" (default: all of them, those
    with a reference player only for its games); the deals are seeds `first_seed` on."""
    games = list(games or GAME_IDS)
    chosen = [tuple(p.split(":")) for p in pairings] if pairings else list(PAIRINGS)
    out: dict = {"deals_per_pairing": deals, "budget_ms": budget_ms, "procs": procs,
                 "deadline_ms": budget_ms * search.DEADLINE_SHARE, "games": {}}
    if http_requests:
        print(f"HTTP latency: {http_requests} strong ai-move requests per game, one at a "
              "time", flush=True)
        out["http"] = http_latency(http_requests, budget_ms, games)
    print(f"Strength: {deals} deals per pairing, {procs} processes", flush=True)
    pool = ProcessPoolExecutor(max_workers=procs)
    try:
        for g in games:
            out["games"][g] = {f"{t}_vs_{o}": run_pairing(pool, g, t, o, deals, budget_ms,
                                                          procs, first_seed)
                               for t, o in chosen if plays(g, t) and plays(g, o)}
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return out


# -- tables -----------------------------------------------------------------------------

def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _ci(ci, pct: bool = True) -> str:
    if ci is None:
        return "-"
    return f"{ci[0]:.1%}–{ci[1]:.1%}" if pct else f"{ci[0]:+.1f} – {ci[1]:+.1f}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f}"


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f} ms"


def _verdict(v: dict | None) -> str:
    if v is None:
        return ""
    if v["ok"] is None:
        return "n/a"
    word = "ok" if v["ok"] else "BELOW"
    return f"{word} ({'CI clear' if v['clear'] else 'within CI'})"


def _target(v: dict | None) -> str:
    return "-" if v is None else v["target"]


def strength_rows(game_id: str, pairings: dict) -> tuple[list[str], list[list[str]]]:
    body = []
    if registry_id(game_id) == "durak":
        headers = ["tested vs other", "deals", "W", "L", "D", "win/decided", "95% CI",
                   "win/all", "95% CI", "target", "verdict", "other CPU"]
        for key, p in pairings.items():
            v = p["verdict"]
            body.append([key.replace("_", " "), p["deals"], p["wins"], p["losses"],
                         p["draws"], _pct(p["rate_decided"]), _ci(p["ci_decided"]),
                         _pct(p["rate_all"]), _ci(p["ci_all"]), _target(v), _verdict(v),
                         f"{p['other_cpu']:.0%}"])
    elif registry_id(game_id) == "tarot":
        headers = ["tested vs other", "deals", "annulled pass/sec", "took (made)",
                   "mean tested", "95% CI", "mean other seat", "difference", "95% CI",
                   "target", "verdict", "other CPU"]
        for key, p in pairings.items():
            v = p["verdict"]
            body.append([key.replace("_", " "), p["deals"],
                         f"{p['annulled_all_pass']}/{p['annulled_petit_sec']}",
                         f"{p['tested_took']} ({p['tested_made']})",
                         _num(p["tested_mean"]), _ci(p["tested_ci"], pct=False),
                         _num(p["other_mean"]), _num(p["diff_mean"]),
                         _ci(p["diff_ci"], pct=False), _target(v), _verdict(v),
                         f"{p['other_cpu']:.0%}"])
    else:
        headers = ["tested vs other", "deals", "sole wins", "shared", "win share",
                   "95% CI", "among winners", "baseline", "target", "verdict", "other CPU"]
        for key, p in pairings.items():
            v = p["verdict"]
            body.append([key.replace("_", " "), p["deals"], p["sole_wins"],
                         p["shared_wins"], _pct(p["win_share"]), _ci(p["ci_share"]),
                         _pct(p["among_winners"]), "33.3%", _target(v), _verdict(v),
                         f"{p['other_cpu']:.0%}"])
    return headers, [[str(c) for c in row] for row in body]


def timing_rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["game", "pairing", "searched moves", "forced", "wall p50", "wall p99",
               "wall max", "CPU p50", "CPU p99", f"> {result['deadline_ms']:g} ms wall",
               "playouts/move"]
    body = []
    for g, pairings in result["games"].items():
        for key, p in pairings.items():
            t = p["timing"]
            if t is None or key.startswith("basic"):
                continue
            body.append([g, key.replace("_", " "), t["searched_moves"], t["forced_moves"],
                         _ms(t["wall_ms_p50"]), _ms(t["wall_ms_p99"]), _ms(t["wall_ms_max"]),
                         _ms(t["cpu_ms_p50"]), _ms(t["cpu_ms_p99"]),
                         f"{t['over_deadline']} ({t['over_deadline'] / t['searched_moves']:.0%})"
                         if t["searched_moves"] else "-",
                         "-" if t["playouts_per_move"] is None
                         else f"{t['playouts_per_move']:.0f}"])
    return headers, [[str(c) for c in row] for row in body]


def playout_rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["game", "playouts", "CPU s", "playouts/CPU s", "playouts/wall s",
               "first move of a deal /CPU s", "search.RATE assumes /s"]
    body = []
    for g, pairings in result["games"].items():
        ts = [p["timing"] for key, p in pairings.items() if key.startswith("strong")]
        n = sum(t["playouts"] for t in ts)
        cpu = sum(t["cpu_s"] for t in ts)
        wall = sum(t["wall_s"] for t in ts)
        firsts = [t["first_move_playouts_per_cpu_s"] for t in ts
                  if t["first_move_playouts_per_cpu_s"]]
        body.append([g, f"{n:,}", f"{cpu:.1f}", f"{n / cpu:,.0f}" if cpu else "-",
                     f"{n / wall:,.0f}" if wall else "-",
                     f"{sum(firsts) / len(firsts):,.0f}" if firsts else "-",
                     # RATE is playouts per ms of budget from a fresh deal, about half of
                     # what one core runs.
                     f"~{2 * fresh_rate(g) * 1000:,.0f}"])
    return headers, body


def fresh_rate(game_id: str) -> float:
    """The AI's rate (playouts per ms of budget) on a fresh deal of `game_id`: the compiled
    core's where it plays the deal."""
    game = GAMES[registry_id(game_id)].game
    ai = ai_of(game)
    state = seeded_deal(game_id, 0)
    seat = game.to_act(state)
    if seat is None:
        raise RuntimeError(f"a fresh deal of {game_id} has no seat to act")
    view = game.observe(state, seat)
    core = search.compiled(game, view)
    rate, scale = (ai.rate, ai.rate_scale) if core is None else (core.rate, core.rate_scale)
    return rate if scale is None else rate * scale(view)


def http_rows(h: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["game", "requests", "errors", "p50", "p99", "max", "server p50",
               "server p99", "target p99", "verdict"]
    body = []
    for g, r in h["games"].items():
        body.append([g, r["requests"], r["errors"], _ms(r["p50_ms"]), _ms(r["p99_ms"]),
                     _ms(r["max_ms"]), _ms(r["server_p50_ms"]), _ms(r["server_p99_ms"]),
                     f"<= {h['target_ms']} ms", "ok" if r["ok"] else "BELOW"])
    return headers, [[str(c) for c in row] for row in body]
