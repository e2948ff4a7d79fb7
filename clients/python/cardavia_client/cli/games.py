"""The games as the service describes them (`GET /v1/games`, each a GameInfo): their ids,
the counts of players each is dealt for, their deal options and the fields of each action's
move. The command line offers and checks only what it reads here, so a game, a count or an
option the service adds needs nothing of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardavia_client.client import Client, UnexpectedAnswerError


@dataclass(frozen=True)
class Game:
    """What the command line needs to know of one game."""

    id: str
    counts: tuple[int, ...]  # the counts of players it is dealt for, lowest first
    options: dict[str, dict[str, Any]]  # its deal options by name, as GameInfo says them
    actions: dict[str, tuple[str, ...]]  # each action's move fields (card, cards, …)

    @classmethod
    def of(cls, info: dict[str, Any]) -> Game:
        return cls(info["id"], tuple(sorted(info["counts"])),
                   {o["name"]: o for o in info["options"]},
                   {a: tuple(f) for a, f in info["actions"].items()})

    @property
    def name(self) -> str:
        return self.id.capitalize()


Games = dict[str, Game]


def read(client: Client) -> Games:
    """Every game the service deals, by id (the client's errors when it cannot be asked)."""
    try:
        return {info["id"]: Game.of(dict(info)) for info in client.games()}
    except (KeyError, TypeError, AttributeError) as e:
        raise UnexpectedAnswerError(f"GET /v1/games lacks what a game is: {e!r}") from None
