"""`cardavia move STATE MOVE`: one move played, the answer as JSON; exit 1 if illegal."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cardavia_client.cli.common import ILLEGAL, UsageError, dump, read_state, reason_text
from cardavia_client.cli.games import Games
from cardavia_client.cli.notation import notation, parse_move
from cardavia_client.client import Client


def add(sub: Any, games: Games) -> None:
    q = sub.add_parser("move", help="play one move: the answer as JSON, exit 1 if illegal")
    q.add_argument("state", help="a JSON file holding a state; - for stdin")
    q.add_argument("move", nargs="+", help="e.g. attack 8S, bid garde, or a JSON move")
    q.add_argument("--seat", type=int, help="default: the seat to act")
    q.set_defaults(run=run)


def run(client: Client, args: argparse.Namespace) -> int:
    state = read_state(args.state, args.games)
    seat = args.seat if args.seat is not None else state.get("to_act")
    if seat is None:
        raise UsageError("nobody is to act in this state; give --seat")
    move = parse_move(" ".join(args.move), seat, args.games[state["game"]])
    result = client.move(state["game"], state, move)
    if not result.legal:
        assert result.reason is not None
        print(f"illegal: {notation(move)}: {reason_text(result.reason)}", file=sys.stderr)
        return ILLEGAL
    dump({"legal": True, "state": result.state, "events": result.events,
          "settlement": result.settlement})
    return 0
