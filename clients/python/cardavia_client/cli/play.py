"""`cardavia play GAME`: one seat at the terminal, the AI in every other seat; the deal's game
record written at the end."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from cardavia_client import match
from cardavia_client.cli.common import UsageError, fit, reason_text
from cardavia_client.cli.games import Games
from cardavia_client.cli.indices import Indices, indices_flag
from cardavia_client.cli.notation import choose, notation
from cardavia_client.cli.options import deal_flags, deal_options, in_flags
from cardavia_client.client import Client, ProblemError
from cardavia_client.types import GameRecord, LegalMoves, Move


def add(sub: Any, games: Games) -> None:
    q = sub.add_parser("play", help="play a deal against the AI in the terminal")
    q.add_argument("game", choices=list(games) or None)
    deal_flags(q, games)
    q.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    q.add_argument("--level", choices=("random", "basic", "strong"), default="strong",
                   help="the AI's level (default strong)")
    q.add_argument("--record", default=None, help="where to write the game record, a file "
                   "that does not exist (default GAME-record.json, numbered if taken)")
    indices_flag(q)
    q.set_defaults(run=run)


def run(client: Client, args: argparse.Namespace) -> int:
    return TerminalPlay(client, args).play()


class TerminalPlay:
    """`cardavia play GAME`: one seat at the terminal, the AI in every other seat."""

    def __init__(self, client: Client, args: argparse.Namespace):
        self.client, self.game, self.seat = client, args.game, args.seat
        self.rules = args.games[args.game]
        self.level, self.seed = args.level, args.seed
        # A record is never written over: a --record that exists is refused before the
        # deal, and the default name, when taken, is numbered when written (write_record).
        if args.record is not None and Path(args.record).exists():
            raise UsageError(f"--record: {args.record} exists; name another file, or remove "
                             "it first")
        self.record_path = Path(args.record or f"{self.game}-record.json")
        # What `play` asks at the deal besides the flags, as the table page does: the cards
        # everybody has seen in a hand, where the game can list them (Durak's `known`),
        # stay face up in the terminal table.
        seen = {"known": True} if "known" in self.rules.options else {}
        options: dict[str, Any] = seen | deal_options(args)
        with in_flags(args.games):
            dealt = client.deal(self.game, seed=args.seed, **options)
        # A seeded deal is recorded by its seed; a random one by its deck (API.md).
        self.deal = {"seed": args.seed, **options} if args.seed is not None else \
            {"deck": dealt.deck, **options}
        self.state = dealt.state
        self.indices = args.indices
        self.write: Any = str  # a card as the player reads it
        if self.indices is not None:
            self.write = Indices.of(client, self.game, self.indices, args.cards)
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
            move = self.next_move(legal, redraw)
            if move is None:
                print("Stopped before the end of the deal.")
                self.write_record()
                return 0
            redraw = self.played(move, legal.to_act == self.seat)
        # The whole table face up, with the settlement.
        print(self.client.render(self.game, self.state, format="text",
                                 indices=self.indices).rstrip("\n"))
        print("The deal is over.")
        self.write_record()
        return 0

    def next_move(self, legal: LegalMoves, redraw: bool) -> Move | None:
        """The player's move when the seat is to act (None: the player stops), else the
        AI's."""
        if legal.to_act == self.seat:
            return self.ask([m for m in legal.moves if m["seat"] == self.seat], redraw)
        seed = None if self.seed is None else self.seed * 1000 + len(self.moves)
        return self.client.ai_move(self.game, self.state, level=self.level, seed=seed).move

    def played(self, move: Move, typed: bool) -> bool:
        """`move` sent to the service and, if legal, played and said with what it did;
        whether the table is to be drawn again (False: a typed move was refused and the
        player is asked again)."""
        try:
            result = self.client.move(self.game, self.state, move)
        except ProblemError as refused:
            if not typed:
                raise  # the AI's move refused: not something the player can mend
            # A typed move the service cannot read (an unknown action or card): the player
            # is told why and asked again, as for an illegal one.
            print(fit(f"Not a move: {'; '.join(e.get('message', '') for e in refused.errors)}",
                      "", "  "))
            return False
        if not result.legal:  # only a move typed in: the AI's and the listed are legal
            assert result.reason is not None
            print(fit(f"Illegal: {reason_text(result.reason)}", "", "  "))
            return False
        print(f"Seat {move['seat']}: {self.said(move, result.events)}")
        for e in result.events:
            text = event_text(e)
            if text:
                print(fit(text, "  ", "      "))
        self.moves.append(move)
        assert result.state is not None
        self.state = result.state
        return True

    def said(self, move: Move, events: list[dict[str, Any]]) -> str:
        """A move as the player's seat may know it: cards another seat lays face down
        (Tarot's écart, T5), which its event counts without naming them, are said by their
        count (the trumps among them are shown by the event that follows,
        `trumps_shown`)."""
        laid = events[0] if events else {}
        if move["seat"] != self.seat and "cards" in move and "count" in laid \
                and "cards" not in laid:
            return f"{move['action']} {laid['count']} cards, face down"
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
                return choose(text, listed, self.seat, self.rules)
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
