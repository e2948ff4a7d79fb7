"""`--only replay`: moves checked per second through `POST /replay` of whole deals,
against the same moves sent one by one to `POST /move`, in one run against one gunicorn.

The deals are played in process with seeded random moves (a template move completed at
random), and every request body is encoded before the clock starts: the replay side sends
one `{"deal": {"deck": …}, "moves": […]}` per deal, the move side one `{"state", "move"}`
per move, the state before it as the service would have answered it. One client thread
sends one request at a time over a new connection (bench/load.py's exchange), to a single
sync worker, so both sides pay the same per-request costs; rounds alternate move, replay,
move, replay… (the replay side sends each deal REPEAT times); the ratio is the median of
the rounds' ratios.
"""

from __future__ import annotations

import random
import statistics
import time

import orjson

from bench.http import answer_json
from bench.load import exchange, request_bytes
from bench.server import Gunicorn
from rules.ai import complete
from schemas.registry import GAMES

SERVICE_APP = "service.app:create_app()"
TARGET = {"durak": 20.0}  # replay/move >= 20x for Durak; Tarot and Ganjifa beside it
# A round of the replay side sends each deal this many times, so that it lasts long enough
# to time (a whole deal is answered in a few milliseconds).
REPEAT = 10


def bodies(game_id: str, deals: int, seed: int = 0) -> tuple[list[bytes], list[bytes], int]:
    """The /replay requests (one per deal) and the /move requests (one per move) of `deals`
    seeded random deals, and the number of moves."""
    schemas = GAMES[game_id]
    game = schemas.game
    replay_path, move_path = f"/v1/games/{game_id}/replay", f"/v1/games/{game_id}/move"
    replays, moves = [], []
    for i in range(deals):
        rng = random.Random(seed + i)
        order = game.shuffle(rng)
        state = game.deal(rng, order)
        played = []
        while game.to_act(state) is not None:
            move = complete(rng.choice(game.legal_moves(state)), rng)
            wire = schemas.dump_move(move)
            played.append(wire)
            moves.append(request_bytes(move_path, orjson.dumps(
                {"state": schemas.dump_state(state), "move": wire})))
            state = game.apply(state, move)
        deck = [game.deck.codes[c] for c in order]
        replays.append(request_bytes(replay_path, orjson.dumps(
            {"deal": {"deck": deck}, "moves": played})))
    return replays, moves, len(moves)


def timed(port: int, requests: list[bytes]) -> tuple[float, int]:
    """Seconds to send every request in turn, and how many answers said the moves were legal."""
    legal = 0
    started = time.perf_counter()
    for data in requests:
        legal += answer_json(exchange(port, data))["legal"] is True
    return time.perf_counter() - started, legal


def run(deals: int = 20, rounds: int = 3, games: list[str] | None = None) -> dict:
    started = time.perf_counter()
    out: dict = {"deals_per_game": deals, "rounds": rounds, "workers": 1, "games": {}}
    with Gunicorn(SERVICE_APP) as server:
        for game_id in games or list(GAMES):
            replays, moves, count = bodies(game_id, deals)
            timed(server.port, replays[:2] + moves[:50])  # warm-up: not counted
            samples: dict[str, list[float]] = {"move": [], "replay": []}
            for _ in range(rounds):
                for side, requests, times in (("move", moves, 1),
                                              ("replay", replays * REPEAT, REPEAT)):
                    seconds, legal = timed(server.port, requests)
                    if legal != len(requests):
                        raise RuntimeError(f"{game_id} {side}: {len(requests) - legal} "
                                           "requests were not answered legal")
                    samples[side].append(count * times / seconds)
            # The ratio of each round's pair, then their median: other work on the machine
            # drifts over a run, and a pair's two sides run back to back.
            ratio = statistics.median(r / m for r, m in zip(
                samples["replay"], samples["move"], strict=True))
            target = TARGET.get(game_id)
            out["games"][game_id] = {
                "moves": count, "move_moves_per_s": statistics.median(samples["move"]),
                "replay_moves_per_s": statistics.median(samples["replay"]),
                "ratio": ratio, "target": target,
                "meets_target": None if target is None else ratio >= target,
                "replay_body_bytes": sum(map(len, replays)) / len(replays),
                "samples": samples,
            }
    out["seconds"] = time.perf_counter() - started
    return out


def rows(result: dict) -> tuple[list[str], list[list[str]]]:
    headers = ["game", "moves", "/move moves/s", "/replay moves/s", "replay/move (median)",
               "target", "rounds (replay/move)"]
    body = []
    for game_id, g in result["games"].items():
        verdict = "" if g["target"] is None else \
            f">= {g['target']:g}: {'ok' if g['meets_target'] else 'BELOW'}"
        body.append([game_id, str(g["moves"]), f"{g['move_moves_per_s']:,.0f}",
                     f"{g['replay_moves_per_s']:,.0f}", f"{g['ratio']:.1f}x", verdict,
                     " ".join(f"{r / m:.1f}" for r, m in zip(
                         g["samples"]["replay"], g["samples"]["move"], strict=True))])
    return headers, body
