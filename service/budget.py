"""Each client's share of the AI's search time (issue 40.1): a bucket of search
milliseconds that refills at a steady rate, counted among all the workers of a gunicorn.

The AI pool's slots (service/capacity.py) and nginx's one ai-move at a time per address
bound what a client holds at once, not for how long: one address asking a 10 s search
(API.md's longest) again each time the last one ends holds a slot for good, and a few such
addresses hold the pool. So a strong search costs its client the `budget_ms` it asks
(200 when absent), charged as it starts; `random` and `basic` search nothing and cost
nothing. A client may spend at most CARDAVIA_AI_CLIENT_BUDGET_MS (20,000: two of the
longest searches, or a hundred default moves) at once, and its bucket refills by
CARDAVIA_AI_CLIENT_BUDGET_PER_S milliseconds a second (200: a table asking a 200 ms move
every two seconds spends half of it, and never meets the cap; a client asking 10 s searches
back to back gets one in 50 s once its bucket is spent). Past it, `ai-move` answers 429 with
Retry-After: the seconds until the bucket holds the search asked for. 0 turns the cap off.

A client is the address that the request came from, an IPv6 address by its /64 (what one
household or host is given, all of which it may use). Behind nginx every request comes from
nginx: its `X-Real-IP` (the address its own per-client limits count, deploy/nginx) names
the client, believed only from the addresses CARDAVIA_REAL_IP_FROM lists (deploy/stack.py
sets loopback, where its nginx is); from any other peer, and when unset (`make serve`, bare
gunicorn) the header is ignored, so that a client talking to gunicorn cannot name itself
anew at each request.

The count is per gunicorn: a Kubernetes AI pool of N pods lets a client spend up to N
shares (docs/deploy.md).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import ipaddress
import math
import mmap
import os
import struct
import threading
import time
from collections.abc import Callable, Iterator
from typing import NamedTuple

from flask import Flask

from schemas.common import LONGEST_BUDGET_MS
from service import call
from service.capacity import AiBusy, ai_slot, unnamed_file, whole_setting
from service.problems import ProblemError

EXTENSION = "cardavia.ai_budget"
DEFAULT_BUCKET_MS, DEFAULT_PER_S = 20_000, 200
# A set of WAYS entries for each hash: room for 16,384 clients paying back at once in 384
# KiB; two share a bucket only when a fifth lands on a set whose four all are (below).
SETS, WAYS = 4096, 4
ENTRY = struct.Struct("<Qdd")  # the client's hash (0: free), milliseconds left, counted when


def refilled(left: float, counted: float, now: float, capacity: float, per_s: float
             ) -> float:
    """What a bucket holds at `now`: what it held at `counted`, and what has come in since
    at `per_s` milliseconds a second, up to `capacity`."""
    return min(capacity, left + max(0.0, now - counted) * per_s)


def wait_s(left: float, cost: float, per_s: float) -> int:
    """Whole seconds until a bucket holding `left` holds `cost` (at least 1)."""
    return max(1, math.ceil((cost - left) / per_s))


class AiBudgetSpent(ProblemError):
    """The client has spent its share of search time for now."""

    def __init__(self, cost: int, seconds: int):
        super().__init__(429, "ai-budget-spent", "AI budget spent",
                         "This client has spent its share of the AI's search time; a search "
                         f"of {cost} ms can start in {seconds} second(s).",
                         params={"ms": cost, "seconds": seconds},
                         headers=[("Retry-After", str(seconds))])


class Buckets:
    """Every client's bucket in one table of shared memory made before gunicorn forks its
    workers (gunicorn.conf.py preloads the app), so that they all count the same ones.

    A client's hash (keyed by a secret drawn at start, so that no client can choose an
    address that lands on another's) picks a set of WAYS entries. It takes its own entry;
    else a free one, or one whose bucket has filled up again, which is just what a new
    client gets, so nothing is forgotten. A collision: when every entry of the set holds a
    client still paying back, the newcomer is counted against the one with least left, so
    it is mostly refused until one of them has refilled, and what it does spend, that
    client has not: the clients of a set never spend more than its entries' budgets.

    `clock` (seconds, the same in every process: time.monotonic) is the tests' to set."""

    def __init__(self, capacity_ms: int, per_s: int, sets: int = SETS,
                 clock: Callable[[], float] = time.monotonic):
        self.capacity, self.per_s, self.sets, self.clock = capacity_ms, per_s, sets, clock
        self._secret = os.urandom(16)
        size = sets * WAYS * ENTRY.size
        self._fd = unnamed_file("cardavia-ai-budget")
        os.ftruncate(self._fd, size)
        self._table = mmap.mmap(self._fd, size)  # MAP_SHARED: forked workers see one table
        # A worker's threads take turns through `_threads`, the workers through a POSIX
        # record lock on the table's file, which the kernel drops with its process: a worker
        # killed while counting leaves the table unlocked (a semaphore would stay taken and
        # stop every search after it).
        self._threads = threading.Lock()

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        with self._threads:
            fcntl.lockf(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def _hash(self, client: str) -> int:
        digest = hashlib.blake2b(client.encode(), key=self._secret, digest_size=8).digest()
        return int.from_bytes(digest, "little") | 1  # never 0, a free entry's

    def _entry(self, key: int, now: float) -> tuple[int, float]:
        """The offset of `key`'s entry (see the class) and what its bucket holds at `now`."""
        first = (key % self.sets) * WAYS
        held: list[tuple[float, int]] = []
        for way in range(WAYS):
            offset = (first + way) * ENTRY.size
            owner, left, counted = ENTRY.unpack_from(self._table, offset)
            if owner == key:
                return offset, refilled(left, counted, now, self.capacity, self.per_s)
            held.append((self.capacity if owner == 0 else
                         refilled(left, counted, now, self.capacity, self.per_s), offset))
        left, offset = max(held)
        if left >= self.capacity:  # a free or refilled entry: the newcomer's now
            ENTRY.pack_into(self._table, offset, key, left, now)
            return offset, left
        left, offset = min(held)  # a collision (see the class)
        return offset, left

    def take(self, client: str, cost: int) -> int | None:
        """`cost` milliseconds from `client`'s bucket: None when taken, else the seconds
        until it holds them (nothing is taken)."""
        key = self._hash(client)
        with self._locked():
            now = self.clock()
            offset, left = self._entry(key, now)
            if left < cost:
                return wait_s(left, cost, self.per_s)
            owner = ENTRY.unpack_from(self._table, offset)[0]
            ENTRY.pack_into(self._table, offset, owner, left - cost, now)
            return None

    def give_back(self, client: str, cost: int) -> None:
        """`cost` milliseconds back to `client`'s bucket: a search it was charged for that
        never started."""
        key = self._hash(client)
        with self._locked():
            now = self.clock()
            offset, left = self._entry(key, now)
            owner = ENTRY.unpack_from(self._table, offset)[0]
            ENTRY.pack_into(self._table, offset, owner, min(self.capacity, left + cost), now)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Budget(NamedTuple):
    """The app's buckets (None: no cap) and the proxies whose X-Real-IP it believes."""

    buckets: Buckets | None
    proxies: tuple[Network, ...]


def address_of(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_of(environ: dict, proxies: tuple[Network, ...]) -> str:
    """Who a request is, for its budget: its peer's address, or the X-Real-IP of a peer
    that `proxies` lists; an IPv6 address by its /64."""
    peer = environ.get("REMOTE_ADDR") or ""
    address = address_of(peer)
    if address is not None and any(address in p for p in proxies):
        named = address_of(environ.get("HTTP_X_REAL_IP") or "")
        address = named or address
    if address is None:  # no IP peer (a Unix socket): one client
        return peer
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


@contextlib.contextmanager
def searching(budget_ms: int) -> Iterator[None]:
    """`with searching(budget_ms):` around a strong search: `budget_ms` from the client's
    bucket (AiBudgetSpent, 429, when it holds less), then one of the pool's slots (AiBusy,
    503, and the milliseconds given back: the search never started)."""
    budget: Budget = call.extension(EXTENSION)
    if budget.buckets is None:
        with ai_slot():
            yield
        return
    client = client_of(call.environ(), budget.proxies)
    wait = budget.buckets.take(client, budget_ms)
    if wait is not None:
        raise AiBudgetSpent(budget_ms, wait)
    try:
        with ai_slot():
            yield
    except AiBusy:  # raised by taking the slot only
        budget.buckets.give_back(client, budget_ms)
        raise


def proxies_of(setting_: str | None) -> tuple[Network, ...]:
    """CARDAVIA_REAL_IP_FROM: comma-separated addresses or CIDR blocks."""
    blocks = [b.strip() for b in (setting_ or "").split(",") if b.strip()]
    try:
        return tuple(ipaddress.ip_network(b, strict=False) for b in blocks)
    except ValueError as e:
        raise ValueError(f"CARDAVIA_REAL_IP_FROM: {e}") from None


def register(app: Flask) -> None:
    capacity = whole_setting(app.config, "AI_CLIENT_BUDGET_MS", DEFAULT_BUCKET_MS)
    per_s = whole_setting(app.config, "AI_CLIENT_BUDGET_PER_S", DEFAULT_PER_S)
    # A full bucket holds the longest search API.md allows.
    if capacity and capacity < LONGEST_BUDGET_MS:
        raise ValueError(f"CARDAVIA_AI_CLIENT_BUDGET_MS must be 0 (no cap) or at least "
                         f"{LONGEST_BUDGET_MS} (the longest search), not {capacity}")
    if per_s < 1:
        raise ValueError(f"CARDAVIA_AI_CLIENT_BUDGET_PER_S must be at least 1, not {per_s}")
    real_ip_from = app.config.get("REAL_IP_FROM")
    if real_ip_from is None:
        real_ip_from = os.environ.get("CARDAVIA_REAL_IP_FROM")
    app.extensions[EXTENSION] = Budget(Buckets(capacity, per_s) if capacity else None,
                                       proxies_of(real_ip_from))
