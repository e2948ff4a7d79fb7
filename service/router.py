"""The JSON API's one dispatcher: every `POST /v1/games/<game>/<action>` (the generic
actions, and a game's own such as Tarot's `settlement` and `session`), with every other
method on those paths, is answered here; Flask answers the rest (the GETs and the HTML
pages), and is never given a path of this table (`check_disjoint`, at start).

Every request passes here first, Flask's too: its Host is judged against
CARDAVIA_ALLOWED_HOSTS, a CORS preflight is answered, and every answer gets its CORS
headers (service/cors.py). On the table's paths a game id and an action are read in any
case, a trailing or doubled slash is the same path, an unknown game is a 404, another
method a 405 and OPTIONS an `Allow`: each error a problem document of service/problems.py,
as Flask's own errors are.

Why not Flask's dispatch for these too: for one request its contexts, the URL adapter,
the signals and werkzeug's Request, Response and Headers objects cost about as much CPU as
a Durak `/move`'s own work (`python -m bench.profile_move`); here a path is a dict lookup,
and a view returns its answer as bytes, a status and headers (problems.Answer). A view
reads its request through service/call.py, the one way every view of the service reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.exceptions import MethodNotAllowed, NotFound, SecurityError
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.routing import Map
from werkzeug.wsgi import get_host

from schemas.registry import GAMES
from service.cors import Cors
from service.problems import Answer, ProblemError, allow, answer_for

View = Callable[[str], Answer]  # a view is called with the game its path names
# (game id, action) -> view: filled by `post` as the view modules are imported.
TABLE: dict[tuple[str, str], View] = {}
PREFIX = "/v1/games/"
METHODS = ("OPTIONS", "POST")  # what a path of the table answers
ALLOW = allow(METHODS)
# Each code's status line as werkzeug's Response writes it (`422 UNPROCESSABLE ENTITY`), so
# that an answer reads the same, to its first line, whichever dispatcher gave it.
STATUS_LINES = {code: f"{code} {name.upper()}" for code, name in HTTP_STATUS_CODES.items()}


def post(action: str, games: Iterable[str] | None = None) -> Callable[[View], View]:
    """Registers a view for `POST /v1/games/<game>/<action>`, for every game or for
    `games`."""
    def register(view: View) -> View:
        for game_id in GAMES if games is None else games:
            if (game_id, action) in TABLE:
                raise ValueError(f"two views for POST {PREFIX}{game_id}/{action}")
            TABLE[(game_id, action)] = view
        return view
    return register


def unknown_game(game_id: str) -> ProblemError:
    return ProblemError(404, "unknown-game", "Unknown game",
                        f"No game {game_id!r}; the games are {', '.join(GAMES)}.",
                        params={"game": repr(game_id), "games": ", ".join(GAMES)})


def paths(table: dict[tuple[str, str], View]) -> dict[str, tuple[View, str]]:
    """Each path of the table as written (`/v1/games/durak/move`), with its view and game:
    the lookup a request of the usual spelling meets first."""
    return {f"{PREFIX}{game_id}/{action}": (view, game_id)
            for (game_id, action), view in table.items()}


def templates(table: dict[tuple[str, str], View]) -> dict[str, tuple[str, View]]:
    """Each path of the table as the contract (openapi.yaml) writes it, with its action and
    view: `/v1/games/{game}/move` for an action of every game, `/v1/games/tarot/settlement`
    for a game's own."""
    out: dict[str, tuple[str, View]] = {}
    for (game_id, action), view in table.items():
        every = all(table.get((other, action)) is view for other in GAMES)
        out[f"{PREFIX}{'{game}' if every else game_id}/{action}"] = (action, view)
    return out


def check_disjoint(url_map: Map, table: dict[tuple[str, str], View]) -> None:
    """Refuses to start a service whose Flask app could answer a path of the table (a rule
    of another method would be shadowed, a view would have two ways in) or any POST (its
    view would read the request in Flask's way, untested on the table's)."""
    posted = [rule.rule for rule in url_map.iter_rules() if "POST" in (rule.methods or ())]
    if posted:
        raise RuntimeError(f"POST routes belong to service/router.py, not to Flask: {posted}")
    adapter = url_map.bind("localhost")
    for game_id in (*GAMES, "no-such-game"):
        for action in {action for _, action in table}:
            path = f"{PREFIX}{game_id}/{action}"
            if adapter.allowed_methods(path):
                raise RuntimeError(f"{path} is routed by both service/router.py and Flask")


class Router:
    """The WSGI application in front of Flask's (`app.wsgi_app = Router(app.wsgi_app, ...)`),
    inside service/edge.py, which makes the request current (service/call.py) first."""

    def __init__(self, flask_app, table: dict[tuple[str, str], View],
                 hosts: list[str] | None, cors: Cors):
        self.flask_app = flask_app
        self.table = dict(table)
        self.exact = paths(self.table)
        self.actions = frozenset(action for _, action in self.table)
        self.hosts = hosts  # service/app.py's allowed_hosts: None for any
        self.cors = cors

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        host = environ.get("HTTP_HOST")
        if host is not None:  # RFC 9110 §4.2.3, and allowed_hosts lowers the names
            environ["HTTP_HOST"] = host.lower()
        cors = self.cors.headers(environ)
        if self.hosts is not None and not self._trusted(environ):
            return _send(start_response, answer_for(SecurityError()), cors)
        method = environ["REQUEST_METHOD"]
        if method == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in environ:
            return self.cors.preflight(environ, start_response, cors)
        cors.extend(self.cors.exposed)
        path = environ.get("PATH_INFO", "")
        route = self.exact.get(path)
        if route is not None and method == "POST":
            return _send(start_response, _answer(*route), cors)
        folded = self._fold(path)
        if folded is None:  # not a path of the table: Flask's

            def start(status: str, headers: list, exc_info: Any = None):
                headers.extend(cors)
                return start_response(status, headers, exc_info)

            return self.flask_app(environ, start)
        return _send(start_response, self._other(method, *folded), cors,
                     head=method == "HEAD")

    def _fold(self, path: str) -> tuple[str, str] | None:
        """The (game, action) of a path of the table spelt otherwise: the game and the
        action in another case, a slash doubled or at the end; None for a path that is not
        one of the table's, whatever its game."""
        parts = [part for part in path.split("/") if part]
        if len(parts) != 4 or parts[0] != "v1" or parts[1] != "games":
            return None
        action = parts[3].lower()
        return (parts[2].lower(), action) if action in self.actions else None

    def _other(self, method: str, game_id: str, action: str) -> Answer:
        """The answer to a request on a path of the table other than a POST of its usual
        spelling: that POST's, a 404, a 405, or the path's `Allow`."""
        view = self.table.get((game_id, action))
        if view is None:
            return answer_for(NotFound() if game_id in GAMES else unknown_game(game_id))
        if method == "POST":
            return _answer(view, game_id)
        if method == "OPTIONS":
            return b"", 200, [("Allow", ALLOW)]
        return answer_for(MethodNotAllowed(METHODS))

    def _trusted(self, environ: dict) -> bool:
        """The request's Host (SERVER_NAME without one) is one of CARDAVIA_ALLOWED_HOSTS."""
        try:
            get_host(environ, self.hosts)
        except SecurityError:
            return False
        return True


def _answer(view: View, game_id: str) -> Answer:
    """The view's answer, or the problem of what it raised (a bug of ours, such as an answer
    that is none, is a logged 500, as anything else a view raises unexpectedly)."""
    try:
        body, status, headers = view(game_id)
        STATUS_LINES[status]  # a status no status line names is no answer
    except Exception as e:  # noqa: BLE001 - service/problems.py says what, and logs a bug
        return answer_for(e)
    return body, status, headers


def _send(start_response: Callable, answer: Answer, cors: list[tuple[str, str]],
          head: bool = False) -> list[bytes]:
    """The answer sent; to a HEAD, its headers alone (RFC 9110 §9.3.2), as werkzeug sends."""
    body, status, headers = answer
    start_response(STATUS_LINES[status],
                   [*headers, ("Content-Length", str(len(body))), *cors])
    return [] if head else [body]
