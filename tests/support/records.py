"""Game records played by the basic AI from a deal (API.md, "Game records"): the examples of
openapi.yaml were made with `python -m tests.support.records`, and tests play more."""

from __future__ import annotations

import json
import random

from rules.ai.levels import choose
from schemas.registry import GAMES

# The openapi.yaml examples: a deal named by its deck (as a random deal's record is), a
# seeded Tarot deal with another dealer, a seeded Ganjifa deal by night; Durak for each
# count of D16, with its options.
EXAMPLES = {"durak": ({"seed": 11}, True), "tarot": ({"seed": 7, "dealer": 1}, False),
            "ganjifa": ({"seed": 7, "period": "night"}, False)}
DURAK_EXAMPLES = {
    3: {"seed": 3, "players": 3},
    4: {"seed": 4, "players": 4, "transfer": True},
    5: {"seed": 5, "players": 5, "cards": 52, "throw_in": "neighbours"},
    6: {"seed": 6, "players": 6, "transfer": True, "known": True},
}


def record(game_id: str, deal: dict, seed: int = 0, by_deck: bool = False) -> dict:
    """A whole deal played by the basic AI for every seat, as a game record."""
    schemas = GAMES[game_id]
    game = schemas.game
    options = {k: v for k, v in deal.items() if k != "seed"}
    order = game.shuffle(random.Random(deal.get("seed")), **options)
    state = game.deal(random.Random(), order, **options)
    rng = random.Random(seed)
    moves = []
    while (seat := game.to_act(state)) is not None:
        move, _ = choose(game, game.observe(state, seat), "basic", rng, 200)
        moves.append(schemas.dump_move(move))
        state = game.apply(state, move)
    if by_deck:
        deal = {**options, "deck": [game.all_cards.codes[c] for c in order]}
    return {"game": game_id, "deal": deal, "moves": moves}


def yaml_example(rec: dict) -> str:
    """A record as the YAML of openapi.yaml's examples: one JSON line per move."""
    lines = [f'game: {rec["game"]}', f"deal: {json.dumps(rec['deal'])}", "moves:"]
    lines += [f"  - {json.dumps(m)}" for m in rec["moves"]]
    return "\n".join(lines)


if __name__ == "__main__":
    for game_id, (deal, by_deck) in EXAMPLES.items():
        print(f"{game_id}:\n{yaml_example(record(game_id, deal, by_deck=by_deck))}\n")
    for players, deal in DURAK_EXAMPLES.items():
        print(f"durak{players}:\n{yaml_example(record('durak', deal))}\n")
