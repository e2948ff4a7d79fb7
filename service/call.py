"""The request being answered, read one way by every view of the service, service/router.py's
and Flask's alike: its WSGI environ, its query and Accept header, and through it its app's
extensions (the signer, the AI slots); its body through service/body.py. service/edge.py,
which every request passes, makes it current.

Flask's `request` and `current_app` exist only under Flask's own dispatch, which the
router's views never run under; a context variable is what those proxies stand on,
without the per-request context objects around them. Each thread (a gthread worker's)
has its own. No view reads `flask.request` (tests/test_router.py holds it).
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Any
from urllib.parse import parse_qs

from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header

EXTENSIONS = "cardavia.extensions"  # the environ key of the answering app's extensions
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
