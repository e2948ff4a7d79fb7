"""The deals found (tests/support/tarot_deal_search.py: the shapes tried longer, then a
constraint solver) for the accepted Tarot sheets whose deal the shapes of tarot_witness.py
do not build at the test's seed, kept in tests/data/tarot_found_deals.json so that the
tests replay them without the solver.

A deal is kept as its sheet, its dealer, the deck as dealt and the cards in the order
played, each as hex; the moves around the play are the builder's: the taker at seat 0
bids the contract and every other seat passes, calls the King it names with five players,
lays aside the chien as dealt in a prise or garde, and declines the chelem.
"""

from __future__ import annotations

import json
from pathlib import Path

from rules.game import Move
from rules.tarot import COUNTS
from rules.tarot.bidding import CHIEN_TAKEN
from tests.support.tarot_witness import Sheet, Witness

PATH = Path(__file__).resolve().parent.parent / "data" / "tarot_found_deals.json"
# The builder's reach that the file completes: every accepted sheet is built with these,
# or found.
SHAPE_SEED, SHAPE_TRIES = 1, 300


def witness_of(sheet: Sheet, dealer: int, order: list[int], plays: list[int],
               called: int | None) -> Witness:
    n, count = sheet.players, COUNTS[sheet.players]
    moves = [Move((dealer + 1 + i) % n, "bid",
                  contract=sheet.contract if (dealer + 1 + i) % n == 0 else "pass")
             for i in range(n)]
    if called is not None:
        moves.append(Move(0, "call", card=called))
    if sheet.contract in CHIEN_TAKEN:
        moves.append(Move(0, "discard", cards=tuple(order[n * count.hand:])))
    moves.append(Move(0, "chelem", announce=False))
    seat_of = {card: i // count.hand for i, card in enumerate(order[:n * count.hand])}
    moves += [Move(seat_of[card], "play", card=card) for card in plays]
    return Witness(order, dealer, moves)


def load() -> dict[Sheet, Witness]:
    found = {}
    for row in json.loads(PATH.read_text())["deals"]:
        sheet = Sheet(*row["sheet"])
        found[sheet] = witness_of(sheet, row["dealer"], list(bytes.fromhex(row["deck"])),
                                  list(bytes.fromhex(row["plays"])), row["called"])
    return found


def save(found: dict[Sheet, Witness]) -> None:
    rows = []
    for sheet, witness in sorted(found.items(), key=lambda item: tuple(map(str, item[0]))):
        called = next((m.card for m in witness.moves if m.action == "call"), None)
        plays = [m.card for m in witness.moves if m.action == "play"]
        rows.append({"sheet": list(sheet), "dealer": witness.dealer,
                     "deck": bytes(witness.order).hex(), "plays": bytes(plays).hex(),
                     "called": called})
    about = ("Deals for accepted Tarot sheets that tests/support/tarot_witness.py's shapes "
             f"do not build (seed {SHAPE_SEED}, {SHAPE_TRIES} tries), found by python -m "
             "tests.support.tarot_deal_search; see tests/support/tarot_found_deals.py.")
    lines = ",\n".join(json.dumps(row) for row in rows)
    PATH.write_text(f'{{"about": {json.dumps(about)},\n"deals": [\n{lines}\n]}}\n')
