"""Ganjifa through the endpoints of API.md (Flask test client), and its basic AI."""

from __future__ import annotations

import random

import pytest

from rules.ai.levels import choose
from rules.cards import bit_list
from rules.game import Move
from rules.ganjifa import DECK, GAME, GanjifaState
from schemas.ganjifa import dump_state
from tests.test_ganjifa import FIVE, LEAD, fields, make, stacked

URL = "/v1/games/ganjifa"
IX = DECK.index


def post(client, path, body):
    return client.post(f"{URL}/{path}", json=body)


# -- game info ----------------------------------------------------------------------------


def test_G1_game_info_lists_120_cards_with_suit_avatar_emblem_and_rank_label(client):
    info = client.get(URL).json
    assert info["id"] == "ganjifa" and info["players"] == 3
    assert info["rules"] == [f"G{i}" for i in range(1, 10)]
    assert info["deck"]["size"] == 120 and set(info["deck"]) >= {"name", "origin", "wikipedia"}
    cards = info["cards"]
    assert [c["code"] for c in cards] == list(DECK.codes) and len(cards) == 120
    by_code = {c["code"]: c for c in cards}
    assert by_code["MRAM"] == {"code": "MRAM", "suit": "RAM", "rank": "M",
                               "name": "Mantri of Rama", "label": "Mantri",
                               "avatar": "Rama", "emblem": "bow"}
    assert by_code["7MAT"]["emblem"] == "fish" and by_code["7MAT"]["label"] == "7"
    assert by_code["RKAL"]["avatar"] == "Kalki" and by_code["RKAL"]["emblem"] == "horse"
    emblems = {c["suit"]: c["emblem"] for c in cards}
    assert [emblems[s] for s in ("MAT", "KUR", "VAR", "NAR", "VAM", "PAR", "RAM")] == [
        "fish", "tortoise", "boar", "man-lion", "dwarf", "axe", "bow"]
    assert all(emblems.values())


def test_G1_G2_G3_game_info_gives_avatar_order_rank_orders_and_trumps(client):
    info = client.get(URL).json
    order = ["MAT", "KUR", "VAR", "NAR", "VAM", "PAR", "RAM", "KRI", "BAL", "KAL"]
    assert info["avatar_order"] == order
    assert [a["suit"] for a in info["avatars"]] == order
    assert [a["avatar"] for a in info["avatars"]][:3] == ["Matsya", "Kurma", "Varaha"]
    first = ["R", "M", *map(str, range(1, 11))]
    last = ["R", "M", *map(str, range(10, 0, -1))]
    assert [a["rank_order"] for a in info["avatars"]] == [first] * 5 + [last] * 5
    assert info["trumps"] == {"day": "RAM", "night": "KRI"}


def test_games_list_includes_ganjifa_and_durak_info_is_unchanged(client):
    games = {g["id"]: g for g in client.get("/v1/games").json["games"]}
    assert games["ganjifa"]["name"] == "Dashavatara Ganjifa"
    assert "avatar_order" not in games["durak"]
    assert "emblem" not in client.get("/v1/games/durak").json["cards"][0]


# -- deal ---------------------------------------------------------------------------------


def test_G3_G4_deal_by_night_from_a_stacked_deck(client):
    deck = list(DECK.codes)
    random.Random(4).shuffle(deck)
    state = post(client, "deal", {"deck": deck, "period": "night"}).json["state"]
    for s in range(3):
        assert sorted(state["hands"][s], key=IX.get) == sorted(deck[40 * s:40 * s + 40],
                                                               key=IX.get)
    assert state["period"] == "night"
    assert "RKRI" in state["hands"][state["leader"]]  # G5
    assert state == {**state, "captured": [[], [], []], "trick": [], "dukal": None,
                     "phase": "play", "to_act": state["leader"], "result": None}


def test_G3_deal_is_by_day_unless_night_is_asked_and_seeds_repeat(client):
    a = post(client, "deal", {"seed": 8}).json["state"]
    assert a["period"] == "day" and "RRAM" in a["hands"][a["leader"]]
    assert post(client, "deal", {"seed": 8}).json["state"] == a
    assert post(client, "deal", {"seed": 9}).json["state"] != a
    r = post(client, "deal", {"period": "dusk"})
    assert r.status_code == 422 and r.json["errors"][0]["field"] == "period"


# -- legal moves and moves ----------------------------------------------------------------


def test_G5_legal_moves_at_the_opening_are_the_trump_raja_alone(client):
    order = stacked([], [], ["RRAM", *FIVE])
    state = post(client, "deal", {"deck": [DECK.codes[c] for c in order]}).json["state"]
    listed = post(client, "legal-moves", {"state": state}).json
    assert listed == {"to_act": 2, "moves": [{"seat": 2, "action": "play", "card": "RRAM"}]}
    r = post(client, "move", {"state": state, "move": {"seat": 2, "action": "dukal",
                                                       "cards": FIVE}}).json
    assert r["legal"] is False and r["reason"]["code"] == "dukal_on_opening"
    assert r["reason"]["rule"] == "G5" and r["reason"]["message"]


def test_G8_legal_moves_list_every_dukal_and_then_the_discard_template(client):
    state = dump_state(make([LEAD, [...], [...]], leader=0))
    moves = post(client, "legal-moves", {"state": state}).json["moves"]
    dukals = [m for m in moves if m["action"] == "dukal"]
    assert len(dukals) == 7  # six runs of Matsya, one of Kalki
    assert {"seat": 0, "action": "dukal",
            "cards": ["3MAT", "4MAT", "5MAT", "6MAT", "7MAT", "MMAT", "RMAT"]} in dukals
    r = post(client, "move", {"state": state, "move": dukals[0]}).json
    assert r["legal"] is True and r["events"][0]["type"] == "dukal_led"
    pending = r["state"]
    assert pending["phase"] == "dukal" and pending["to_act"] == 1
    assert pending["dukal"] == {"seat": 0, "cards": dukals[0]["cards"], "discards": []}
    k = len(dukals[0]["cards"])
    listed = post(client, "legal-moves", {"state": pending}).json
    assert listed == {"to_act": 1, "moves": [{
        "seat": 1, "action": "discard", "count": k, "must_include": [],
        "choose_from": pending["hands"][1]}]}
    short = {"seat": 1, "action": "discard", "cards": pending["hands"][1][:k - 1]}
    r = post(client, "move", {"state": pending, "move": short}).json
    assert r["legal"] is False and r["reason"]["code"] == "discard_wrong_size"
    assert r["reason"]["rule"] == "G8"
    answer = {"seat": 1, "action": "discard", "cards": pending["hands"][1][-k:]}
    r = post(client, "move", {"state": pending, "move": answer}).json
    assert r["events"] == [{"type": "dukal_answered", "seat": 1, "cards": answer["cards"]}]
    pending = r["state"]
    assert pending["dukal"]["discards"] == [{"seat": 1, "cards": answer["cards"]}]
    assert pending["to_act"] == 2
    answer = {"seat": 2, "action": "discard", "cards": pending["hands"][2][:k]}
    r = post(client, "move", {"state": pending, "move": answer}).json
    captured = r["events"][-1]
    assert captured["type"] == "dukal_captured" and captured["seat"] == 0
    assert len(captured["cards"]) == 3 * k
    assert r["state"]["dukal"] is None and r["state"]["to_act"] == 0
    assert set(captured["cards"]) <= set(r["state"]["captured"][0])


def test_G7_move_events_name_the_trick_winner_and_its_cards_by_code(client):
    state = dump_state(make([["RMAT", "5KUR"], ["1RAM", "6KUR"], ["2MAT", "7KUR"]]))
    for seat, card in ((0, "RMAT"), (1, "1RAM"), (2, "2MAT")):
        r = post(client, "move", {"state": state,
                                  "move": {"seat": seat, "action": "play", "card": card}}).json
        assert r["legal"] is True and r["settlement"] is None
        state = r["state"]
    assert r["events"][-1] == {"type": "trick_won", "seat": 1,
                               "cards": ["RMAT", "1RAM", "2MAT"]}
    assert state["leader"] == 1 and state["to_act"] == 1 and state["trick"] == []


def test_G6_an_illegal_follow_is_answered_with_its_reason(client):
    state = dump_state(make([["9KUR", "9MAT"], ["3NAR", "4VAR", "1RAM"], [...]],
                            trick=["5KUR"]))
    r = post(client, "move", {"state": state,
                              "move": {"seat": 1, "action": "play", "card": "3NAR"}})
    assert r.status_code == 200
    assert r.json["legal"] is False
    assert r.json["reason"]["code"] == "must_follow_or_next_suit"
    assert r.json["reason"]["rule"] == "G6" and "Varaha" in r.json["reason"]["message"]


def test_G9_the_last_move_answers_the_settlement_and_the_result(client):
    state = dump_state(make([["RMAT"], ["1RAM"], ["2MAT"]], leader=0,
                            captured={1: list(DECK.codes[12:57])}, rest_to=0))
    for seat, card in ((0, "RMAT"), (1, "1RAM"), (2, "2MAT")):
        r = post(client, "move", {"state": state,
                                  "move": {"seat": seat, "action": "play", "card": card}}).json
        state = r["state"]
    expected = {"captured": [72, 48, 0], "scores": [72, 48, 0], "winners": [0]}
    assert r["settlement"] == expected and state["result"] == expected
    assert state["phase"] == "over" and state["to_act"] is None
    assert post(client, "legal-moves", {"state": state}).json == {"to_act": None, "moves": []}


# -- invalid states and malformed moves -------------------------------------------------


def test_invalid_state_is_422_with_every_problem_and_its_field(client):
    f = fields(hands=[["1MAT", "2MAT"], ["3MAT", "4MAT"], ["5MAT", "6MAT"]], leader=1,
               captured={1: ["7MAT", "8MAT", "9MAT"]}, rest_to=0)
    state = dump_state(GAME.build(**f))
    state["hands"][0].append("3MAT")  # seat 0 one card too many, and 3MAT twice
    state["captured"][2].append(state["captured"][1].pop())  # piles of two and one
    r = post(client, "legal-moves", {"state": state})
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    assert {e["field"] for e in r.json["errors"]} == {
        "state.hands.1.0", "state.hands.0", "state.captured.1", "state.captured.2"}
    assert {e["pointer"] for e in r.json["errors"]} >= {"/state/hands/0", "/state/captured/1"}


def test_invalid_pending_dukal_is_422(client):
    state = dump_state(make([["9NAR", "8NAR"], [...], [...]], leader=0,
                            dukal=(FIVE, [["1KUR", "2KUR", "3KUR", "4KUR", "5KUR"]])))
    assert post(client, "legal-moves", {"state": state}).status_code == 200
    state["dukal"]["seat"] = 2
    state["dukal"]["discards"][0]["cards"].pop()
    r = post(client, "legal-moves", {"state": state})
    assert r.status_code == 422
    fields_at_fault = {e["field"] for e in r.json["errors"]}
    assert {"state.dukal.seat", "state.dukal.discards.0.cards"} <= fields_at_fault


def test_derived_fields_that_disagree_are_422(client):
    state = post(client, "deal", {"seed": 2}).json["state"]
    r = post(client, "legal-moves", {"state": {**state, "to_act": (state["to_act"] + 1) % 3,
                                               "phase": "dukal"}})
    assert r.status_code == 422
    assert {e["field"] for e in r.json["errors"]} == {"state.to_act", "state.phase"}
    bare = {k: v for k, v in state.items() if k not in ("phase", "to_act", "result")}
    assert post(client, "legal-moves", {"state": bare}).status_code == 200


@pytest.mark.parametrize(("move", "field"), [
    ({"seat": 0, "action": "play"}, "move.card"),
    ({"seat": 0, "action": "play", "card": "RRAM", "cards": ["RRAM"]}, "move.cards"),
    ({"seat": 0, "action": "dukal", "card": "RRAM"}, "move.cards"),
    ({"seat": 0, "action": "discard", "cards": ["1MAT"], "card": "1MAT"}, "move.card"),
    ({"seat": 0, "action": "play", "card": "RXX"}, "move.card"),
    ({"seat": 3, "action": "play", "card": "RRAM"}, "move.seat"),
    ({"seat": 0, "action": "attack", "card": "RRAM"}, "move.action"),
])
def test_malformed_moves_are_422(client, move, field):
    state = post(client, "deal", {"seed": 2}).json["state"]
    r = post(client, "move", {"state": state, "move": move})
    assert r.status_code == 422
    assert field in {e["field"] for e in r.json["errors"]}


def test_a_state_of_another_game_is_422(client):
    state = post(client, "deal", {"seed": 2}).json["state"]
    r = post(client, "legal-moves", {"state": {**state, "game": "durak"}})
    assert r.status_code == 422 and r.json["errors"][0]["field"] == "state.game"


# -- the AI -------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["random", "basic"])
def test_ai_move_levels_answer_legal_reproducible_moves(client, level):
    state = post(client, "deal", {"seed": 5}).json["state"]
    while state["phase"] != "over":
        body = {"state": state, "level": level, "seed": 3}
        a = post(client, "ai-move", body).json
        b = post(client, "ai-move", body).json
        assert a["move"] == b["move"] and a["level"] == level
        r = post(client, "move", {"state": state, "move": a["move"]}).json
        assert r["legal"] is True, (a, r)
        state = r["state"]
    assert sum(state["result"]["captured"]) == 120


def basic(state: GanjifaState, seat: int) -> Move:
    move, level = choose(GAME, GAME.observe(state, seat), "basic", random.Random(0), 200)
    assert level == "basic" and GAME.verify(state, move) is None
    return move


def test_basic_leads_its_largest_dukal():
    s = make([LEAD, [...], [...]], leader=0)
    move = basic(s, 0)
    assert move.action == "dukal" and len(move.cards) == 7
    assert {DECK.codes[c] for c in move.cards} == {"RMAT", "MMAT", "3MAT", "4MAT", "5MAT",
                                                   "6MAT", "7MAT"}


def test_basic_answers_a_dukal_with_its_cheapest_cards():
    hand = ["9RAM", "MRAM", "1MAT", "RKUR", "10KUR", "1PAR", "2PAR", "10VAR", "RNAR"]
    s = make([["9NAR", "8NAR", "7NAR", "6NAR"], hand, [...]], leader=0,
             dukal=(FIVE, []))
    move = basic(s, 1)
    # Day: Rama trumps and is kept; the lowest pips go (10 is low in the first five suits,
    # 1 in the last five).
    assert {DECK.codes[c] for c in move.cards} == {"10KUR", "1PAR", "2PAR", "10VAR", "1MAT"}


def test_basic_wins_cheaply_when_last_to_play():
    s = make([["9MAT", "8MAT"], ["1MAT", "2MAT", "RMAT"], ["3MAT", "4MAT"]], leader=2,
             trick=["5MAT", "6MAT"])
    assert GAME.to_act(s) == 1
    # In Matsya 5 beats 6, and 2, 1, the Mantri and the Raja beat 5: 2 is the cheapest.
    assert basic(s, 1) == Move(1, "play", card=IX["2MAT"])


def test_basic_decides_only_from_what_its_seat_can_see():
    rng = random.Random(6)
    checked = 0
    for deal_no in range(20):
        s = GAME.deal(random.Random(deal_no))
        while (seat := GAME.to_act(s)) is not None:
            others = [(seat + 1) % 3, (seat + 2) % 3]
            hidden = bit_list(s.hands[others[0]] | s.hands[others[1]])
            rng.shuffle(hidden)
            n = s.hands[others[0]].bit_count()
            hands = list(s.hands)
            hands[others[0]] = sum(1 << c for c in hidden[:n])
            hands[others[1]] = sum(1 << c for c in hidden[n:])
            variant = s._replace(hands=tuple(hands))
            assert basic(s, seat) == basic(variant, seat)
            checked += 1
            s = GAME.apply(s, basic(s, seat) if checked % 2 else
                           choose(GAME, GAME.observe(s, seat), "random", rng, 20)[0])
    assert checked > 1000


def test_basic_captures_more_than_random_players():
    captured = 0
    for deal_no in range(60):
        rng = random.Random(deal_no)
        s = GAME.deal(rng)
        me = deal_no % 3
        while (seat := GAME.to_act(s)) is not None:
            level = "basic" if seat == me else "random"
            s = GAME.apply(s, choose(GAME, GAME.observe(s, seat), level, rng, 20)[0])
        captured += GAME.settlement(s)["captured"][me]
    assert captured / 60 > 48  # a fair share is 40 of 120
