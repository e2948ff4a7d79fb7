"""A game's JSON shapes, as each game's schema module (schemas/<game>.py) declares them in
its `SCHEMAS`; schemas/registry.py finds them per registered game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.game import Game, Move, Template, View
from rules.texts import ENGLISH
from schemas import common


@dataclass(frozen=True)
class Post:
    """A game's own endpoint: the request's schema, and the answer to a loaded request."""

    request: Any
    answer: Callable[[dict], dict]


@dataclass(frozen=True)
class GameSchemas:
    """One game's part of this floor: its request schemas, how its states and views are
    written, and the GameInfo and card fields it adds to the generic ones."""

    game: Game
    requests: dict[str, Any]
    dump_state: Callable[[Any], dict]
    dump_view: Callable[[View], dict]
    # A game's own GameInfo fields (Ganjifa's avatar order) and per-card fields (its
    # avatars and emblems), added beside the generic ones, their words from a catalogue
    # (rules/texts.py) so that they are said in the request's language.
    extra_info: Callable[[dict[str, str]], dict] | None = None
    extra_card: Callable[[int, dict[str, str]], dict] | None = None
    # A game's own endpoints beside the generic ones: `POST /v1/games/<game>/<name>`.
    posts: dict[str, Post] = field(default_factory=dict)

    def info(self) -> dict:
        g = self.game
        deal = self.requests["deal"].schema.fields
        out = {"id": g.id, "name": g.name, "players": g.players, "summary": g.summary,
               "deck": g.deck_info, "rules": list(g.rules),
               # What a client offers and checks before it asks (the command line's
               # games, flags and moves): every count of players the game is dealt for,
               # the deal's options beside `seed`, `deck` and `players`, and each action
               # with the fields of its move.
               "counts": list(g.counts),
               "options": [common.described(name, deal[name]) for name in deal
                           if name not in ("seed", "deck", "players")],
               "actions": {action: list(g.move_fields[action]) for action in g.actions},
               "won_by": g.won_by}
        bounds = {str(n): list(b) for n in g.counts if (b := g.score_bounds(n)) is not None}
        if bounds:  # a seat's lowest and highest score in one deal, by count of players
            out["score_bounds"] = bounds
        if self.extra_info is not None:
            out.update(self.extra_info(ENGLISH))
        return out

    def cards(self, size: int | None = None) -> list[dict]:
        """GameInfo's `cards`: the default deck's, or the deck of `size` cards (D16)."""
        game = self.game
        listed = range(len(game.deck)) if size is None else game.decks[size]
        out = []
        for i in listed:
            c = game.all_cards.cards[i]
            card: dict[str, Any] = {"code": c.code, "suit": c.suit, "rank": c.rank,
                                    "name": c.name, "label": c.label}
            if c.points is not None:
                card["points"] = c.points
            if self.extra_card is not None:
                card.update(self.extra_card(i, ENGLISH))
            out.append(card)
        return out

    def dump_move(self, move: Move | Template) -> dict:
        return common.dump_move(self.game.all_cards, move)

    def dump_event(self, event: dict) -> dict:
        return common.dump_event(self.game.all_cards, event)

