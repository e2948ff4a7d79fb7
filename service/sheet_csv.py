"""A Tarot session as a CSV file that a spreadsheet opens right: one row a deal, numbered
from 1, with its bonuses, and no cell that a spreadsheet would run as a formula, whatever
separator it reads the file with."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass

from rules.tarot.session import shown_by


@dataclass(frozen=True)
class Dialect:
    delimiter: str
    decimal: str
    bom: bool


# `comma`: RFC 4180 in UTF-8, for programs and English spreadsheets. `semicolon`: what a
# French (or Russian…) spreadsheet opens as it is: ";" between cells, "40,5", and a byte
# order mark, without which Excel reads UTF-8 names as Windows-1252.
DIALECTS = {"comma": Dialect(",", ".", False), "semicolon": Dialect(";", ",", True)}

# A cell is a formula to a spreadsheet when it starts with one of these; a tab or line end
# starts one too in some. Any of the separators spreadsheets guess (",", ";", tab, "|") or a
# line end may start a cell inside a text when the file is read with another separator than
# it was written with: `x;=1+1` is two cells, the second a formula, to a French Excel.
STARTS_FORMULA = "=+-@\t\r\n"
# Spaces and a quote before the first character do not stop every spreadsheet either.
CELL_START = re.compile(r'(^|[,;\t|\r\n])(?=[\s"]*[' + re.escape(STARTS_FORMULA) + "])")


def text(value: str) -> str:
    """A text cell that no spreadsheet runs: each place where a cell could start with a
    formula's first character gets an apostrophe, which a spreadsheet reads as "text
    follows" and does not show. NFKC first: a full-width `＝` is `=` to a spreadsheet."""
    return CELL_START.sub(r"\1'", unicodedata.normalize("NFKC", value))


def number(value: int | float, dialect: Dialect) -> str:
    written = str(int(value)) if value == int(value) else str(value)
    return written.replace(".", dialect.decimal)


def _shower(s: dict, poignee: dict, names: list[str]) -> str:
    seat = shown_by(s, poignee)
    return poignee["declared_by"] if seat is None else names[seat]


def _bonuses(s: dict, names: list[str]) -> list[str]:
    """The petit au bout's camp, the poignées (level and who showed each, the player or
    else the camp that declared it), the chelem's camp and whether it was announced: T15,
    T8, T16."""
    petit = s["petit_au_bout"]["camp"] if s["petit_au_bout"] else ""
    poignees = " + ".join(f"{p['level']} ({_shower(s, p, names)})" for p in s["poignees"])
    chelem = s["chelem"]
    return [petit, text(poignees), chelem["camp"] if chelem else "",
            ("true" if chelem["announced"] else "false") if chelem else ""]


def _played(s: dict, names: list[str], dialect: Dialect) -> list[str]:
    if "annulled" in s:
        return [""] * 10
    partner = s.get("partner")
    return [text(names[s["taker"]]), "" if partner is None else text(names[partner]),
            s["contract"], str(s["bouts"]), number(s["points"], dialect),
            "true" if s["made"] else "false", *_bonuses(s, names)]


COLUMNS = ["deal", "dealer", "taker", "partner", "contract", "bouts", "points", "made",
           "petit_au_bout", "poignees", "chelem", "chelem_announced"]


def session_csv(answer: dict, dialect: Dialect) -> str:
    """One row a deal, numbered from 1: its dealer, taker and partner (names), contract,
    bouts, points, made, bonuses, then each player's score for the deal and each one's
    running total, and last the annulment (T3) of a deal with no score."""
    names = answer["players"]
    out = io.StringIO()
    if dialect.bom:
        out.write("\ufeff")
    writer = csv.writer(out, delimiter=dialect.delimiter, lineterminator="\r\n")
    writer.writerow([*COLUMNS, *(text(f"score {n}") for n in names),
                     *(text(f"total {n}") for n in names), "annulled"])
    for i, deal in enumerate(answer["deals"]):
        s = deal["settlement"]
        writer.writerow([str(i + 1), text(names[deal["dealer"]]), *_played(s, names, dialect),
                         *(number(v, dialect) for v in s["scores"]),
                         *(number(v, dialect) for v in deal["totals"]), s.get("annulled", "")])
    return out.getvalue()
