"""A Tarot evening: the deals of one table, settled one after the other, with the running
totals, the dealer going round and each player's figures (API.md "Additions", the session).

A session is stateless as every state is: the caller holds the list of score sheets, and
editing or deleting a deal is sending the list again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.tarot.bidding import CONTRACTS
from rules.tarot.scoring import score

ANNULMENTS = ("all_pass", "petit_sec")  # T3


@dataclass(frozen=True)
class Annulled:
    """A deal with no score (T3): every seat passed, or a petit sec was shown."""

    why: str


def next_dealer(dealer: int, players: int) -> int:
    """T2, T18: play goes round counter-clockwise, from the seat after the dealer,
    (d + 1) % players, the dealer's right; the deal passes on the same way, to that seat,
    after every deal, annulled ones included."""
    return (dealer + 1) % players


def settle_sheet(players: int, sheet: dict | Annulled) -> dict:
    """One deal's settlement, exactly as `POST /v1/games/tarot/settlement` answers it; an
    annulled deal as a played deal's annulment is written (API.md, "Settlements")."""
    if isinstance(sheet, Annulled):
        return {"players": players, "annulled": sheet.why, "scores": [0] * players}
    return score(**sheet)


def _partner(settlement: dict) -> int | None:
    return settlement.get("partner")


def attack_seats(settlement: dict) -> set[int]:
    """The attack camp of a played deal: the taker, and with five players the partner."""
    seats = {settlement["taker"]}
    partner = _partner(settlement)
    if partner is not None:
        seats.add(partner)
    return seats


def camp_of(settlement: dict, seat: int) -> str:
    return "taker" if seat in attack_seats(settlement) else "defense"


def shown_by(settlement: dict, poignee: dict) -> int | None:
    """The seat that showed a poignée: the one the settlement names (a played deal always
    does, a sheet may), else the taker when the camp that declared it is the taker alone."""
    if "seat" in poignee:
        return poignee["seat"]
    if poignee.get("declared_by") == "taker" and _partner(settlement) is None:
        return settlement["taker"]
    return None


def statistics(names: Sequence[str], settlements: Iterable[dict]) -> list[dict]:
    """Each player's figures over the evening. A score sheet names camps, not seats, for the
    bonuses: a petit au bout, a poignée or a chelem counts for every player of the camp
    that the sheet credits with it (the camp that won the Petit, declared the poignée,
    made the chelem). `poignees_shown` counts a player's own poignées (`shown_by`)."""
    players = len(names)
    rows: list[dict[str, Any]] = [{"player": name, "score": 0, "taken": 0, "made": 0, "failed": 0,
             "contracts": {c: {"taken": 0, "made": 0, "failed": 0} for c in CONTRACTS},
             "mean_points_as_taker": None, "petits_au_bout": 0, "poignees": 0,
             "poignees_shown": 0, "chelems": 0} for name in names]
    points: list[list[float]] = [[] for _ in range(players)]
    for s in settlements:
        for seat, row in enumerate(rows):
            row["score"] += s["scores"][seat]
        if "annulled" not in s:
            count_contract(rows, s)
            points[s["taker"]].append(s["points"])
            count_bonuses(rows, s)
    for row, taken in zip(rows, points, strict=True):
        if taken:
            row["mean_points_as_taker"] = round(sum(taken) / len(taken), 2)
    return rows


def count_contract(rows: list[dict[str, Any]], s: dict) -> None:
    """A deal played out: its contract taken, and made or failed, by its taker."""
    taker = rows[s["taker"]]
    outcome = "made" if s["made"] else "failed"
    for where in (taker, taker["contracts"][s["contract"]]):
        where["taken"] += 1
        where[outcome] += 1


def count_bonuses(rows: list[dict[str, Any]], s: dict) -> None:
    """A deal's bonuses, to every player of the camp the sheet credits (the shown poignées
    also to the player who showed them)."""
    for p in s["poignees"]:
        shower = shown_by(s, p)
        if shower is not None:
            rows[shower]["poignees_shown"] += 1
    for seat, row in enumerate(rows):
        camp = camp_of(s, seat)
        if s["petit_au_bout"] is not None and s["petit_au_bout"]["camp"] == camp:
            row["petits_au_bout"] += 1
        row["poignees"] += sum(p.get("declared_by") == camp or p.get("seat") == seat
                               for p in s["poignees"])
        if s["chelem"] is not None and s["chelem"]["made_by"] == camp:
            row["chelems"] += 1


def session(names: Sequence[str], sheets: Iterable[dict | Annulled], dealer: int = 0) -> dict:
    """Every deal's dealer, settlement and running totals, the totals, the next dealer and
    the statistics. `sheets` are the arguments of `score` (their count the session's) or
    `Annulled`; `dealer` deals the first deal."""
    players = len(names)
    if not 3 <= players <= 5 or not 0 <= dealer < players:
        raise ValueError("A session seats 3 to 5 players, and its dealer is one of them.")
    totals = [0] * players
    deals = []
    settlements = []
    for sheet in sheets:
        settlement = settle_sheet(players, sheet)
        if len(settlement["scores"]) != players:
            raise ValueError("Every deal of a session has the session's count of players.")
        totals = [t + d for t, d in zip(totals, settlement["scores"], strict=True)]
        deals.append({"dealer": dealer, "settlement": settlement, "totals": totals})
        settlements.append(settlement)
        dealer = next_dealer(dealer, players)
    return {"players": list(names), "deals": deals, "totals": totals, "next_dealer": dealer,
            "statistics": statistics(names, settlements)}
