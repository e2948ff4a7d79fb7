"""Browsers on other origins may call the API (CORS, API.md "Additions"): every answer,
problems included, says which origins may read it, and a preflight is answered here.

Any origin by default: the service keeps no cookies or credentials, so a page elsewhere
can do nothing with it that a script could not. `CARDAVIA_CORS_ORIGINS` (comma-separated)
narrows the origins; an answer then names the request's origin when it is listed, and
carries `Vary: Origin` so that a cache keys on it.

Answered in service/router.py, where every request passes, rather than by flask-cors:
its `after_request` hook over werkzeug's `Headers` added a measurable share of worker CPU to
a /move under gunicorn (`python -m bench --only http`); here it is a few list appends.
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
    """The CORS headers of an answer, and the answer to a preflight, for service/router.py,
    which every request passes."""

    def __init__(self, allowed: frozenset[str] | None):
        self.allowed = allowed
        self.exposed = [("Access-Control-Expose-Headers", EXPOSED)]  # on every answer

    def headers(self, environ: dict) -> list[tuple[str, str]]:
        """The origin headers of the answer to this request: a new list, for the caller to
        add to."""
        if self.allowed is None:
            return [("Access-Control-Allow-Origin", "*")]
        origin = environ.get("HTTP_ORIGIN")
        if origin in self.allowed:
            return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
        return [("Vary", "Origin")]

    def preflight(self, environ: dict, start_response, allow: list[tuple[str, str]]
                  ) -> list[bytes]:
        """Any method the service serves, with any request header (the service reads
        Content-Type, Accept-Language and X-Request-ID, and ignores the others)."""
        allow += [("Access-Control-Allow-Methods", METHODS),
                  ("Access-Control-Max-Age", PREFLIGHT_MAX_AGE),
                  ("Content-Length", "0")]
        requested = environ.get("HTTP_ACCESS_CONTROL_REQUEST_HEADERS")
        if requested:
            allow.append(("Access-Control-Allow-Headers", requested))
        start_response("204 No Content", allow)
        return [b""]
