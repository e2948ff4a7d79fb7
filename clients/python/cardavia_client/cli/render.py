"""`cardavia render STATE`: a state as text (or SVG), as a seat sees it or face up."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from cardavia_client.cli.common import read_state
from cardavia_client.cli.games import Games
from cardavia_client.cli.indices import indices_flag
from cardavia_client.cli.options import in_flags
from cardavia_client.client import Client


def add(sub: Any, games: Games) -> None:
    q = sub.add_parser("render", help="a state as text (or SVG)")
    q.add_argument("state", help="a JSON file holding a state; - for stdin")
    q.add_argument("--seat", type=int, help="as this seat sees it (default: all face up)")
    q.add_argument("--format", choices=("text", "svg"), default="text")
    indices_flag(q)
    q.set_defaults(run=run)


def run(client: Client, args: argparse.Namespace) -> int:
    state = read_state(args.state, args.games)
    with in_flags(args.games, indices="--indices"):
        text = client.render(state["game"], state, seat=args.seat, format=args.format,
                             indices=args.indices)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
