"""gunicorn settings; `make serve`, `make serve-prod` (deploy/stack.py) and the Dockerfile all
use this file. CARDAVIA_POOL chooses the pool: `rules` (the default: every endpoint, sync
workers) or `ai` (the pool that `ai-move` is routed to behind nginx, deploy/nginx)."""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
pool = os.environ.get("CARDAVIA_POOL", "rules")
if pool not in ("rules", "ai"):
    raise SystemExit(f"CARDAVIA_POOL must be 'rules' or 'ai', not {pool!r}")
if pool == "ai":
    # A search holds its thread for up to budget_ms; the worker's other threads still answer
    # /healthz and turn away, with a 503 (service/capacity.py), the searches it has no slot for.
    worker_class = "gthread"
    threads = 4
    # Where both pools share a host's cores (`make serve-prod`), the rules pool's short
    # requests come first and searches take what is left; alone in a pod it changes nothing.
    ai_nice = int(os.environ.get("CARDAVIA_AI_NICE", "10"))

    def post_fork(server, worker):
        os.nice(ai_nice)
# The AI may think for up to 10 s (API.md); leave room before a worker is called stuck.
timeout = 30
# SIGTERM drains: a worker finishes what it holds (a 10 s search included) before it exits.
graceful_timeout = 15
keepalive = 5
# Access logs are the app's own JSON lines (service/edge.py), keyed by X-Request-ID.
accesslog = None
# Nothing written to the root filesystem, which Kubernetes mounts read-only: no control
# socket (gunicorn's default puts one in $HOME), heartbeat files on a tmpfs.
control_socket_disable = True
worker_tmp_dir = os.environ.get("GUNICORN_WORKER_TMP_DIR") or (
    "/dev/shm" if os.path.isdir("/dev/shm") else None)
# No request header sets SCRIPT_NAME or PATH_INFO (gunicorn's default lets a loopback peer,
# as a trusted proxy, do so): a client's `SCRIPT_NAME` that its path did not start with was
# gunicorn's own HTML 500. The service is mounted by the SCRIPT_NAME of its environment.
forwarder_headers = ""
# Load the app (and its precomputed move tables) once in the master; workers share it.
preload_app = True


def on_starting(server):
    # gunicorn's own answers (a header holding a control character, which nginx passes on)
    # as problem documents, not its HTML page: service/unread.py.
    from service.unread import install

    install()


def pre_fork(server, worker):
    # Move the preloaded app's objects out of the collector's reach: a full collection in a
    # worker would otherwise touch every shared page and copy it (copy-on-write).
    import gc

    gc.freeze()
# Behind nginx (deploy/nginx), nginx meets every request-size limit first and answers it as
# a problem document: its 4 KiB request line and header lines, 16 KiB of headers. These are
# gunicorn's largest, so that no request nginx lets through gets gunicorn's HTML instead.
limit_request_line = 8190
limit_request_field_size = 8190
limit_request_fields = 8192
