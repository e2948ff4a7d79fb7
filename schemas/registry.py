"""Each game's rules beside its JSON shapes: what the service dispatches on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.game import Game, Move, Template
from schemas import common, durak, tarot


@dataclass(frozen=True)
class GameSchemas:
    game: Game
    requests: dict[str, Any]
    dump_state: Any

    def info(self) -> dict:
        g = self.game
        return {"id": g.id, "name": g.name, "players": g.players, "summary": g.summary,
                "deck": g.deck_info, "rules": list(g.rules)}

    def cards(self) -> list[dict]:
        out = []
        for c in self.game.deck.cards:
            card = {"code": c.code, "suit": c.suit, "rank": c.rank, "name": c.name,
                    "label": c.label}
            if c.points is not None:
                card["points"] = c.points
            out.append(card)
        return out

    def dump_move(self, move: Move | Template) -> dict:
        return common.dump_move(self.game.deck, move)

    def dump_event(self, event: dict) -> dict:
        return common.dump_event(self.game.deck, event)


GAMES: dict[str, GameSchemas] = {
    "durak": GameSchemas(durak.GAME, durak.REQUESTS, durak.dump_state),
    "tarot": GameSchemas(tarot.GAME, tarot.REQUESTS, tarot.dump_state),
}
