"""Hold under abuse: the inputs found answered 500 or costing seconds, each over a
real gunicorn. No input answers 500; a 1 MiB body of any hostile shape is a 422 of at most
64 KiB that names the field, with at most 50 errors; nesting deeper than the deepest real
body is a 422 naming the place. Figures that depend on timing are in bench/abuse.py."""

from __future__ import annotations

import json
import random

import orjson
import pytest
import requests
from marshmallow import fields

from rules.ai import complete
from schemas.limits import MAX_DEPTH, MAX_MEMBERS, MAX_VALUES, too_deep
from schemas.registry import GAMES
from schemas.tarot import SCORE_SHEET
from service.problems import MAX_ERRORS, MAX_TEXT
from tests.openapi_check import assert_conforms, assert_described
from tests.support.abuse import (
    base_body,
    every_list_field,
    filling,
    list_fields,
    listing,
    mid_deal_states,
    nested,
    raw_with,
)
from tests.support.games import TESTS

PROBLEM = "application/problem+json"
MAX_ANSWER = 64 * 1024
DEEP = 965  # the depth the issue found answered 500, under gunicorn's own call stack
STATES = {game_id: schemas.dump_state(schemas.game.deal(random.Random(3),
                                                        **TESTS[game_id].fullest))
          for game_id, schemas in GAMES.items()}
LIST_FIELDS = list(every_list_field())
MID_DEAL = {game_id: mid_deal_states(game_id, 30) for game_id in GAMES}


def post(base: str, game_id: str, endpoint: str, raw: bytes, **headers) -> requests.Response:
    path = "/v1/games/tarot/settlement" if endpoint == "settlement" else \
        f"/v1/games/{game_id}/{endpoint}"
    return requests.post(base + path, data=raw, timeout=60,
                         headers={"Content-Type": "application/json", **headers})


def fields_of(r: requests.Response) -> list[str]:
    return [e["field"] for e in r.json()["errors"]]


def bounded_problem(r: requests.Response, status: int = 422) -> dict:
    """A problem of `status`, at most 64 KiB, with at most MAX_ERRORS errors."""
    assert r.status_code == status, r.text[:500]
    assert r.headers["Content-Type"] == PROBLEM
    assert len(r.content) <= MAX_ANSWER
    body = r.json()
    assert len(body.get("errors", ())) <= MAX_ERRORS
    return body


def dotted(path) -> str:
    return ".".join(map(str, path))


# -- nesting --------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "endpoint", "path"), [
    ("durak", "legal-moves", ("state", "hands", 0, 0)),
    ("durak", "move", ("move", "card")),
    ("durak", "deal", ("deck",)),
    ("tarot", "legal-moves", ("state", "tricks")),
    ("ganjifa", "view", ("state", "dukal")),
])
def test_a_value_nested_965_deep_is_a_422_naming_the_place(server, game_id, endpoint, path):
    body = base_body(game_id, endpoint, STATES[game_id])
    problem = bounded_problem(post(server, game_id, endpoint, raw_with(body, path,
                                                                      nested(DEEP))))
    assert problem["type"] == "/problems/invalid-body"
    [field] = fields_of_json(problem)
    # The first object or list below the limit, inside the value put at `path`.
    assert field.startswith(dotted(path)) and len(field.split(".")) == MAX_DEPTH


@pytest.mark.parametrize("levels", [1024, 1025, 5000])
@pytest.mark.parametrize(("game_id", "endpoint", "path"), [
    ("durak", "move", ("move", "card")),
    ("tarot", "legal-moves", ("state", "tricks")),
])
def test_a_value_nested_beyond_the_parser_is_a_422_naming_the_place(server, game_id,
                                                                     endpoint, path, levels):
    """Valid JSON deeper than orjson parses (1,024 levels): the same 422 as any body too
    deep, not a 400 saying it is not JSON."""
    body = base_body(game_id, endpoint, STATES[game_id])
    problem = bounded_problem(post(server, game_id, endpoint,
                                   raw_with(body, path, nested(levels))))
    assert problem["type"] == "/problems/invalid-body"
    [field] = fields_of_json(problem)
    assert field.startswith(dotted(path)) and len(field.split(".")) == MAX_DEPTH


@pytest.mark.parametrize("number", [b"1e400", b"-1e400", b"1.5E+999"])
@pytest.mark.parametrize(("game_id", "endpoint", "path"), [
    ("durak", "move", ("move", "seat")),
    ("tarot", "view", ("state", "hands", 1, 2)),
    ("ganjifa", "ai-move", ("budget_ms",)),
])
def test_a_number_beyond_a_double_is_a_422_naming_the_place(server, game_id, endpoint, path,
                                                            number):
    body = base_body(game_id, endpoint, STATES[game_id])
    problem = bounded_problem(post(server, game_id, endpoint, raw_with(body, path, number)))
    assert problem["type"] == "/problems/invalid-body"
    assert fields_of_json(problem) == [dotted(path)]


@pytest.mark.parametrize("value", [[3], {"v": 3}, 1e308, 0.5, True, "3"])
@pytest.mark.parametrize("endpoint", ["settlement", "session"])
def test_a_score_sheet_count_of_the_wrong_type_is_a_422(server, endpoint, value):
    """An integer field without a range of its own (a sheet's `bouts`): its message once
    named a range it does not have, and answered 500."""
    sheet = {"contract": "garde", "bouts": value, "points": 40}
    body = sheet if endpoint == "settlement" else {"players": ["A", "B", "C", "D"],
                                                   "deals": [sheet]}
    r = requests.post(f"{server}/v1/games/tarot/{endpoint}", json=body, timeout=30)
    problem = bounded_problem(r)
    assert any(f.endswith("bouts") for f in fields_of_json(problem)), problem


def test_a_text_that_is_not_json_stays_a_400(server):
    for raw in [b'{"move": 1e400', b'{"a": 1e400 x}', b'{"a": [1, }']:
        r = requests.post(f"{server}/v1/games/durak/move", data=raw, timeout=30,
                          headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["type"] == "/problems/malformed-json", raw


def fields_of_json(problem: dict) -> list[str]:
    return [e["field"] for e in problem["errors"]]


def deepest_real_body() -> tuple[int, dict]:
    """The deepest request body of seeded deals played through at random, and its depth."""
    def depth(v) -> int:
        if isinstance(v, dict | list):
            values = v.values() if isinstance(v, dict) else v
            return 1 + max(map(depth, values), default=0)
        return 0

    best, deepest = 0, {}
    for game_id, schemas in GAMES.items():
        game = schemas.game
        for seed in range(100):  # a Ganjifa deal with a captured Dukal comes within ~20
            rng = random.Random(seed)
            state = game.deal(rng)
            while game.legal_moves(state):
                state = game.apply(state, complete(rng.choice(game.legal_moves(state)), rng))
                body = {"state": schemas.dump_state(state)}
                if depth(body) > best:
                    best, deepest = depth(body), {"game": game_id, **body}
            if best >= MAX_DEPTH:
                return best, deepest
    return best, deepest


def test_the_depth_limit_is_the_deepest_real_body_and_it_is_accepted(server):
    depth, body = deepest_real_body()
    assert depth == MAX_DEPTH
    game_id = body.pop("game")
    r = post(server, game_id, "legal-moves", orjson.dumps(body))
    assert r.status_code == 200, r.text[:300]


def test_one_level_deeper_than_the_limit_is_refused(server):
    state = STATES["durak"]
    body = base_body("durak", "legal-moves", state)
    at_limit = raw_with(body, ("state", "hands", 0), nested(MAX_DEPTH - 3, b"1"))
    assert "Nested too deep" not in post(server, "durak", "legal-moves", at_limit).text
    over = raw_with(body, ("state", "hands", 0), nested(MAX_DEPTH - 2, b"1"))
    problem = bounded_problem(post(server, "durak", "legal-moves", over))
    assert fields_of_json(problem) == ["state.hands.0.0.0.0.0"]


# -- numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("points", [1e308, -1e308, 1.7976931348623157e308, 2**63, -(2**63)])
def test_huge_points_on_a_tarot_score_sheet_are_a_422(server, points):
    raw = orjson.dumps({"contract": "garde", "bouts": 1, "points": points})
    problem = bounded_problem(post(server, "tarot", "settlement", raw))
    assert fields_of_json(problem) == ["points"]


# -- signed states --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def signed_state(signed_server) -> dict:
    r = requests.post(f"{signed_server}/v1/games/durak/deal", json={}, timeout=10)
    return r.json()["state"]


@pytest.mark.parametrize("signature", ["v1.é", "\u0000", "v1." + "ж" * 43, "😀" * 10])
def test_a_non_ascii_signature_is_refused_not_a_500(signed_server, signed_state, signature):
    raw = orjson.dumps({"state": {**signed_state, "signature": signature}})
    problem = bounded_problem(post(signed_server, "durak", "legal-moves", raw))
    assert problem["type"] == "/problems/state_signature_invalid"


@pytest.mark.parametrize("levels", [MAX_DEPTH, 255, 256, 300, DEEP])
def test_a_deep_value_beside_a_signature_is_a_422_not_a_500(signed_server, signed_state,
                                                            levels):
    for path in [("state", "result"), ("state", "hands", 0, 0), ("state", "signature")]:
        raw = raw_with(base_body("durak", "legal-moves", signed_state), path,
                       nested(levels))
        problem = bounded_problem(post(signed_server, "durak", "legal-moves", raw))
        assert problem["type"] == "/problems/invalid-body", (path, problem)
        assert fields_of_json(problem)[0].startswith(dotted(path))


def test_a_deep_value_is_refused_by_every_endpoint_with_a_signature(signed_server,
                                                                   signed_state):
    for endpoint in ("legal-moves", "move", "ai-move", "view"):
        body = base_body("durak", endpoint, signed_state)
        raw = raw_with(body, ("state", "stock"), nested(300))
        bounded_problem(post(signed_server, "durak", endpoint, raw))


# -- 1 MiB lists ----------------------------------------------------------------------------


def test_every_list_field_of_every_schema_is_enumerated():
    paths = {(g, dotted(p)) for g, _, p in LIST_FIELDS}
    assert {("durak", "state.table"), ("tarot", "state.trick"), ("tarot", "state.tricks"),
            ("tarot", "state.poignees"), ("tarot", "state.tricks.0.cards"),
            ("ganjifa", "state.dukals.0.discards"), ("durak", "deck"),
            ("ganjifa", "move.cards"), ("tarot", "poignees")} <= paths
    assert len(paths) >= 30


@pytest.mark.parametrize(("game_id", "endpoint", "path"), LIST_FIELDS,
                         ids=[f"{g}-{dotted(p)}" for g, _, p in LIST_FIELDS])
def test_a_long_list_of_objects_is_one_length_error(server, game_id, endpoint, path):
    body = base_body(game_id, endpoint, STATES[game_id])
    raw = listing(body, path, MAX_VALUES // 4)
    problem = bounded_problem(post(server, game_id, endpoint, raw))
    # The length is checked before the items: one error for the list, none for its items;
    # but for a list at the depth limit, whose first object is too deep already.
    at_limit = len(path) + 1 == MAX_DEPTH
    at_or_below = [f for f in fields_of_json(problem) if f == dotted(path)
                   or f.startswith(dotted(path) + ".")]
    assert at_or_below == [dotted((*path, 0)) if at_limit else dotted(path)], problem


TOO_MANY = f"Too many values: no request holds more than {MAX_VALUES:,}."


@pytest.mark.parametrize(("game_id", "endpoint", "path"), LIST_FIELDS,
                         ids=[f"{g}-{dotted(p)}" for g, _, p in LIST_FIELDS])
def test_a_1_mib_list_of_objects_is_refused_before_parsing(server, game_id, endpoint, path):
    raw = filling(base_body(game_id, endpoint, STATES[game_id]), path)
    assert len(raw) > 1024 * 1024 - 64
    problem = bounded_problem(post(server, game_id, endpoint, raw))
    assert [(e["field"], e["message"]) for e in problem["errors"]] == [("", TOO_MANY)]


@pytest.mark.parametrize("item", [b"[]", b'"6S"', b"1", b"null", b'{"seat": 0}', b"[1]"])
def test_a_long_table_of_any_item_is_one_length_error(server, item):
    raw = listing(base_body("durak", "legal-moves", STATES["durak"]), ("state", "table"),
                  MAX_VALUES // 3, item)
    problem = bounded_problem(post(server, "durak", "legal-moves", raw))
    assert [f for f in fields_of_json(problem) if f.startswith("state.table")] == \
        ["state.table"]
    filled = filling(base_body("durak", "legal-moves", STATES["durak"]), ("state", "table"),
                     item)
    problem = bounded_problem(post(server, "durak", "legal-moves", filled))
    assert fields_of_json(problem) == [""]


def test_real_bodies_hold_far_fewer_values_than_the_limit():
    for states in MID_DEAL.values():
        for state in states:
            raw = orjson.dumps({"state": state})
            assert raw.count(b",") + raw.count(b"[") + raw.count(b"{") < MAX_VALUES // 8


def test_a_problem_lists_at_most_50_errors_and_counts_the_rest(server):
    state = dict(STATES["ganjifa"])
    state["hands"] = [["ZZ"] * 40 for _ in range(3)]  # 120 unknown card codes
    r = post(server, "ganjifa", "legal-moves", orjson.dumps({"state": state}))
    problem = bounded_problem(r)
    assert len(problem["errors"]) == MAX_ERRORS
    assert problem["errors_omitted"] == 120 - MAX_ERRORS
    assert_conforms("post", "/v1/games/{game}/legal-moves", r)
    assert_described("post", "/v1/games/{game}/legal-moves", r)  # a 422: ValidationProblem
    assert problem["detail"] == ("120 field(s) break the schema. "
                                 f"{120 - MAX_ERRORS} more error(s) are left out.")
    hu = bounded_problem(post(server, "ganjifa", "legal-moves", orjson.dumps(
        {"state": state}), **{"Accept-Language": "hu"}))
    assert hu["errors_omitted"] == 70 and "További 70 hiba kimaradt." in hu["detail"]


def test_a_problem_with_few_errors_says_nothing_omitted(server):
    state = dict(STATES["durak"])
    state["hands"] = [["ZZ"], []]
    problem = bounded_problem(post(server, "durak", "legal-moves",
                                   orjson.dumps({"state": state})))
    assert "errors_omitted" not in problem and "left out" not in problem["detail"]


@pytest.mark.parametrize("where", ["key", "card"])
def test_a_huge_key_or_card_code_is_quoted_clipped(server, where):
    state = dict(STATES["durak"])
    long = "K" * 1_000_000
    if where == "key":
        state[long] = 1
    else:
        state["hands"] = [[long], []]
    r = post(server, "durak", "legal-moves", orjson.dumps({"state": state}))
    problem = bounded_problem(r)
    for e in problem["errors"]:
        assert all(len(text) <= MAX_TEXT for text in e.values())
    assert_conforms("post", "/v1/games/{game}/legal-moves", r)


def test_a_long_message_of_the_service_is_said_whole(server):
    """Issue 40.7: only what a client's keys make is clipped; a sentence of the service is
    never cut mid-way (T12's explanation of a half point once ended in "…")."""
    r = requests.post(f"{server}/v1/games/tarot/settlement", timeout=30,
                      json={"contract": "garde", "bouts": 0, "points": 40.5})
    message = bounded_problem(r)["errors"][0]["message"]
    assert len(message) > MAX_TEXT and "…" not in message
    assert message.endswith("changes camp in the last trick, T12).")


@pytest.mark.parametrize("path", [("state",), ("state", "tricks", 0), ("move",), ()])
def test_an_object_of_thousands_of_unknown_members_is_one_error(server, path):
    members = b",".join(b'"k%d":0' % i for i in range(MAX_VALUES // 2))
    body = base_body("tarot", "move", STATES["tarot"])
    raw = raw_with(body, path, b"{" + members + b"}") if path else b"{" + members + b"}"
    problem = bounded_problem(post(server, "tarot", "move", raw))
    below = [(e["field"], e["message"]) for e in problem["errors"]
             if e["field"].startswith(dotted(path))]  # (the body's move is not legal either)
    assert below == [
        (dotted(path), f"Too many members: no object of a request has more than {MAX_MEMBERS}.")]


def test_no_object_of_a_request_has_more_members_than_the_limit():
    def widest(schema) -> int:
        nested = [widest(f.schema) for f in schema.load_fields.values()
                  if isinstance(f, fields.Nested)]
        inner = [widest(f.inner.schema) for f in schema.load_fields.values()
                 if isinstance(f, fields.List) and isinstance(f.inner, fields.Nested)]
        return max([len(schema.load_fields), *nested, *inner])

    schemas = [r.schema for s in GAMES.values() for r in s.requests.values()]
    assert max(map(widest, [*schemas, SCORE_SHEET])) <= MAX_MEMBERS


def test_list_fields_of_a_schema_are_found_inside_nested_schemas():
    schema = GAMES["ganjifa"].requests["state"].schema
    paths = {dotted(p) for p in list_fields(schema)}
    assert {"state.hands", "state.hands.0", "state.dukal.discards",
            "state.dukal.discards.0.cards", "state.tricks.0.cards"} <= paths


def test_the_depth_read_from_the_bytes_is_the_depth_of_the_body():
    """schemas/limits.py reads the depth from the bytes, strings cut out: random bodies
    whose strings and keys hold brackets, quotes and backslashes, ASCII-escaped or not."""
    rng = random.Random(16)
    alphabet = ["[", "]", "{", "}", '"', "\\", "a", ",", "é", "\n"]

    def text() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(6)))

    def value(level: int):
        r = rng.random()
        if level > MAX_DEPTH + 2 or r < 0.3:
            return rng.choice([text(), 1, None, True])
        if r < 0.65:
            return [value(level + 1) for _ in range(rng.randrange(4))]
        return {text(): value(level + 1) for _ in range(rng.randrange(4))}

    def depth(v) -> int:
        if isinstance(v, dict | list):
            return 1 + max(map(depth, v.values() if isinstance(v, dict) else v), default=0)
        return 0

    seen = set()
    for _ in range(3000):
        body = {"x": value(2)}
        raw = json.dumps(body, ensure_ascii=rng.random() < 0.5).encode()
        place = too_deep(raw, orjson.loads(raw))
        assert (place is not None) == (depth(body) > MAX_DEPTH), raw
        seen.add(place is None)
    assert seen == {True, False}
