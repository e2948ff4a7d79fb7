"""gunicorn settings; `make serve` and the Dockerfile both use this file."""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# The AI may think for up to 10 s (API.md); leave room before a worker is called stuck.
timeout = 30
graceful_timeout = 10
keepalive = 5
# Access logs are the app's own JSON lines (service/edge.py), keyed by X-Request-ID.
accesslog = None
# Load the app (and its precomputed move tables) once in the master; workers share it.
preload_app = True


def pre_fork(server, worker):
    # Move the preloaded app's objects out of the collector's reach: a full collection in a
    # worker would otherwise touch every shared page and copy it (copy-on-write).
    import gc

    gc.freeze()
