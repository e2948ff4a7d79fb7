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
    log = tempfile.TemporaryFile()  # not a pipe: a full pipe would stall the server
    proc = subprocess.Popen(
        [str(gunicorn), "--config", "gunicorn.conf.py", "service.app:create_app()"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError(f"gunicorn did not start: {log.read().decode()[-2000:]}")
            time.sleep(0.1)
    except BaseException:
        proc.kill()  # never leave a server behind, whatever stopped the start
        raise
    yield base
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
