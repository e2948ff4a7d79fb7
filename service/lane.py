"""The service's JSON endpoints per game (`POST /v1/games/<game>/<action>`, service/api.py's
LANE) answered at the WSGI edge, beside Flask rather than through it.

Flask's dispatch of one request (its request and app contexts, the URL adapter bound to
the Host, the signals, werkzeug's Request, Response and Headers objects) costs about as
much CPU as a Durak `/move`'s own work: parsing, checking and playing the move and dumping
the new state (`python -m bench.profile_move`). The lane looks the path up in a dict and
calls the same view; an error becomes the same problem document (service/problems.py).
What the table does not hold exactly (another method, a game id in another case, a
trailing slash, an unknown game, every other path) goes on to Flask, which answers it as
before. service/edge.py and service/cors.py wrap both, so every answer carries the same
headers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.sansio.utils import host_is_trusted

from service.api import LANE
from service.problems import answer_for

# Each code's status line as werkzeug's Response writes it (`422 UNPROCESSABLE ENTITY`), so
# that an answer reads the same, to its first line, whichever dispatcher gave it.
STATUS_LINES = {code: f"{code} {name.upper()}" for code, name in HTTP_STATUS_CODES.items()}


class Lane:
    """Wraps Flask's WSGI application (`app.wsgi_app = Lane(app.wsgi_app, ...)`), inside
    service/cors.py and service/edge.py: Edge makes the request current before a lane view
    reads it (service/call.py), and both add their headers to the lane's answers."""

    def __init__(self, wsgi_app, config: Mapping[str, Any]):
        self.wsgi_app = wsgi_app
        self.config = config  # the app's: Flask's TRUSTED_HOSTS as Flask reads it, each time

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        _lower_host(environ)
        route = LANE.get(environ.get("PATH_INFO", "")) \
            if environ.get("REQUEST_METHOD") == "POST" else None
        if route is None or not self._trusted(environ):
            return self.wsgi_app(environ, start_response)
        view, game_id = route
        try:
            body, status, headers = view(game_id)
            line = STATUS_LINES[status]
        except Exception as e:  # as Flask's one error handler answers it
            body, status, headers = answer_for(e)
            line = STATUS_LINES[status]
        start_response(line, [*headers, ("Content-Length", str(len(body)))])
        return [body]

    def _trusted(self, environ: dict) -> bool:
        """Whether the lane may answer: a Host outside CARDAVIA_ALLOWED_HOSTS goes on to Flask,
        which refuses it (400) as on any path; so does a request with no Host, whose
        SERVER_NAME Flask judges instead."""
        trusted = self.config["TRUSTED_HOSTS"]
        if trusted is None:
            return True
        host = environ.get("HTTP_HOST")
        return host is not None and host_is_trusted(host, trusted)


def _lower_host(environ: dict) -> None:
    """Host names are case-insensitive (RFC 9110 §4.2.3), but werkzeug matches a Host
    against TRUSTED_HOSTS as sent (`LOCALHOST` is not `localhost`): lowered here, where
    every request passes before the lane or Flask judges it, to meet the lowered names of
    service/app.py's allowed_hosts."""
    host = environ.get("HTTP_HOST")
    if host is not None:
        environ["HTTP_HOST"] = host.lower()
