"""Why a move is illegal: the reason codes of API.md, as data.

A reason is its code, the rule that forbids the move and the values its message names;
the message itself is the catalogue's entry `reason.<code>` (rules/texts.py), in English
from `service/locales/en.json` and in the other languages beside it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rules.texts import ENGLISH, english

CODES: tuple[str, ...] = tuple(key.removeprefix("reason.") for key in ENGLISH
                               if key.startswith("reason."))
# The English template of every code, read from the catalogue (kept for the callers that
# list the codes with their texts; it is not a second copy).
MESSAGES: dict[str, str] = {code: ENGLISH[f"reason.{code}"] for code in CODES}


class Reason(NamedTuple):
    """An illegal move's answer: a reason code, the rule that forbids it, its values (a
    `why` among them names the entry `why.<code>` that says what is wrong)."""

    code: str
    rule: str
    details: dict[str, Any] | None = None

    @property
    def message(self) -> str:
        return english(f"reason.{self.code}", self.details)
