"""The deals found (tests/support/tarot_deal_search.py: the shapes tried longer, then a
constraint solver) for the accepted Tarot sheets whose deal the shapes of tarot_witness.py
do not build at the test's seed, and for a draw of sheets with poignées, kept in
tests/data/tarot_found_deals.json so that the tests replay them without the solver.

A deal is kept as its sheet, its dealer, the deck as dealt, the cards in the order played
and the poignées shown, each as hex; the moves around the play are tarot_witness's
(`witness_of`).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.tarot_witness import Sheet, Witness, sheets_with_poignees, witness_of

PATH = Path(__file__).resolve().parent.parent / "data" / "tarot_found_deals.json"
# The builder's reach that the file completes: every accepted sheet is built with these,
# or found.
SHAPE_SEED, SHAPE_TRIES = 1, 300
# The sheets with poignées, which the shapes do not build, all found: so many a count of
# players, drawn with this seed plus the count (tarot_witness.sheets_with_poignees).
POIGNEE_SHEETS, POIGNEE_SEED = 8, 40


def poignee_sheets() -> list[Sheet]:
    return [sheet for players in (3, 4, 5)
            for sheet in sheets_with_poignees(players, POIGNEE_SHEETS, POIGNEE_SEED + players)]


def sheet_of_row(row: list) -> Sheet:
    sheet = Sheet(*row)
    return sheet._replace(poignees=tuple(tuple(p) for p in sheet.poignees))


def load() -> dict[Sheet, Witness]:
    found = {}
    for row in json.loads(PATH.read_text())["deals"]:
        sheet = sheet_of_row(row["sheet"])
        shown = {seat: tuple(bytes.fromhex(cards)) for seat, cards in row.get("shown", [])}
        found[sheet] = witness_of(sheet, row["dealer"], list(bytes.fromhex(row["deck"])),
                                  list(bytes.fromhex(row["plays"])), row["called"], shown)
    return found


def save(found: dict[Sheet, Witness]) -> None:
    rows = []
    for sheet, witness in sorted(found.items(), key=lambda item: repr(item[0])):
        called = next((m.card for m in witness.moves if m.action == "call"), None)
        plays = [m.card for m in witness.moves if m.action == "play"]
        row = {"sheet": list(sheet), "dealer": witness.dealer,
               "deck": bytes(witness.order).hex(), "plays": bytes(plays).hex(),
               "called": called}
        shown = [[m.seat, bytes(m.cards).hex()] for m in witness.moves if m.action == "poignee"]
        if shown:
            row["shown"] = shown
        rows.append(row)
    about = ("Deals for accepted Tarot sheets that tests/support/tarot_witness.py's shapes "
             f"do not build (seed {SHAPE_SEED}, {SHAPE_TRIES} tries), and for a draw of "
             "sheets with poignées, found by python -m tests.support.tarot_deal_search; see "
             "tests/support/tarot_found_deals.py.")
    lines = ",\n".join(json.dumps(row) for row in rows)
    PATH.write_text(f'{{"about": {json.dumps(about)},\n"deals": [\n{lines}\n]}}\n')
