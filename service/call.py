"""The request being answered, read one way by every view of the service, service/router.py's
and Flask's alike: its WSGI environ, its body, its query and Accept header, and through it
its app's extensions (the signer, the AI slots). service/edge.py, which every request
passes, makes it current.

Flask's `request` and `current_app` exist only under Flask's own dispatch, which the
router's views never run under; a context variable is what those proxies stand on,
without the per-request context objects around them. Each thread (a gthread worker's)
has its own. No view reads `flask.request` (tests/test_router.py holds it).
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Any
from urllib.parse import parse_qs

from gunicorn.http.errors import ParseException
from werkzeug.datastructures import MIMEAccept
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.http import parse_accept_header
from werkzeug.wsgi import get_content_length

from service.problems import ProblemError

EXTENSIONS = "cardavia.extensions"  # the environ key of the answering app's extensions
MAX_BODY = 1024 * 1024  # API.md: 413 over 1 MiB
INCOMPLETE = ("The body could not be read to its end: the connection closed before all of it "
              "came, or its chunked encoding is malformed.")
CHUNKED = ("The body is chunked, and this server cannot tell where it ends: send it with a "
           "Content-Length.")
_environ: ContextVar[dict] = ContextVar("cardavia.environ")


def enter(environ: dict) -> Token:
    """`environ` is now the request being answered, on this thread, until `leave`."""
    return _environ.set(environ)


def leave(token: Token) -> None:
    """The request `enter` made current is answered: nothing keeps its environ."""
    _environ.reset(token)


def environ() -> dict:
    """The WSGI environ of the request being answered."""
    return _environ.get()


def extension(name: str) -> Any:
    """One of the answering app's extensions, as `current_app.extensions[name]` reads it."""
    return _environ.get()[EXTENSIONS][name]


def query(name: str) -> str | None:
    """The first value of a query parameter (`?cards=36`), blank included; None without."""
    values = parse_qs(_environ.get().get("QUERY_STRING", ""), keep_blank_values=True).get(name)
    return values[0] if values else None


def preferred(offered: list[str]) -> str:
    """Which of the `offered` media types the request's Accept prefers (the first of them
    on a tie, or when it sends none)."""
    accept = parse_accept_header(_environ.get().get("HTTP_ACCEPT"), MIMEAccept)
    return accept.best_match(offered, default=offered[0])


def body_bytes() -> bytes:
    """The request's bytes; 413 beyond MAX_BODY, 400 when they cannot be read whole. Read
    from the WSGI input itself: Flask's MAX_CONTENT_LENGTH would put werkzeug's
    LimitedStream in between, whose Python read loop is a measurable share of a /move
    (bench/profile_move.py)."""
    environ = _environ.get()
    length = get_content_length(environ)
    if length is None and "wsgi.input_terminated" not in environ:
        if "HTTP_TRANSFER_ENCODING" in environ:  # a body this server cannot find the end of
            raise unfinished("chunked", CHUNKED)
        return b""  # no length, no chunks: no body
    if length is not None and length > MAX_BODY:
        raise RequestEntityTooLarge()
    raw = whole(environ["wsgi.input"], length)
    if len(raw) > MAX_BODY:  # a chunked body, whose length is known only once read
        raise RequestEntityTooLarge()
    return raw


def whole(stream, length: int | None) -> bytes:
    """The body from the WSGI input, `length` bytes (up to MAX_BODY + 1 without one), in as
    many reads as the server needs. A body that ends early is the client's doing, a 400
    and not a bug of ours: gunicorn hands a Content-Length body cut short over as it is,
    and raises on chunks cut short (its NoMoreData, an OSError) or ill-formed (its
    ParseExceptions)."""
    want = MAX_BODY + 1 if length is None else length
    try:
        raw = stream.read(want)
        # PEP 3333 lets a server's read return less than asked before the end: read on
        # until the length, or the end of a chunked body (gunicorn gives all at once).
        while len(raw) < want and (more := stream.read(want - len(raw))):
            raw += more
    except (OSError, ParseException):
        raise unfinished("incomplete", INCOMPLETE) from None
    if length is not None and len(raw) < length:
        raise unfinished("incomplete", INCOMPLETE)
    return raw


def unfinished(why: str, detail: str) -> ProblemError:
    """A body that is not whole is no JSON document: API.md's 400 for a body not JSON."""
    return ProblemError(400, "malformed-json", "Malformed JSON", detail,
                        detail_key=f"problem.malformed-json.detail.{why}")
