"""`cardavia replay RECORD`: a game record checked by the service, its settlement or its first
illegal move (exit 1)."""

from __future__ import annotations

import argparse
from typing import Any, cast

from cardavia_client.cli.common import ILLEGAL, UsageError, dump, read_json, reason_text
from cardavia_client.cli.games import Games
from cardavia_client.cli.notation import notation
from cardavia_client.client import Client
from cardavia_client.types import GameRecord


def add(sub: Any, games: Games) -> None:
    q = sub.add_parser("replay", help="check a game record: its settlement, or its first "
                       "illegal move (exit 1)")
    q.add_argument("record", help='a game record: {"game", "deal", "moves"}')
    q.add_argument("--json", action="store_true", help="the service's answer as it is")
    q.set_defaults(run=run)


def read_record(path: str, games: Games) -> GameRecord:
    record = read_json(path)
    if not isinstance(record, dict) or record.get("game") not in games or \
            not isinstance(record.get("moves"), list) or not isinstance(record.get("deal"), dict):
        raise UsageError(f"{path} is not a game record: {{\"game\", \"deal\", \"moves\"}}")
    return cast(GameRecord, record)


def run(client: Client, args: argparse.Namespace) -> int:
    record = read_record(args.record, args.games)
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
    elif "contract" in settlement:  # Tarot
        made = "made" if settlement["made"] else "lost"
        head = (f"Contract {settlement['contract']} by seat {settlement['taker']}, {made} "
                f"({settlement['points']} points for {settlement['target']})")
    else:  # a settlement of a game added since: its scores say it
        return scores
    return f"{head}\n{scores}"
