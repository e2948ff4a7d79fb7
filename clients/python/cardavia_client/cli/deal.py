"""`cardavia deal GAME`: a new deal, its state and deck as JSON."""

from __future__ import annotations

import argparse
from typing import Any

from cardavia_client.cli.common import dump
from cardavia_client.cli.games import Games
from cardavia_client.cli.options import deal_flags, deal_options, in_flags
from cardavia_client.client import Client


def add(sub: Any, games: Games) -> None:
    q = sub.add_parser("deal", help="a new deal: its state and deck, as JSON")
    q.add_argument("game", choices=list(games) or None)
    deal_flags(q, games)
    q.add_argument("--deck", help="a stacked deck: card codes, first = top")
    q.set_defaults(run=run)


def run(client: Client, args: argparse.Namespace) -> int:
    deck = None if args.deck is None else args.deck.replace(",", " ").split()
    with in_flags(args.games):
        dealt = client.deal(args.game, seed=args.seed, deck=deck, **deal_options(args))
    dump({"state": dealt.state, "deck": dealt.deck})
    return 0
