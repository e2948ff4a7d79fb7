"""gunicorn's own answer to a request it cannot read, as a problem document with what every
answer of the service carries (service/edge.py, service/cors.py), instead of its HTML page.

nginx answers most such requests itself (deploy/nginx: its 400, 414, 431…), but passes on a
header holding a control character (U+0001-U+0008, U+000B-U+001F, U+007F: an ESC in a
scanner's User-Agent), which gunicorn refuses (RFC 9110 §5.5) with `text/html` and none of
nosniff, X-Request-ID or CORS, so a page could not read why. Under bare gunicorn (`make
serve`) its request-line and header limits answer the same way.

The request was not read, so its `Origin`, `X-Request-ID` and `Accept-Language` are unknown:
any origin when CARDAVIA_CORS_ORIGINS is unset (else none is named), a fresh request id,
English. gunicorn writes these answers through `gunicorn.util.write_error` (its workers'
`handle_error`), which `install` replaces; gunicorn.conf.py installs it in the master, so
every worker forked after has it."""

from __future__ import annotations

import os

import gunicorn.util

from service.cors import Cors, origins
from service.edge import EVERY_ANSWER, HEADER
from service.problems import problem_response

SLUGS = {414: "request-too-large", 431: "request-too-large", 500: "internal-error"}
DETAILS = {
    414: "The request line is longer than this service reads.",
    431: "A header, or the headers, are longer than this service reads.",
    500: "The service failed to answer this request; the failure is logged.",
}
UNREAD = "The request is not HTTP that this service reads (a header may hold a control " \
         "character)."


def answer(status: int, reason: str) -> bytes:
    """The whole HTTP answer gunicorn writes for `status` before closing the connection."""
    body, _, content = problem_response(status, SLUGS.get(status, "http-error"), reason,
                                        DETAILS.get(status, UNREAD))
    cors = Cors(origins(os.environ.get("CARDAVIA_CORS_ORIGINS")))
    headers = [("Connection", "close"), *content, ("Content-Length", str(len(body))),
               *EVERY_ANSWER, (HEADER, os.urandom(16).hex()), ("Content-Language", "en"),
               *cors.headers({}), *cors.exposed]
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
    return head.encode("latin-1") + b"\r\n" + body


def write_problem(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn.util.write_error's signature; gunicorn's message (which may quote the
    client's request line) is logged by gunicorn, not echoed."""
    gunicorn.util.write_nonblock(sock, answer(status_int, reason))


def install() -> None:
    gunicorn.util.write_error = write_problem
