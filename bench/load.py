"""The load generator, identical for every server: a few threads, each sending the same
pre-encoded request bytes over a fresh loopback TCP connection per request, half-closing it
once sent, and reading the answer to its end (gunicorn's default sync worker closes every
connection).

The threads spend almost all their time blocked in the kernel, so one Python process is
light enough; the round reports its own CPU use so that can be checked.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")  # the unit of utime and stime in /proc/<pid>/stat


def request_bytes(path: str, body: bytes) -> bytes:
    """The whole request, encoded once; the same bytes go to every server."""
    head = (f"POST {path} HTTP/1.1\r\n"
            "Host: 127.0.0.1\r\n"
            "Content-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n")
    return head.encode("ascii") + body


def exchange(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """One request on a new connection; the whole answer, read until the server closes."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.settimeout(timeout)
        s.connect(("127.0.0.1", port))
        s.sendall(data)
        # Half-close at once: gunicorn (>= 24) closes each connection gracefully, lingering
        # until the client's FIN; sent up front, the worker never waits on this thread.
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        s.close()
    return b"".join(chunks)


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all cores since boot, from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    total = sum(fields[:8])  # guest time is already counted in user
    return total - idle, total


def cpu_ticks(pid: int) -> int:
    """utime + stime of a process, in clock ticks (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def round_(port: int, data: bytes, seconds: float, clients: int, max_requests: int,
           server_pids: list[int]) -> dict:
    """`clients` threads send `data` for `seconds` (or `max_requests` in all), then finish
    their request in flight. Returns the counts and the rate."""
    per_client = max(1, max_requests // clients)
    ok = [0] * clients
    errors = [0] * clients
    first_error: list[str] = []
    ready = threading.Barrier(clients + 1)
    clock = time.perf_counter

    def client(i: int) -> None:
        ready.wait()
        deadline = clock() + seconds
        n = bad = 0
        while n + bad < per_client and clock() < deadline:
            try:
                answer = exchange(port, data)
            except OSError as e:
                answer = repr(e).encode()
            if answer.startswith(b"HTTP/1.1 200"):
                n += 1
            else:
                bad += 1
                if not first_error:
                    first_error.append(answer[:200].decode(errors="replace"))
        ok[i], errors[i] = n, bad

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    server_cpu0 = sum(cpu_ticks(p) for p in server_pids)
    busy0, _ = machine_ticks()
    cpu0 = time.process_time()
    start = clock()
    ready.wait()
    for t in threads:
        t.join()
    elapsed = clock() - start
    cpu = time.process_time() - cpu0
    server_cpu = (sum(cpu_ticks(p) for p in server_pids) - server_cpu0) / CLK_TCK
    busy1, _ = machine_ticks()
    machine_cpu = (busy1 - busy0) / CLK_TCK
    done = sum(ok)
    return {
        "requests": done, "errors": sum(errors), "first_error": first_error[0] if
        first_error else None, "seconds": elapsed, "rps": done / elapsed,
        # Fractions of one core: the bench process (the load) and the gunicorn workers.
        "client_cpu": cpu / elapsed, "worker_cpu": server_cpu / elapsed,
        # Everything else that ran on the machine meanwhile (other people's work): noise.
        "other_cpu": max(0.0, machine_cpu - cpu - server_cpu) / elapsed,
        # The workers' CPU time per answered request: unlike rps, it hardly moves when
        # other work on the machine takes cores away from the server.
        "worker_cpu_us_per_request": server_cpu / done * 1e6 if done else None,
    }
