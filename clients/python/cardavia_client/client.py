"""The client: one method per endpoint of API.md, over one reused `requests.Session`.

An illegal move is an answer (`MoveResult.legal` is False, with its reason), not an error.
Every error the client raises is a `CardaviaError`, so one `except` catches them all:

- `ProblemError`: the service refused the request (a malformed body, an invalid state, an
  unknown game…); it carries the problem document (RFC 9457);
- `UnreachableError`: no service answers at the URL (refused, unknown host, no route, the
  connection timed out);
- `TimeoutError`: the service took longer than the read timeout to answer;
- `UnexpectedAnswerError`: an answer that is not the service's (another status or content
  type, a body without the fields API.md promises).

`UnreachableError` and `TimeoutError` are `requests.ConnectionError` and `requests.Timeout`
too, for code written against requests. Every request has a timeout.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, cast

import requests

from cardavia_client.types import (
    AiMove,
    Deal,
    GameInfo,
    GameRecord,
    LegalMoves,
    Move,
    MoveResult,
    ReplayResult,
    Rule,
    Session,
    Settlement,
    State,
)

DEFAULT_URL = "http://127.0.0.1:8000"
# (connect, read) seconds: an AI move may take its whole budget (up to 10 s, API.md).
DEFAULT_TIMEOUT = (5.0, 30.0)


class CardaviaError(Exception):
    """Every error of the client: catch it to catch them all."""


class UnexpectedAnswerError(CardaviaError):
    """An answer that is not what the service answers: the wrong status or content type, or
    a body without the fields API.md promises (another service at the URL, or an older
    one)."""


class UnreachableError(CardaviaError, requests.ConnectionError):
    """No service answers at the client's URL: the connection was refused, the host is
    unknown or out of reach, or connecting timed out."""


class TimeoutError(CardaviaError, requests.Timeout):
    """The service took longer than the client's read timeout to answer (the client's own,
    `cardavia_client.TimeoutError`, not the builtin)."""


class ProblemError(CardaviaError):
    """The service refused the request: `problem` is its problem document (`type`, `title`,
    `status`, `detail`, and `errors` naming each field at fault); `retry_after`: the seconds
    its Retry-After asks a client to wait before asking again (429, 503), else None."""

    def __init__(self, problem: dict[str, Any], retry_after: float | None = None):
        self.problem = problem
        self.retry_after = retry_after
        self.status: int = problem.get("status", 0)
        self.type: str = problem.get("type", "")
        self.errors: list[dict[str, Any]] = problem.get("errors", [])
        fields = "; ".join(f"{e.get('field') or '(body)'}: {e.get('message')}"
                           for e in self.errors[:5])
        super().__init__(f"{self.status} {problem.get('title', '')}: "
                         f"{problem.get('detail', '')}" + (f" ({fields})" if fields else ""))


def seconds(retry_after: str | None) -> float | None:
    """A Retry-After of delta-seconds, as the service and its proxy send it; None else."""
    text = (retry_after or "").strip()
    return float(text) if text.isdigit() else None


P = ParamSpec("P")
R = TypeVar("R")


def _answer(method: Callable[P, R]) -> Callable[P, R]:
    """An endpoint's method: an answer without the fields API.md promises (another service,
    or an older one) is a CardaviaError, not a KeyError."""
    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (KeyError, TypeError, ValueError) as e:  # ValueError: a body that is not JSON
            raise UnexpectedAnswerError(f"{method.__name__}: not the answer API.md describes "
                                f"({type(e).__name__}: {e})") from e
    return call


def _without_none(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


class Client:
    """`Client("http://127.0.0.1:8000")`; `language` is sent as `Accept-Language`.
    Use it as a context manager, or call `close()`, to release its connections."""

    def __init__(self, url: str = DEFAULT_URL, *, timeout: float | tuple[float, float] =
                 DEFAULT_TIMEOUT, language: str | None = None,
                 session: requests.Session | None = None):
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.session = session if session is not None else requests.Session()
        if language is not None:
            self.session.headers["Accept-Language"] = language

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.session.close()

    # -- transport -------------------------------------------------------------------------

    def _send(self, method: str, path: str, body: dict[str, Any] | None = None,
              headers: dict[str, str] | None = None) -> requests.Response:
        try:
            r = self.session.request(method, self.url + path, json=body,
                                     timeout=self.timeout, headers=headers)
        # ConnectTimeout is a ConnectionError too: the server was never reached.
        except requests.ConnectionError as e:
            raise UnreachableError(f"no service answers at {self.url}: {e}") from e
        except requests.Timeout as e:
            raise TimeoutError(f"{method} {path}: no answer within the read timeout "
                               f"({self.timeout}): {e}") from e
        except requests.RequestException as e:
            raise CardaviaError(f"{method} {path}: {e}") from e
        if r.status_code == 200:
            return r
        if r.headers.get("Content-Type", "").startswith("application/problem+json"):
            try:
                problem = r.json()
            except ValueError:  # not JSON after all: not the service's answer
                problem = None
            if isinstance(problem, dict):
                raise ProblemError(problem, seconds(r.headers.get("Retry-After")))
        raise UnexpectedAnswerError(f"{method} {path}: HTTP {r.status_code} {r.text[:200]!r}")

    def _json(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self._send(method, path, body).json()

    # -- the endpoints ---------------------------------------------------------------------

    @_answer
    def games(self) -> list[GameInfo]:
        """`GET /v1/games`: every game."""
        return cast(list[GameInfo], self._json("GET", "/v1/games")["games"])

    @_answer
    def game(self, game: str, cards: int | None = None) -> GameInfo:
        """`GET /v1/games/{game}`: one game, with every card of its deck, or of its deck
        of `cards` cards (Durak's 24, 36 or 52)."""
        query = "" if cards is None else f"?cards={int(cards)}"
        return cast(GameInfo, self._json("GET", f"/v1/games/{game}{query}"))

    @_answer
    def deal(self, game: str, *, seed: int | None = None, deck: list[str] | None = None,
             **options: Any) -> Deal:
        """`POST /v1/games/{game}/deal`: stacked from `deck`, shuffled by `seed`, or at
        random. `options` are the game's own: Tarot's `dealer` and `players`, Ganjifa's
        `period`, Durak's `players`, `cards`, `transfer`, `throw_in`, `first_bout` and
        `known` (API.md); one left None is not sent."""
        data = self._json("POST", f"/v1/games/{game}/deal",
                          _without_none(seed=seed, deck=deck, **options))
        return Deal(data["state"], data["deck"])

    @_answer
    def legal_moves(self, game: str, state: State) -> LegalMoves:
        """`POST /v1/games/{game}/legal-moves`: the seat to act and every legal move."""
        data = self._json("POST", f"/v1/games/{game}/legal-moves", {"state": state})
        return LegalMoves(data["to_act"], data["moves"])

    @_answer
    def move(self, game: str, state: State, move: Move) -> MoveResult:
        """`POST /v1/games/{game}/move`: the next state, or why the move is illegal."""
        return MoveResult.of(self._json("POST", f"/v1/games/{game}/move",
                                        {"state": state, "move": move}))

    @_answer
    def ai_move(self, game: str, state: State, *, seat: int | None = None,
                level: str | None = None, seed: int | None = None,
                budget_ms: int | None = None) -> AiMove:
        """`POST /v1/games/{game}/ai-move`: a legal move for `seat` (default: the seat to
        act) at `level` (random, basic or strong, the default)."""
        data = self._json("POST", f"/v1/games/{game}/ai-move", _without_none(
            state=state, seat=seat, level=level, seed=seed, budget_ms=budget_ms))
        return AiMove(data["move"], data["level"], data["elapsed_ms"])

    @_answer
    def view(self, game: str, state: State, seat: int) -> State:
        """`POST /v1/games/{game}/view`: the state as `seat` sees it, hidden cards "?"."""
        return cast(State, self._json("POST", f"/v1/games/{game}/view",
                                      {"state": state, "seat": seat})["view"])

    @_answer
    def settlement(self, sheet: dict[str, Any]) -> Settlement:
        """`POST /v1/games/tarot/settlement`: a Tarot deal played elsewhere, settled from
        its score sheet (`contract`, `taker`, `bouts`, `points`, bonuses; API.md)."""
        return cast(Settlement, self._json("POST", "/v1/games/tarot/settlement", sheet))

    @_answer
    def tarot_session(self, players: list[str], deals: list[dict[str, Any]], *,
                dealer: int | None = None) -> Session:
        """`POST /v1/games/tarot/session`: a Tarot evening, each deal's sheet (a
        `settlement` body, or `{"annulled": "all_pass" | "petit_sec"}`) settled in order,
        with the running totals, the next dealer and each player's statistics. The
        arguments are the session file's fields."""
        return cast(Session, self._json("POST", "/v1/games/tarot/session",
                                        _without_none(players=players, deals=deals,
                                                      dealer=dealer)))

    @_answer
    def tarot_session_csv(self, players: list[str], deals: list[dict[str, Any]], *,
                          dealer: int | None = None, dialect: str | None = None) -> str:
        """The same session as a CSV file's text (`Accept: text/csv`): one row a deal.
        `dialect`: "comma" or "semicolon" (a French spreadsheet's, beginning with a byte
        order mark); by default the one of the client's language."""
        body = _without_none(players=players, deals=deals, dealer=dealer)
        path = "/v1/games/tarot/session" + (f"?dialect={dialect}" if dialect else "")
        return self._send("POST", path, body,
                          headers={"Accept": "text/csv"}).content.decode("utf-8")

    @_answer
    def replay(self, game: str, moves: list[Move], *, deal: dict[str, Any] | None = None,
               state: State | None = None, include: str | None = None) -> ReplayResult:
        """`POST /v1/games/{game}/replay`: `moves` from a `deal` (a DealRequest: seed, deck,
        options) or a `state`, exactly one; `include="all"` adds every state and event."""
        return ReplayResult.of(self._json("POST", f"/v1/games/{game}/replay", _without_none(
            deal=deal, state=state, moves=moves, include=include)))

    def replay_record(self, record: GameRecord, *, include: str | None = None
                      ) -> ReplayResult:
        """A game record (`{"game", "deal", "moves"}`) replayed from its deal."""
        return self.replay(record["game"], record["moves"], deal=record["deal"],
                           include=include)

    @_answer
    def render(self, game: str, state: State, *, seat: int | None = None,
               format: str | None = None, indices: str | None = None) -> str:
        """`POST /v1/games/{game}/render`: the table as `seat` sees it (or the whole state
        face up), as `"text"` for a terminal or as `"svg"` (the service's default); with
        `indices` (Durak's `english`, `french` or `russian`), its courts lettered as the
        reader's cards are, and the text writing each card as its corner reads."""
        body = _without_none(state=state, seat=seat, format=format, indices=indices)
        return self._send("POST", f"/v1/games/{game}/render", body).text

    @_answer
    def words(self) -> dict[str, str]:
        """The table page's words (`GET /table/locales/{lang}.json`) in the language the
        service answers this client in (its `Content-Language` for `language`): labels,
        phases, contracts, the score sheet's terms, one list per language."""
        lang = self._send("GET", "/healthz").headers.get("Content-Language", "en")
        if not lang.isalpha():
            raise UnexpectedAnswerError(f"Content-Language {lang!r} is no language")
        return cast(dict[str, str], self._json("GET", f"/table/locales/{lang}.json"))

    @_answer
    def rules(self, game: str) -> list[Rule]:
        """`GET /v1/games/{game}/rules`: every rule of the game, in the client's language."""
        return [Rule(r["id"], r["title"], r["text"])
                for r in self._json("GET", f"/v1/games/{game}/rules")["rules"]]
