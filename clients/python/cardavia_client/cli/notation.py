"""Moves as text: a move written as its action and what goes with it (`attack 8S`, `bid
garde`, `chelem no`), the way `cardavia moves` lists them, and read back at the prompt."""

from __future__ import annotations

import difflib
import json
from typing import Any, cast

from cardavia_client.cli.common import UsageError
from cardavia_client.cli.games import Game
from cardavia_client.types import Move

YES, NO = ("yes", "true", "y"), ("no", "false", "n")


def notation(move: Move, write: Any = str) -> str:
    """A move as text: `attack 8S`, `bid garde`, `chelem no`; a template as what it asks.
    `write`: a card's code as the reader reads it (cli/indices.py)."""
    if "count" in move:
        text = f"{move['action']} {move['count']} cards"
        if move["must_include"]:
            text += f": all of {' '.join(map(write, move['must_include']))}, and"
        return text + f" from {' '.join(map(write, move['choose_from']))}"
    words = [move["action"]]
    if "card" in move:
        words.append(write(move["card"]))
    if "cards" in move:
        words += map(write, move["cards"])
    if "contract" in move:
        words.append(move["contract"])
    if "announce" in move:
        words.append("yes" if move["announce"] else "no")
    return " ".join(words)


def unknown_action(action: str, game: Game) -> UsageError:
    """A typed action that is none of the game's: its actions named, the nearest suggested."""
    nearest = difflib.get_close_matches(action, game.actions, n=1, cutoff=0.6)
    hint = f"; did you mean '{nearest[0]}'?" if nearest else "."
    return UsageError(f"'{action}' is not a {game.id} action: they are "
                      f"{', '.join(game.actions)}{hint}")


def parse_move(text: str, seat: int, game: Game) -> Move:
    """A move of `seat` from its notation (or a JSON object); UsageError if it is none: an
    action the game has not is refused here, naming the game's actions."""
    text = text.strip()
    if text.startswith("{"):
        return json_move(text, seat)
    words = text.split()
    if not words:
        raise UsageError("no move given")
    action, rest = words[0].lower(), words[1:]
    if action not in game.actions:
        raise unknown_action(action, game)
    move: Move = {"seat": seat, "action": action}
    fields = game.actions[action]
    if not fields:
        if rest:
            raise UsageError(f"'{action}' takes nothing after it")
        return move
    for field in fields:  # each a move's field after its action: card, cards, …
        read = READ.get(field)
        if read is None:
            raise UsageError(f"'{action}' takes {field}: give the move as a JSON object")
        move.update(read(action, rest))  # type: ignore[typeddict-item]
    return move


def json_move(text: str, seat: int) -> Move:
    try:
        given = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"not a JSON move: {e}") from None
    if not isinstance(given, dict):
        raise UsageError("a JSON move is an object")
    return cast(Move, {"seat": seat, **given})


def one_card(action: str, rest: list[str]) -> dict:
    if len(rest) != 1:
        raise UsageError(f"'{action}' takes one card, e.g. '{action} 8S'")
    return {"card": rest[0].upper()}


def cards(action: str, rest: list[str]) -> dict:
    if not rest:
        raise UsageError(f"'{action}' takes cards, e.g. '{action} 9D 1C'")
    return {"cards": [c.upper() for c in rest]}


def contract(action: str, rest: list[str]) -> dict:
    if len(rest) != 1:
        raise UsageError(f"'{action}' takes a contract, as `cardavia moves` lists them")
    return {"contract": rest[0].lower()}


def announce(action: str, rest: list[str]) -> dict:
    if len(rest) != 1 or rest[0].lower() not in YES + NO:
        raise UsageError(f"'{action}' takes yes or no")
    return {"announce": rest[0].lower() in YES}


# How each field of a move (GameInfo's `actions`) is written after its action.
READ = {"card": one_card, "cards": cards, "contract": contract, "announce": announce}


def choose(text: str, listed: list[Move], seat: int, game: Game) -> Move:
    """The move meant by `text` at the play prompt: a number of the list, a listed move's
    notation or its last words alone (`8S` for `attack 8S`), else the notation parsed."""
    text = " ".join(text.split())
    if text.isdigit():
        if not 1 <= int(text) <= len(listed):
            raise UsageError(f"choose a number from 1 to {len(listed)}")
        chosen = listed[int(text) - 1]
        if "count" in chosen:
            raise UsageError(f"write the cards: {notation(chosen)}")
        return chosen
    concrete = [m for m in listed if "count" not in m]
    for m in concrete:
        if notation(m).lower() == text.lower():
            return m
    tail = [m for m in concrete if notation(m).lower().split(" ", 1)[-1] == text.lower()]
    if len(tail) == 1:
        return tail[0]
    return parse_move(text, seat, game)
