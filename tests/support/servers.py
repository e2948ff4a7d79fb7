"""Real gunicorn servers with chosen settings, started as `make serve` starts the service."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import requests
from requests.adapters import HTTPAdapter

ROOT = Path(__file__).resolve().parent.parent.parent
GUNICORN = [str(Path(sys.executable).with_name("gunicorn")), "--config", "gunicorn.conf.py",
            "service.app:create_app()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_healthy(base: str, proc: subprocess.Popen, log) -> None:
    # A bound on a hung start, not a speed check: a loaded machine can take a minute to
    # import the app in every worker.
    deadline = time.monotonic() + 120
    while True:
        try:
            if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            log.seek(0)
            raise RuntimeError(f"gunicorn did not start: {log.read().decode()[-2000:]}")
        time.sleep(0.1)


def environment(port: int, **settings: str) -> dict[str, str]:
    """The test run's environment without its CARDAVIA_ settings, with `settings`; no
    budget of search time per client unless they set one (service/budget.py): every test
    asks from 127.0.0.1, at the machine's pace, and none may be turned away for what the
    tests before it spent."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDAVIA_")}
    env.update(HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2",
               CARDAVIA_AI_CLIENT_BUDGET_MS="0")
    env.update(settings)
    return env


@contextlib.contextmanager
def serving(**settings: str) -> Iterator[str]:
    """A gunicorn with these CARDAVIA_ settings on a free loopback port: its base URL."""
    with serving_to(None, **settings) as base:
        yield base


@contextlib.contextmanager
def serving_to(log: IO[bytes] | None, **settings: str) -> Iterator[str]:
    """`serving`, its stderr (gunicorn's error log, the service's access log) written to
    `log` when given."""
    port = free_port()
    with running(GUNICORN, ROOT, environment(port, **settings), port, log) as base:
        yield base


@contextlib.contextmanager
def running(command: list[str], cwd: Path, env: dict[str, str], port: int,
            log: IO[bytes] | None = None) -> Iterator[str]:
    """A server started by `command` on `port`, healthy, stopped with SIGTERM at the end."""
    with contextlib.ExitStack() as stack:
        # A file, not a pipe, which could fill and stall it.
        out = log or stack.enter_context(tempfile.TemporaryFile())
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                stderr=out)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_healthy(base, proc, out)
            yield base
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def start_fails(timeout: float = 30, **settings: str) -> tuple[int, str]:
    """gunicorn started with these settings must exit: its exit status and its output."""
    done = subprocess.run(GUNICORN, cwd=ROOT, env=environment(free_port(), **settings),
                          capture_output=True, text=True, timeout=timeout, check=False)
    return done.returncode, done.stdout + done.stderr


class SourceAdapter(HTTPAdapter):
    """Connections from a chosen loopback address (127.0.0.2 is a second client to nginx's
    per-address limits)."""

    def __init__(self, source: str):
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


def session_from(source: str) -> requests.Session:
    s = requests.Session()
    s.mount("http://", SourceAdapter(source))
    return s
