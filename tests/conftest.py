"""Shared fixtures: the Flask test client for unit tests, a real gunicorn for HTTP tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests

from service.app import TestingConfig, create_app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def client():
    return create_app(TestingConfig).test_client()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server():
    """A real gunicorn on a free loopback port; yields its base URL."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDAVIA_")}
    env.update(HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="2")
    gunicorn = Path(sys.executable).with_name("gunicorn")
    # The log goes to a file, not a pipe: a full pipe would stall the server.
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [str(gunicorn), "--config", "gunicorn.conf.py", "service.app:create_app()"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
        )
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


def wait_until_healthy(base: str, proc: subprocess.Popen, log) -> None:
    deadline = time.monotonic() + 30
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


SIGNING_KEY = "test-signing-key"


@pytest.fixture(scope="session")
def signed_server():
    """A real gunicorn signing states with SIGNING_KEY; yields its base URL."""
    from tests.support.servers import serving

    with serving(CARDAVIA_STATE_KEY=SIGNING_KEY) as base:
        yield base
