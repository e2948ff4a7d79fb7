"""`cardavia moves STATE`: the legal moves of a state, numbered as the play prompt takes them."""

from __future__ import annotations

import argparse
from typing import Any

from cardavia_client.cli.common import dump, read_state
from cardavia_client.cli.games import Games
from cardavia_client.cli.notation import notation
from cardavia_client.client import Client


def add(sub: Any, games: Games) -> None:
    q = sub.add_parser("moves", help="the legal moves of a state")
    q.add_argument("state", help="a JSON file holding a state (or a deal's answer); - for stdin")
    q.add_argument("--json", action="store_true", help="the service's answer as it is")
    q.set_defaults(run=run)


def run(client: Client, args: argparse.Namespace) -> int:
    state = read_state(args.state, args.games)
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
