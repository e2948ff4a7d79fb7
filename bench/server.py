"""A gunicorn started exactly as `make serve` starts the service: same gunicorn.conf.py,
HOST/PORT/WEB_CONCURRENCY from the environment, on a free loopback port, in its own
process group so that stopping it stops its workers too."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import ROOT

HOST = "127.0.0.1"
# Left out of the servers' environment: each would make the two servers differ from the
# default configuration (an access log, signed states that the bench's payload lacks, extra
# gunicorn arguments).
SCRUBBED = ("CARDAVIA_ACCESS_LOG", "CARDAVIA_STATE_KEY", "GUNICORN_CMD_ARGS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Gunicorn:
    """`with Gunicorn("service.app:create_app()") as server:` … `server.port`."""

    def __init__(self, app: str, workers: int = 1):
        self.app = app
        self.workers = workers
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        # Owned by this object until stop(): gunicorn writes to it while it runs.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115

    def __enter__(self) -> Gunicorn:
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
        env.update(HOST=HOST, PORT=str(self.port), WEB_CONCURRENCY=str(self.workers))
        # Every request of a bench comes from one address, at the machine's pace: a budget
        # of search time per client (service/budget.py) would turn its searches away.
        env.setdefault("CARDAVIA_AI_CLIENT_BUDGET_MS", "0")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"),
             self.app],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            start_new_session=True,
        )
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def master(self) -> subprocess.Popen:
        """The gunicorn master, between __enter__ and stop()."""
        if self.proc is None:
            raise RuntimeError(f"gunicorn {self.app} is not running")
        return self.proc

    def wait_ready(self, timeout: float = 20.0) -> None:
        """Until the master listens and its workers have booted."""
        master = self.master
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if master.poll() is not None:
                raise RuntimeError(f"gunicorn {self.app} exited:\n{self.log_tail()}")
            if len(self.worker_pids()) >= self.workers:
                with contextlib.suppress(OSError), socket.create_connection(
                        (HOST, self.port), timeout=1):
                    return
            time.sleep(0.05)
        raise RuntimeError(f"gunicorn {self.app} did not start:\n{self.log_tail()}")

    def worker_pids(self) -> list[int]:
        """The children of the gunicorn master: its workers."""
        pid = self.master.pid
        try:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
            return [int(p) for p in text.split()]
        except OSError:
            pass
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    children.append(int(entry.name))
        return children

    def log_tail(self, size: int = 4000) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-size:]

    def stop(self) -> None:
        """SIGTERM to the whole process group, SIGKILL if it outlives the graceful timeout."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=15)
        # The group may outlive the master (an orphaned worker): make sure it is gone.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        self.proc = None
        self.log.close()
