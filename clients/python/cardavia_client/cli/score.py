"""`cardavia score`: a Tarot score sheet from its flags, or a session file settled deal by
deal, in `--lang`'s words (the table page's)."""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from typing import Any

from cardavia_client.cli.common import UsageError, dump, read_json
from cardavia_client.cli.games import Games
from cardavia_client.client import Client, ProblemError


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
    totals, then each player's figures, in `--lang`'s words; a deal refused is said by its
    number on the sheet, from 1, as the score keeper page numbers it."""
    body = read_json(args.session)
    if not isinstance(body, dict) or not {"players", "deals"} <= body.keys():
        raise UsageError(f"{args.session}: not a session file "
                         '({"players": [names], "deals": [sheets], "dealer"?})')
    players, deals, dealer = body["players"], body["deals"], body.get("dealer")
    words = Words(client.words())
    try:
        if args.csv:
            sys.stdout.write(client.tarot_session_csv(players, deals, dealer=dealer))
            return 0
        answer = client.tarot_session(players, deals, dealer=dealer)
    except ProblemError as e:
        if e.status != 422 or not e.errors:
            raise
        raise UsageError(refused(args.session, e.errors, words)) from None
    if args.json:
        dump(answer)
        return 0
    print(session_table(answer, words))
    return 0


DEAL_FIELD = re.compile(r"^deals\.(\d+)(?:\.|$)")


def refused(path: str, errors: list[dict[str, Any]], w: Words) -> str:
    """The service's refusal of a session, a line a fault: a deal's by its number from 1
    (`deals.2.points` is the third deal), in the page's words."""
    lines = []
    for e in errors:
        field, message = e.get("field") or "", str(e.get("message", ""))
        deal = DEAL_FIELD.match(field)
        lines.append(w("score.error.in_deal", n=int(deal.group(1)) + 1, text=message)
                     if deal else f"{field or '(body)'}: {message}")
    return "\n".join(f"{path}: {line}" for line in lines)


def width(text: str) -> int:
    """The columns a text takes in a terminal: a combining mark (Devanagari's vowel signs,
    Persian's) none, a wide character two."""
    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
               else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, columns: int, right: bool = False) -> str:
    room = " " * max(0, columns - width(text))
    return room + text if right else text + room


def session_table(answer: dict[str, Any], words: Words | None = None) -> str:
    """A session as a table, in `words`' language (the score keeper page's): one line a
    deal, numbered from 1 (its dealer; the contract, taker, partner and result with its
    bonuses; bouts, points; then each player's running total), the totals, the next dealer,
    then each player's figures."""
    w = words or Words({})
    names = answer["players"]
    head = [w("score.number"), w("score.dealer"), w("score.summary"), w("end.tarot.bouts"),
            w("end.tarot.points")]
    rows = [deal_row(i, deal, names, w) for i, deal in enumerate(answer["deals"])]
    rows.append([w("score.total"), "", "", "", ""] + [str(t) for t in answer["totals"]])
    widths = [max(width(r[c]) for r in [head, *rows]) for c in range(len(head))]
    score = max(6, *(width(n) for n in names))
    lines = []
    for r in [head + names, *rows]:
        cells = [pad(c, wd) for c, wd in zip(r, widths, strict=False)]
        lines.append("  ".join(cells + [pad(t, score, right=True) for t in r[len(head):]])
                     .rstrip())
    lines.append(w("score.next_dealer", who=names[answer["next_dealer"]]))
    lines.append("")
    lines += [player_line(st, w) for st in answer["statistics"]]
    return "\n".join(lines)


def deal_row(i: int, deal: dict[str, Any], names: list[str], w: Words) -> list[str]:
    """A deal's cells: its number from 1, dealer, what was played and made (and its
    bonuses), bouts, points, then each player's running total."""
    s = deal["settlement"]
    totals = [str(t) for t in deal["totals"]]
    if "annulled" in s:
        return [str(i + 1), names[deal["dealer"]], w(f"score.annulled.{s['annulled']}"), "",
                ""] + totals
    said = [w("score.made" if s["made"] else "score.failed",
              contract=w(f"contract.{s['contract']}"), who=names[s["taker"]])]
    if s.get("partner") is not None:
        said.append(w("score.with", who=names[s["partner"]]))
    if s.get("petit_au_bout"):
        said.append(w("score.bonus.petit", camp=w(f"score.camp.{s['petit_au_bout']['camp']}")))
    for p in s.get("poignees", []):
        # Who showed it: its seat, else a taker playing alone, else the camp's word.
        camp = p.get("declared_by", p["camp"])
        seat = p.get("seat")
        if seat is None and camp == "taker" and s.get("partner") is None:
            seat = s["taker"]
        said.append(w("score.bonus.poignee", level=w(f"poignee.{p['level']}"),
                      who=w(f"score.camp.{camp}") if seat is None else names[seat]))
    if s.get("chelem"):
        said.append(w("score.bonus.chelem.announced" if s["chelem"]["announced"]
                      else "score.bonus.chelem", camp=w(f"score.camp.{s['chelem']['camp']}")))
    return [str(i + 1), names[deal["dealer"]], " · ".join(said), str(s["bouts"]),
            f"{s['points']:g}"] + totals


STATISTICS = (("taken", "score.stats.taken"), ("made", "score.stats.made"),
              ("failed", "score.stats.failed"), ("mean_points_as_taker", "score.stats.mean"),
              ("petits_au_bout", "score.stats.petits"),
              ("poignees_shown", "score.stats.poignees_shown"),
              ("chelems", "score.stats.chelems"))


def player_line(st: dict[str, Any], w: Words) -> str:
    """A player's figures as the page's statistics say them: the poignées the player
    showed, not the camp's."""
    said = []
    for key, label in STATISTICS:
        value = st[key]
        said.append(f"{w(label)} {'–' if value is None else f'{value:g}'}")
    return f"{st['player']}: " + " · ".join(said)


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
        who = w("tarot.taker" if p.get("declared_by", p["camp"]) == "taker"
                else "durak.defender")
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
