"""The text of every rule of RULES.md, in every language the service speaks
(the `rules` part of each game's catalogues, `rules/<game>/locales/<lang>.json`: the data
of `GET /v1/games/{game}/rules`)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rules.texts import catalogue
from service.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT.parent / "shared" / "RULES.md"

# What a translation must carry over unchanged: numbers, card codes (Durak and Tarot suit
# cards, Tarot trumps and the Excuse, Ganjifa cards), avatar codes and rule ids.
_AVATARS = "MAT|KUR|VAR|NAR|VAM|PAR|RAM|KRI|BAL|KAL"
_FIXED = re.compile(
    rf"\b(?:\d+|(?:10|[1-9]|[JCQKA])[SHDC]|T\d+|EX|(?:10|[1-9]|[MR])?(?:{_AVATARS})|[DG]\d+)\b"
)


def rule_ids() -> list[str]:
    if not RULES_MD.is_file():
        pytest.skip(f"{RULES_MD} is absent: the rule ids come from the shared RULES.md")
    return re.findall(r"^\*\*([DTG]\d+) ", RULES_MD.read_text(encoding="utf-8"), re.MULTILINE)


def texts(lang: str) -> dict[str, dict[str, str]]:
    return catalogue(lang, "rules")


def test_rule_ids_are_parsed_from_rules_md():
    # Each game's rules are numbered from 1 without a gap: a heading the parse missed shows.
    ids = rule_ids()
    for game in "DTG":
        numbers = [int(rule[1:]) for rule in ids if rule[0] == game]
        assert numbers == list(range(1, len(numbers) + 1)) and numbers, game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_id_in_rules_md_order_with_title_and_text(lang):
    rules, ids = texts(lang), rule_ids()
    for game in "DTG":  # each game's in its own file, in RULES.md order
        assert [r for r in rules if r[0] == game] == [r for r in ids if r[0] == game]
    assert len(rules) == len(ids)
    for rule, entry in rules.items():
        assert set(entry) == {"title", "text"}, rule
        assert entry["title"].strip() and entry["text"].strip(), rule
        assert "`" not in entry["text"] and "**" not in entry["text"], f"{rule}: markdown"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translation_keeps_every_number_and_code_of_the_english(lang):
    english, translated = texts("en"), texts(lang)
    for rule, entry in english.items():
        missing = Counter(_FIXED.findall(entry["text"]))
        missing.subtract(_FIXED.findall(translated[rule]["text"]))
        assert not +missing, f"{lang} {rule} lacks {sorted((+missing).elements())}"
