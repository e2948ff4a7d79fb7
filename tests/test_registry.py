"""The registry on the ground floor (rules/registry.py) and every floor's part of each game:
a floor finds its part of every registered game, and a missing part is found here, not by a
player. The modules of the service import each other without a circle."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from render.registry import DRAWINGS
from rules import texts
from rules.ai import complete
from rules.registry import GAMES, MissingPart, Registered, floor
from schemas.registry import GAMES as SCHEMAS
from service.i18n import CATALOGUES
from tests.conftest import ROOT
from tests.support.games import TESTS

# Each floor's table of its parts, by game id (its module or folder per game, found through
# rules.registry.floor).
FLOORS = {"schemas": SCHEMAS, "render": DRAWINGS, "tests": TESTS}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_every_floor_has_a_part_for_every_registered_game(name):
    parts = FLOORS[name]
    assert list(parts) == list(GAMES)
    for game_id, part in parts.items():
        assert part.game is GAMES[game_id].game


def test_a_floor_missing_a_part_is_refused_by_name():
    parts = list(SCHEMAS.values())
    with pytest.raises(MissingPart, match="tarot has 0 parts"):
        floor("schemas", [p for p in parts if p.game.id != "tarot"], lambda p: p.game)
    with pytest.raises(MissingPart, match="durak has 2 parts"):
        floor("schemas", [*parts, parts[0]], lambda p: p.game)


def test_a_part_of_an_unregistered_game_is_refused():
    stranger = type(GAMES["durak"].game)()  # the same rules, but not the registered object
    parts = [p.game if p.game.id != "durak" else stranger for p in SCHEMAS.values()]
    with pytest.raises(MissingPart, match="durak is not the registered game"):
        floor("rules", parts, lambda g: g)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_registered_game_has_its_rules_and_its_ai(game_id):
    """The registry holds objects, not names: the game's id is its key, and its AI plays a
    legal move of a fresh deal."""
    registered = GAMES[game_id]
    assert isinstance(registered, Registered) and registered.game.id == game_id
    game = registered.game
    state = game.deal(random.Random(0))
    seat = game.to_act(state)
    move = registered.ai.basic(state, seat, random.Random(0))
    legal = [complete(m, random.Random(0)) for m in game.legal_moves(state)]
    assert game.verify(state, move) is None and move.seat == seat and legal


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_every_registered_game_is_named_in_every_language(lang):
    for game_id in GAMES:
        for key in ("name", "summary", "deck.name", "deck.origin"):
            assert CATALOGUES[lang].get(f"game.{game_id}.{key}"), (lang, game_id, key)


def test_every_registered_game_has_its_words_in_its_folder_and_no_other_game_has():
    """A game's catalogues are `rules/<game>/locales/<lang>.json` (rules/texts.py finds
    every such folder): one a registered game, none of a game not registered."""
    assert sorted(folder.name for folder in texts.GAMES) == sorted(GAMES)
    for game_id in GAMES:
        english = texts.catalogue("en", "messages")
        assert english[f"game.{game_id}.name"] == GAMES[game_id].game.name


def test_the_table_page_has_a_module_for_every_registered_game():
    """The table page's games (service/static/table/games/<game>.js), listed once in
    games.js: the page offers what its modules declare."""
    table = ROOT / "service" / "static" / "table"
    listed = (table / "games.js").read_text()
    for game_id in GAMES:
        module = table / "games" / f"{game_id}.js"
        assert module.is_file(), module
        assert f'import {game_id} from "./games/{game_id}.js";' in listed
        assert f'id: "{game_id}",' in module.read_text()


@pytest.mark.parametrize("game_id", list(GAMES))
def test_game_info_says_what_a_client_offers_as_the_rules_and_schemas_have_it(game_id):
    """The client is its own distribution and cannot import the service: it learns the
    games, their counts of players, deal options and moves from GameInfo (`GET /v1/games`),
    which says them from the rules and the request schemas."""
    from cardavia_client.cli.games import Game

    info, registered = SCHEMAS[game_id].info(), GAMES[game_id].game
    game = Game.of(info)
    assert game.counts == registered.counts
    deal = SCHEMAS[game_id].requests["deal"].schema.fields
    assert set(game.options) == set(deal) - {"seed", "deck", "players"}
    assert ("players" in deal) == (len(game.counts) > 1)
    assert game.actions == {a: registered.move_fields[a] for a in registered.actions}
    assert info["won_by"] == registered.won_by
    for option in game.options.values():  # each option says what it chooses
        assert option["description"] and option["type"] in ("integer", "boolean", "string")


@pytest.mark.parametrize("game_id", SCHEMAS)
def test_the_command_line_says_every_games_settlement_and_one_it_does_not_know(game_id):
    """`cardavia replay` says a settlement by its fields (no game is named there): every
    registered game's, and a game's added later by its scores alone, never a KeyError."""
    from cardavia_client.cli.replay import settlement_text

    game = GAMES[game_id].game
    rng = random.Random(1)
    state = game.deal(rng)
    while (seat := game.to_act(state)) is not None:
        state = game.apply(state, complete(GAMES[game_id].ai.basic(state, seat, rng), rng))
    said = settlement_text(SCHEMAS[game_id].dump_state(state)["result"])
    assert said.count("\n") == 1 and "Seat 0: " in said.splitlines()[1]
    assert settlement_text({"scores": [2, -2]}) == "Seat 0: +2  Seat 1: -2"

def test_the_command_lines_ai_budget_is_the_services():
    from cardavia_client.cli import options

    for schemas in SCHEMAS.values():
        budget = schemas.requests["ai"].schema.fields["budget_ms"]
        assert (budget.low, budget.high) == options.BUDGET_MS


# -- no game named in generic code ------------------------------------------------------------

# The modules every game goes through; what differs by game is a part of the game's own
# module on the floor, never a branch on its name here. (The floors' lists of their games'
# modules, rules/registry.py and the like, name them by design.)
GENERIC = ("rules/game.py", "rules/cards.py", "rules/reasons.py", "rules/texts.py",
           "rules/ai/__init__.py", "rules/ai/levels.py", "rules/ai/search.py",
           "rules/ai/settings.py", "schemas/common.py", "schemas/game.py", "schemas/views.py",
           "schemas/records.py", "schemas/fast.py", "schemas/limits.py", "render/__init__.py",
           "render/art.py", "render/cards.py", "render/drawing.py", "render/layout.py",
           "render/svg.py", "render/text.py",
           "service/api.py", "service/app.py", "service/capacity.py", "service/cors.py",
           "service/docs.py", "service/edge.py", "service/i18n.py", "service/problem_pages.py",
           "service/problems.py", "service/render_api.py", "service/replay.py",
           "service/rulebook.py", "service/signing.py", "service/table.py",
           "service/static/table/table.js", "service/static/table/table.css",
           # The shared catalogues: a game's words live in its own folder.
           *(f"service/locales/{p.name}"
             for p in sorted((ROOT / "service" / "locales").glob("*.json"))),
           # The command line learns the games from GameInfo. (The client's calls and types
           # name the Tarot score sheet's endpoints and the fields of each settlement, as
           # API.md does; `score` is that sheet's command, and `replay` says a settlement
           # by its fields.)
           *(f"clients/python/cardavia_client/{m}.py" for m in (
               "match", "stats", "cli/__init__", "cli/common", "cli/games", "cli/options",
               "cli/notation", "cli/deal", "cli/moves", "cli/move", "cli/render", "cli/play",
               "cli/match")))


def named_games(path: Path) -> set[str]:
    """The registered games a file names in its code (comments and docstrings aside), or
    imports a module of by name."""
    ids = "|".join(GAMES)
    if path.suffix != ".py":
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(), flags=re.S)
        return set(re.findall(rf"\b({ids})\b", text, flags=re.I))
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    found = set()
    for node in ast.walk(tree):
        words = None if id(node) in docstrings else words_of(node)
        if words is not None:
            found.update(g.lower() for g in re.findall(rf"(?<![a-z])({ids})(?![a-z])", words,
                                                         flags=re.I))
    return found


def words_of(node: ast.AST) -> str | None:
    """What a node of code says: a string, a name, an attribute, the modules and names an
    import names; None for any other node."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return " ".join([node.module or "" if isinstance(node, ast.ImportFrom) else "",
                         *(a.name for a in node.names)]).replace(".", " ")
    return None


def test_generic_code_names_no_game():
    named = {path: named_games(ROOT / path) for path in GENERIC}
    assert {path: games for path, games in named.items() if games} == {}


def test_a_game_named_in_generic_code_is_found(tmp_path):
    """The check above can fail: the branches it replaced are found."""
    code = tmp_path / "svg.py"
    code.write_text('"""Durak in a docstring is fine."""\nif game == "durak":\n    pass\n'
                    'from rules import ganjifa\n')
    script = tmp_path / "table.js"
    script.write_text('// tarot in a comment\nif (c.game === "tarot") {}\n')
    assert named_games(code) == {"durak", "ganjifa"} and named_games(script) == {"tarot"}


# -- no import circle ---------------------------------------------------------------------------

PACKAGES = ("rules", "schemas", "service", "render")


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The project's modules that `path` imports, at its top or inside a function (an import
    deferred into a function is still a circle), each `from m import x` counted as `m.x`
    when x is a module; a module's own packages are left out, as Python has run them
    before it."""
    me = module_of(path)
    own = {".".join(me.split(".")[:i]) for i in range(1, me.count(".") + 1)}
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules
                     else node.module for a in node.names]
        else:
            continue
        found.update(n for n in names if n in modules and n not in own and n != me)
    return found


def import_graph() -> dict[str, set[str]]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    modules = {module_of(p) for p in files}
    return {module_of(p): imports(p, modules) for p in files}


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of `graph`, or None."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := walk(n)):
                return found
        state[m] = 2
        path.pop()
        return None

    for m in sorted(graph):
        if m not in state and (found := walk(m)):
            return found
    return None


def test_the_modules_import_each_other_without_a_circle():
    assert circle(import_graph()) is None


def test_an_import_circle_is_found():
    """The check above can fail: the circle cut from schemas/views.py (its views read the
    registry, whose games' schemas import it) is found when put back."""
    graph = import_graph()
    assert "schemas.views" in graph["schemas.durak"]
    graph["schemas.views"] = graph["schemas.views"] | {"schemas.registry"}
    found = circle(graph)
    assert found is not None and "schemas.views" in found and "schemas.registry" in found
