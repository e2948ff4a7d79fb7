"""`POST /v1/games/tarot/session`: a Tarot evening's score sheets settled in one request,
answered as JSON or, with `Accept: text/csv`, as a CSV file (API.md "Additions")."""

from __future__ import annotations

import csv
import io

from rules.tarot.session import session as run_session
from schemas.tarot import SESSION
from service import call
from service.api import body, json_response
from service.problems import Answer
from service.router import post

CSV = "text/csv"


@post("session", games=("tarot",))
def tarot_session(game_id: str) -> Answer:
    data = body(SESSION)
    answer = run_session(data["players"], data["deals"], data["dealer"])
    if call.preferred(["application/json", CSV]) == CSV:
        return session_csv(answer).encode(), 200, [
            ("Content-Type", f"{CSV}; charset=utf-8"), ("Vary", "Accept"),
            ("Content-Disposition", 'attachment; filename="tarot-session.csv"')]
    json, status, headers = json_response(answer)
    return json, status, [*headers, ("Vary", "Accept")]


def cell(text: str) -> str:
    """A name as a spreadsheet cell: one that starts as a formula would is quoted with an
    apostrophe, so that opening the file never runs what a player typed as a name."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def session_csv(answer: dict) -> str:
    """One row a deal: its index, dealer, taker, partner (names), contract, bouts, points,
    made, then each player's score for the deal and each one's running total, and last the
    annulment (T3) of a deal with no score."""
    names = answer["players"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["index", "dealer", "taker", "partner", "contract", "bouts", "points",
                     "made", *(cell(f"score {n}") for n in names),
                     *(cell(f"total {n}") for n in names), "annulled"])
    for i, deal in enumerate(answer["deals"]):
        s = deal["settlement"]
        if "annulled" in s:
            played = ["", "", "", "", "", ""]
        else:
            partner = s.get("partner")
            played = [cell(names[s["taker"]]), "" if partner is None else cell(names[partner]),
                      s["contract"], s["bouts"], s["points"], "true" if s["made"] else "false"]
        writer.writerow([i, cell(names[deal["dealer"]]), *played, *s["scores"],
                         *deal["totals"], s.get("annulled", "")])
    return out.getvalue()
