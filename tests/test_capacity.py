"""A gunicorn runs at most CARDAVIA_AI_CONCURRENCY searches at once among its workers, and
at most CARDAVIA_HEAVY_CONCURRENCY large sessions and replays; past that, 503 problem+json with
Retry-After, in the request's language."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator

import orjson
import pytest
import requests

from rules.ai import complete
from schemas.registry import GAMES
from service.app import TestingConfig, create_app
from service.capacity import HEAVY_BYTES, AiBusy, SharedSlots, heavy_limit
from service.i18n import CATALOGUES
from tests.support.servers import serving
from tests.test_tarot_session import random_sheet

BODY = {"state": None, "level": "strong", "budget_ms": 20, "seed": 1}


@pytest.fixture(scope="module")
def app():
    """A worker's app with one AI slot, which a test holds as a search would."""
    return create_app({"TESTING": True, "AI_CONCURRENCY": 1})


@pytest.fixture(scope="module")
def ai_state(app):
    return app.test_client().post("/v1/games/durak/deal", json={"seed": 1}).get_json()["state"]


def test_ai_move_is_answered_503_with_retry_after_while_every_slot_searches(app, ai_state):
    client = app.test_client()
    with app.extensions["cardavia.ai_slots"].slot():  # the worker's one search under way
        busy = client.post("/v1/games/durak/ai-move", json={**BODY, "state": ai_state})
    assert busy.status_code == 503
    assert busy.mimetype == "application/problem+json"
    assert int(busy.headers["Retry-After"]) >= 1
    problem = busy.get_json()
    assert (problem["type"], problem["status"]) == ("/problems/ai-busy", 503)
    # The slot is back once the search ends.
    assert client.post("/v1/games/durak/ai-move", json={**BODY, "state": ai_state}).status_code \
        == 200


def test_the_busy_problem_speaks_the_request_language(app, ai_state):
    with app.extensions["cardavia.ai_slots"].slot():
        busy = app.test_client().post("/v1/games/durak/ai-move", json={**BODY, "state": ai_state},
                                      headers={"Accept-Language": "uk"})
    assert busy.headers["Content-Language"] == "uk"
    assert busy.get_json()["title"] == CATALOGUES["uk"]["problem.ai-busy.title"]


def test_a_bad_request_is_still_a_422_when_the_ai_is_busy(app):
    # The slot is taken only for the search itself: validation answers first.
    with app.extensions["cardavia.ai_slots"].slot():
        bad = app.test_client().post("/v1/games/durak/ai-move", json={"state": {}})
    assert bad.status_code == 422


def test_other_endpoints_ignore_the_ai_slots(app, ai_state):
    with app.extensions["cardavia.ai_slots"].slot():
        client = app.test_client()
        assert client.get("/healthz").status_code == 200
        assert client.post("/v1/games/durak/legal-moves", json={"state": ai_state}).status_code \
            == 200


def test_the_limit_counts_concurrent_searches():
    app = create_app({"AI_CONCURRENCY": 2})
    slots = app.extensions["cardavia.ai_slots"]
    with slots.slot(), slots.slot(), pytest.raises(AiBusy), slots.slot():
        pass
    with slots.slot():  # released on the way out
        pass


@pytest.mark.parametrize(("settings", "limit"), [({}, 2), ({"WEB_CONCURRENCY": "4"}, 4),
                                                 ({"CARDAVIA_AI_CONCURRENCY": "1"}, 1)])
def test_the_ai_limit_is_one_search_a_worker_unless_set(monkeypatch, settings, limit):
    monkeypatch.delenv("CARDAVIA_AI_CONCURRENCY", raising=False)
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    for key, value in settings.items():
        monkeypatch.setenv(key, value)
    assert create_app(TestingConfig).extensions["cardavia.ai_slots"].limit == limit


@pytest.mark.parametrize("limit", ["0", "-1", "many"])
def test_a_limit_below_one_is_an_error_at_start(monkeypatch, limit):
    monkeypatch.setenv("CARDAVIA_AI_CONCURRENCY", limit)
    with pytest.raises(ValueError, match="CARDAVIA_AI_CONCURRENCY"):
        create_app()


@pytest.mark.parametrize("level", ["random", "basic"])
def test_random_and_basic_never_wait_for_a_search_slot(app, ai_state, level):
    """Only a search holds a slot (issue 40.1): with every slot searching, a level that
    answers in a millisecond or two is still answered."""
    with app.extensions["cardavia.ai_slots"].slot():
        r = app.test_client().post("/v1/games/durak/ai-move",
                                   json={**BODY, "state": ai_state, "level": level})
    assert r.status_code == 200 and r.get_json()["level"] == level


def evening(deals: int) -> bytes:
    rng = random.Random(deals)
    return orjson.dumps({"players": ["a", "b", "c", "d"],
                         "deals": [random_sheet(rng, 4) for _ in range(deals)]})


def test_a_process_killed_holding_slots_gives_them_back():
    """A worker killed while it holds a slot (gunicorn's timeout kills a stuck worker, the
    OOM killer any) gives it back: the kernel drops the dead process's record locks. A
    semaphore stayed taken, and as many kills as slots later the pool refused every
    search until restarted. A process's threads take distinct slots, as many as there
    are."""
    slots = SharedSlots(2, "test-slots")
    ready, said = os.pipe()
    child = os.fork()
    if child == 0:  # a worker that takes both slots, then is killed
        os.write(said, b"1" if slots.acquire() and slots.acquire() else b"0")
        time.sleep(60)
        os._exit(0)
    try:
        assert os.read(ready, 1) == b"1"
        assert not slots.acquire()
    finally:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    got: list[bool] = []
    threads = [threading.Thread(target=lambda: got.append(slots.acquire())) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert got == [True, True]
    assert not slots.acquire()
    slots.release()
    assert slots.acquire()


@contextlib.contextmanager
def all_taken(slots: SharedSlots) -> Iterator[None]:
    assert all(slots.acquire() for _ in range(slots.limit))
    try:
        yield
    finally:
        for _ in range(slots.limit):
            slots.release()


def test_a_large_session_or_replay_waits_for_no_slot_but_takes_one(app):
    """Issue 40.3: with every slot for large bodies taken, a session or replay over
    HEAVY_BYTES is a 503 with Retry-After, at once, in any case of its path; a small one
    and every other endpoint are answered."""
    big, small = evening(300), evening(5)
    assert len(big) > HEAVY_BYTES > len(small)
    client = app.test_client()
    heavy = app.extensions["cardavia.heavy"]
    with all_taken(heavy.slots):
        for path in ("/v1/games/tarot/session", "/v1/games/TAROT/Session/",
                     "/v1/games/tarot/replay"):
            busy = client.post(path, data=big, content_type="application/json",
                               headers={"Accept-Language": "hu"})
            assert busy.status_code == 503, (path, busy.get_json())
            assert busy.headers["Retry-After"] == "1"
            assert busy.get_json()["type"] == "/problems/unavailable"
            assert busy.headers["Content-Language"] == "hu"
            assert busy.headers["X-Request-ID"] and busy.headers["Vary"]
        assert client.post("/v1/games/tarot/session", data=small,
                           content_type="application/json").status_code == 200
        assert client.get("/healthz").status_code == 200
    assert client.post("/v1/games/tarot/session", data=big,
                       content_type="application/json").status_code == 200


def ganjifa_replay(app, include: str, pad: int = 0) -> bytes:
    """A whole seeded Ganjifa deal to replay (some 5 KB; `pad` spaces more): with `include:
    all` its answer is every state, some 370 KB, 18 ms of a worker."""
    client = app.test_client()
    dealt = client.post("/v1/games/ganjifa/deal", json={"seed": 5}).get_json()["state"]
    schemas = GAMES["ganjifa"]
    state = schemas.game.build(**schemas.requests["state"].load({"state": dealt})["state"])
    rng, moves = random.Random(3), []
    while legal := schemas.game.legal_moves(state):
        move = complete(rng.choice(legal), rng)
        moves.append(schemas.dump_move(move))
        state = schemas.game.apply(state, move)
    return orjson.dumps({"deal": {"seed": 5}, "moves": moves, "include": include}) + b" " * pad


def test_a_replay_of_every_state_takes_a_slot_whatever_its_size(app):
    """Issue 40.3: a replay's cost is its answer's as much as its body's. Eight
    connections of 5 KB Ganjifa replays with `include: all` (each answering ~370 KB)
    took another address's /move from p50 13 ms to 116 ms through the stack, none
    refused: such a replay takes a heavy slot too. A large one takes one slot, not two."""
    client = app.test_client()
    every, final = ganjifa_replay(app, "all"), ganjifa_replay(app, "final")
    assert len(every) <= HEAVY_BYTES
    heavy = app.extensions["cardavia.heavy"]
    with all_taken(heavy.slots):
        busy = client.post("/v1/games/ganjifa/replay", data=every,
                           content_type="application/json")
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
        assert busy.get_json()["type"] == "/problems/unavailable"
        assert client.post("/v1/games/ganjifa/replay", data=final,
                           content_type="application/json").status_code == 200
    large = ganjifa_replay(app, "all", pad=HEAVY_BYTES)
    for body in (every, large):
        r = client.post("/v1/games/ganjifa/replay", data=body, content_type="application/json")
        assert r.status_code == 200 and len(r.get_json()["states"]) > 40
    with all_taken(heavy.slots):  # every slot given back
        pass


@pytest.mark.parametrize(("settings", "limit"), [({}, 1), ({"WEB_CONCURRENCY": "4"}, 3),
                                                 ({"CARDAVIA_HEAVY_CONCURRENCY": "2"}, 2)])
def test_the_heavy_limit_is_the_workers_but_one_unless_set(monkeypatch, settings, limit):
    monkeypatch.delenv("CARDAVIA_HEAVY_CONCURRENCY", raising=False)
    monkeypatch.setenv("WEB_CONCURRENCY", "2")
    for key, value in settings.items():
        monkeypatch.setenv(key, value)
    assert heavy_limit({}) == limit


@pytest.mark.http
def test_the_workers_of_a_gunicorn_share_the_heavy_slots():
    """Two sync workers each serve one request at a time: a 503 among eight clients
    sending 300-deal evenings at once shows the one slot is shared between them."""
    body = evening(300)
    answers: Counter[int] = Counter()
    with serving() as base:
        def client() -> None:
            with requests.Session() as s:
                for _ in range(6):
                    r = s.post(f"{base}/v1/games/tarot/session", data=body, timeout=60,
                               headers={"Content-Type": "application/json"})
                    answers[r.status_code] += 1
        threads = [threading.Thread(target=client) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert set(answers) == {200, 503}, answers


def ai_moves(base: str, state: dict, tries: int) -> Counter[int]:
    statuses: Counter[int] = Counter()
    for _ in range(tries):
        r = requests.post(f"{base}/v1/games/durak/ai-move", json={**BODY, "state": state},
                          timeout=30)
        statuses[r.status_code] += 1
    return statuses


@pytest.mark.parametrize("limit", [1, 2])
def test_the_ai_pools_workers_share_its_search_slots(ai_state, limit):
    """Issue 40.1: the AI pool's slots are counted among its two workers, not in each: with
    one slot held by a long search, every other search is turned away whichever worker
    takes its connection; with two, every one is served, the busy worker's included (the
    kernel picks the worker, so a dozen tries meet both)."""
    long = {**BODY, "state": ai_state, "budget_ms": 10000}  # API.md's longest
    with serving(CARDAVIA_POOL="ai", CARDAVIA_AI_CONCURRENCY=str(limit)) as base:
        def search() -> None:  # again while a quick search below holds the one slot
            while requests.post(f"{base}/v1/games/durak/ai-move", json=long,
                                timeout=60).status_code == 503:
                time.sleep(0.01)

        hog = threading.Thread(target=search)
        hog.start()
        try:
            if limit == 1:
                for _ in range(100):  # until the long search holds the slot
                    if ai_moves(base, ai_state, 1)[503]:
                        break
                assert ai_moves(base, ai_state, 12) == {503: 12}
            else:
                assert ai_moves(base, ai_state, 12) == {200: 12}
        finally:
            hog.join()
