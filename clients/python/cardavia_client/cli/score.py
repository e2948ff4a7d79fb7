"""`cardavia score`: a Tarot score sheet from its flags, or a session file settled deal by
deal, in `--lang`'s words (the table page's)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cardavia_client.cli.common import UsageError, dump, read_json
from cardavia_client.cli.games import Games
from cardavia_client.client import Client


def add(sub: Any, games: Games) -> None:
    q = sub.add_parser("score", help="a Tarot score sheet, from its flags; or a session "
                       "file: every deal and the running totals")
    q.add_argument("session", nargs="?", help="a session file (JSON: players, deals, "
                   "dealer), as the table page exports it; - for stdin")
    q.add_argument("--csv", action="store_true", help="with a session file: the session as "
                   "CSV")
    q.add_argument("--contract", choices=("prise", "garde", "garde_sans", "garde_contre"))
    q.add_argument("--taker", type=int, default=0)
    q.add_argument("--bouts", type=int, choices=range(4))
    q.add_argument("--points", type=float, help="the taker's card points")
    q.add_argument("--petit-au-bout", choices=("taker", "defense"))
    q.add_argument("--poignee", action="append", default=[], metavar="CAMP:LEVEL",
                   help="a declared poignée, e.g. taker:simple (repeatable)")
    q.add_argument("--chelem-announced", action="store_true")
    q.add_argument("--chelem-made-by", choices=("taker", "defense"))
    q.add_argument("--players", type=int, choices=(3, 4, 5))
    q.add_argument("--partner", help="5 players: the partner's seat, or none")
    q.add_argument("--json", action="store_true", help="the settlement as JSON")
    q.set_defaults(run=run)


def run(client: Client, args: argparse.Namespace) -> int:
    if args.session is not None:
        return score_session(client, args)
    settled = client.settlement(sheet_of(args))
    if args.json:
        dump(settled)
        return 0
    print(score_sheet(settled, Words(client.words())))
    return 0


def sheet_of(args: argparse.Namespace) -> dict[str, Any]:
    """The score sheet (API.md's TarotScoreSheet) the flags give; UsageError for a flag
    missing or misspelt."""
    missing = [flag for flag, value in (("--contract", args.contract), ("--bouts", args.bouts),
                                        ("--points", args.points)) if value is None]
    if missing:
        raise UsageError(f"score: {', '.join(missing)} needed, or a session file")
    sheet: dict[str, Any] = {"contract": args.contract, "taker": args.taker,
                             "bouts": args.bouts, "points": args.points,
                             "petit_au_bout": args.petit_au_bout,
                             "poignees": [poignee(p) for p in args.poignee]}
    if args.chelem_announced or args.chelem_made_by:
        sheet["chelem"] = {"announced": args.chelem_announced, "made_by": args.chelem_made_by}
    if args.players is not None:
        sheet["players"] = args.players
    if args.partner is not None:
        if args.partner != "none" and not args.partner.isdigit():
            raise UsageError(f"--partner {args.partner}: a seat number, or none for a taker "
                             "alone")
        sheet["partner"] = None if args.partner == "none" else int(args.partner)
    elif args.players == 5:
        raise UsageError("--players 5 needs --partner: the called partner's seat, or none "
                         "when the taker plays alone (T22)")
    return sheet


def poignee(given: str) -> dict[str, str]:
    """`--poignee CAMP:LEVEL` as the sheet takes it."""
    camp, _, level = given.partition(":")
    if camp not in ("taker", "defense") or level not in ("simple", "double", "triple"):
        raise UsageError(f"--poignee {given}: write CAMP:LEVEL, e.g. taker:simple")
    return {"camp": camp, "level": level}


def score_session(client: Client, args: argparse.Namespace) -> int:
    """`cardavia score SESSION`: a Tarot session file (the table page's, or any
    `{"players", "deals", "dealer"?}`) settled by the service: every deal with the running
    totals, then each player's figures."""
    body = read_json(args.session)
    if not isinstance(body, dict) or not {"players", "deals"} <= body.keys():
        raise UsageError(f"{args.session}: not a session file "
                         '({"players": [names], "deals": [sheets], "dealer"?})')
    players, deals, dealer = body["players"], body["deals"], body.get("dealer")
    if args.csv:
        sys.stdout.write(client.tarot_session_csv(players, deals, dealer=dealer))
        return 0
    answer = client.tarot_session(players, deals, dealer=dealer)
    if args.json:
        dump(answer)
        return 0
    print(session_table(answer))
    return 0


def session_table(answer: dict[str, Any]) -> str:
    """A session as a table: one line a deal (its dealer, taker and partner, contract,
    bouts, points and result, then each player's running total), the totals, then each
    player's figures."""
    names = answer["players"]
    width = max(6, *(len(n) for n in names))
    head = ["#", "dealer", "taker", "contract", "bouts", "points", "result"]
    rows = [deal_row(i, deal, names) for i, deal in enumerate(answer["deals"])]
    rows.append(["Totals", "", "", "", "", "", ""] + [str(t) for t in answer["totals"]])
    widths = [max(len(r[c]) for r in [head, *rows]) for c in range(len(head))]
    lines = ["  ".join([h.ljust(w) for h, w in zip(head, widths, strict=True)]
                       + [n.rjust(width) for n in names]).rstrip()]
    for r in rows:
        lines.append("  ".join([c.ljust(w) for c, w in zip(r, widths, strict=False)]
                               + [t.rjust(width) for t in r[len(head):]]).rstrip())
    lines.append(f"Next dealer: {names[answer['next_dealer']]}")
    lines.append("")
    lines += [player_line(st) for st in answer["statistics"]]
    return "\n".join(lines)


def deal_row(i: int, deal: dict[str, Any], names: list[str]) -> list[str]:
    """A deal's cells: its number, dealer, taker and partner, contract, bouts, points and
    result, then each player's running total."""
    s = deal["settlement"]
    if "annulled" in s:
        cells = [str(i), names[deal["dealer"]], "", s["annulled"], "", "", "no score"]
    else:
        taker = names[s["taker"]]
        if s.get("partner") is not None:
            taker += f" + {names[s['partner']]}"
        cells = [str(i), names[deal["dealer"]], taker, s["contract"], str(s["bouts"]),
                 str(s["points"]), "made" if s["made"] else "failed"]
    return cells + [str(t) for t in deal["totals"]]


def player_line(st: dict[str, Any]) -> str:
    mean = "-" if st["mean_points_as_taker"] is None else f"{st['mean_points_as_taker']:g}"
    return (f"{st['player']}: {st['taken']} taken, {st['made']} made, "
            f"{st['failed']} failed; mean points as taker {mean}; "
            f"{st['petits_au_bout']} petit(s) au bout, {st['poignees']} poignée(s), "
            f"{st['chelems']} chelem(s)")


class Words:
    """The table page's words in one language (`GET /table/locales/{lang}.json`): the
    service's one word list for the table and the command line. A key it lacks is said in
    English, as `ENGLISH` holds it: the service's English words (tests/test_languages.py),
    for a service older than a key."""

    ENGLISH = {
        "seat": "Seat {n}", "tarot.taker": "taker", "end.tarot.partner": "Partner",
        "end.tarot.contract": "Contract", "end.tarot.bouts": "Bouts",
        "end.tarot.points": "Points", "end.tarot.against": "{points} for a target of {target}",
        "end.tarot.base": "Base", "end.tarot.made": "made", "end.tarot.failed": "failed",
        "end.tarot.petit": "Petit au bout", "end.tarot.poignee": "Poignée {level} of {who}",
        "end.tarot.chelem": "Chelem", "end.tarot.per_defender": "Each defender scores (−D)",
        "end.tarot.petit_sec": "Annulled: a petit sec",
        "end.tarot.all_pass": "Annulled: everybody passed",
        "camp.taker": "to the taker's camp", "camp.defense": "to the defence",
        "durak.defender": "defender"}

    def __init__(self, catalogue: dict[str, str]):
        self.catalogue = catalogue

    def __call__(self, key: str, **params: Any) -> str:
        text = self.catalogue.get(key) or self.ENGLISH.get(key) or key.rsplit(".", 1)[-1]
        return text.format(**params) if params else text


def score_sheet(s: dict[str, Any], words: Words | None = None) -> str:
    """A Tarot settlement as a score sheet, in `words`' language: the contract and what it
    made, every bonus, and each seat's score."""
    w = words or Words({})
    if "annulled" in s:
        return w(f"end.tarot.{s['annulled']}")
    contract = w(f"contract.{s['contract']}")
    rows = [(w("end.tarot.contract"), f"{contract} · {w('seat', n=s['taker'])} "
                                      f"(x{s['multiplier']})"),
            (w("end.tarot.bouts"), str(s["bouts"])),
            (w("end.tarot.points"), w("end.tarot.against", points=s["points"],
                                      target=s["target"]) + ": " +
             w("end.tarot.made" if s["made"] else "end.tarot.failed")),
            (w("end.tarot.base"), str(s["base"]))]
    if s.get("petit_au_bout"):
        petit = s["petit_au_bout"]
        rows.append((w("end.tarot.petit"), f"{petit['value']:+d} {w('camp.' + petit['camp'])}"))
    for p in s.get("poignees", []):
        # Who showed it: the taker, or a defender (the table's word for one).
        who = w("tarot.taker" if p["camp"] == "taker" else "durak.defender")
        rows.append((w("end.tarot.poignee", level=w(f"poignee.{p['level']}"), who=who),
                     f"{p['value']:+d} {w('camp.' + p['camp'])}"))
    if s.get("chelem"):
        rows.append((w("end.tarot.chelem"), json.dumps(s["chelem"])))
    rows.append((w("end.tarot.per_defender"), str(s["per_defender"])))
    width = max(len(label) for label, _ in rows) + 2
    lines = [label.ljust(width) + value for label, value in rows]
    for seat, score in enumerate(s["scores"]):
        role = w("tarot.taker") if seat == s["taker"] else (
            w("end.tarot.partner") if seat == s.get("partner") else "")
        lines.append(f"{w('seat', n=seat)}  {score:>5}  {role}".rstrip())
    return "\n".join(lines)
