"""Browsers on other origins may call the API (CORS, API.md "Additions"): every answer,
problems included, says which origins may read it, and a preflight is answered here.

Any origin by default: the service keeps no cookies or credentials, so a page elsewhere
can do nothing with it that a script could not. `CARDAVIA_CORS_ORIGINS` (comma-separated)
narrows the origins; an answer then names the request's origin when it is listed, and
carries `Vary: Origin` so that a cache keys on it.

A WSGI middleware, as service/edge.py and for its reason: flask-cors, an `after_request`
hook over werkzeug's `Headers`, added a measurable share of worker CPU to a /move under
gunicorn (`python -m bench --only http`); a middleware is a few list appends.
"""

from __future__ import annotations

from service.edge import HEADER

# What a page may read of an answer besides the CORS-safelisted headers.
EXPOSED = f"{HEADER}, Content-Language, Retry-After"  # Retry-After: a 503, a 429
METHODS = "GET, HEAD, POST, OPTIONS"  # every method a path of the service answers
PREFLIGHT_MAX_AGE = "600"  # seconds a browser may reuse a preflight's answer


def origins(setting: str | None) -> frozenset[str] | None:
    """The allowed origins of a `CARDAVIA_CORS_ORIGINS` value; None (any) when unset or
    empty."""
    listed = frozenset(o.strip() for o in (setting or "").split(",") if o.strip())
    return listed or None


class Cors:
    """Wraps a WSGI application (`app.wsgi_app = Cors(app.wsgi_app, ...)`)."""

    def __init__(self, wsgi_app, allowed: frozenset[str] | None):
        self.wsgi_app = wsgi_app
        self.allowed = allowed

    def _allow(self, environ) -> list[tuple[str, str]]:
        if self.allowed is None:
            return [("Access-Control-Allow-Origin", "*")]
        origin = environ.get("HTTP_ORIGIN")
        if origin in self.allowed:
            return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
        return [("Vary", "Origin")]

    def __call__(self, environ, start_response):
        allow = self._allow(environ)
        if environ["REQUEST_METHOD"] == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in \
                environ:
            # A preflight: any method the service serves, with any request header (the
            # service reads Content-Type, Accept-Language and X-Request-ID, ignores others).
            allow += [("Access-Control-Allow-Methods", METHODS),
                      ("Access-Control-Max-Age", PREFLIGHT_MAX_AGE),
                      ("Content-Length", "0")]
            requested = environ.get("HTTP_ACCESS_CONTROL_REQUEST_HEADERS")
            if requested:
                allow.append(("Access-Control-Allow-Headers", requested))
            start_response("204 No Content", allow)
            return [b""]
        allow.append(("Access-Control-Expose-Headers", EXPOSED))

        def start(status: str, headers: list, exc_info=None):
            headers.extend(allow)
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)
