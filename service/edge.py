"""What every answer carries, added at the WSGI edge around Flask: the request id, the
language of the answer and, with CARDAVIA_ACCESS_LOG set, an access-log line.

- `X-Request-ID`: the client's, when it sent a sensible one, so that a request can be
  followed across services; else a fresh one.
- `Content-Language` and `Vary: Accept-Language` (service/i18n.py negotiates the language
  here, once, and the views read it from the WSGI environ).
- The access log: one JSON line per request naming its id.
- `X-Content-Type-Options: nosniff` on every answer; on an HTML page (the table, /docs, a
  problem's page) a Content-Security-Policy that runs only the service's own scripts and
  styles (a problem page's one inline style by its hash), that no other site may frame,
  and `Referrer-Policy`.

It also makes the request the current one for every view (service/call.py).

A WSGI middleware rather than Flask `after_request` hooks: there, werkzeug's `Headers`
and the `request`/`g` proxies cost a third of what a whole /move adds
over a bare echo (bench/profile_move.py); here each header is a list append, and it wraps
service/router.py's answers as well as Flask's.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import re
import sys
import time

import orjson

from service import call, i18n
from service.problem_pages import STYLE

# Swagger UI's logo (/docs) is an inline SVG with a style element of its own, this one.
SWAGGER_LOGO_STYLE = ".logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}"


def style_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"



CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'",
    "script-src 'self'",
    f"style-src 'self' {style_hash(STYLE)} {style_hash(SWAGGER_LOGO_STYLE)}",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
])
EVERY_ANSWER = [("X-Content-Type-Options", "nosniff")]
HTML_PAGE = [("Content-Security-Policy", CONTENT_SECURITY_POLICY),
             ("X-Frame-Options", "DENY"),  # for browsers that predate frame-ancestors
             ("Referrer-Policy", "no-referrer")]

HEADER = "X-Request-ID"
# Echoing a header back is safe only for a short id of plain characters.
ACCEPTABLE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
log = logging.getLogger("cardavia.access")


def _log_to_stderr() -> None:
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False


def _answer_headers(headers: list[tuple[str, str]]) -> None:
    """`Vary: Accept-Language` added to the answer's own `Vary` or as one of its own, and
    HTML_PAGE's headers to a page, in one pass over the headers."""
    vary = html = None
    for i, (name, value) in enumerate(headers):
        lowered = name.lower()
        if lowered == "vary":
            vary = i
        elif lowered == "content-type":
            html = value.startswith("text/html")
    if vary is None:
        headers.append(("Vary", "Accept-Language"))
    elif "accept-language" not in headers[vary][1].lower():
        headers[vary] = (headers[vary][0], f"{headers[vary][1]}, Accept-Language")
    headers.extend(EVERY_ANSWER)
    if html:
        headers.extend(HTML_PAGE)


class Edge:
    """Wraps a WSGI application (`app.wsgi_app = Edge(app.wsgi_app, ...)`, as Flask
    documents for middleware)."""

    def __init__(self, wsgi_app, extensions: dict, access_log: bool):
        self.wsgi_app = wsgi_app
        self.extensions = extensions  # the app's, for service/call.py
        self.access_log = access_log
        if access_log:
            _log_to_stderr()

    def __call__(self, environ, start_response):
        started = time.perf_counter() if self.access_log else 0.0
        given = environ.get("HTTP_X_REQUEST_ID")
        request_id = given if given and ACCEPTABLE_ID.fullmatch(given) else os.urandom(16).hex()
        lang = environ[i18n.LANG] = i18n.negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
        environ[call.EXTENSIONS] = self.extensions

        def start(status: str, headers: list, exc_info=None):
            headers.append((HEADER, request_id))
            # English when part of the answer had no translation (i18n.fell_back).
            headers.append(("Content-Language", environ.get(i18n.ANSWERED, lang)))
            _answer_headers(headers)
            if self.access_log:
                log.info(orjson.dumps({
                    "request_id": request_id,
                    "method": environ.get("REQUEST_METHOD"),
                    "path": environ.get("PATH_INFO"),
                    "status": int(status[:3]),
                    "ms": round((time.perf_counter() - started) * 1000, 3),
                    "bytes": next((int(v) for k, v in headers
                                   if k.lower() == "content-length"), None),
                    "remote": environ.get("REMOTE_ADDR"),
                }).decode())
            return start_response(status, headers, exc_info)

        entered = call.enter(environ)
        try:
            return self.wsgi_app(environ, start)
        finally:
            call.leave(entered)
