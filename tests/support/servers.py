"""Real gunicorn servers with chosen settings, started as `make serve` starts the service."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
GUNICORN = [str(Path(sys.executable).with_name("gunicorn")), "--config", "gunicorn.conf.py",
            "service.app:create_app()"]


def environment(port: int, **settings: str) -> dict[str, str]:
    """The test run's environment without its CARDAVIA_ settings, with `settings`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDAVIA_")}
    env.update(HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2", **settings)
    return env


@contextlib.contextmanager
def serving(**settings: str) -> Iterator[str]:
    """A gunicorn with these CARDAVIA_ settings on a free loopback port: its base URL."""
    from tests.conftest import free_port, wait_until_healthy

    port = free_port()
    with tempfile.TemporaryFile() as log:  # a file, not a pipe, which could fill and stall it
        proc = subprocess.Popen(GUNICORN, cwd=ROOT, env=environment(port, **settings),
                                stdout=subprocess.DEVNULL, stderr=log)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_healthy(base, proc, log)
            yield base
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def start_fails(timeout: float = 30, **settings: str) -> tuple[int, str]:
    """gunicorn started with these settings must exit: its exit status and its output."""
    from tests.conftest import free_port

    done = subprocess.run(GUNICORN, cwd=ROOT, env=environment(free_port(), **settings),
                          capture_output=True, text=True, timeout=timeout, check=False)
    return done.returncode, done.stdout + done.stderr
