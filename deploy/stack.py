"""`make serve-prod`: the production stack on one host, in the foreground. nginx
(deploy/nginx/nginx.conf) listens on HOST:PORT and buffers every request and answer; behind
it, on loopback ports, the rules pool (WEB_CONCURRENCY sync workers) and the AI pool
(CARDAVIA_AI_WORKERS gthread workers, running CARDAVIA_AI_CONCURRENCY searches among them at
most) that nginx routes `ai-move` to. Ctrl-C or SIGTERM drains and stops it, nginx first.

    python deploy/stack.py                       # the whole stack, as `make serve-prod`
    python deploy/stack.py nginx --listen 8000 --rules 127.0.0.1:8001 --ai cardavia-ai:80
                                                 # nginx alone (the Kubernetes sidecar)

`Stack` starts the same processes for the tests and bench/. Standard library only: the
sidecar runs it before the service's dependencies matter.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import ipaddress
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import IO, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx" / "nginx.conf"
LOOPBACK = "127.0.0.1"
APP = "service.app:create_app()"
# Debian's brotli filter for nginx (apt-get install libnginx-mod-http-brotli-filter), used
# where it is installed: gzip alone otherwise.
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so")
BROTLI = """    brotli on;
    brotli_comp_level 4;
    brotli_min_length 1024;
    brotli_buffers 32 16k;
    brotli_types application/json application/problem+json image/svg+xml text/plain
                 text/css application/javascript text/javascript application/yaml;"""


class Limits(NamedTuple):
    """What nginx takes from one client address: requests in progress at once, and a rate
    (requests a second) with a burst above it, and ai-moves in progress at once."""

    connections: int = 64
    rate: int = 200
    burst: int = 400
    ai_connections: int = 1

    @classmethod
    def from_env(cls) -> Limits:
        """CARDAVIA_EDGE_CONNECTIONS, CARDAVIA_EDGE_RATE, CARDAVIA_EDGE_BURST and
        CARDAVIA_EDGE_AI_CONNECTIONS, each a positive whole number; a default where
        unset."""
        values = {}
        for name in cls._fields:
            setting = os.environ.get(f"CARDAVIA_EDGE_{name.upper()}", "").strip()
            if setting:
                if not setting.isdigit() or int(setting) < 1:
                    raise SystemExit(f"CARDAVIA_EDGE_{name.upper()} must be a positive "
                                     f"whole number, not {setting!r}")
                values[name] = int(setting)
        return cls(**values)


# The headers of every answer nginx gives itself (its error pages), as the service's.
EDGE_HEADERS = "\n".join(f"            add_header {name} {value} always;" for name, value in (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Request-ID", "$cardavia_request_id"),
    ("Content-Language", "en"),
    ("Access-Control-Allow-Origin", "$cardavia_allow_origin"),
    ("Access-Control-Expose-Headers", '"X-Request-ID, Content-Language, Retry-After"'),
    ("Vary", "$cardavia_vary")))


def cors(setting: str | None) -> str:
    """The maps of CARDAVIA_CORS_ORIGINS (comma-separated; any origin when unset or empty,
    as service/cors.py reads it): the Access-Control-Allow-Origin of a request's Origin,
    and the Vary a narrowed list asks for."""
    listed = sorted({o.strip() for o in (setting or "").split(",") if o.strip()})
    if not listed:
        return ('    map $http_origin $cardavia_allow_origin { default "*"; }\n'
                '    map $http_origin $cardavia_vary { default ""; }')
    for origin in listed:
        if not re.fullmatch(r"[A-Za-z0-9.:/\[\]_-]+", origin):
            raise SystemExit(f"CARDAVIA_CORS_ORIGINS: {origin!r} is not an origin")
    lines = "".join(f'        "{o}" $http_origin;\n' for o in listed)
    return (f'    map $http_origin $cardavia_allow_origin {{\n        default "";\n{lines}    }}\n'
            '    map $http_origin $cardavia_vary { default Origin; }')


def real_ip(setting: str | None) -> str:
    """nginx's realip settings for CARDAVIA_TRUSTED_PROXIES (comma-separated addresses or
    CIDR blocks of the load balancers in front): a request from one of them is the client
    that X-Forwarded-For names, the last address there that is not itself trusted."""
    blocks = [b.strip() for b in (setting or "").split(",") if b.strip()]
    if not blocks:
        return "    # CARDAVIA_TRUSTED_PROXIES is unset: a client is the connection's address."
    for block in blocks:
        try:
            ipaddress.ip_network(block, strict=False)
        except ValueError:
            raise SystemExit(f"CARDAVIA_TRUSTED_PROXIES: {block!r} is not an address or "
                             f"a CIDR block") from None
    return "\n".join([*(f"    set_real_ip_from {b};" for b in blocks),
                      "    real_ip_header X-Forwarded-For;", "    real_ip_recursive on;"])


def render(listen: str, rules: list[str], ai: list[str], template: str | None = None,
           limits: Limits | None = None, brotli: bool | None = None) -> str:
    """nginx.conf with its placeholders filled: nginx's address, each pool's servers, the
    per-client limits, the CORS origins, and brotli where the module is there (`brotli`
    None: look). A placeholder may stand in several places (@EDGE_HEADERS@ in each location
    of nginx's own answers)."""
    def servers(addresses: list[str]) -> str:
        if not addresses:
            raise ValueError("a pool needs at least one server")
        # max_fails=0: a server is never written off, so a pool whose servers restart one
        # after another (a rollout) always has one to try; a refused connection costs a
        # loopback round trip before nginx tries the next.
        return "\n        ".join(f"server {a} max_fails=0;" for a in addresses)

    text = TEMPLATE.read_text() if template is None else template
    limits = limits or Limits.from_env()
    if brotli is None:
        brotli = BROTLI_MODULE.is_file()
    values = {
        "@LISTEN@": listen, "@RULES_SERVERS@": servers(rules), "@AI_SERVERS@": servers(ai),
        "@CONNECTIONS@": str(limits.connections), "@RATE@": str(limits.rate),
        "@BURST@": str(limits.burst), "@AI_CONNECTIONS@": str(limits.ai_connections),
        "@REAL_IP@": real_ip(os.environ.get("CARDAVIA_TRUSTED_PROXIES")),
        "@MODULES@": f"load_module {BROTLI_MODULE};" if brotli else "",
        "@BROTLI@": BROTLI if brotli else "",
        "@CORS@": cors(os.environ.get("CARDAVIA_CORS_ORIGINS")),
        "@EDGE_HEADERS@": EDGE_HEADERS,
    }
    for placeholder, value in values.items():
        if placeholder not in text:
            raise ValueError(f"the template must hold {placeholder}")
        text = text.replace(placeholder, value)
    left = re.search(r"@[A-Z_]+@", text)
    if left:
        raise ValueError(f"the template holds {left[0]}, which nothing fills")
    return text


def nginx_binary() -> str:
    """Debian's nginx, installed with apt-get when missing (as root, as CI runs)."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found:
        return found
    if os.geteuid() != 0:
        raise SystemExit("nginx is missing: `sudo apt-get install nginx` (Debian's package)")
    # Two test processes may get here at once; apt-get takes one at a time.
    with open(Path(tempfile.gettempdir()) / "cardavia-nginx-install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = shutil.which("nginx", path="/usr/sbin:/sbin")
        if not found:
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
            subprocess.run(["apt-get", "install", "-y", "-qq", "nginx"], check=True, env=env)
            found = shutil.which("nginx", path="/usr/sbin:/sbin")
    if not found:
        raise SystemExit("apt-get installed nginx, yet no nginx binary is on the PATH")
    return found


def nginx_command(prefix: Path, listen: str, rules: list[str], ai: list[str],
                  template: str | None = None, limits: Limits | None = None) -> list[str]:
    """Writes the config into `prefix` (created if need be); the command that runs it."""
    prefix.mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(render(listen, rules, ai, template, limits))
    return [nginx_binary(), "-e", "stderr", "-p", str(prefix), "-c", str(conf)]


def free_port(host: str = LOOPBACK) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def gunicorn_command() -> list[str]:
    return [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"), APP]


def pool_env(pool: str, port: int, workers: int) -> dict[str, str]:
    env = dict(os.environ)
    # nginx, on loopback, names each request's client in X-Real-IP; the pools listen on
    # loopback only, so no other host can name one (service/budget.py).
    env.update(CARDAVIA_POOL=pool, HOST=LOOPBACK, PORT=str(port), WEB_CONCURRENCY=str(workers),
               CARDAVIA_REAL_IP_FROM=LOOPBACK)
    return env


def program(proc: subprocess.Popen) -> str:
    args = proc.args
    return str(args[0] if isinstance(args, list | tuple) else args)


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{program(proc)} exited with {proc.returncode} before {url}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1) as answer:
            if answer.status == 200:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer within {timeout:g} s")


def stop(proc: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 20.0) -> None:
    """`sig` (gunicorn drains on SIGTERM, nginx on SIGQUIT), then SIGKILL past `timeout`."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Stack:
    """nginx on `listen` in front of `rules` rules servers and one AI server, each a
    gunicorn master with its workers. `with Stack() as s: s.url` …; `restart_rules(i)`
    replaces one rules server by a new one on the same port, draining the old one."""

    def __init__(self, host: str = LOOPBACK, port: int | None = None, rules: int = 1,
                 rules_workers: int = 2, ai_workers: int = 2, log: IO | None = None,
                 limits: Limits | None = None):
        self.host, self.port = host, port or free_port(host)
        self.limits = limits  # None: Limits.from_env()
        self.rules_ports = [free_port() for _ in range(rules)]
        self.ai_port = free_port()
        self.rules_workers, self.ai_workers = rules_workers, ai_workers
        self.log = log  # None: the processes write to this process's stdout and stderr
        self.prefix = Path(tempfile.mkdtemp(prefix="cardavia-nginx-"))
        self.rules: list[subprocess.Popen] = []
        self.ai: subprocess.Popen | None = None
        self.nginx: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _spawn(self, command: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
        # A session of its own: a Ctrl-C reaches this process only, which then stops the
        # stack in order (nginx drains first) instead of every process dying at once.
        return subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                stdout=self.log, stderr=self.log, start_new_session=True)

    def spawn_pool(self, pool: str, port: int, workers: int) -> subprocess.Popen:
        return self._spawn(gunicorn_command(), pool_env(pool, port, workers))

    def __enter__(self) -> Stack:
        try:
            # Started together, each importing the app at once: then waited for.
            self.rules = [self.spawn_pool("rules", p, self.rules_workers)
                          for p in self.rules_ports]
            self.ai = self.spawn_pool("ai", self.ai_port, self.ai_workers)
            for proc, port in [*zip(self.rules, self.rules_ports, strict=True),
                               (self.ai, self.ai_port)]:
                wait_healthy(f"http://{LOOPBACK}:{port}/healthz", proc)
            listen = f"[{self.host}]:{self.port}" if ":" in self.host else \
                f"{self.host}:{self.port}"
            self.nginx = self._spawn(nginx_command(
                self.prefix, listen, [f"{LOOPBACK}:{p}" for p in self.rules_ports],
                [f"{LOOPBACK}:{self.ai_port}"], limits=self.limits))
            wait_healthy(f"{self.url}/healthz", self.nginx)
        except RuntimeError as e:
            self.stop()
            raise RuntimeError(f"{e}\n{self.log_tail()}") from None
        except BaseException:
            self.stop()
            raise
        return self

    def log_tail(self, size: int = 3000) -> str:
        if self.log is None or not self.log.seekable():
            return ""
        self.log.seek(0)
        text = self.log.read()
        return (text.decode(errors="replace") if isinstance(text, bytes) else text)[-size:]

    def __exit__(self, *exc) -> None:
        self.stop()

    def restart_rules(self, i: int) -> None:
        """A rollout of one rules server: the old one drains (SIGTERM) while nginx sends
        what it refuses to the others; a new one then starts on its port."""
        stop(self.rules[i])
        port = self.rules_ports[i]
        self.rules[i] = self.spawn_pool("rules", port, self.rules_workers)
        wait_healthy(f"http://{LOOPBACK}:{port}/healthz", self.rules[i])

    def stop(self) -> None:
        if self.nginx is not None:
            stop(self.nginx, signal.SIGQUIT)  # nginx's graceful shutdown
        for proc in [*self.rules, self.ai]:
            if proc is not None:
                stop(proc)
        shutil.rmtree(self.prefix, ignore_errors=True)

    def wait(self) -> int:
        """Until a process of the stack exits (or a signal stops this one)."""
        procs = [p for p in (self.nginx, self.ai, *self.rules) if p is not None]
        while True:
            for proc in procs:
                if proc.poll() is not None:
                    print(f"{program(proc)} exited with {proc.returncode}", file=sys.stderr)
                    return 1
            time.sleep(0.5)


def serve() -> int:
    stack = Stack(os.environ.get("HOST", LOOPBACK), int(os.environ.get("PORT", "8000")),
                  rules_workers=int(os.environ.get("WEB_CONCURRENCY", "2")),
                  ai_workers=int(os.environ.get("CARDAVIA_AI_WORKERS", "2")))
    # SIGTERM unwinds like Ctrl-C, so that `with` drains and stops every process (and
    # Ctrl-C does, even where a shell started this in the background with SIGINT ignored).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with stack:
            print(f"Cardavia (nginx, rules pool :{stack.rules_ports[0]}, AI pool "
                  f":{stack.ai_port}) on {stack.url}", file=sys.stderr, flush=True)
            return stack.wait()
    except KeyboardInterrupt:
        return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="deploy/stack.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command")
    n = sub.add_parser("nginx", help="render the config and run nginx alone, in its place")
    n.add_argument("--listen", required=True, help="nginx's address, e.g. 8000")
    n.add_argument("--rules", nargs="+", required=True, help="rules pool servers, host:port")
    n.add_argument("--ai", nargs="+", required=True, help="AI pool servers, host:port")
    n.add_argument("--template", type=Path, default=TEMPLATE)
    n.add_argument("--prefix", type=Path, default=Path(tempfile.gettempdir()) / "nginx")
    args = p.parse_args(argv)
    if args.command == "nginx":
        command = nginx_command(args.prefix, args.listen, args.rules, args.ai,
                                args.template.read_text())
        os.execv(command[0], command)
    return serve()


if __name__ == "__main__":
    sys.exit(main())
