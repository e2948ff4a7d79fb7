"""What a worker takes on at once of the requests that cost it most, answering the rest
503 with `Retry-After` at once instead of queueing them behind the others.

At most CARDAVIA_AI_CONCURRENCY AI searches at once among all the workers of a gunicorn
(default: its workers, one search a worker); past that, `ai-move` (at the strong level:
random and basic answer in a few milliseconds) answers 503 instead of queueing behind
searches of up to 10 s. The count is shared across fork (SharedSlots), as the heavy slots'
below: a search runs in whichever worker's thread takes its connection while the pool has
a slot, so a worker busy with one client's search does not turn away another client's
search that a free core could run (issue 40.1; the core's search releases the GIL, so two
searches in one worker run on two cores).

The count is kept in the app rather than as an nginx `limit_conn`: the AI pool's gthread
workers (gunicorn.conf.py) give each search a thread and keep others free to answer
/healthz and this 503, so the limit holds however the pool is reached (behind the
sidecar's nginx, or straight from a Kubernetes Service), and its answer is the service's
own problem document, in the request's language like every other. A sync worker serves one
request at a time, so in the rules pool (and under `make serve`) a search never waits.

At most CARDAVIA_HEAVY_CONCURRENCY sessions and replays with a body over HEAVY_BYTES at
once among all the workers of a gunicorn (default: its workers but one). Their cost grows
with the body, up to 500 deals or 1,000 moves, some tens of milliseconds of a worker each:
within every per-client limit, a few clients sending them could keep every worker on them
and leave /healthz and /move waiting (issue 40.3). The count is SharedSlots the master
makes before it forks the workers (gunicorn.conf.py preloads the app), taken once the
body has arrived (behind nginx, a whole body), so a slow client holds no slot. A replay
asking for every state (`include: all`) takes one too, whatever its body's size: a 5 KB
Ganjifa deal answers some 370 KB, 18 ms of a worker (`heavy_slot`).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask

from service import call
from service.problems import Answer, ProblemError
from service.router import View

RETRY_AFTER_S = 1  # a default search takes 200 ms; a client that waits a second finds room
# A 500-deal Tarot session is 47-116 KB, a whole deal's replay 4-11 KB: a body past this is
# a few /moves' worth of work or more.
HEAVY_BYTES = 16_384
HEAVY_ACTIONS = ("session", "replay")
HELD = "cardavia.heavy_held"  # in the WSGI environ: this request holds a slot


def unnamed_file(name: str) -> int:
    """A file descriptor on a file with no name, shared by the processes forked after it
    is made: a memfd where the kernel has them, else an unlinked temporary file."""
    memfd = getattr(os, "memfd_create", None)
    if memfd is not None:
        return memfd(name)
    with tempfile.TemporaryFile() as f:
        return os.dup(f.fileno())


class SharedSlots:
    """`limit` slots shared by every worker forked after it is made. Slot i is a POSIX
    record lock on byte i of an unnamed file, which the kernel drops with the process that
    holds it: a worker killed while it holds one (gunicorn's timeout, the OOM killer)
    gives it back. A semaphore would stay taken, and `limit` such kills later refuse every
    request until a restart. A process's threads share its locks, so they take bytes
    through a lock of their own and count which bytes the process holds."""

    def __init__(self, limit: int, name: str):
        self.limit = limit
        self._fd = unnamed_file(name)
        self._threads = threading.Lock()
        self._held: set[int] = set()
        self._pid = os.getpid()

    def acquire(self) -> bool:
        """Takes a free slot, if there is one: False at once if not."""
        with self._threads:
            if self._pid != os.getpid():  # a forked copy holds none of its parent's locks
                self._held, self._pid = set(), os.getpid()
            for i in range(self.limit):
                if i in self._held:
                    continue
                try:
                    fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, i)
                except OSError:  # another process holds it
                    continue
                self._held.add(i)
                return True
        return False

    def release(self) -> None:
        """Gives back one slot this process holds (they are all alike)."""
        with self._threads:
            i = self._held.pop()
            fcntl.lockf(self._fd, fcntl.LOCK_UN, 1, i)


class AiBusy(ProblemError):
    """Every AI slot of the gunicorn is taken."""

    def __init__(self):
        super().__init__(503, "ai-busy", "AI at capacity",
                         f"Every AI slot is busy; try again in {RETRY_AFTER_S} second(s).",
                         params={"seconds": RETRY_AFTER_S},
                         headers=[("Retry-After", str(RETRY_AFTER_S))])


class AiSlots:
    """`limit` searches at once, shared by every worker forked after it is made."""

    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError(f"CARDAVIA_AI_CONCURRENCY must be at least 1, not {limit}")
        self.limit = limit
        self._free = SharedSlots(limit, "cardavia-ai-slots")

    @contextmanager
    def slot(self) -> Iterator[None]:
        if not self._free.acquire():
            raise AiBusy()
        try:
            yield
        finally:
            self._free.release()


class Busy(ProblemError):
    """Every slot for sessions and replays of this size is taken."""

    def __init__(self):
        super().__init__(503, "unavailable", "Service Unavailable",
                         "The service is answering as many large sessions and replays as it "
                         f"takes at once; try again in {RETRY_AFTER_S} second(s).",
                         detail_key="problem.unavailable.detail.heavy",
                         params={"seconds": RETRY_AFTER_S},
                         headers=[("Retry-After", str(RETRY_AFTER_S))])


class Heavy:
    """`limit` slots shared by every worker forked after it is made, for the session and
    replay views (`views`): one with a body over HEAVY_BYTES (or of unknown length) takes
    a slot, or is answered 503 Busy. The gate is on the router's views, so the 503 is a
    problem document with the CORS headers of every other answer."""

    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError(f"CARDAVIA_HEAVY_CONCURRENCY must be at least 1, not {limit}")
        self.limit = limit
        self.slots = SharedSlots(limit, "cardavia-heavy-slots")

    def views(self, table: dict[tuple[str, str], View]) -> dict[tuple[str, str], View]:
        """The router's table with its session and replay views gated."""
        return {(game_id, action): self.gate(view) if action in HEAVY_ACTIONS else view
                for (game_id, action), view in table.items()}

    def gate(self, view: View) -> View:
        def gated(game_id: str) -> Answer:
            length = call.environ().get("CONTENT_LENGTH")
            if length and length.isdigit() and int(length) <= HEAVY_BYTES:
                return view(game_id)
            with self.slot():
                return view(game_id)
        return gated

    @contextmanager
    def slot(self) -> Iterator[None]:
        """One of the slots for this request, or Busy (503); none more if it holds one."""
        environ = call.environ()
        if environ.get(HELD):
            yield
            return
        if not self.slots.acquire():
            raise Busy()
        environ[HELD] = True
        try:
            yield
        finally:
            del environ[HELD]
            self.slots.release()


def workers() -> int:
    """The gunicorn's workers, as gunicorn.conf.py reads them."""
    return int(os.environ.get("WEB_CONCURRENCY", "2"))


def whole_setting(config, name: str, default: int) -> int:
    """A whole-number setting: the app's config, else CARDAVIA_<name>, else `default`."""
    value = config.get(name)
    if value is None:
        value = os.environ.get(f"CARDAVIA_{name}", "").strip() or default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"CARDAVIA_{name} must be a whole number, not {value!r}") from None


def register(app: Flask) -> None:
    app.extensions["cardavia.ai_slots"] = AiSlots(
        whole_setting(app.config, "AI_CONCURRENCY", workers()))


def heavy_limit(config) -> int:
    """CARDAVIA_HEAVY_CONCURRENCY, else the gunicorn's workers (WEB_CONCURRENCY) but one."""
    return whole_setting(config, "HEAVY_CONCURRENCY", max(1, workers() - 1))


def heavy_slot():
    """`with heavy_slot():` around work whose cost the body's size does not tell (a replay
    answering every state): one of the heavy slots, or Busy (503)."""
    return call.extension("cardavia.heavy").slot()


def ai_slot():
    """`with ai_slot():` around a search: AiBusy (503) when the gunicorn has no slot free."""
    return call.extension("cardavia.ai_slots").slot()
