"""Request ids and JSON access logs.

Every answer carries `X-Request-ID`: the client's, when it sent a sensible one, so that a
request can be followed across services; else a fresh one. With CARDAVIA_ACCESS_LOG set,
each request is logged as one JSON line naming that id.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time

import orjson
from flask import Flask, g, request

HEADER = "X-Request-ID"
# Echoing a header back is safe only for a short id of plain characters.
ACCEPTABLE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
log = logging.getLogger("cardavia.access")


def register(app: Flask) -> None:
    enabled = bool(app.config.get("ACCESS_LOG"))
    if enabled and not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False

    if enabled:
        @app.before_request
        def _start():
            g.started = time.perf_counter()

    @app.after_request
    def _finish(response):
        given = request.headers.get(HEADER, "")
        request_id = given if ACCEPTABLE_ID.fullmatch(given) else os.urandom(16).hex()
        response.headers[HEADER] = request_id
        if enabled:
            log.info(orjson.dumps({
                "request_id": request_id,
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "ms": round((time.perf_counter() - g.get("started", time.perf_counter()))
                            * 1000, 3),
                "bytes": response.calculate_content_length(),
                "remote": request.remote_addr,
            }).decode())
        return response
