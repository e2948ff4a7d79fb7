"""What every subcommand shares: its errors and exit statuses, reading files, printing."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Collection
from pathlib import Path
from typing import Any

from cardavia_client.types import Reason, State

ILLEGAL, USAGE = 1, 2


class UsageError(Exception):
    """Bad usage: exit status 2, with this message."""


# -- reading and printing --------------------------------------------------------------------


def read_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{path} is not JSON: {e}") from None


def read_state(path: str, games: Collection[str] | None) -> State:
    """A state from a file: the state itself, or any answer holding one (`deal`, `move`),
    of one of `games` (any game, when the service did not say its games)."""
    data = read_json(path)
    if isinstance(data, dict) and isinstance(data.get("state"), dict):
        data = data["state"]
    if not isinstance(data, dict) or not isinstance(data.get("game"), str) or \
            games is not None and data["game"] not in games:
        raise UsageError(f"{path} holds no state of {', '.join(games or ['a game'])}")
    return data


def dump(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def fit(text: str, first: str, then: str) -> str:
    """`text` wrapped to an 80-column terminal, after `first` and then `then`."""
    return textwrap.fill(text, 80, initial_indent=first, subsequent_indent=then,
                         break_on_hyphens=False)


def reason_text(reason: Reason) -> str:
    return f"{reason.code} ({reason.rule}): {reason.message}"
