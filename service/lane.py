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

from collections.abc import Callable, Iterable

from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.sansio.utils import host_is_trusted

from service.api import LANE
from service.problems import answer_for

STATUS = {code: f"{code} {name}" for code, name in HTTP_STATUS_CODES.items()}


class Lane:
    """Wraps Flask's WSGI application (`app.wsgi_app = Lane(app.wsgi_app, ...)`)."""

    def __init__(self, wsgi_app, trusted_hosts: list[str] | None):
        self.wsgi_app = wsgi_app
        self.trusted_hosts = trusted_hosts  # Flask's TRUSTED_HOSTS

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        route = LANE.get(environ.get("PATH_INFO", "")) \
            if environ.get("REQUEST_METHOD") == "POST" else None
        if route is None or not self._trusted(environ):
            return self.wsgi_app(environ, start_response)
        view, game_id = route
        try:
            answer = view(game_id)
        except Exception as e:  # every error is answered, as a problem document
            answer = answer_for(e)
        body, status, headers = answer
        start_response(STATUS[status], [*headers, ("Content-Length", str(len(body)))])
        return [body]

    def _trusted(self, environ: dict) -> bool:
        """A Host outside CARDAVIA_ALLOWED_HOSTS is Flask's to refuse (400), as for any path."""
        if self.trusted_hosts is None:
            return True
        host = environ.get("HTTP_HOST")
        return host is not None and host_is_trusted(host, self.trusted_hosts)
