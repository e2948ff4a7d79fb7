"""The request being answered, for the code that both of the service's dispatchers run
(service/lane.py's and Flask's): its WSGI environ, and through it its app's extensions (the
signer, the AI slots). service/edge.py, which every request passes, sets it.

Flask's `request` and `current_app` exist only under Flask's own dispatch, which the lane
skips; a context variable is what those proxies stand on, without the per-request context
objects around it. Each thread (a gthread worker's) has its own."""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Any

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
