"""Each client's budget of search time (issue 40.1, service/budget.py): a strong search
costs its client the budget_ms it asks from a bucket that refills at a steady rate, shared
by every worker of a gunicorn; past it, 429 with Retry-After, another client still served.
The client is the peer's address, or the X-Real-IP of a peer CARDAVIA_REAL_IP_FROM lists."""

from __future__ import annotations

import json
import multiprocessing
import os
import socket
import tempfile
import time
from collections import Counter
from unittest import mock

import pytest
import requests

from deploy.stack import Stack
from schemas.common import LONGEST_BUDGET_MS
from service.app import TestingConfig, create_app
from service.budget import (
    DEFAULT_BUCKET_MS,
    DEFAULT_PER_S,
    WAYS,
    Buckets,
    client_of,
    proxies_of,
    refilled,
)
from service.i18n import CATALOGUES
from tests.support.servers import serving, session_from

# A bucket of one longest search and a drip too slow to matter within a test: what a client
# may spend here is exactly the bucket, whatever the machine's pace.
SMALL = {"CARDAVIA_AI_CLIENT_BUDGET_MS": str(LONGEST_BUDGET_MS),
         "CARDAVIA_AI_CLIENT_BUDGET_PER_S": "1"}
COST = LONGEST_BUDGET_MS // 2  # two searches spend the bucket


class Clock:
    """Seconds that pass when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- the arithmetic ------------------------------------------------------------------------


def test_a_bucket_refills_at_its_rate_up_to_its_capacity():
    clock = Clock()
    buckets = Buckets(20_000, 200, clock=clock)
    assert buckets.take("a", 10_000) is None
    assert buckets.take("a", 10_000) is None
    assert buckets.take("a", 10_000) == 50  # 10,000 ms at 200 ms a second
    clock.now += 49
    assert buckets.take("a", 10_000) == 1  # 9,800 ms: one second short
    assert buckets.take("a", 9_800) is None  # a refusal took nothing
    clock.now += 3600  # an hour idle fills it up to its capacity, no further
    assert [buckets.take("a", 10_000), buckets.take("a", 10_000)] == [None, None]
    assert buckets.take("a", 1) == 1


def test_each_client_has_its_own_bucket_and_a_search_never_started_is_given_back():
    clock = Clock()
    buckets = Buckets(10_000, 100, clock=clock)
    assert buckets.take("a", 10_000) is None
    assert buckets.take("b", 10_000) is None  # a's spending is not b's
    assert buckets.take("a", 1_000) == 10
    buckets.give_back("a", 4_000)
    assert buckets.take("a", 4_000) is None
    buckets.give_back("b", 50_000)  # never past the capacity
    assert [buckets.take("b", 10_000), buckets.take("b", 1)] == [None, 1]


def test_the_time_counted_never_runs_backwards():
    assert refilled(5.0, 10.0, 9.0, 100.0, 1.0) == 5.0
    assert refilled(5.0, 10.0, 20.0, 100.0, 1.0) == 15.0
    assert refilled(95.0, 10.0, 20.0, 100.0, 1.0) == 100.0


def test_a_collision_is_counted_against_the_emptiest_entry_and_forgets_nothing():
    """One set of WAYS entries: a newcomer takes a free or refilled one; when every entry
    holds a client paying back, it is counted against the emptiest, and spends no more."""
    clock = Clock()
    buckets = Buckets(10_000, 100, sets=1, clock=clock)
    owners = [f"client {i}" for i in range(WAYS)]
    for i, owner in enumerate(owners):  # each paying back, the last the most
        assert buckets.take(owner, 1_000 * (i + 1)) is None
    assert buckets.take("newcomer", 7_000) == 10  # the emptiest holds 6,000
    assert buckets.take("newcomer", 6_000) is None  # from that entry, its owner's too
    assert buckets.take(owners[-1], 1) == 1
    assert [buckets.take(o, 1_000) for o in owners[:-1]] == [None] * (WAYS - 1)
    clock.now += 100  # every bucket full again: the newcomer's entry is its own
    assert buckets.take("newcomer", 10_000) is None
    assert buckets.take("newcomer", 1) == 1
    assert sum(buckets.take(o, 10_000) is None for o in owners) == WAYS - 1


def test_the_defaults_spare_a_table_and_hold_back_a_client_searching_without_end():
    """A table asking a 200 ms move every two seconds for an hour is never refused; a
    client asking a 10 s search as soon as its last one ends, or Retry-After says, searches
    a fifth of the hour (its first bucket aside) and is refused as often as served."""
    clock = Clock()
    buckets = Buckets(DEFAULT_BUCKET_MS, DEFAULT_PER_S, clock=clock)
    for _ in range(1800):
        assert buckets.take("table", 200) is None
        clock.now += 2
    start, searched, refused = clock.now, 0, 0
    while clock.now < start + 3600:
        wait = buckets.take("hog", LONGEST_BUDGET_MS)
        if wait is None:
            searched += 1
            clock.now += LONGEST_BUDGET_MS / 1000
        else:
            refused += 1
            clock.now += wait
    share = searched * LONGEST_BUDGET_MS / 1000 / 3600
    assert share <= DEFAULT_PER_S / 1000 + DEFAULT_BUCKET_MS / 1000 / 3600
    assert refused >= searched - DEFAULT_BUCKET_MS // LONGEST_BUDGET_MS


def spend(buckets: Buckets, client: str, times: int, cost: int) -> None:
    for _ in range(times):
        assert buckets.take(client, cost) is None


def test_processes_forked_after_the_table_share_it():
    """gunicorn forks its workers from the master that made the app: what one spends, the
    others see."""
    buckets = Buckets(10_000, 1, clock=Clock())
    child = multiprocessing.get_context("fork").Process(target=spend,
                                                        args=(buckets, "a", 2, COST))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    assert buckets.take("a", COST) is not None
    assert buckets.take("b", COST) is None


@pytest.mark.parametrize(("environ", "client"), [
    ({"REMOTE_ADDR": "198.51.100.7"}, "198.51.100.7"),
    # a forged header from a peer that is no proxy names nobody
    ({"REMOTE_ADDR": "198.51.100.7", "HTTP_X_REAL_IP": "203.0.113.1"}, "198.51.100.7"),
    # from the proxy, the client it names; itself when it names none, or nonsense
    ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": "203.0.113.1"}, "203.0.113.1"),
    ({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": "203.0.113.1, 1.2.3.4"}, "127.0.0.1"),
    ({"REMOTE_ADDR": "127.0.0.1"}, "127.0.0.1"),
    # an IPv6 client by its /64, an IPv4 one written as IPv6 as itself
    ({"REMOTE_ADDR": "2001:db8:1:2:aaaa::1"}, "2001:db8:1:2::/64"),
    ({"REMOTE_ADDR": "10.0.0.9", "HTTP_X_REAL_IP": "2001:db8:1:2:bbbb::9"}, "2001:db8:1:2::/64"),
    ({"REMOTE_ADDR": "::ffff:198.51.100.7"}, "198.51.100.7"),
    ({"REMOTE_ADDR": ""}, ""),
])
def test_who_the_client_is(environ, client):
    assert client_of(environ, proxies_of("127.0.0.1, 10.0.0.0/8")) == client


def test_unset_no_proxy_is_believed():
    assert client_of({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_REAL_IP": "203.0.113.1"},
                     proxies_of(None)) == "127.0.0.1"


# -- the service ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True, "AI_CLIENT_BUDGET_MS": LONGEST_BUDGET_MS,
                       "AI_CLIENT_BUDGET_PER_S": 1, "AI_CONCURRENCY": 1})


def forced(client) -> dict:
    """A strong search that costs no time: G5's opening lead, the only legal move."""
    state = client.post("/v1/games/ganjifa/deal", json={"seed": 3}).get_json()["state"]
    return {"state": state, "level": "strong", "budget_ms": COST, "seed": 1}


def from_(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def test_past_its_bucket_a_client_gets_a_429_in_its_language_and_another_is_served(app):
    client = app.test_client()
    body = forced(client)
    ask = "/v1/games/ganjifa/ai-move"
    assert [client.post(ask, json=body, **from_("10.1.0.1")).status_code
            for _ in range(2)] == [200, 200]
    spent = client.post(ask, json=body, headers={"Accept-Language": "fr"}, **from_("10.1.0.1"))
    assert spent.status_code == 429
    assert spent.mimetype == "application/problem+json"
    assert int(spent.headers["Retry-After"]) > 60  # 5,000 ms at 1 ms a second, nearly
    problem = spent.get_json()
    assert (problem["type"], problem["status"]) == ("/problems/ai-budget-spent", 429)
    assert problem["title"] == CATALOGUES["fr"]["problem.ai-budget-spent.title"]
    assert spent.headers["Content-Language"] == "fr"
    assert "Retry-After" in spent.headers["Access-Control-Expose-Headers"]
    assert client.post(ask, json=body, **from_("10.1.0.2")).status_code == 200
    # The levels that search nothing cost nothing, and are answered still.
    for level in ("random", "basic"):
        assert client.post(ask, json={**body, "level": level},
                           **from_("10.1.0.1")).status_code == 200


def test_only_a_search_that_starts_is_charged(app):
    """A body refused 422, and a search the pool has no slot for (503), cost nothing."""
    client = app.test_client()
    body = forced(client)
    ask = "/v1/games/ganjifa/ai-move"
    assert client.post(ask, json={**body, "seat": 9}, **from_("10.2.0.1")).status_code == 422
    with app.extensions["cardavia.ai_slots"].slot():
        for _ in range(3):
            assert client.post(ask, json=body, **from_("10.2.0.1")).status_code == 503
    assert [client.post(ask, json=body, **from_("10.2.0.1")).status_code
            for _ in range(3)] == [200, 200, 429]


def test_the_default_search_costs_200_ms():
    app = create_app({"TESTING": True, "AI_CLIENT_BUDGET_MS": LONGEST_BUDGET_MS,
                      "AI_CLIENT_BUDGET_PER_S": 1})
    client = app.test_client()
    body = forced(client)
    del body["budget_ms"]
    statuses = Counter(client.post("/v1/games/ganjifa/ai-move", json=body).status_code
                       for _ in range(LONGEST_BUDGET_MS // 200 + 1))
    assert statuses == {200: LONGEST_BUDGET_MS // 200, 429: 1}


@pytest.mark.parametrize(("settings", "message"), [
    ({"CARDAVIA_AI_CLIENT_BUDGET_MS": "5000"}, "at least 10000"),
    ({"CARDAVIA_AI_CLIENT_BUDGET_MS": "lots"}, "whole number"),
    ({"CARDAVIA_AI_CLIENT_BUDGET_PER_S": "0"}, "at least 1"),
    ({"CARDAVIA_REAL_IP_FROM": "nginx"}, "CARDAVIA_REAL_IP_FROM"),
])
def test_a_bad_setting_is_an_error_at_start(monkeypatch, settings, message):
    for key, value in settings.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ValueError, match=message):
        create_app()


def test_the_defaults_and_the_switch(monkeypatch):
    for key in ("CARDAVIA_AI_CLIENT_BUDGET_MS", "CARDAVIA_AI_CLIENT_BUDGET_PER_S"):
        monkeypatch.delenv(key, raising=False)
    buckets = create_app().extensions["cardavia.ai_budget"].buckets
    assert (buckets.capacity, buckets.per_s) == (DEFAULT_BUCKET_MS, DEFAULT_PER_S)
    monkeypatch.setenv("CARDAVIA_AI_CLIENT_BUDGET_MS", "0")
    assert create_app().extensions["cardavia.ai_budget"].buckets is None
    assert create_app(TestingConfig).extensions["cardavia.ai_budget"].buckets is None


# -- over HTTP: gunicorn's workers, the forwarded client, nginx ----------------------------


def ganjifa_opening(base: str) -> dict:
    state = requests.post(f"{base}/v1/games/ganjifa/deal", json={"seed": 3},
                          timeout=30).json()["state"]
    return {"state": state, "level": "strong", "budget_ms": COST, "seed": 1}


def asked(base: str, source: str, body: dict, times: int, headers=None) -> list[int]:
    """`times` ai-moves from `source`, each on a connection of its own (the kernel gives
    each to either worker). nginx may count the address's last ai-move a moment after
    answering it (its one at a time): an edge 429 is asked again."""
    statuses = []
    for i in range(times):
        for _ in range(50):
            with session_from(source) as s:
                r = s.post(f"{base}/v1/games/ganjifa/ai-move", json=body, timeout=30,
                           headers=headers(i) if headers else None)
            if r.status_code != 429 or r.json()["type"] != "/problems/too-many-requests":
                break
            time.sleep(0.02)
        if r.status_code == 429:
            assert r.json()["type"] == "/problems/ai-budget-spent"
            assert int(r.headers["Retry-After"]) >= 1
        statuses.append(r.status_code)
    return statuses


class HalfSent:
    """An ai-move from `source` whose body stops short: a sync worker takes it and waits
    for the rest, serving nothing else meanwhile, until `finish`."""

    def __init__(self, base: str, source: str, body: dict):
        host, port = base.removeprefix("http://").rsplit(":", 1)
        data = json.dumps(body).encode()
        self.rest = data[10:]
        self.sock = socket.socket()
        self.sock.bind((source, 0))
        self.sock.connect((host, int(port)))
        self.sock.settimeout(30)
        self.sock.sendall(b"POST /v1/games/ganjifa/ai-move HTTP/1.1\r\nHost: x\r\n"
                          b"Content-Type: application/json\r\nConnection: close\r\n"
                          + f"Content-Length: {len(data)}\r\n\r\n".encode() + data[:10])

    def finish(self) -> int:
        with self.sock:
            self.sock.sendall(self.rest)
            answer = b""
            while chunk := self.sock.recv(65536):
                answer += chunk
        return int(answer.split(b" ", 2)[1])


@pytest.mark.http
def test_the_workers_of_a_gunicorn_share_each_clients_bucket():
    """`make serve`'s gunicorn (two sync workers, no proxy). A body held half sent keeps
    one worker waiting, so the client's next search is the other worker's: once each has
    served one, the bucket is spent, and the client is refused whichever worker takes its
    connection (with a bucket a worker, both would serve it again), its X-Real-IP headers
    notwithstanding; another address is served."""
    with serving(**SMALL) as base:
        body = ganjifa_opening(base)
        held = HalfSent(base, "127.0.0.1", body)
        time.sleep(0.5)  # taken by a worker, which now waits for the rest
        assert asked(base, "127.0.0.1", body, 1) == [200]
        assert held.finish() == 200
        statuses = asked(base, "127.0.0.1", body, 8,
                         headers=lambda i: {"X-Real-IP": f"203.0.113.{i}"})
        assert statuses == [429] * 8
        assert asked(base, "127.0.0.2", body, 1) == [200]


@pytest.mark.http
def test_only_a_listed_proxy_names_the_client():
    """CARDAVIA_REAL_IP_FROM lists 127.0.0.3: its X-Real-IP is the client, each with its
    own bucket; the same header from 127.0.0.1, a peer it does not list, changes nothing,
    and spent nothing of the client it names."""
    with serving(CARDAVIA_REAL_IP_FROM="127.0.0.3", **SMALL) as base:
        body = ganjifa_opening(base)
        forged = asked(base, "127.0.0.1", body, 3, headers=lambda i: {"X-Real-IP": "203.0.113.9"})
        assert forged == [200, 200, 429]
        named = asked(base, "127.0.0.3", body, 3, headers=lambda i: {"X-Real-IP": "203.0.113.9"})
        assert named == [200, 200, 429]
        assert asked(base, "127.0.0.3", body, 1, headers=lambda i: {"X-Real-IP": "203.0.113.8"}) \
            == [200]


@pytest.mark.http
def test_behind_nginx_each_address_has_its_own_bucket():
    """deploy/stack.py: nginx names the client it counts in X-Real-IP, whatever the client
    sent as X-Real-IP itself; the AI pool's workers count it."""
    with mock.patch.dict(os.environ, SMALL), tempfile.TemporaryFile() as log, \
            Stack(log=log) as stack:
        body = ganjifa_opening(stack.url)
        statuses = asked(stack.url, "127.0.0.1", body, 4,
                         headers=lambda i: {"X-Real-IP": f"203.0.113.{i}"})
        assert statuses == [200, 200, 429, 429], stack.log_tail()
        assert asked(stack.url, "127.0.0.2", body, 2) == [200, 200]
