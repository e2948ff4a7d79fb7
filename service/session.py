"""`POST /v1/games/tarot/session`: a Tarot evening's score sheets settled in one request,
answered as JSON or, with `Accept: text/csv`, as a CSV file (API.md "Additions")."""

from __future__ import annotations

from urllib.parse import parse_qs

from flask import Blueprint, Response, request

from rules.tarot.session import session as run_session
from schemas.common import error
from schemas.tarot_session import SESSION
from service import call, i18n
from service.api import body, json_response
from service.problems import ProblemError
from service.sheet_csv import DIALECTS, session_csv

sessions = Blueprint("sessions", __name__)
CSV = "text/csv"
# Where a spreadsheet writes 40,5 it separates cells with ";" (French, Russian, Ukrainian,
# Hungarian Excel and LibreOffice): those languages get that file unless `dialect` says.
SEMICOLON_LANGUAGES = frozenset(("fr", "ru", "uk", "hu"))


@sessions.post("/v1/games/tarot/session")
def tarot_session():
    data = body(SESSION)
    answer = run_session(data["players"], data["deals"], data["dealer"])
    if request.accept_mimetypes.best_match(["application/json", CSV]) == CSV:
        dialect = chosen_dialect()
        response = Response(session_csv(answer, DIALECTS[dialect]),
                            content_type=f"{CSV}; charset=utf-8; header=present")
        response.headers["Content-Disposition"] = 'attachment; filename="tarot-session.csv"'
        response.vary.add("Accept-Language")
    else:
        response = Response(*json_response(answer))
    response.vary.add("Accept")
    return response


def chosen_dialect() -> str:
    """`?dialect=comma` (RFC 4180) or `semicolon` (what a French spreadsheet opens); without
    it, the file of the language `Accept-Language` chooses."""
    asked = parse_qs(call.environ().get("QUERY_STRING", ""), keep_blank_values=True)
    if "dialect" not in asked:
        return "semicolon" if i18n.language() in SEMICOLON_LANGUAGES else "comma"
    dialect = asked["dialect"][0]
    if dialect not in DIALECTS:
        choices = " or ".join(DIALECTS)
        raise ProblemError(400, "http-error", "Bad Request", f"`dialect` is {choices}.",
                           [error("dialect", f"Must be {choices}.")])
    return dialect
