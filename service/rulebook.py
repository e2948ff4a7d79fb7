"""`GET /v1/games/<game>/rules`: every rule id of a game with its title and statement, in
the negotiated language (API.md "Additions"), so that a client told `reason.rule: "D6"`
can say what D6 is.

The texts are the `rules` part of each game's catalogues
(`rules/<game>/locales/<lang>.json`, `{rule id: {"title", "text"}}`, rules/texts.py), read
once. A rule a language lacks is given in English, and `Content-Language` then says `en`,
as for every other text (service/i18n.py).
"""

from __future__ import annotations

import orjson
from flask import Blueprint, Response

from rules.texts import catalogue
from schemas.registry import GAMES
from service import i18n
from service.api import game_for

TEXTS: dict[str, dict[str, dict[str, str]]] = {
    lang: catalogue(lang, "rules") for lang in i18n.LANGUAGES}

rulebook = Blueprint("rulebook", __name__)
_answers: dict[tuple[str, str], tuple[bytes, bool]] = {}


def rules_of(game_id: str, lang: str) -> tuple[list[dict], bool]:
    """The game's rules in `lang`, in RULES.md order, and whether every one of them is in
    `lang` (else some are English)."""
    listed, complete = [], True
    for rule in GAMES[game_id].info()["rules"]:
        texts = TEXTS[lang].get(rule)
        if texts is None:
            complete = False
            texts = TEXTS[i18n.DEFAULT].get(rule)
        if texts is not None:  # a rule without even English text: tests/test_rulebook.py
            listed.append({"id": rule, "title": texts["title"], "text": texts["text"]})
    return listed, complete


@rulebook.get("/v1/games/<game_id>/rules")
def game_rules(game_id: str):
    game_for(game_id)  # 404 for an unknown game
    lang = i18n.language()
    answer = _answers.get((game_id, lang))
    if answer is None:  # the texts are fixed: each answer is built once
        listed, complete = rules_of(game_id, lang)
        answer = _answers[(game_id, lang)] = (orjson.dumps({"rules": listed}), complete)
    body, complete = answer
    if not complete:
        i18n.fell_back()
    return Response(body, mimetype="application/json")
