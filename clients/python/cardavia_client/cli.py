"""`cardavia`: the service from a terminal.

    cardavia deal durak --seed 1 > dealt.json
    cardavia moves dealt.json
    cardavia move dealt.json attack 6S
    cardavia render dealt.json --seat 1
    cardavia score --contract garde --taker 1 --bouts 2 --points 45
    cardavia --lang fr score --players 5 --partner none --contract prise --bouts 1 --points 52
    cardavia score evening.json
    cardavia play durak
    cardavia play durak --players 4 --transfer --throw-in neighbours --cards 52
    cardavia --lang ru play durak --transfer --indices russian
    cardavia replay durak-record.json
    cardavia match durak --seats strong,basic --deals 100 --budget 200

The server is `--url`, else `CARDAVIA_URL`, else http://127.0.0.1:8000. Exit status: 0 on
success, 1 when a move (of a replayed record, of `move`, or a bot's in `match`) is illegal,
2 on bad usage (bad arguments, an unreadable file, a request the service refuses, a server
or a bot out of reach).

A move is written as its action and what goes with it, the way `moves` lists them:
`attack 8S`, `take`, `bid garde`, `discard 9D 1C 2C 6C 7C CC`, `chelem no`, `play RRAM`.
At the `play` prompt a move's number in the list, or just its card or contract, will do.
Labels (`score`'s sheet, the table) are in `--lang`'s language, as the service's table
page says them. With `--indices` a Durak table letters its courts as your own cards do
(`russian` В Д К Т, `french` V D R A, `english` J Q K A) and writes each card as its corner
reads, `Д♠`; at the `play` prompt a card is then typed either way.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib.metadata
import json
import os
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn, cast

from cardavia_client import match
from cardavia_client.client import (
    DEFAULT_URL,
    CardaviaError,
    Client,
    ProblemError,
    TimeoutError,
    UnreachableError,
)
from cardavia_client.types import GameRecord, Move, Reason, State

GAMES = ("durak", "tarot", "ganjifa")
# Each game's actions (API.md's moves), to name them when a typed one is none of them.
ACTIONS = {"durak": ("attack", "defend", "take", "pass", "transfer"),
           "tarot": ("bid", "call", "discard", "chelem", "poignee", "play"),
           "ganjifa": ("play", "dukal", "discard")}
ILLEGAL, USAGE = 1, 2
CARD_ACTIONS = ("attack", "defend", "transfer", "play", "call")
CARDS_ACTIONS = ("discard", "dukal", "poignee")
YES, NO = ("yes", "true", "y"), ("no", "false", "n")


class UsageError(Exception):
    """Bad usage: exit status 2, with this message."""


# -- moves as text ---------------------------------------------------------------------------


def notation(move: Move, write: Any = str) -> str:
    """A move as text: `attack 8S`, `bid garde`, `chelem no`; a template as what it asks.
    `write`: a card's code as the reader reads it (`Indices`)."""
    if "count" in move:
        text = f"{move['action']} {move['count']} cards"
        if move["must_include"]:
            text += f": all of {' '.join(map(write, move['must_include']))}, and"
        return text + f" from {' '.join(map(write, move['choose_from']))}"
    words = [move["action"]]
    if "card" in move:
        words.append(write(move["card"]))
    if "cards" in move:
        words += map(write, move["cards"])
    if "contract" in move:
        words.append(move["contract"])
    if "announce" in move:
        words.append("yes" if move["announce"] else "no")
    return " ".join(words)


def unknown_action(action: str, game: str) -> UsageError:
    """A typed action that is none of the game's: its actions named, the nearest suggested."""
    actions = ACTIONS[game]
    nearest = difflib.get_close_matches(action, actions, n=1, cutoff=0.6)
    hint = f"; did you mean '{nearest[0]}'?" if nearest else "."
    return UsageError(f"'{action}' is not a {game} action: they are "
                      f"{', '.join(actions)}{hint}")


def parse_move(text: str, seat: int, game: str | None = None) -> Move:
    """A move of `seat` from its notation (or a JSON object); UsageError if it is none. With
    `game`, an action the game has not is refused here, naming the game's actions."""
    text = text.strip()
    if text.startswith("{"):
        try:
            given = json.loads(text)
        except json.JSONDecodeError as e:
            raise UsageError(f"not a JSON move: {e}") from None
        if not isinstance(given, dict):
            raise UsageError("a JSON move is an object")
        return cast(Move, {"seat": seat, **given})
    words = text.split()
    if not words:
        raise UsageError("no move given")
    action, rest = words[0].lower(), words[1:]
    if game is not None and action not in ACTIONS[game]:
        raise unknown_action(action, game)
    move: Move = {"seat": seat, "action": action}
    if action in CARD_ACTIONS:
        if len(rest) != 1:
            raise UsageError(f"'{action}' takes one card, e.g. '{action} 8S'")
        move["card"] = rest[0].upper()
    elif action in CARDS_ACTIONS:
        if not rest:
            raise UsageError(f"'{action}' takes cards, e.g. '{action} 9D 1C'")
        move["cards"] = [c.upper() for c in rest]
    elif action == "bid":
        if len(rest) != 1:
            raise UsageError("'bid' takes a contract: pass, prise, garde, garde_sans, "
                             "garde_contre")
        move["contract"] = rest[0].lower()
    elif action == "chelem":
        if len(rest) != 1 or rest[0].lower() not in YES + NO:
            raise UsageError("'chelem' takes yes or no")
        move["announce"] = rest[0].lower() in YES
    elif rest:
        raise UsageError(f"'{action}' takes nothing after it")
    return move


class Indices:
    """A game's cards written as their corners read in one convention of GameInfo's
    `indices` ("Д♠" for QS in `russian`), and read back from either form."""

    MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}  # the four French suits' signs

    def __init__(self, info: dict[str, Any], convention: str):
        letters = info["indices"][convention]
        self.written = {c["code"]: letters.get(c["rank"], c["rank"]) + self.MARKS[c["suit"]]
                        for c in info["cards"]}
        self.codes = {text.upper(): code for code, text in self.written.items()}

    def __call__(self, code: str) -> str:
        return self.written.get(code, code)

    def read(self, text: str) -> str:
        """`text` with every card written as a corner reads turned into its code."""
        return " ".join(self.codes.get(word.upper(), word) for word in text.split())


def choose(text: str, listed: list[Move], seat: int, game: str | None = None) -> Move:
    """The move meant by `text` at the play prompt: a number of the list, a listed move's
    notation or its last words alone (`8S` for `attack 8S`), else the notation parsed."""
    text = " ".join(text.split())
    if text.isdigit():
        if not 1 <= int(text) <= len(listed):
            raise UsageError(f"choose a number from 1 to {len(listed)}")
        chosen = listed[int(text) - 1]
        if "count" in chosen:
            raise UsageError(f"write the cards: {notation(chosen)}")
        return chosen
    concrete = [m for m in listed if "count" not in m]
    for m in concrete:
        if notation(m).lower() == text.lower():
            return m
    tail = [m for m in concrete if notation(m).lower().split(" ", 1)[-1] == text.lower()]
    if len(tail) == 1:
        return tail[0]
    return parse_move(text, seat, game)


# -- reading and printing --------------------------------------------------------------------


def read_json(path: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{path} is not JSON: {e}") from None


def read_state(path: str) -> State:
    """A state from a file: the state itself, or any answer holding one (`deal`, `move`)."""
    data = read_json(path)
    if isinstance(data, dict) and isinstance(data.get("state"), dict):
        data = data["state"]
    if not isinstance(data, dict) or data.get("game") not in GAMES:
        raise UsageError(f"{path} holds no state of {', '.join(GAMES)}")
    return data


def dump(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def fit(text: str, first: str, then: str) -> str:
    """`text` wrapped to an 80-column terminal, after `first` and then `then`."""
    return textwrap.fill(text, 80, initial_indent=first, subsequent_indent=then,
                         break_on_hyphens=False)


def reason_text(reason: Reason) -> str:
    return f"{reason.code} ({reason.rule}): {reason.message}"


def settlement_text(settlement: dict[str, Any]) -> str:
    """A settlement on a line or two: the scores per seat, and what decided them."""
    scores = "  ".join(f"Seat {s}: {v:+d}" for s, v in enumerate(settlement["scores"]))
    if "outcome" in settlement:  # Durak
        head = "A draw" if settlement["outcome"] == "draw" else f"Seat {settlement['durak']} " \
            "is the durak"
    elif "annulled" in settlement:  # Tarot
        head = f"Annulled ({settlement['annulled']})"
    elif "winners" in settlement:  # Ganjifa
        head = "Captured " + ", ".join(map(str, settlement["captured"])) + "; won by seat " + \
            " and ".join(map(str, settlement["winners"]))
    else:
        made = "made" if settlement["made"] else "lost"
        head = (f"Contract {settlement['contract']} by seat {settlement['taker']}, {made} "
                f"({settlement['points']} points for {settlement['target']})")
    return f"{head}\n{scores}"


def event_text(event: dict[str, Any]) -> str | None:
    """What happened, on a line, for the events beside the move itself."""
    kind = event["type"]
    if kind in ("attacked", "defended", "transferred", "card_played", "played", "bid", "called",
                "chelem", "poignee", "dukal_led", "dukal_answered", "deal_over"):
        return None  # the move itself (printed), or the settlement (printed at the end)
    words = [kind.replace("_", " ")]
    if "seat" in event:
        words.append(f"seat {event['seat']}")
    if "seats" in event:  # Durak's went_out (D23)
        words.append(", ".join(f"seat {s}" for s in event["seats"]))
    if "contract" in event:
        words.append(event["contract"])
    if "count" in event:
        words.append(f"{event['count']} card" + ("" if event["count"] == 1 else "s"))
    elif "cards" in event:
        words.append(" ".join(event["cards"]))
    return " · ".join(words)


# -- subcommands -----------------------------------------------------------------------------


# A deal's options as the flags name them (`deal_flags`), sent when given.
DEAL_OPTIONS = ("dealer", "period", "players", "cards", "transfer", "throw_in", "first_bout",
                "known")
# Each game's count of players, lowest and highest (RULES.md D16, T18, G4), and the deal
# options it takes besides (API.md): a flag the game has not, or a count it is not played
# by, is said in the flags' words before the service is asked.
PLAYERS = {"durak": (2, 6), "tarot": (3, 5), "ganjifa": (3, 3)}
OPTIONS = {"durak": ("cards", "transfer", "throw_in", "first_bout", "known"),
           "tarot": ("dealer",), "ganjifa": ("period",)}
BUDGET_MS = (1, 10_000)  # ai-move's budget_ms (API.md)
# What `play` asks at the deal besides the flags, as the table page does: Durak's cards seen
# by everyone stay face up in the terminal table (API.md `known`).
PLAY_OPTIONS: dict[str, dict[str, Any]] = {"durak": {"known": True}}


def flag(option: str) -> str:
    """The flag that gives a body's field: `throw_in` is `--throw-in`."""
    return "--" + option.replace("_", "-")


def count_problem(game: str, n: int, flag_: str, noun: str) -> str | None:
    """What is wrong with `n` players of `game`, said of `flag_`; None if nothing."""
    (lo, hi), name = PLAYERS[game], game.capitalize()
    if lo == hi and n != lo:
        return f"{flag_}: {name} is played by exactly {lo} {noun} (got {n})"
    if not lo <= n <= hi:
        return f"{flag_}: {name} takes {lo} to {hi} {noun} (got {n})"
    return None


def deal_options(args: argparse.Namespace, seats: int | None = None) -> dict[str, Any]:
    """The deal's options the flags give, as the service takes them; every flag the game
    has not, and a count of players (`--players`, or `seats` for `match`) it is not played
    by, named in one UsageError. A count the game is always played by (Ganjifa's 3) is not
    sent: that deal has no `players` (API.md), and the count was right."""
    options: dict[str, Any] = {k: getattr(args, k) for k in DEAL_OPTIONS
                               if getattr(args, k, None) is not None}
    problems: list[str | None] = []
    if seats is not None:
        problems.append(count_problem(args.game, seats, "--seats", "seats"))
    elif "players" in options:
        problems.append(count_problem(args.game, options["players"], "--players", "players"))
    problems += [f"{flag(k)} applies to "
                 f"{' and '.join(g.capitalize() for g in GAMES if k in OPTIONS[g])} only"
                 for k in options if k != "players" and k not in OPTIONS[args.game]]
    if any(problems):
        raise UsageError("; ".join(p for p in problems if p))
    lo, hi = PLAYERS[args.game]
    if lo == hi:
        options.pop("players", None)
    return options


# The body's fields by the flags that give them, to name the flag in a problem only the
# service finds (five players for a 24-card deck, D16).
FLAGS = {k: flag(k) for k in DEAL_OPTIONS} | {"seed": "--seed", "deck": "--deck",
                                             "budget_ms": "--budget"}


@contextlib.contextmanager
def in_flags(**renamed: str) -> Iterator[None]:
    """A problem the service finds in what the flags gave, said with the flags' names
    (`renamed`: another flag for a field, as `match`'s --seats for `players`). A problem
    naming a field no flag gives is left as it is."""
    names = FLAGS | renamed
    try:
        yield
    except ProblemError as refused:
        said = [(names.get(e.get("field") or ""), e.get("message", "")) for e in refused.errors]
        if not said or any(f is None for f, _ in said):
            raise
        raise UsageError("; ".join(f"{f}: {m}" for f, m in said)) from None


def cmd_deal(client: Client, args: argparse.Namespace) -> int:
    deck = None if args.deck is None else args.deck.replace(",", " ").split()
    with in_flags():
        dealt = client.deal(args.game, seed=args.seed, deck=deck, **deal_options(args))
    dump({"state": dealt.state, "deck": dealt.deck})
    return 0


def cmd_moves(client: Client, args: argparse.Namespace) -> int:
    state = read_state(args.state)
    legal = client.legal_moves(state["game"], state)
    if args.json:
        dump({"to_act": legal.to_act, "moves": legal.moves})
        return 0
    if legal.to_act is None:
        print("The deal is over: no move.")
        return 0
    print(f"Seat {legal.to_act} to act:")
    for i, m in enumerate(legal.moves, 1):
        print(f"{i:>3}. seat {m['seat']}: {notation(m)}")
    return 0


def cmd_move(client: Client, args: argparse.Namespace) -> int:
    state = read_state(args.state)
    seat = args.seat if args.seat is not None else state.get("to_act")
    if seat is None:
        raise UsageError("nobody is to act in this state; give --seat")
    move = parse_move(" ".join(args.move), seat, state["game"])
    result = client.move(state["game"], state, move)
    if not result.legal:
        assert result.reason is not None
        print(f"illegal: {notation(move)}: {reason_text(result.reason)}", file=sys.stderr)
        return ILLEGAL
    dump({"legal": True, "state": result.state, "events": result.events,
          "settlement": result.settlement})
    return 0


def read_record(path: str) -> GameRecord:
    record = read_json(path)
    if not isinstance(record, dict) or record.get("game") not in GAMES or \
            not isinstance(record.get("moves"), list) or not isinstance(record.get("deal"), dict):
        raise UsageError(f"{path} is not a game record: {{\"game\", \"deal\", \"moves\"}}")
    return cast(GameRecord, record)


def cmd_replay(client: Client, args: argparse.Namespace) -> int:
    record = read_record(args.record)
    result = client.replay_record(record)
    if args.json:
        dump({k: v for k, v in vars(result).items() if v is not None and k != "reason"} |
             ({"reason": vars(result.reason)} if result.reason else {}))
    elif not result.legal:
        assert result.reason is not None and result.move is not None
        print(f"{args.record}: move {result.at} is illegal, after {result.played} legal "
              f"move(s): seat {result.move['seat']}: {notation(result.move)}")
        print(f"  {reason_text(result.reason)}")
    elif result.settlement is None:
        print(f"{args.record}: {result.played} legal move(s); the deal is not over, seat "
              f"{result.state['to_act']} to act.")
    else:
        print(f"{args.record}: {result.played} legal moves; the deal is over.")
        print(settlement_text(result.settlement))
    return 0 if result.legal else ILLEGAL


def cmd_score(client: Client, args: argparse.Namespace) -> int:
    if args.session is not None:
        return score_session(client, args)
    missing = [flag for flag, value in (("--contract", args.contract), ("--bouts", args.bouts),
                                        ("--points", args.points)) if value is None]
    if missing:
        raise UsageError(f"score: {', '.join(missing)} needed, or a session file")
    sheet: dict[str, Any] = {"contract": args.contract, "taker": args.taker,
                             "bouts": args.bouts, "points": args.points,
                             "petit_au_bout": args.petit_au_bout}
    poignees = []
    for p in args.poignee:
        camp, _, level = p.partition(":")
        if camp not in ("taker", "defense") or level not in ("simple", "double", "triple"):
            raise UsageError(f"--poignee {p}: write CAMP:LEVEL, e.g. taker:simple")
        poignees.append({"camp": camp, "level": level})
    sheet["poignees"] = poignees
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
    settled = client.settlement(sheet)
    if args.json:
        dump(settled)
        return 0
    print(score_sheet(settled, Words(client.words())))
    return 0


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
    rows = []
    for i, deal in enumerate(answer["deals"]):
        s = deal["settlement"]
        if "annulled" in s:
            cells = [str(i), names[deal["dealer"]], "", s["annulled"], "", "", "no score"]
        else:
            taker = names[s["taker"]]
            if s.get("partner") is not None:
                taker += f" + {names[s['partner']]}"
            cells = [str(i), names[deal["dealer"]], taker, s["contract"], str(s["bouts"]),
                     str(s["points"]), "made" if s["made"] else "failed"]
        rows.append(cells + [str(t) for t in deal["totals"]])
    rows.append(["Totals", "", "", "", "", "", ""] + [str(t) for t in answer["totals"]])
    widths = [max(len(r[c]) for r in [head, *rows]) for c in range(len(head))]
    lines = ["  ".join([h.ljust(w) for h, w in zip(head, widths, strict=True)]
                       + [n.rjust(width) for n in names]).rstrip()]
    for r in rows:
        lines.append("  ".join([c.ljust(w) for c, w in zip(r, widths, strict=False)]
                               + [t.rjust(width) for t in r[len(head):]]).rstrip())
    lines.append(f"Next dealer: {names[answer['next_dealer']]}")
    lines.append("")
    for st in answer["statistics"]:
        mean = "-" if st["mean_points_as_taker"] is None else f"{st['mean_points_as_taker']:g}"
        lines.append(f"{st['player']}: {st['taken']} taken, {st['made']} made, "
                     f"{st['failed']} failed; mean points as taker {mean}; "
                     f"{st['petits_au_bout']} petit(s) au bout, {st['poignees']} poignée(s), "
                     f"{st['chelems']} chelem(s)")
    return "\n".join(lines)


class Words:
    """The table page's words in one language (`GET /table/locales/{lang}.json`): the
    service's one word list for the table and the command line. A key it lacks is said in
    English, as `ENGLISH` holds it."""

    ENGLISH = {
        "seat": "Seat {n}", "tarot.taker": "taker", "end.tarot.partner": "Partner",
        "end.tarot.contract": "Contract", "end.tarot.bouts": "Bouts",
        "end.tarot.points": "Points", "end.tarot.against": "{points} for a target of {target}",
        "end.tarot.base": "Base", "end.tarot.made": "made", "end.tarot.failed": "failed",
        "end.tarot.petit": "Petit au bout", "end.tarot.poignee": "Poignée {level} of {who}",
        "end.tarot.chelem": "Chelem", "end.tarot.per_defender": "Per defender",
        "end.tarot.petit_sec": "Annulled: a petit sec",
        "end.tarot.all_pass": "Annulled: everybody passed",
        "camp.taker": "to the taker's camp", "camp.defense": "to the defence",
        "durak.defender": "defender",
        "score": "score"}

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


def cmd_render(client: Client, args: argparse.Namespace) -> int:
    state = read_state(args.state)
    with in_flags(indices="--indices"):
        text = client.render(state["game"], state, seat=args.seat, format=args.format,
                             indices=args.indices)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def cmd_play(client: Client, args: argparse.Namespace) -> int:
    return TerminalPlay(client, args).play()


class TerminalPlay:
    """`cardavia play GAME`: one seat at the terminal, the AI in every other seat."""

    def __init__(self, client: Client, args: argparse.Namespace):
        self.client, self.game, self.seat = client, args.game, args.seat
        self.level, self.seed = args.level, args.seed
        # A record is never written over: a --record that exists is refused before the
        # deal, and the default name, when taken, is numbered when written (write_record).
        if args.record is not None and Path(args.record).exists():
            raise UsageError(f"--record: {args.record} exists; name another file, or remove "
                             "it first")
        self.record_path = Path(args.record or f"{self.game}-record.json")
        options = PLAY_OPTIONS.get(self.game, {}) | deal_options(args)
        with in_flags():
            dealt = client.deal(self.game, seed=args.seed, **options)
        # A seeded deal is recorded by its seed; a random one by its deck (API.md).
        self.deal = {"seed": args.seed, **options} if args.seed is not None else \
            {"deck": dealt.deck, **options}
        self.state = dealt.state
        self.indices = args.indices
        self.write: Any = str  # a card as the player reads it
        if self.indices is not None:
            info = client.game(self.game, cards=args.cards)
            if self.indices not in info.get("indices", {}):
                raise UsageError(f"--indices: {self.game} offers no choice of indices")
            self.write = Indices(dict(info), self.indices)
        self.moves: list[Move] = []
        players = len(self.state["hands"])
        if not 0 <= self.seat < players:
            raise UsageError(f"--seat: {self.game} has seats 0 to {players - 1}")

    def play(self) -> int:
        print(f"{self.game}: you are seat {self.seat}; the AI ({self.level}) plays the others.\n"
              "Give a move's number or notation; '?' lists the moves again, 'q' stops.")
        redraw = True  # False after a typed move that was refused: only asked again
        while True:
            legal = self.client.legal_moves(self.game, self.state)
            if legal.to_act is None:
                break
            if legal.to_act == self.seat:
                move = self.ask([m for m in legal.moves if m["seat"] == self.seat], redraw)
                redraw = True
                if move is None:
                    print("Stopped before the end of the deal.")
                    self.write_record()
                    return 0
            else:
                seed = None if self.seed is None else self.seed * 1000 + len(self.moves)
                move = self.client.ai_move(self.game, self.state, level=self.level,
                                           seed=seed).move
            try:
                result = self.client.move(self.game, self.state, move)
            except ProblemError as refused:
                if legal.to_act != self.seat:
                    raise  # the AI's move refused: not something the player can mend
                # A typed move the service cannot read (an unknown action or card): the
                # player is told why and asked again, as for an illegal one.
                print(fit(f"Not a move: {'; '.join(e.get('message', '') for e in refused.errors)}",
                          "", "  "))
                redraw = False
                continue
            if not result.legal:  # only a move typed in: the AI's and the listed are legal
                assert result.reason is not None
                print(fit(f"Illegal: {reason_text(result.reason)}", "", "  "))
                redraw = False
                continue
            print(f"Seat {move['seat']}: {self.said(move)}")
            for e in result.events:
                text = event_text(e)
                if text:
                    print(fit(text, "  ", "      "))
            self.moves.append(move)
            assert result.state is not None
            self.state = result.state
        # The whole table face up, with the settlement.
        print(self.client.render(self.game, self.state, format="text",
                                 indices=self.indices).rstrip("\n"))
        print("The deal is over.")
        self.write_record()
        return 0

    def said(self, move: Move) -> str:
        """A move as the player's seat may know it: another seat's écart is laid face down
        (T5), so its count is said, not its cards (the trumps among them are shown by the
        event that follows, `trumps_shown`)."""
        if self.game == "tarot" and move["action"] == "discard" and move["seat"] != self.seat:
            return f"discard {len(move['cards'])} cards, face down"
        return notation(move, self.write)

    def ask(self, listed: list[Move], redraw: bool = True) -> Move | None:
        """The player's move, asked until one is given; None when the player stops. The
        table and the moves are drawn first, unless the player is asked again after a move
        the service refused (`redraw` False): '?' lists the moves."""
        if redraw:
            print(self.client.render(self.game, self.state, seat=self.seat, format="text",
                                     indices=self.indices).rstrip("\n"))
            self.show(listed)
        while True:
            try:
                text = input("Your move> ")
            except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: stop, as 'q'
                print()
                return None
            if text.strip().lower() in ("q", "quit"):
                return None
            if text.strip() in ("?", ""):
                self.show(listed)
                continue
            if isinstance(self.write, Indices):
                text = self.write.read(text)
            try:
                return choose(text, listed, self.seat, self.game)
            except UsageError as e:
                print(fit(str(e), "  ", "    "))

    def show(self, listed: list[Move]) -> None:
        for i, m in enumerate(listed, 1):
            print(fit(notation(m, self.write), f"  {i:>2}. ", "      "))

    def write_record(self) -> None:
        if not self.moves:
            print("No move was played: no game record written.")
            return
        record: GameRecord = {"game": self.game, "deal": self.deal, "moves": self.moves}
        path, n = self.record_path, 1
        while path.exists():  # the default name taken (an explicit one was checked at start)
            n += 1
            path = self.record_path.with_name(f"{self.record_path.stem}-{n}"
                                              f"{self.record_path.suffix}")
        path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        taken = f"; {self.record_path} exists" if path != self.record_path else ""
        print(f"Game record written to {path} ({match.plural(len(self.moves), 'move')}"
              f"{taken}).")


def cmd_match(client: Client, args: argparse.Namespace) -> int:
    try:
        players = match.parse_seats(args.seats)
    except ValueError as e:
        raise UsageError(f"--seats: {e}") from None
    if args.deals < 1:
        raise UsageError("--deals: at least 1")
    if not BUDGET_MS[0] <= args.budget <= BUDGET_MS[1]:
        raise UsageError(f"--budget: the AI's budget is {BUDGET_MS[0]} to {BUDGET_MS[1]} ms "
                         f"(got {args.budget})")
    options = deal_options(args, seats=len(players))

    played: list[match.DealResult] = []
    forfeited: set[int] = set()  # the players whose forfeit has been said
    names = match.labels([p.spec for p in players])

    def progress(r: match.DealResult) -> None:
        played.append(r)
        if r.forfeit is not None:
            # --quiet drops the line per deal, not why a bot forfeits: each player's first
            # reason is said, the figures count the others (--json lists them all).
            if args.quiet and r.forfeit in forfeited:
                return
            forfeited.add(r.forfeit)
            text = f"{names[r.forfeit]} forfeit: {r.reason}"
        elif args.quiet:
            return
        else:
            text = ", ".join(f"seat {s} {names[j]} {r.scores[s]:+g}"
                             for s, j in enumerate(r.players_at))
        print(f"deal {r.seed}: {text}", file=sys.stderr)

    try:
        with in_flags(players="--seats"):
            results, table = match.run(client, args.game, players, args.deals, args.seed,
                                       args.budget, progress, options)
    except match.BotUnreachable as e:  # as a service out of reach: no deal can be played
        raise UsageError(f"{e} (the match stopped at deal {args.seed + len(played)})"
                         ) from None
    if args.json:
        dump({"game": args.game, "deals": args.deals, "seed": args.seed, "deal": options,
              "budget_ms": args.budget, "annulled": match.annulled(results), "players": table,
              "results": [{"seed": r.seed, "players_at": r.players_at, "moves": r.moves,
                           "scores": None if r.settlement is None else r.scores,
                           "forfeit": r.forfeit, "reason": r.reason} for r in results]})
    else:
        print(match.report(args.game, args.deals, args.seed, args.budget, table, options,
                           match.annulled(results)))
    return ILLEGAL if any(r.forfeit is not None for r in results) else 0


# -- the command line ------------------------------------------------------------------------


def version() -> str:
    """This client's version, as installed."""
    try:
        return importlib.metadata.version("cardavia-client")
    except importlib.metadata.PackageNotFoundError:  # run from its folder, not installed
        return "(not installed)"


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse names the choices of a mistyped subcommand or game; add the nearest.
        typo = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if typo:
            nearest = difflib.get_close_matches(typo.group(1),
                                                re.findall(r"'([^']*)'", typo.group(2)), n=1)
            if nearest:
                message += f"; did you mean '{nearest[0]}'?"
        self.print_usage(sys.stderr)
        self.exit(USAGE, f"{self.prog}: error: {message}\n")


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="cardavia", description=__doc__,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", default=os.environ.get("CARDAVIA_URL", DEFAULT_URL),
                   help="the service (default: $CARDAVIA_URL, else %(default)s)")
    p.add_argument("--lang", help="Accept-Language for messages and pictures: en, fr, hi, "
                   "hu, fa, ru or uk")
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    def deal_flags(q: argparse.ArgumentParser) -> None:
        q.add_argument("--seed", type=int, help="a reproducible shuffle")
        q.add_argument("--players", type=int,
                       help="the number of players: " + ", ".join(
                           f"{g.capitalize()} {lo}" + (f"-{hi}" if hi > lo else "")
                           for g, (lo, hi) in PLAYERS.items()))
        variant_flags(q)

    def indices_flag(q: argparse.ArgumentParser) -> None:
        q.add_argument("--indices", choices=("english", "french", "russian"),
                       help="Durak: the letters of the courts and aces as your cards print "
                       "them (J Q K A, V D R A, В Д К Т); cards are then written so, Д♠")

    def variant_flags(q: argparse.ArgumentParser) -> None:
        """A deal's options besides its shuffle and its count of players."""
        q.add_argument("--dealer", type=int, help="Tarot's dealer")
        q.add_argument("--period", choices=("day", "night"), help="Ganjifa's period")
        q.add_argument("--cards", type=int, choices=(24, 36, 52), help="Durak's deck (D16)")
        q.add_argument("--transfer", action="store_const", const=True,
                       help="Durak with passing on (D21)")
        q.add_argument("--throw-in", choices=("all", "neighbours"),
                       help="Durak: who may throw in besides the attacker (D19)")
        q.add_argument("--first-bout", type=int, choices=(5, 6),
                       help="Durak: the first bout's limit of attack cards (D16)")
        q.add_argument("--known", action="store_const", const=True,
                       help="Durak: the state lists the cards everyone has seen in each hand")

    q = sub.add_parser("deal", help="a new deal: its state and deck, as JSON")
    q.add_argument("game", choices=GAMES)
    deal_flags(q)
    q.add_argument("--deck", help="a stacked deck: card codes, first = top")
    q.set_defaults(run=cmd_deal)

    q = sub.add_parser("moves", help="the legal moves of a state")
    q.add_argument("state", help="a JSON file holding a state (or a deal's answer); - for stdin")
    q.add_argument("--json", action="store_true", help="the service's answer as it is")
    q.set_defaults(run=cmd_moves)

    q = sub.add_parser("move", help="play one move: the answer as JSON, exit 1 if illegal")
    q.add_argument("state", help="a JSON file holding a state; - for stdin")
    q.add_argument("move", nargs="+", help="e.g. attack 8S, bid garde, or a JSON move")
    q.add_argument("--seat", type=int, help="default: the seat to act")
    q.set_defaults(run=cmd_move)

    q = sub.add_parser("replay", help="check a game record: its settlement, or its first "
                       "illegal move (exit 1)")
    q.add_argument("record", help='a game record: {"game", "deal", "moves"}')
    q.add_argument("--json", action="store_true", help="the service's answer as it is")
    q.set_defaults(run=cmd_replay)

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
    q.set_defaults(run=cmd_score)

    q = sub.add_parser("render", help="a state as text (or SVG)")
    q.add_argument("state", help="a JSON file holding a state; - for stdin")
    q.add_argument("--seat", type=int, help="as this seat sees it (default: all face up)")
    q.add_argument("--format", choices=("text", "svg"), default="text")
    indices_flag(q)
    q.set_defaults(run=cmd_render)

    q = sub.add_parser("play", help="play a deal against the AI in the terminal")
    q.add_argument("game", choices=GAMES)
    deal_flags(q)
    q.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    q.add_argument("--level", choices=("random", "basic", "strong"), default="strong",
                   help="the AI's level (default strong)")
    q.add_argument("--record", default=None, help="where to write the game record, a file "
                   "that does not exist (default GAME-record.json, numbered if taken)")
    indices_flag(q)
    q.set_defaults(run=cmd_play)

    q = sub.add_parser("match", help="seeded deals between AI levels and bots, with each "
                       "player's result and its 95%% interval")
    q.add_argument("game", choices=GAMES)
    q.add_argument("--seats", required=True, help="one player per seat, comma-separated: "
                   "random, basic, strong or a bot's URL (it rotates round the table)")
    q.add_argument("--deals", type=int, default=20, help="deals to play (default 20)")
    q.add_argument("--budget", type=int, default=200, help="the AI's budget_ms (default 200)")
    q.add_argument("--seed", type=int, default=0, help="deal i is dealt from seed SEED + i")
    variant_flags(q)  # every deal's; its players are the seats
    q.add_argument("--json", action="store_true", help="figures and every deal as JSON")
    q.add_argument("--quiet", action="store_true", help="no line per deal on stderr, only "
                   "each player's first forfeit")
    q.set_defaults(run=cmd_match)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        with Client(args.url, language=args.lang) as client:
            status = cast(int, args.run(client, args))
        sys.stdout.flush()  # here, where a closed pipe is caught, not at exit
        return status
    except BrokenPipeError:
        # The reader stopped (`| head -c 300`): no traceback, as any Unix tool. Whatever is
        # still buffered goes nowhere, and the status is a shell's for SIGPIPE.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13
    except UsageError as e:
        print(f"cardavia: {e}", file=sys.stderr)
    except ProblemError as e:
        print(f"cardavia: the service refused the request: {e}", file=sys.stderr)
    except UnreachableError:
        print(f"cardavia: cannot reach {args.url}: is the service running there? (`make "
              "serve`, or give --url or CARDAVIA_URL)", file=sys.stderr)
    except TimeoutError as e:
        print(f"cardavia: {args.url} took too long to answer: {e}", file=sys.stderr)
    except CardaviaError as e:
        print(f"cardavia: {args.url} is not answering as the Cardavia service: {e}",
              file=sys.stderr)
    except KeyboardInterrupt:
        print(file=sys.stderr)
    return USAGE
