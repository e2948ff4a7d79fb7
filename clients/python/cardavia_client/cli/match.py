"""`cardavia match GAME`: seeded deals between AI levels and bots, with each player's result
and its 95% interval (the games are played by cardavia_client.match)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cardavia_client import match
from cardavia_client.bots import BOT_TIMEOUT
from cardavia_client.cli.common import ILLEGAL, UsageError, dump
from cardavia_client.cli.games import Games
from cardavia_client.cli.options import BUDGET_MS, deal_options, in_flags, variant_flags
from cardavia_client.client import Client, ProblemError

MAX_JOBS = 64
MAX_MOVE_TIMEOUT_S = 3600

def add(sub: Any, games: Games) -> None:
    q = sub.add_parser("match", help="seeded deals between AI levels and bots, with each "
                       "player's result and its 95%% interval")
    q.add_argument("game", choices=list(games) or None)
    q.add_argument("--seats", required=True, help="one player per seat, comma-separated: "
                   "random, basic, strong or a bot's URL (it rotates round the table)")
    q.add_argument("--deals", type=int, default=20, help="deals to play (default 20)")
    q.add_argument("--budget", type=int, default=200, help="the AI's budget_ms (default 200)")
    q.add_argument("--seed", type=int, default=0, help="deal i is dealt from seed SEED + i")
    q.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="deals played at once (default 1)")
    q.add_argument("--move-timeout", type=float, default=BOT_TIMEOUT[1], metavar="S",
                   help="seconds a bot has to answer one move, past which it forfeits the "
                   "deal (default %(default)g)")
    variant_flags(q, games)  # every deal's; its players are the seats
    q.add_argument("--json", action="store_true", help="the figures and every deal, with its "
                   "game record (for `replay`), as JSON")
    q.add_argument("--quiet", action="store_true", help="no line per deal on stderr, only "
                   "each player's first forfeit")
    q.set_defaults(run=run)


def run(client: Client, args: argparse.Namespace) -> int:
    try:
        players = match.parse_seats(args.seats)
    except ValueError as e:
        raise UsageError(f"--seats: {e}") from None
    if args.deals < 1:
        raise UsageError("--deals: at least 1")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise UsageError(f"--jobs: 1 to {MAX_JOBS} deals at once (got {args.jobs})")
    if not 0 < args.move_timeout <= MAX_MOVE_TIMEOUT_S:
        raise UsageError(f"--move-timeout: more than 0 and at most {MAX_MOVE_TIMEOUT_S} s "
                         f"(got {args.move_timeout:g})")
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
        with in_flags(args.games, players="--seats"):
            results, table = match.run(client, args.game, players, args.deals, args.seed,
                                       args.budget, progress, options, jobs=args.jobs,
                                       move_timeout=args.move_timeout, waiting=said_once())
    except match.BotUnreachable as e:  # as a service out of reach: no deal can be played
        raise UsageError(f"{e} (the match stopped at deal {args.seed + len(played)})"
                         ) from None
    if args.json:
        dump({"game": args.game, "deals": args.deals, "seed": args.seed, "deal": options,
              "budget_ms": args.budget, "annulled": match.annulled(results), "players": table,
              "results": [{"seed": r.seed, "players_at": r.players_at, "moves": r.moves,
                           "scores": None if r.settlement is None else r.scores,
                           "forfeit": r.forfeit, "reason": r.reason, "deal_id": r.deal_id,
                           "record": r.record} for r in results]})
    else:
        print(match.report(args.game, args.deals, args.seed, args.budget, table, options,
                           match.annulled(results)))
    return ILLEGAL if any(r.forfeit is not None for r in results) else 0


def said_once():
    """A match's `waiting`: a spent share of search time makes it wait some tens of seconds
    a move, so each kind of refusal is said once on stderr, else the terminal seems stuck."""
    said: set[str] = set()

    def waiting(problem: ProblemError, seconds: float) -> None:
        if problem.type not in said:
            said.add(problem.type)
            print(f"{problem} Waiting {seconds:g} s and asking again (said once).",
                  file=sys.stderr)
    return waiting
