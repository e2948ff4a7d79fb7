"""`POST /v1/games/tarot/session`: a Tarot evening's score sheets settled in one request,
answered as JSON or, with `Accept: text/csv`, as a CSV file (API.md "Additions")."""

from __future__ import annotations

from rules.tarot.session import session as run_session
from schemas.common import error
from schemas.tarot_session import SESSION
from service import call, i18n
from service.api import json_response
from service.body import body
from service.problems import Answer, ProblemError
from service.router import post
from service.sheet_csv import DIALECTS, session_csv

CSV = "text/csv"
# Where a spreadsheet writes 40,5 it separates cells with ";" (French, Russian, Ukrainian,
# Hungarian Excel and LibreOffice): those languages get that file unless `dialect` says.
SEMICOLON_LANGUAGES = frozenset(("fr", "ru", "uk", "hu"))


@post("session", games=("tarot",))
def tarot_session(game_id: str) -> Answer:
    data = body(SESSION)
    answer = run_session(data["players"], data["deals"], data["dealer"])
    if call.preferred(["application/json", CSV]) == CSV:
        dialect = chosen_dialect()
        return session_csv(answer, DIALECTS[dialect]).encode(), 200, [
            ("Content-Type", f"{CSV}; charset=utf-8; header=present"),
            ("Content-Disposition", 'attachment; filename="tarot-session.csv"'),
            ("Vary", "Accept-Language, Accept")]
    json, status, headers = json_response(answer)
    return json, status, [*headers, ("Vary", "Accept")]


def chosen_dialect() -> str:
    """`?dialect=comma` (RFC 4180) or `semicolon` (what a French spreadsheet opens); without
    it, the file of the language `Accept-Language` chooses."""
    dialect = call.query("dialect")
    if dialect is None:
        return "semicolon" if i18n.language() in SEMICOLON_LANGUAGES else "comma"
    if dialect not in DIALECTS:
        choices = " or ".join(DIALECTS)
        raise ProblemError(400, "http-error", "Bad Request", f"`dialect` is {choices}.",
                           [error("dialect", f"Must be {choices}.")])
    return dialect
