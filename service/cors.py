"""Browsers on other origins may call the API (CORS, API.md "Additions"): flask-cors adds
`Access-Control-Allow-*` to every answer, preflights and problems included.

Any origin by default: the service keeps no cookies or credentials, so a page elsewhere
can do nothing with it that a script could not. `CARDAVIA_CORS_ORIGINS` (comma-separated)
narrows the origins for those who want it.
"""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

from service.edge import HEADER

# What a page may read of an answer besides the CORS-safelisted headers.
EXPOSED = [HEADER, "Content-Language"]
PREFLIGHT_MAX_AGE = 600  # seconds a browser may reuse a preflight's answer


def origins(setting: str | None) -> list[str] | str:
    """The allowed origins of a `CARDAVIA_CORS_ORIGINS` value: "*" when unset or empty."""
    listed = [o.strip() for o in (setting or "").split(",") if o.strip()]
    return listed or "*"


def register(app: Flask) -> None:
    # send_wildcard: "*" rather than the echoed origin when any is allowed, so that caches
    # need not key answers on Origin.
    CORS(app, origins=origins(app.config.get("CORS_ORIGINS")), send_wildcard=True,
         expose_headers=EXPOSED, max_age=PREFLIGHT_MAX_AGE)
