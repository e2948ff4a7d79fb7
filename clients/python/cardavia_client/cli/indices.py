"""Cards as the player's own pack prints them: `--indices` (a convention of GameInfo's
`indices`, Durak's `english`, `french` or `russian`) writes a card as its corner reads,
"Д♠" for QS, in the terminal table, the list of moves and what is said; a card is read
back from either form."""

from __future__ import annotations

import argparse
from typing import Any

from cardavia_client.cli.common import UsageError
from cardavia_client.client import Client

MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}  # the four French suits' signs


def indices_flag(q: argparse.ArgumentParser) -> None:
    q.add_argument("--indices", choices=("english", "french", "russian"),
                   help="Durak: the letters of the courts and aces as your cards print "
                   "them (J Q K A, V D R A, В Д К Т); cards are then written so, Д♠")


class Indices:
    """A game's cards written as their corners read in one convention, and read back."""

    def __init__(self, info: dict[str, Any], convention: str):
        letters = info["indices"][convention]
        self.written = {c["code"]: letters.get(c["rank"], c["rank"]) + MARKS[c["suit"]]
                        for c in info["cards"]}
        self.codes = {text.upper(): code for code, text in self.written.items()}

    @classmethod
    def of(cls, client: Client, game: str, convention: str, cards: int | None) -> Indices:
        """The convention of `game`'s deck of `cards` cards; UsageError if it has none."""
        info = client.game(game, cards=cards)
        if convention not in info.get("indices", {}):
            raise UsageError(f"--indices: {game} offers no choice of indices")
        return cls(dict(info), convention)

    def __call__(self, code: str) -> str:
        return self.written.get(code, code)

    def read(self, text: str) -> str:
        """`text` with every card written as a corner reads turned into its code."""
        return " ".join(self.codes.get(word.upper(), word) for word in text.split())
