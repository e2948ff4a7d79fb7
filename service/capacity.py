"""At most CARDAVIA_AI_CONCURRENCY AI searches at once in a worker; past that,
`ai-move` answers 503 with `Retry-After` at once instead of queueing behind searches of up
to 10 s.

The count is kept per worker, in the app, rather than as an nginx `limit_conn`: the AI pool's
gthread workers (gunicorn.conf.py) give each search a thread and keep others free to answer
/healthz and this 503, so the limit holds however the pool is reached (behind the
sidecar's nginx, or straight from a Kubernetes Service), grows with the pool's workers
without a second number to keep in step, and its answer is the service's own problem
document, in the request's language like every other. A sync worker serves one request at
a time, so in the rules pool (and under `make serve`) the limit is never reached.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask

from service import call
from service.problems import ProblemError

RETRY_AFTER_S = 1  # a default search takes 200 ms; a client that waits a second finds room


class AiBusy(ProblemError):
    """Every AI slot of this worker is taken."""

    def __init__(self):
        super().__init__(503, "ai-busy", "AI at capacity",
                         f"Every AI slot is busy; try again in {RETRY_AFTER_S} second(s).",
                         params={"seconds": RETRY_AFTER_S},
                         headers=[("Retry-After", str(RETRY_AFTER_S))])


class AiSlots:
    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError(f"CARDAVIA_AI_CONCURRENCY must be at least 1, not {limit}")
        self.limit = limit
        self._free = threading.BoundedSemaphore(limit)

    @contextmanager
    def slot(self) -> Iterator[None]:
        if not self._free.acquire(blocking=False):
            raise AiBusy()
        try:
            yield
        finally:
            self._free.release()


def register(app: Flask) -> None:
    limit = app.config.get("AI_CONCURRENCY") or os.environ.get("CARDAVIA_AI_CONCURRENCY", "1")
    try:
        slots = AiSlots(int(limit))
    except ValueError as e:
        raise ValueError(f"CARDAVIA_AI_CONCURRENCY={limit!r}: {e}") from None
    app.extensions["cardavia.ai_slots"] = slots


def ai_slot():
    """`with ai_slot():` around a search: AiBusy (503) when the worker has no slot free."""
    return call.extension("cardavia.ai_slots").slot()
