"""Every text the rules answer with is made here, from a code and its values.

The rules never write a sentence: a reason (rules/reasons.py) or a state's problem
(rules/game.py) is a code and the values it names. The words are the catalogues', English
included, read once here (`catalogue`): one JSON file a language for the words no game owns
(`service/locales/<lang>.json`) and one a language in each game's folder for its own
(`rules/<game>/locales/<lang>.json`). Each file holds the parts of one language:
`messages` (flat key → template: reasons, problems, card names, pictures' labels),
`rules` (rule id → title and text), `table` (the table page's words), `problems` (each
problem page's meaning and fix). A key is in one file only.

A value is said according to its placeholder's name: `why` and `reason` name another entry
(`why.<code>`, `reason.<code>`) said with the same values, `phase`, `action` and `contract`
name a word of the catalogue, and so does each placeholder a game adds with `word` (said
alone, or with its code: "Rama (RAM)"); a list is said as its items joined by commas;
numbers and card codes are the same in every language.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

COMMON = Path(__file__).resolve().parent.parent / "service" / "locales"
# Each game's folder of catalogues: a game's words come with its folder
# (docs/development.md, "Layout").
GAMES = tuple(sorted(path.parent for path in Path(__file__).resolve().parent.glob(
    "*/locales")))
PARTS = ("messages", "rules", "table", "problems")


@cache
def catalogue(lang: str, part: str) -> dict[str, Any]:
    """`part` of `lang`'s catalogues: the common words, then each game's. A language with
    no file somewhere has none of its words there (its English stands in, as for any key it
    lacks). A key in two files is refused, so that each word has one place."""
    if part not in PARTS:
        raise ValueError(f"no part {part!r}: the parts are {', '.join(PARTS)}")
    merged: dict[str, Any] = {}
    for folder in (COMMON, *(game / "locales" for game in GAMES)):
        path = folder / f"{lang}.json"
        words = json.loads(path.read_text(encoding="utf-8")).get(part, {}) \
            if path.exists() else {}
        twice = merged.keys() & words.keys()
        if twice:
            raise ValueError(f"{path}: {part} {sorted(twice)} are given in another file too")
        merged.update(words)
    return merged


ENGLISH: dict[str, str] = catalogue("en", "messages")

# Placeholders whose value is the code of another catalogue entry: the prefix of its key.
WORDS = {"phase": "phase.", "action": "action.", "contract": "contract."}
# Placeholders said as a catalogue word followed by their code in brackets.
WORDS_WITH_CODE: dict[str, str] = {}
NESTED = {"why": "why.", "reason": "reason."}


def word(placeholder: str, prefix: str, with_code: bool = False) -> None:
    """A game's own placeholder: its value is the code of the catalogue entry `prefix` +
    value, said alone or, `with_code`, followed by the code. A game's rules module adds
    its words where it defines the codes, so this module names no game."""
    table = WORDS_WITH_CODE if with_code else WORDS
    if table.get(placeholder, prefix) != prefix or placeholder in NESTED:
        raise ValueError(f"placeholder {placeholder!r} already says another word")
    table[placeholder] = prefix


def say(catalogue: dict[str, str], key: str, values: dict[str, Any] | None = None
        ) -> str | None:
    """The entry `key` of `catalogue` with `values` said in its language, or None when an
    entry it needs is missing there (the caller then falls back to English)."""
    template = catalogue.get(key)
    if template is None or not values:
        return template
    local: dict[str, Any] = {}
    for name, value in values.items():
        word = _word(catalogue, name, value, values)
        if word is _MISSING:
            return None
        local[name] = word
    return template.format(**local)


_MISSING = object()  # a word the catalogue lacks (a value itself may be None: no seat)


def _word(catalogue: dict[str, str], name: str, value: Any, values: dict[str, Any]
          ) -> Any:
    if name in NESTED:
        rest = {k: v for k, v in values.items() if k != name}
        text = say(catalogue, NESTED[name] + value, rest)
        return _MISSING if text is None else text
    if name in WORDS:
        return catalogue.get(WORDS[name] + value, _MISSING)
    if name in WORDS_WITH_CODE:
        said = catalogue.get(WORDS_WITH_CODE[name] + value)
        return _MISSING if said is None else f"{said} ({value})"
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return value


def in_digits(catalogue: dict[str, str], number: str) -> str:
    """A number written in the catalogue's digits (Persian writes its own)."""
    return number.translate(str.maketrans("0123456789", catalogue["digits"]))


def card_name(catalogue: dict[str, str], game: str, suit: str, rank: str) -> str:
    """A card's name as most decks say it: the entry `<game>.card` ("{rank} of {suit}")
    made of `<game>.rank.<rank>` and `<game>.suit.<suit>`."""
    return catalogue[f"{game}.card"].format(rank=catalogue[f"{game}.rank.{rank}"],
                                            suit=catalogue[f"{game}.suit.{suit}"])


def english(key: str, values: dict[str, Any] | None = None) -> str:
    """The English of an entry; a missing one is a bug of ours (a test holds every code)."""
    text = say(ENGLISH, key, values)
    if text is None:
        raise KeyError(key)
    return text
