"""Moves as text: a move written as its action and what goes with it (`attack 8S`, `bid
garde`, `chelem no`), the way `cardavia moves` lists them, and read back at the prompt."""

from __future__ import annotations

import difflib
import json
from typing import cast

from cardavia_client.cli.common import UsageError
from cardavia_client.types import Move

# Each game's actions (API.md's moves), to name them when a typed one is none of them.
ACTIONS = {"durak": ("attack", "defend", "take", "pass", "transfer"),
           "tarot": ("bid", "call", "discard", "chelem", "poignee", "play"),
           "ganjifa": ("play", "dukal", "discard")}
CARD_ACTIONS = ("attack", "defend", "transfer", "play", "call")
CARDS_ACTIONS = ("discard", "dukal", "poignee")
YES, NO = ("yes", "true", "y"), ("no", "false", "n")


# -- moves as text ---------------------------------------------------------------------------


def notation(move: Move) -> str:
    """A move as text: `attack 8S`, `bid garde`, `chelem no`; a template as what it asks."""
    if "count" in move:
        text = f"{move['action']} {move['count']} cards"
        if move["must_include"]:
            text += f": all of {' '.join(move['must_include'])}, and"
        return text + f" from {' '.join(move['choose_from'])}"
    words = [move["action"]]
    if "card" in move:
        words.append(move["card"])
    if "cards" in move:
        words += move["cards"]
    if "contract" in move:
        words.append(move["contract"])
    if "announce" in move:
        words.append("yes" if move["announce"] else "no")
    return " ".join(words)


def unknown_action(action: str, game: str) -> UsageError:
    """A typed action that is none of the game's: its actions named, the nearest suggested."""
    actions = ACTIONS[game]
    nearest = difflib.get_close_matches(action, actions, n=1, cutoff=0.6)
    hint = f"; did you mean '{nearest[0]}'?" if nearest else "."
    return UsageError(f"'{action}' is not a {game} action: they are "
                      f"{', '.join(actions)}{hint}")


def parse_move(text: str, seat: int, game: str | None = None) -> Move:
    """A move of `seat` from its notation (or a JSON object); UsageError if it is none. With
    `game`, an action the game has not is refused here, naming the game's actions."""
    text = text.strip()
    if text.startswith("{"):
        try:
            given = json.loads(text)
        except json.JSONDecodeError as e:
            raise UsageError(f"not a JSON move: {e}") from None
        if not isinstance(given, dict):
            raise UsageError("a JSON move is an object")
        return cast(Move, {"seat": seat, **given})
    words = text.split()
    if not words:
        raise UsageError("no move given")
    action, rest = words[0].lower(), words[1:]
    if game is not None and action not in ACTIONS[game]:
        raise unknown_action(action, game)
    move: Move = {"seat": seat, "action": action}
    if action in CARD_ACTIONS:
        if len(rest) != 1:
            raise UsageError(f"'{action}' takes one card, e.g. '{action} 8S'")
        move["card"] = rest[0].upper()
    elif action in CARDS_ACTIONS:
        if not rest:
            raise UsageError(f"'{action}' takes cards, e.g. '{action} 9D 1C'")
        move["cards"] = [c.upper() for c in rest]
    elif action == "bid":
        if len(rest) != 1:
            raise UsageError("'bid' takes a contract: pass, prise, garde, garde_sans, "
                             "garde_contre")
        move["contract"] = rest[0].lower()
    elif action == "chelem":
        if len(rest) != 1 or rest[0].lower() not in YES + NO:
            raise UsageError("'chelem' takes yes or no")
        move["announce"] = rest[0].lower() in YES
    elif rest:
        raise UsageError(f"'{action}' takes nothing after it")
    return move


def choose(text: str, listed: list[Move], seat: int, game: str | None = None) -> Move:
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
