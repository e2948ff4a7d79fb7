"""openapi.yaml is a valid OpenAPI 3.1 document, covers exactly the routes the app serves,
is served as it is, and describes what the service really answers (and accepts)."""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
import requests
from openapi_spec_validator import validate

from rules.reasons import MESSAGES
from rules.registry import GAMES
from service.app import TestingConfig, create_app
from service.router import TABLE, templates
from tests.openapi_check import (
    OPENAPI_PATH,
    assert_conforms,
    assert_described,
    assert_request_conforms,
    operations,
    request_error,
    spec,
)
from tests.support.games import TESTS

GAME = "/v1/games/{game}"
DEAL = "/v1/games/{game}/deal"
LEGAL = "/v1/games/{game}/legal-moves"
MOVE = "/v1/games/{game}/move"
AI = "/v1/games/{game}/ai-move"
VIEW = "/v1/games/{game}/view"
SETTLEMENT = "/v1/games/tarot/settlement"
MIB = 1024 * 1024


# -- the document --------------------------------------------------------------------------


def test_document_is_valid_openapi_3_1():
    document = spec()
    assert document["openapi"] == "3.1.0"
    validate(document)


@cache
def app_operations() -> frozenset[tuple[str, str]]:
    """Every (METHOD, path template) the app answers, in OpenAPI spelling: the router's
    table and the Flask app's routes."""
    out = {("POST", path) for path in templates(TABLE)}
    for rule in create_app(TestingConfig).url_map.iter_rules():
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule).replace(
            "{game_id}", "{game}")
        out |= {(m, path) for m in rule.methods - {"HEAD", "OPTIONS"}}
    return frozenset(out)


def test_every_route_of_the_app_is_documented():
    assert app_operations() - operations() == set()


@pytest.mark.parametrize("operation", sorted(operations()), ids=" ".join)
def test_every_documented_operation_is_served(operation):
    assert operation in app_operations()


def test_game_parameter_is_the_enum_of_games(client):
    games = assert_conforms("GET", "/v1/games", 200, client.get("/v1/games"))["games"]
    enum = spec()["components"]["schemas"]["GameId"]["enum"]
    assert {g["id"] for g in games} == set(enum) == set(GAMES)


def test_reason_codes_are_those_the_rules_can_give():
    assert set(spec()["components"]["schemas"]["ReasonCode"]["enum"]) == set(MESSAGES)


def test_openapi_yaml_is_served_as_is(client):
    r = client.get("/openapi.yaml")
    assert_conforms("GET", "/openapi.yaml", 200, r)
    assert r.get_data() == OPENAPI_PATH.read_bytes()


def test_healthz_conforms(client):
    assert assert_conforms("GET", "/healthz", 200, client.get("/healthz")) == {"status": "ok"}


# -- helpers -------------------------------------------------------------------------------


def call(client, template: str, game: str, body, status: int = 200, request: bool = True):
    """POST `body` to the operation for `game`; the answer must conform. A body the service
    accepts (200) must be one the document accepts too (unless `request` is false: a state
    the previous answer held, already checked as that answer)."""
    r = client.post(template.format(game=game), json=body)
    data = assert_conforms("POST", template, status, r)
    if status == 200 and request:
        assert_request_conforms("POST", template, body)
    return data


def require_game(client, game: str) -> dict:
    """The game's GameInfo: a game of API.md that the app does not serve fails here."""
    return assert_conforms("GET", GAME, 200, client.get(f"/v1/games/{game}"))


def require_route(operation: tuple[str, str]) -> None:
    """A route of API.md that the app does not serve fails here."""
    assert operation in app_operations(), f"{' '.join(operation)} is not served"


def concrete(move: dict) -> dict:
    """A listed move as a move to send: a template becomes its first admissible choice."""
    if "count" not in move:
        return move
    extra = move["choose_from"][:move["count"] - len(move["must_include"])]
    return {"seat": move["seat"], "action": move["action"],
            "cards": move["must_include"] + extra}


REQUEST_EVERY = 10


def play_out(client, game: str, state: dict, rng: random.Random, ai_every: int) -> dict:
    """Random legal moves through the API to the end of the deal, every answer checked
    against the document; the AI is asked every `ai_every` steps. Returns the final state."""
    players = GAMES[game].game.players
    illegal_tried = False
    for step in range(2000):
        # Each request body is a state the last answer held and a move it listed, both
        # checked as answers; checking the requests too (the slowest check of the suite,
        # a oneOf over every game's state) at every step would find nothing more.
        whole = step % REQUEST_EVERY == 0
        listed = call(client, LEGAL, game, {"state": state}, request=whole)
        assert listed["to_act"] == state["to_act"]
        if listed["to_act"] is None:
            assert listed["moves"] == [] and state["phase"] == "over"
            assert state["result"] is not None
            return state
        if step % ai_every == 0:
            level = ("random", "basic", "strong")[step // ai_every % 3]
            call(client, AI, game,
                 {"state": state, "level": level, "seed": step, "budget_ms": 50}, request=whole)
        plain = [m for m in listed["moves"] if "count" not in m]
        if not illegal_tried and plain:
            # The same move by the seat not to act is well formed and illegal.
            wrong = {**plain[0], "seat": (plain[0]["seat"] + 1) % players}
            answer = call(client, MOVE, game, {"state": state, "move": wrong})
            assert answer["legal"] is False
            illegal_tried = True
        result = call(client, MOVE, game,
                      {"state": state, "move": concrete(rng.choice(listed["moves"]))},
                      request=whole)
        assert result["legal"] is True, result
        state = result["state"]
        assert result["settlement"] == state["result"]
    pytest.fail(f"a {game} deal did not end")


# -- Durak ---------------------------------------------------------------------------------


def test_durak_game_info_conforms(client):
    info = require_game(client, "durak")
    assert len(info["cards"]) == info["deck"]["size"] == 36


def test_durak_deal_legal_moves_move_ai_move_conform(client):
    state = call(client, DEAL, "durak", {"seed": 5})["state"]
    assert state["phase"] == "attack" and state["result"] is None
    listed = call(client, LEGAL, "durak", {"state": state})
    attacker = listed["to_act"]
    assert listed["moves"] and all(m["action"] == "attack" for m in listed["moves"])

    legal = call(client, MOVE, "durak", {"state": state, "move": listed["moves"][0]})
    assert legal["legal"] is True and legal["settlement"] is None
    assert [e["type"] for e in legal["events"]] == ["attacked"]

    for move, code in [
        ({"seat": 1 - attacker, "action": "take"}, "not_your_turn"),
        ({"seat": attacker, "action": "pass"}, "cannot_pass_empty_table"),
        ({"seat": attacker, "action": "attack", "card": state["hands"][1 - attacker][0]},
         "card_not_in_hand"),
    ]:
        illegal = call(client, MOVE, "durak", {"state": state, "move": move})
        assert illegal["legal"] is False and illegal["reason"]["code"] == code

    for extra in [{}, {"level": "random", "seed": 1}, {"level": "basic", "seat": attacker},
                  {"level": "strong", "budget_ms": 50}]:
        ai = call(client, AI, "durak", {"state": state, **extra})
        assert ai["move"] in listed["moves"]


def test_durak_stacked_deal_conforms(client):
    codes = [c["code"] for c in require_game(client, "durak")["cards"]]
    state = call(client, DEAL, "durak", {"deck": codes})["state"]
    assert state["stock"][-1] == codes[12]  # D2


def test_durak_whole_deals_conform(client):
    """Whole deals through the API: the settlement, `deal_over` and the states after it."""
    for seed in range(3):
        state = call(client, DEAL, "durak", {"seed": 100 + seed})["state"]
        final = play_out(client, "durak", state, random.Random(seed), ai_every=5)
        assert final["result"]["outcome"] in ("durak", "draw")
        over = call(client, MOVE, "durak",
                    {"state": final, "move": {"seat": 0, "action": "pass"}})
        assert over["legal"] is False and over["reason"]["code"] == "deal_over"
        call(client, AI, "durak", {"state": final}, 422)


def test_durak_view_conforms(client):
    require_route(("POST", VIEW))
    state = call(client, DEAL, "durak", {"seed": 8})["state"]
    for seat in (0, 1):
        view = call(client, VIEW, "durak", {"state": state, "seat": seat})["view"]
        assert view["hands"][seat] == state["hands"][seat]
        assert set(view["hands"][1 - seat]) == {"?"}
        assert view["stock"][-1] == state["stock"][-1]
        assert set(view["stock"][:-1]) == {"?"}
        # A view is never accepted where a State is.
        call(client, LEGAL, "durak", {"state": view}, 422)
        assert request_error("POST", LEGAL, {"state": view}) is not None


# -- problems ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def openapi_durak_state(client):
    return client.post("/v1/games/durak/deal", json={"seed": 21}).get_json()["state"]


def test_non_json_body_is_400(client):
    for template in (DEAL, LEGAL, MOVE, AI):
        r = client.post(template.format(game="durak"), data=b"{not json",
                        content_type="application/json")
        assert assert_conforms("POST", template, 400, r)["status"] == 400


@pytest.mark.parametrize("template,body,field", [
    (DEAL, {"seed": "seven"}, "seed"),
    (DEAL, {"seed": 1, "colour": "red"}, "colour"),
    (DEAL, {"deck": ["6S"]}, "deck"),
    (DEAL, [], ""),
    (LEGAL, {}, "state"),
    (MOVE, {"state": "STATE"}, "move"),
    (MOVE, {"state": "STATE", "move": {"seat": 0, "action": "take", "card": "6S"}}, "move.card"),
    (MOVE, {"state": "STATE", "move": {"seat": 2, "action": "pass"}}, "move.seat"),
    (AI, {"state": "STATE", "budget_ms": 10_001}, "budget_ms"),
    (AI, {"state": "STATE", "level": "godlike"}, "level"),
])
def test_schema_breaks_are_422(client, openapi_durak_state, template, body, field):
    if isinstance(body, dict) and body.get("state") == "STATE":
        body = {**body, "state": openapi_durak_state}
    r = client.post(template.format(game="durak"), json=body)
    problem = assert_conforms("POST", template, 422, r)
    assert field in {e["field"] for e in problem["errors"]}, problem


@pytest.mark.parametrize("template", [LEGAL, MOVE, AI])
def test_invalid_state_is_422(client, openapi_durak_state, template):
    hands = [list(openapi_durak_state["hands"][0]), list(openapi_durak_state["hands"][1])]
    hands[1][0] = hands[0][0]  # one card twice, one missing
    body = {"state": {**openapi_durak_state, "hands": hands}}
    if template == MOVE:
        body["move"] = {"seat": openapi_durak_state["to_act"], "action": "pass"}
    problem = call(client, template, "durak", body, 422)
    assert any(e["field"].startswith("state") for e in problem["errors"])


def test_no_legal_move_for_the_ai_is_422(client, openapi_durak_state):
    seat = 1 - openapi_durak_state["to_act"]
    call(client, AI, "durak", {"state": openapi_durak_state, "seat": seat}, 422)


def test_unknown_game_is_404(client, openapi_durak_state):
    assert_conforms("GET", GAME, 404, client.get("/v1/games/chess"))
    for template in (DEAL, LEGAL, MOVE, AI, VIEW):
        r = client.post(template.format(game="chess"), json={"state": openapi_durak_state})
        assert_conforms("POST", template, 404, r)


@pytest.mark.parametrize("method,path,template", [
    ("GET", "/v1/games/durak/deal", DEAL),
    ("PUT", "/v1/games/durak/move", MOVE),
    ("POST", "/healthz", "/healthz"),
    ("DELETE", "/v1/games", "/v1/games"),
    ("POST", "/v1/games/durak", GAME),
])
def test_wrong_method_is_405(client, method, path, template):
    r = client.open(path, method=method)
    assert_conforms(method, template, 405, r)
    assert method not in r.headers["Allow"]


def test_body_over_1_mib_is_413(client):
    for template in (DEAL, MOVE):
        r = client.post(template.format(game="durak"), data=b" " * (MIB + 1),
                        content_type="application/json")
        assert_conforms("POST", template, 413, r)


# -- the request schemas agree with the service ---------------------------------------------


DROP = object()  # in a {"STATE": 1, …} overlay: leave the field out


@pytest.mark.parametrize("game,template,body", [
    ("durak", DEAL, {}),
    ("durak", DEAL, {"seed": 0}),
    ("durak", DEAL, {"seed": 2**63 - 1}),
    ("durak", DEAL, {"seed": -1}),
    ("durak", DEAL, {"seed": 1.5}),
    ("durak", DEAL, {"seed": True}),
    ("durak", DEAL, {"deck": "6S"}),
    ("durak", DEAL, {"deck": ["6s"]}),
    ("durak", LEGAL, {"state": "STATE"}),
    ("durak", LEGAL, {"state": "STATE", "extra": 1}),
    ("durak", LEGAL, {"state": {"STATE": 1, "colour": "red"}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "signature": "x"}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "phase": None}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "to_act": None, "result": None}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "phase": DROP, "to_act": DROP, "result": DROP}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "taking": DROP}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "game": "tarot"}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "trump": "X"}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "hands": [["?"], []]}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "table": [{"attack": "6S"}]}}),
    ("durak", LEGAL, {"state": {"STATE": 1, "table": [{"attack": "6S", "defense": None,
                                                         "x": 1}]}}),
    ("durak", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "attack"}}),
    ("durak", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "pass", "x": 1}}),
    ("durak", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "fold"}}),
    ("durak", MOVE, {"state": "STATE", "move": {"seat": "0", "action": "pass"}}),
    ("durak", AI, {"state": "STATE", "budget_ms": 0}),
    ("durak", AI, {"state": "STATE", "budget_ms": 10_000, "level": "basic", "seed": 3}),
    ("tarot", DEAL, {"dealer": 0, "seed": 1}),
    ("tarot", DEAL, {"dealer": 4}),
    ("tarot", LEGAL, {"state": {"STATE": 1, "taker": DROP, "contract": DROP, "phase": DROP,
                                "to_act": DROP, "result": DROP}}),
    ("tarot", LEGAL, {"state": {"STATE": 1, "chien": DROP}}),
    ("tarot", LEGAL, {"state": {"STATE": 1, "chelem": "no"}}),
    ("tarot", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "discard",
                                                "cards": ["1S", "2S"]}}),
    ("tarot", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "poignee",
                                                "cards": ["T2"]}}),
    ("tarot", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "bid"}}),
    ("tarot", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "bid",
                                                "contract": "garde", "card": "EX"}}),
    ("tarot", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "chelem",
                                                "announce": "yes"}}),
    ("tarot", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "play", "card": "T22"}}),
    ("ganjifa", DEAL, {"period": "night", "seed": 3}),
    ("ganjifa", DEAL, {"period": "dusk"}),
    ("ganjifa", LEGAL, {"state": {"STATE": 1, "dukal": DROP}}),
    ("ganjifa", LEGAL, {"state": {"STATE": 1, "phase": DROP, "to_act": DROP, "result": DROP}}),
    ("ganjifa", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "dukal",
                                                  "cards": ["1MAT"]}}),
    ("ganjifa", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "discard",
                                                  "cards": []}}),
    ("ganjifa", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "play",
                                                  "cards": ["1MAT"]}}),
    ("ganjifa", MOVE, {"state": "STATE", "move": {"seat": 0, "action": "play",
                                                  "card": "11MAT"}}),
    ("ganjifa", MOVE, {"state": "STATE", "move": {"seat": 3, "action": "play",
                                                  "card": "1MAT"}}),
])
def test_request_schema_accepts_what_the_service_accepts(client, game, template, body):
    """The document and the service draw the same line between a well-formed request and
    a schema break (422 invalid-body)."""
    require_game(client, game)
    state = client.post(f"/v1/games/{game}/deal", json={"seed": 21}).get_json()["state"]
    body = fill(body, state)
    r = client.post(template.format(game=game), json=body)
    data = assert_conforms("POST", template, r)
    schema_break = r.status_code == 422 and data["type"] == "/problems/invalid-body"
    assert (request_error("POST", template, body) is not None) == schema_break, data


def fill(body, state):
    """Replace the placeholder "STATE" (or a {"STATE": 1, …} overlay) with a real state."""
    if isinstance(body, dict):
        if body.get("STATE") == 1:
            overlay = {k: v for k, v in body.items() if k != "STATE"}
            return {k: v for k, v in {**state, **overlay}.items() if v is not DROP}
        return {k: fill(v, state) for k, v in body.items()}
    return state if body == "STATE" else body


SHEET = {"contract": "garde", "taker": 1, "bouts": 2, "points": 45}


@pytest.mark.parametrize("sheet", [
    SHEET,
    # Sheets a deal produces: the schema's shape is the service's. A sheet of the right
    # shape that no deal produces (3 bouts with 5 points) is refused beyond what JSON Schema
    # says, as TarotScoreSheet's description lists (tests/test_tarot_sheets.py).
    {"contract": "prise", "bouts": 1, "points": 60.5},
    {**SHEET, "petit_au_bout": None, "poignees": [], "chelem": None},
    {**SHEET, "chelem": {"announced": True}},
    {**SHEET, "bouts": 0, "points": 3, "chelem": {"announced": False, "made_by": "defense"}},
    {**SHEET, "poignees": [{"camp": "defense", "level": "triple"}]},
    {**SHEET, "taker": 4},
    {**SHEET, "points": 45.25},
    {**SHEET, "points": 91.5},
    {**SHEET, "bouts": 4},
    {**SHEET, "contract": "pass"},
    {**SHEET, "petit_au_bout": "nobody"},
    {**SHEET, "poignees": [{"camp": "taker", "level": "quadruple"}]},
    {**SHEET, "poignees": [{"camp": "taker", "level": "simple", "seat": 1}]},
    {**SHEET, "chelem": {"made_by": "taker"}},
    {**SHEET, "colour": "red"},
    {"contract": "garde", "points": 45},
])
def test_score_sheet_schema_accepts_what_the_service_accepts(client, sheet):
    require_route(("POST", SETTLEMENT))
    r = client.post(SETTLEMENT, json=sheet)
    data = assert_conforms("POST", SETTLEMENT, r)
    assert r.status_code in (200, 422)
    assert (request_error("POST", SETTLEMENT, sheet) is not None) == (r.status_code == 422), data


# -- Tarot and Ganjifa (skipped until they are served) ---------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_game_info_conforms(client, game):
    info = require_game(client, game)
    assert len(info["cards"]) == info["deck"]["size"]
    assert info["players"] == GAMES[game].game.players


@pytest.mark.parametrize("game", list(GAMES))
def test_whole_deals_conform(client, game):
    require_game(client, game)
    for seed, extra in enumerate(TESTS[game].deal_options):
        state = call(client, DEAL, game, {"seed": 40 + seed, **extra})["state"]
        final = play_out(client, game, state, random.Random(seed), ai_every=9)
        assert final["phase"] == "over"
        call(client, AI, game, {"state": final}, 422)


@pytest.mark.parametrize("game", list(GAMES))
def test_stacked_deal_and_problems_conform(client, game):
    codes = [c["code"] for c in require_game(client, game)["cards"]]
    call(client, DEAL, game, {"deck": codes})
    call(client, DEAL, game, {"deck": codes[1:]}, 422)
    state = call(client, DEAL, game, {"seed": 3})["state"]
    broken = {**state, "hands": [state["hands"][0] + state["hands"][0][:1],
                                 *state["hands"][1:]]}
    call(client, LEGAL, game, {"state": broken}, 422)
    call(client, MOVE, game, {"state": state, "move": {"seat": 0}}, 422)


@pytest.mark.parametrize("game", list(GAMES))
def test_views_conform(client, game):
    require_game(client, game)
    require_route(("POST", VIEW))
    state = call(client, DEAL, game, {"seed": 6})["state"]
    for seat in range(GAMES[game].game.players):
        view = call(client, VIEW, game, {"state": state, "seat": seat})["view"]
        assert view["hands"][seat] == state["hands"][seat]
        assert all(set(h) <= {"?"} for s, h in enumerate(view["hands"]) if s != seat)


def test_seats_past_the_fourth_conform(client):
    """Seats run to 4 with five Tarot players (T18), to 5 with six at Durak (D16): the
    document admits them wherever a seat goes, in an answer's `to_act` and a request's
    `seat`."""
    state = call(client, DEAL, "tarot", {"seed": 2, "players": 5, "dealer": 3})["state"]
    assert state["to_act"] == 4  # the first to speak, at the dealer's right (T2)
    assert call(client, LEGAL, "tarot", {"state": state}, request=False)["to_act"] == 4
    call(client, AI, "tarot", {"state": state, "seat": 4, "level": "random"})
    call(client, VIEW, "tarot", {"state": state, "seat": 4})
    state = call(client, DEAL, "durak", {"seed": 1, "players": 6})["state"]
    call(client, AI, "durak", {"state": state, "seat": 5, "level": "random"}, 422)
    assert_request_conforms("POST", AI, {"state": state, "seat": 5})


# Durak away from the two-player, 36-card default (API.md Additions, D16-D25): more hands,
# a larger deck, and the fields that only such deals carry.
DURAK_VARIANTS = [
    {"players": 6, "cards": 52, "transfer": True, "throw_in": "neighbours",
     "first_bout": 5, "known": True},
    {"players": 4, "cards": 24},  # the hands take the whole deck: `trump_card` (D17)
    {"players": 3, "cards": 52},
]


@pytest.mark.parametrize("options", DURAK_VARIANTS)
def test_durak_views_of_every_count_and_deck_conform(client, options):
    """A View is "the state as one seat sees it, in the same shape" (API.md): openapi.yaml
    admits and describes it for every count, deck and option, as it does the state."""
    state = call(client, DEAL, "durak", {"seed": 6, **options})["state"]
    for _ in range(4):  # a few moves in: cards on the table, in the discard, known
        move = concrete(call(client, LEGAL, "durak", {"state": state},
                             request=False)["moves"][0])
        state = call(client, MOVE, "durak", {"state": state, "move": move},
                     request=False)["state"]
    for seat in range(options["players"]):
        r = client.post(VIEW.format(game="durak"), json={"state": state, "seat": seat})
        view = assert_conforms("POST", VIEW, 200, r)["view"]
        assert_described("POST", VIEW, r)
        assert set(view) == set(state)


def test_a_three_player_takers_hand_with_the_chien_conforms(client):
    """With three players the taker of a prise takes the 6 cards of the chien into a hand
    of 24 (T5, T18): 30 cards until the discard, in the state and in the view."""
    state = call(client, DEAL, "tarot", {"seed": 1, "players": 3})["state"]
    for contract in ("prise", "pass", "pass"):
        bid = {"seat": state["to_act"], "action": "bid", "contract": contract}
        state = call(client, MOVE, "tarot", {"state": state, "move": bid},
                     request=False)["state"]
    assert state["phase"] == "discard" and len(state["hands"][state["taker"]]) == 30
    call(client, LEGAL, "tarot", {"state": state})
    for seat in range(3):
        call(client, VIEW, "tarot", {"state": state, "seat": seat}, request=False)


def test_tarot_annulled_deals_conform(client):
    codes = [c["code"] for c in require_game(client, "tarot")["cards"]]
    suit_cards = [c for c in codes if c[0] != "T" and c != "EX"]
    # T3 (a): seat 0 holds the Petit as its only trump and no Excuse: a petit sec.
    hand0 = ["T1", *suit_cards[:17]]
    deck = hand0 + [c for c in codes if c not in hand0]
    state = call(client, DEAL, "tarot", {"deck": deck})["state"]
    assert state["phase"] == "over" and state["result"]["annulled"] == "petit_sec"
    # T3 (b): all four pass.
    seed = 0
    while (state := call(client, DEAL, "tarot", {"seed": seed})["state"])["phase"] != "bidding":
        seed += 1
    result = None
    for _ in range(4):
        result = call(client, MOVE, "tarot", {"state": state, "move": {
            "seat": state["to_act"], "action": "bid", "contract": "pass"}})
        assert result["legal"] is True
        state = result["state"]
    assert result["settlement"] == {"players": 4, "annulled": "all_pass", "scores": [0, 0, 0, 0]}


def test_tarot_settlement_conforms(client):
    require_route(("POST", SETTLEMENT))
    sheet = {"contract": "garde", "taker": 1, "bouts": 2, "points": 45,
             "petit_au_bout": None, "poignees": [],
             "chelem": {"announced": False, "made_by": None}}
    r = client.post(SETTLEMENT, json=sheet)
    settlement = assert_conforms("POST", SETTLEMENT, 200, r)
    assert_request_conforms("POST", SETTLEMENT, sheet)
    assert settlement["scores"] == [-58, 174, -58, -58]  # T17's worked example
    full = {**sheet, "taker": 0, "points": 40.5, "petit_au_bout": "defense",
            "poignees": [{"camp": "taker", "level": "double"}],
            "chelem": {"announced": True, "made_by": None}}
    settled = assert_conforms("POST", SETTLEMENT, 200, client.post(SETTLEMENT, json=full))
    assert settled["chelem"] is not None and len(settled["poignees"]) == 1
    r = client.post(SETTLEMENT, json={**sheet, "contract": "pass"})
    assert_conforms("POST", SETTLEMENT, 422, r)
    assert request_error("POST", SETTLEMENT, {**sheet, "contract": "pass"}) is not None
    assert_conforms("POST", SETTLEMENT, 400, client.post(SETTLEMENT, data=b"{"))
    assert_conforms("GET", SETTLEMENT, 405, client.get(SETTLEMENT))


# -- over real HTTP ------------------------------------------------------------------------


@pytest.mark.http
def test_answers_over_http_conform(server):
    """The helper on requests.Response, against a real gunicorn."""
    with requests.Session() as s:
        assert_conforms("GET", "/healthz", 200, s.get(f"{server}/healthz", timeout=10))
        r = s.post(f"{server}/v1/games/durak/deal", json={"seed": 2}, timeout=10)
        state = assert_conforms("POST", DEAL, 200, r)["state"]
        r = s.post(f"{server}/v1/games/durak/legal-moves", json={"state": state}, timeout=10)
        assert_conforms("POST", LEGAL, 200, r)
        r = s.post(f"{server}/v1/games/durak/deal", data=b"{", timeout=10)
        assert_conforms("POST", DEAL, 400, r)
        assert_conforms("GET", DEAL, 405, s.get(f"{server}/v1/games/durak/deal", timeout=10))
        assert_conforms("GET", GAME, 404, s.get(f"{server}/v1/games/chess", timeout=10))
        r = s.get(f"{server}/openapi.yaml", timeout=10)
        assert_conforms("GET", "/openapi.yaml", 200, r)
        assert r.content == OPENAPI_PATH.read_bytes()
