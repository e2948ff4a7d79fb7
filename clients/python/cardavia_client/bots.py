"""The bot protocol of `cardavia match`: what a bot is asked, and what it is told.

A bot is an HTTP endpoint. For each of its moves it receives a JSON POST

    {"game": "durak", "deal": "5f0c…", "seat": 1, "view": View, "legal_moves": [Move…]}

and answers the move it plays, as a Move or as `{"move": Move}`. When a deal it sits in
is over (played out, or forfeit by any player) it receives one more POST, without
`legal_moves`:

    {"game": "durak", "deal": "5f0c…", "seat": 1, "view": View,
     "result": {"settlement": Settlement | null,
                "forfeit": {"seat": 0, "reason": "…"} | null}}

`deal` names the deal, the same in every request of one deal (deals may be played at
once, `--jobs`), and tells nothing of its cards; `view` is then the final state as that
seat sees it. The answer to a result is not read, and a bot that fails on it loses
nothing: the deal is over.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import requests
from urllib3.exceptions import NameResolutionError, NewConnectionError

from cardavia_client.types import Move, State

# A bot has this long (connect, read) to answer one move; past it the deal is forfeit.
BOT_TIMEOUT = (5.0, 30.0)


class Forfeit(Exception):
    """A bot's answer that cannot be played: its deal ends there, counted against it.
    `moves`: the move the bot played, when the service read it and found it illegal (a
    game record ending with it shows where the deal went wrong)."""

    def __init__(self, why: str, moves: list[Move] | None = None):
        super().__init__(why)
        self.moves = moves or []


class BotUnreachable(Exception):
    """Nothing answers at a bot's URL: no deal can be played, so the match stops."""

    def __init__(self, url: str, why: str):
        super().__init__(f"cannot reach the bot at {url}: {why}")


def unreachable(e: requests.ConnectionError) -> str | None:
    """Why a bot's URL could not be connected to, and what to check; None when it was, and
    the answer broke off (a bot that failed on one move, which forfeits that deal)."""
    if isinstance(e, requests.ConnectTimeout):
        return f"connecting took longer than {BOT_TIMEOUT[0]:g} s; is the address right?"
    reason = getattr(e.args[0] if e.args else None, "reason", None)  # urllib3's MaxRetryError
    if isinstance(reason, NameResolutionError):
        return "unknown host; is the URL right?"
    if not isinstance(reason, NewConnectionError):
        return None
    cause = reason.__cause__ or reason.__context__
    if isinstance(cause, ConnectionRefusedError):
        return "connection refused; is it running?"
    return str(cause or reason)


def ask_bot(session: requests.Session, url: str, asked: dict[str, Any], timeout: float
            ) -> Move:
    """The bot's move for `asked` (`game`, `deal`, `seat`, `view`, `legal_moves`), with
    `seat` filled in when the bot leaves it out; a Forfeit when it cannot be played."""
    try:
        r = session.post(url, json=asked, timeout=(BOT_TIMEOUT[0], timeout))
    except requests.ReadTimeout:
        raise Forfeit(f"the bot did not answer within {timeout:g} s") from None
    except requests.ConnectionError as e:
        why = unreachable(e)
        if why is not None:
            raise BotUnreachable(url, why) from None
        raise Forfeit(f"the bot's answer broke off: {e}") from None
    except requests.RequestException as e:
        raise Forfeit(f"the bot did not answer: {e}") from None
    if r.status_code != 200:
        raise Forfeit(f"the bot answered HTTP {r.status_code}: {r.text[:200]!r}")
    try:
        answer = r.json()
    except ValueError:
        raise Forfeit(f"the bot's answer is not JSON: {r.text[:200]!r}") from None
    if isinstance(answer, dict) and isinstance(answer.get("move"), dict):
        answer = answer["move"]
    if not isinstance(answer, dict) or "action" not in answer:
        raise Forfeit(f"the bot's answer is not a move: {json.dumps(answer)[:200]}")
    answer.setdefault("seat", asked["seat"])
    return answer  # type: ignore[return-value]


def tell_bot(session: requests.Session, url: str, game: str, deal: str, seat: int,
             view: State, result: dict[str, Any], timeout: float) -> None:
    """Tell a bot how a deal it sat in ended. Whatever it answers, or fails to, is its own
    affair: the deal is over and its figures are counted."""
    told: dict[str, Any] = {"game": game, "deal": deal, "seat": seat, "view": view,
                            "result": result}
    with contextlib.suppress(requests.RequestException):
        session.post(url, json=told, timeout=(BOT_TIMEOUT[0], timeout)).close()
