"""`GET /v1/games/{game}/rules` lists every rule id of the game with a
title and a statement, in each of the seven languages, and every `reason.rule` the service
can answer is among them."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from rules.ai import complete
from schemas.registry import GAMES
from service.i18n import DEFAULT, LANGUAGES
from tests.openapi_check import assert_conforms
from tests.support.games import TESTS

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
RULE_ID = re.compile(r"^[DTG][1-9][0-9]*$")


def listed(client, game_id: str, lang: str) -> dict:
    r = client.get(f"/v1/games/{game_id}/rules", headers={"Accept-Language": lang})
    assert_conforms("GET", "/v1/games/{game}/rules", 200, r)
    assert r.headers["Content-Language"] == lang, (game_id, lang)  # no rule fell back
    return {rule["id"]: rule for rule in r.get_json()["rules"]}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_rule_id_is_listed_in_every_language(client, game_id, lang):
    rules = listed(client, game_id, lang)
    assert list(rules) == GAMES[game_id].info()["rules"]  # each once, in RULES.md order
    english = listed(client, game_id, DEFAULT)
    for rule_id, rule in rules.items():
        assert rule["title"].strip() and rule["text"].strip(), (lang, rule_id)
        if lang != DEFAULT:
            assert rule["text"] != english[rule_id]["text"], (lang, rule_id)  # translated


def rule_ids_in_reasons() -> set[str]:
    """Every rule id a `Reason(code, rule, ...)` of rules/ can carry: the constants of its
    second argument, or, when that is a name, of every assignment to that name in the
    same function."""
    found = set()
    for path in RULES_DIR.rglob("*.py"):
        for function in ast.walk(ast.parse(path.read_text())):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                found |= cited_in(function)
    return found


def cited_in(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The rule ids the `Reason(...)` calls of one function can carry."""
    found = set()
    for call in ast.walk(function):
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "Reason"
                and len(call.args) > 1):
            continue
        sources = [call.args[1]]
        if isinstance(call.args[1], ast.Name):
            sources = [a.value for a in ast.walk(function) if isinstance(a, ast.Assign)
                       and any(getattr(t, "id", None) == call.args[1].id for t in a.targets)]
        found |= {c.value for s in sources for c in ast.walk(s)
                  if isinstance(c, ast.Constant) and isinstance(c.value, str)
                  and RULE_ID.match(c.value)}
    return found


def test_every_rule_a_reason_can_cite_is_listed(client):
    cited = rule_ids_in_reasons()
    assert {"D6", "T9", "G6", "G8"} <= cited  # the scan finds constants and names alike
    every = {rule_id for game_id in GAMES for rule_id in listed(client, game_id, DEFAULT)}
    assert cited <= every


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_rule_answered_in_random_deals_is_listed(client, game_id):
    """The same, seen from outside: illegal moves tried in seeded random deals."""
    game = GAMES[game_id].game
    helper = TESTS[game_id]
    every = set(listed(client, game_id, DEFAULT))
    rng = random.Random(18)
    answered = set()
    for deal_no in range(4):
        state = game.deal(random.Random(deal_no))
        while game.legal_moves(state):
            for candidate in helper.candidate_moves(state, rng)[:60]:
                reason = game.verify(state, candidate)
                if reason is not None:
                    answered.add(reason.rule)
            state = game.apply(state, complete(rng.choice(game.legal_moves(state)), rng))
    assert answered and answered <= every


def test_unknown_game_has_no_rules(client):
    r = client.get("/v1/games/chess/rules")
    assert r.status_code == 404 and r.get_json()["type"] == "/problems/unknown-game"
