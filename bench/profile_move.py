"""Where one `POST /v1/games/durak/move` spends its time, in-process (not run by `make bench`):

    .venv/bin/python -m bench.profile_move [--requests N] [--top N]

1. the same request through Flask's test client, for the service and for the echo app: the
   difference is what the service's view adds;
2. the view's steps timed one by one (they mirror service/api.py's `move`; if that view
   changes, change them too);
3. cProfile over N requests through the test client, by cumulative and by own time.

CPU time throughout, best of a few repeats.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import orjson

from bench import echo_app
from bench.http import MOVE_PATH, move_body
from schemas.registry import GAMES
from service.app import create_app


def best_us(fn, n: int = 1000, repeats: int = 5) -> float:
    fn()
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, time.process_time() - start)
    return best / n * 1e6


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.profile_move", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--top", type=int, default=25)
    args = p.parse_args(argv)
    body = move_body()

    print(f"1. one request through Flask's test client ({len(body)} B body)")
    clients = {"service": create_app().test_client(), "echo": echo_app.create_app().test_client()}
    whole = {}
    for name, client in clients.items():
        def post(client=client):
            return client.post(MOVE_PATH, data=body, content_type="application/json")
        assert post().status_code == 200
        whole[name] = best_us(post, 500)
        print(f"   {name:8s} {whole[name]:8.1f} us")
    print(f"   {'view':8s} {whole['service'] - whole['echo']:8.1f} us  (service - echo)\n")

    print("2. the view's steps")
    schemas = GAMES["durak"]
    game = schemas.game
    data = orjson.loads(body)
    loaded = schemas.requests["move"].load(data)
    state = game.build(**loaded["state"])
    move = loaded["move"]
    new, events = game.play(state, move)
    answer = {"legal": True, "state": schemas.dump_state(new),
              "events": [schemas.dump_event(e) for e in events],
              "settlement": game.settlement(new)}
    steps = {
        "orjson.loads(body)": lambda: orjson.loads(body),
        "schema load (state + move)": lambda: schemas.requests["move"].load(data),
        "game.build (validate state)": lambda: game.build(**loaded["state"]),
        "game.verify": lambda: game.verify(state, move),
        "game.play": lambda: game.play(state, move),
        "dump_state": lambda: schemas.dump_state(new),
        "dump_event x events": lambda: [schemas.dump_event(e) for e in events],
        "game.settlement": lambda: game.settlement(new),
        "orjson.dumps(answer)": lambda: orjson.dumps(answer),
    }
    timed = {label: best_us(fn, 2000) for label, fn in steps.items()}
    total = sum(timed.values())
    for label, us in timed.items():
        print(f"   {label:30s} {us:8.1f} us  {us / total:5.1%}")
    print(f"   {'sum':30s} {total:8.1f} us\n")

    print(f"3. cProfile, {args.requests} requests through the test client")
    client = clients["service"]
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.requests):
        client.post(MOVE_PATH, data=body, content_type="application/json")
    profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
