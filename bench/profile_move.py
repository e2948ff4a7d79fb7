"""Where one `POST /v1/games/durak/move` spends its time, in-process (not run by `make bench`):

    .venv/bin/python -m bench.profile_move [--requests N] [--top N]

1. the same request straight through the WSGI callable, as gunicorn calls it: the echo app
   (Flask's dispatch and nothing else) and the service (service/router.py's);
2. the view's steps timed one by one (they mirror service/api.py's `move`; if that view
   changes, change them too);
3. cProfile over N requests through the test client, by cumulative and by own time.

CPU time throughout, best of a few repeats.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time

import orjson

from bench import echo_app
from bench.http import MOVE_PATH, move_body
from schemas.registry import GAMES
from service.app import create_app


def wsgi_post(app, body: bytes) -> bytes:
    """`POST MOVE_PATH` as gunicorn would call the app, the answer's bytes."""
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": MOVE_PATH, "SCRIPT_NAME": "",
               "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000",
               "SERVER_PROTOCOL": "HTTP/1.1", "CONTENT_TYPE": "application/json",
               "CONTENT_LENGTH": str(len(body)), "HTTP_HOST": "127.0.0.1:8000",
               "wsgi.input": io.BytesIO(body), "wsgi.url_scheme": "http",
               "wsgi.errors": sys.stderr, "wsgi.multithread": False,
               "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0),
               "REMOTE_ADDR": "127.0.0.1"}
    answer = app(environ, lambda status, headers, exc_info=None: None)
    try:
        return b"".join(answer)
    finally:
        getattr(answer, "close", lambda: None)()


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

    print(f"1. one request straight through the WSGI callable ({len(body)} B body)")
    apps = {"echo": echo_app.create_app(), "service": create_app()}
    for name, app in apps.items():

        def post(app=app):
            return wsgi_post(app, body)
        assert post().startswith(b'{"state"' if name == "echo" else b'{"legal":true'), name
        print(f"   {name:26s} {best_us(post, 1000):8.1f} us")
    print()

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

    print(f"3. cProfile, {args.requests} requests straight through the WSGI callable")
    app = apps["service"]
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.requests):
        wsgi_post(app, body)
    profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
