"""French Tarot on the wire (API.md): states, moves, templates, invalid states answered 422
with every problem, and the AI levels."""

from __future__ import annotations

import copy
import random

import pytest

from rules.ai import complete
from rules.ai.levels import choose
from rules.ai.tarot import basic_move
from rules.game import InvalidState, Move
from rules.tarot import DECK, GAME
from schemas.registry import GAMES
from schemas.tarot import dump_state
from tests.support.tarot_deals import bid, cards, chelem, deal, discard, play, suit, trumps

SCHEMAS = GAMES["tarot"]
VOID = [suit("S") + " T2 T3 T4 T5", suit("H") + " T6 T7 T8 T10",
        suit("D") + " T9 T11 T12 T13", suit("C") + " T14 T15 T16 T17"]
VOID_CHIEN = "T1 T18 T19 T20 T21 EX"


def load(state_json: dict):
    return GAME.build(**SCHEMAS.requests["state"].load({"state": state_json})["state"])


def fields_of(response) -> set[str]:
    return {e["field"] for e in response.json["errors"]}


def invalid(client, state_json: dict) -> set[str]:
    r = client.post("/v1/games/tarot/legal-moves", json={"state": state_json})
    assert r.status_code == 422 and r.content_type == "application/problem+json", r.json
    assert r.json["type"].endswith("invalid-state")
    return fields_of(r)


def mid_play():
    """Seat 1 takes a garde, discards, declines the chelem; one trick is played and a second
    begun: 5S T6 T11 T14 won by seat 3, then 1C led."""
    s = bid(deal(VOID, VOID_CHIEN), "pass", "garde", "pass", "pass")
    s = chelem(discard(s, "1H 2H 3H 4H 5H 6H"))
    return play(s, "5S", "T6", "T11", "T14", "1C")


# -- deal, info, round trip ------------------------------------------------------------------

def test_T1_game_info_lists_78_cards_with_points(client):
    r = client.get("/v1/games/tarot")
    assert r.status_code == 200 and r.json["players"] == 4 and r.json["id"] == "tarot"
    assert r.json["rules"] == [f"T{i}" for i in range(1, 25)]  # T18–T24: 3 and 5 players
    by_code = {c["code"]: c for c in r.json["cards"]}
    assert len(by_code) == 78 and sum(c["points"] for c in r.json["cards"]) == 91
    assert by_code["CS"]["name"] == "Knight of Spades" and by_code["EX"]["points"] == 4.5


def test_T2_deal_endpoint_stacks_the_deck_for_the_given_dealer(client):
    deck = list(reversed(DECK.codes))
    r = client.post("/v1/games/tarot/deal", json={"deck": deck, "dealer": 1})
    state = r.json["state"]
    assert [sorted(h) for h in state["hands"]] == [sorted(deck[18 * s:18 * s + 18])
                                                   for s in range(4)]
    assert sorted(state["chien"]) == sorted(deck[72:])
    assert (state["dealer"], state["phase"], state["to_act"]) == (1, "bidding", 2)
    assert client.post("/v1/games/tarot/deal", json={"dealer": 4}).status_code == 422


def test_T2_seeded_deals_repeat(client):
    a = client.post("/v1/games/tarot/deal", json={"seed": 5}).json
    assert a == client.post("/v1/games/tarot/deal", json={"seed": 5}).json


@pytest.mark.parametrize("stage", ["bidding", "discard", "chelem", "play", "over"])
def test_states_round_trip_through_json_in_every_phase(stage):
    s = deal(VOID, VOID_CHIEN)
    if stage != "bidding":
        s = bid(s, "pass", "garde", "pass", "pass")
    if stage in ("chelem", "play", "over"):
        s = discard(s, "1H 2H 3H 4H 5H 6H")
    if stage in ("play", "over"):
        s = play(chelem(s), "5S", "T6", "T11")
    if stage == "over":
        while s.phase == "play":
            s = GAME.play(s, complete(GAME.legal_moves(s)[0], random.Random(1)))[0]
    assert s.phase == stage
    dumped = dump_state(s)
    assert dumped["phase"] == stage and dumped["result"] == GAME.settlement(s)
    assert load(dumped) == s


def test_T8_a_state_with_the_takers_poignee_round_trips():
    s = bid(deal(["KS KH KD KC " + trumps(2, 15), "", "", ""], "1S 2S 3S 4S 5S T16"),
            "garde", "pass", "pass", "pass")
    s = chelem(discard(s, "1S 2S 3S 4S 5S T2"))
    s = GAME.play(s, Move(0, "poignee", cards=tuple(cards(trumps(2, 16)))))[0]
    dumped = dump_state(s)
    assert dumped["poignees"] == [{"seat": 0, "cards": trumps(2, 16).split()}]
    assert load(dumped) == s


# -- moves over HTTP -------------------------------------------------------------------------

def test_T5_legal_moves_lists_the_discard_as_one_template(client):
    s = bid(deal(["KS KH KD KC " + trumps(2, 15), "", "", ""], "1S 2S 3S 4S 5S T16"),
            "garde", "pass", "pass", "pass")
    r = client.post("/v1/games/tarot/legal-moves", json={"state": dump_state(s)})
    assert r.json == {"to_act": 0, "moves": [{
        "seat": 0, "action": "discard", "count": 6,
        "must_include": ["1S", "2S", "3S", "4S", "5S"],
        "choose_from": trumps(2, 16).split()}]}


def test_T8_legal_moves_lists_canonical_poignees_after_the_plays(client):
    s = chelem(bid(deal([trumps(2, 14) + " EX 1S 2S 3S", "", "", ""], "T1 T16 T17 T18 T19 T20"),
                   "garde_sans", "pass", "pass", "pass"))
    moves = client.post("/v1/games/tarot/legal-moves", json={"state": dump_state(s)}).json
    poignees = [m for m in moves["moves"] if m["action"] == "poignee"]
    assert poignees == [{"seat": 0, "action": "poignee", "cards": trumps(2, 11).split()},
                        {"seat": 0, "action": "poignee", "cards": trumps(2, 14).split()}]
    assert len(moves["moves"]) == 18 + 2


def test_T9_an_illegal_move_is_answered_200_with_code_and_rule(client):
    state = dump_state(play(chelem(bid(deal(VOID, VOID_CHIEN), "garde_sans", "pass", "pass",
                                       "pass")), "5S"))
    r = client.post("/v1/games/tarot/move",
                    json={"state": state, "move": {"seat": 1, "action": "play", "card": "5H"}})
    assert r.status_code == 200
    assert r.json["legal"] is False
    assert (r.json["reason"]["code"], r.json["reason"]["rule"]) == ("must_trump", "T9")
    assert r.json["reason"]["message"]


def test_T10_a_legal_move_answers_the_next_state_and_events_in_codes(client):
    s = play(chelem(bid(deal(VOID, VOID_CHIEN), "garde_sans", "pass", "pass", "pass")),
             "5S", "T6", "T11")
    r = client.post("/v1/games/tarot/move", json={
        "state": dump_state(s), "move": {"seat": 3, "action": "play", "card": "T14"}})
    assert r.json["legal"] is True and r.json["settlement"] is None
    assert r.json["events"] == [
        {"type": "played", "seat": 3, "card": "T14"},
        {"type": "trick_won", "seat": 3, "cards": ["5S", "T6", "T11", "T14"]}]
    assert r.json["state"]["tricks"] == [{"cards": [
        {"seat": 0, "card": "5S"}, {"seat": 1, "card": "T6"}, {"seat": 2, "card": "T11"},
        {"seat": 3, "card": "T14"}], "winner": 3}]
    assert r.json["state"]["to_act"] == 3


def test_T3_the_fourth_pass_answers_the_annulled_settlement(client):
    s = bid(deal(VOID, VOID_CHIEN), "pass", "pass", "pass")
    r = client.post("/v1/games/tarot/move", json={
        "state": dump_state(s), "move": {"seat": 3, "action": "bid", "contract": "pass"}})
    annulled = {"players": 4, "annulled": "all_pass", "scores": [0, 0, 0, 0]}
    assert r.json["settlement"] == annulled and r.json["state"]["result"] == annulled
    assert r.json["state"]["phase"] == "over" and r.json["state"]["to_act"] is None


@pytest.mark.parametrize(("move", "field"), [
    ({"seat": 0, "action": "bid"}, "move.contract"),
    ({"seat": 0, "action": "bid", "contract": "petite"}, "move.contract"),
    ({"seat": 0, "action": "bid", "contract": "pass", "card": "5S"}, "move.card"),
    ({"seat": 0, "action": "play"}, "move.card"),
    ({"seat": 0, "action": "play", "card": "5S", "contract": "garde"}, "move.contract"),
    ({"seat": 0, "action": "discard"}, "move.cards"),
    ({"seat": 0, "action": "discard", "cards": ["1S", "XX"]}, "move.cards.1"),
    ({"seat": 0, "action": "poignee"}, "move.cards"),
    ({"seat": 0, "action": "chelem"}, "move.announce"),
    ({"seat": 0, "action": "chelem", "announce": "yes"}, "move.announce"),
    ({"seat": 4, "action": "play", "card": "5S"}, "move.seat"),
    ({"seat": 0, "action": "attack", "card": "5S"}, "move.action"),
])
def test_malformed_tarot_moves_are_422_naming_the_field(client, move, field):
    state = dump_state(deal(VOID, VOID_CHIEN))
    r = client.post("/v1/games/tarot/move", json={"state": state, "move": move})
    assert r.status_code == 422 and field in fields_of(r), r.json


# -- invalid states: 422 with every problem --------------------------------------------------

def test_T1_every_card_exactly_once_across_every_pile(client):
    state = dump_state(mid_play())
    state["hands"][2][0] = state["hands"][0][0]  # a duplicate, and one card missing
    state["trick"][0]["card"] = state["ecart"][0]
    state["tricks"][0]["cards"][1]["card"] = state["chien_shown"][0]
    fields = invalid(client, state)
    assert {"state.hands.2.0", "state.trick.0.card", "state.tricks.0.cards.1.card",
            "state"} <= fields


def test_T10_trick_winners_must_agree_with_the_cards(client):
    state = dump_state(mid_play())
    state["tricks"][0]["winner"] = 2
    assert "state.tricks.0.winner" in invalid(client, state)


def test_T9_past_plays_must_have_followed_the_rules(client):
    state = dump_state(mid_play())
    # seat 2 answered T6 with T11; claim it played 5D instead, while holding trumps.
    hand = state["hands"][2]
    hand[hand.index("5D")] = "T11"
    state["tricks"][0]["cards"][2]["card"] = "5D"
    assert invalid(client, state) == {"state.tricks.0.cards.2.card"}


def test_T4_bids_must_rise_and_be_one_per_seat(client):
    state = dump_state(deal(VOID, VOID_CHIEN))
    state["bids"] = ["garde", "prise"]
    assert "state.bids.1" in invalid(client, state)
    state["bids"] = ["pass"] * 5
    assert "state.bids" in invalid(client, state)
    # One bid per seat of the largest table (T18) bounds the list: six are refused by the
    # schema, before the rules.
    state["bids"] = ["pass"] * 6
    r = client.post("/v1/games/tarot/legal-moves", json={"state": state})
    assert r.status_code == 422 and r.json["type"].endswith("invalid-body")
    assert "state.bids" in {e["field"] for e in r.json["errors"]}


def test_hand_sizes_must_fit_the_phase(client):
    state = dump_state(deal(VOID, VOID_CHIEN))
    state["hands"][1].append(state["hands"][0].pop())
    assert {"state.hands.0", "state.hands.1"} <= invalid(client, state)
    state = dump_state(mid_play())
    state["hands"][3].append(state["hands"][2].pop())
    assert {"state.hands.2", "state.hands.3"} <= invalid(client, state)


def test_every_problem_is_reported_not_only_the_first(client):
    state = dump_state(mid_play())
    state["tricks"][0]["winner"] = 0
    state["bids"] = ["pass", "garde", "prise", "pass"]
    state["hands"][3].append(state["hands"][2].pop())
    state["ecart"][0], state["hands"][1][0] = state["hands"][1][0], state["ecart"][0]
    fields = invalid(client, state)
    assert {"state.tricks.0.winner", "state.bids.2", "state.hands.2", "state.hands.3"} <= fields


def test_T5_the_chien_ecart_and_chien_shown_must_fit_the_contract(client):
    base = dump_state(mid_play())
    state = copy.deepcopy(base)
    state["ecart"][0], state["hands"][1][-1] = state["hands"][1][-1], state["ecart"][0]
    assert "state.ecart.0" in invalid(client, state)  # a King or bout laid aside
    state = copy.deepcopy(base)
    state["chien_shown"] = []
    assert "state.chien_shown" in invalid(client, state)
    state = copy.deepcopy(base)
    state["chien"], state["ecart"] = state["ecart"], []
    assert {"state.chien", "state.ecart"} & invalid(client, state)


def test_T7_T8_play_and_poignees_fit_the_deal(client):
    state = dump_state(mid_play())
    state["poignees"] = [{"seat": 0, "cards": trumps(2, 11).split()}]  # seat 0 lacks them
    assert "state.poignees.0.cards" in invalid(client, state)
    state = dump_state(mid_play())
    state["chelem"] = None
    assert {"state.trick", "state.tricks"} <= invalid(client, state)


def test_T2_T10_turn_order_within_tricks(client):
    state = dump_state(mid_play())
    state["trick"][0]["seat"] = 0
    assert "state.trick.0.seat" in invalid(client, state)


def test_T3_a_petit_sec_in_a_dealt_hand_cannot_reach_the_bidding(client):
    hands = [suit("S") + " T2 T3 T4 T5", suit("H") + " 1D 2D 3D T1",
             suit("D", "4") + " " + trumps(6, 12), suit("C") + " " + trumps(13, 16)]
    state = dump_state(deal(hands, "T17 T18 T19 T20 T21 EX", annulled=True))
    assert state["result"] == {"players": 4, "annulled": "petit_sec", "scores": [0, 0, 0, 0]}
    assert load(state).phase == "over"
    state["bids"] = ["pass"]
    state.pop("phase"), state.pop("to_act"), state.pop("result")
    assert "state.hands.1" in invalid(client, state)


def test_derived_fields_must_agree_with_the_state(client):
    state = dump_state(mid_play())
    state.update(phase="bidding", to_act=2, taker=2, contract="prise",
                 result={"scores": [0, 0, 0, 0]})
    assert {"state.phase", "state.to_act", "state.taker", "state.contract",
            "state.result"} <= invalid(client, state)
    for key in ("phase", "to_act", "taker", "contract", "result"):
        state.pop(key)
    assert load(state) == mid_play()


def test_build_reports_problems_with_dotted_paths_in_process():
    with pytest.raises(InvalidState) as e:
        GAME.build(dealer=3, hands=[cards("5S 5S"), [], [], []], chien=[], chien_shown=[],
                   bids=[], ecart=[], chelem=None, poignees=[], trick=[], tricks=[])
    fields = {p.field for p in e.value.problems}
    assert {"hands.0.1", "", "chien", "hands.0", "hands.1", "hands.2", "hands.3"} <= fields


# -- the AI ----------------------------------------------------------------------------------

def test_basic_ai_plays_only_legal_moves_through_whole_deals():
    rng = random.Random(3)
    contracts = set()
    for _ in range(60):
        s = GAME.deal(rng)
        while s.phase != "over":
            move = basic_move(s, s.to_act, rng)
            assert GAME.verify(s, move) is None, move
            s = GAME.play(s, move)[0]
        if s.contract:
            contracts.add(s.contract)
        assert sum(GAME.settlement(s)["scores"]) == 0
    assert len(contracts) >= 2  # it bids from strength: not always the same contract


def hidden_swap(state, seat, rng):
    """The same state with cards swapped between two hands that `seat` cannot see."""
    others = [s for s in range(4) if s != seat]
    a, b = rng.sample(others, 2)
    ha, hb = state.hands[a], state.hands[b]
    ca = rng.choice([c for c in range(78) if ha >> c & 1])
    cb = rng.choice([c for c in range(78) if hb >> c & 1])
    hands = list(state.hands)
    hands[a] = ha & ~(1 << ca) | 1 << cb
    hands[b] = hb & ~(1 << cb) | 1 << ca
    return state._replace(hands=tuple(hands))


def test_basic_ai_decides_only_from_what_its_seat_sees():
    rng = random.Random(8)
    checked = 0
    for _ in range(20):
        s = GAME.deal(rng)
        while s.phase != "over":
            seat = s.to_act
            if s.phase == "play" and all(s.hands[o] for o in range(4) if o != seat):
                twin = hidden_swap(s, seat, rng)
                assert basic_move(twin, seat, random.Random(1)) == basic_move(
                    s, seat, random.Random(1))
                checked += 1
            s = GAME.play(s, basic_move(s, seat, rng))[0]
    assert checked > 300


def test_ai_levels_random_and_basic_answer_legal_moves(client):
    s = bid(deal(VOID, VOID_CHIEN), "pass", "garde", "pass", "pass")
    for level in ("random", "basic"):
        move, played = choose(GAME, GAME.observe(s, 1), level, random.Random(2), 200)
        assert played == level and GAME.verify(s, move) is None
        r = client.post("/v1/games/tarot/ai-move",
                        json={"state": dump_state(s), "level": level, "seed": 4})
        assert r.status_code == 200 and r.json["move"]["action"] == "discard"
        assert len(r.json["move"]["cards"]) == 6


def test_corrupted_states_are_answered_422_or_200_never_500(client):
    """API.md, "Errors": whatever a client does to a state, the answer is a problem document
    or a listing, never a failure of ours."""
    rng = random.Random(12)
    states = []
    s = GAME.deal(rng)
    while s.phase != "over":
        states.append(dump_state(s))
        s = GAME.play(s, complete(rng.choice(GAME.legal_moves(s)), rng))[0]
    codes = list(DECK.codes)
    for _ in range(300):
        state = copy.deepcopy(rng.choice(states))
        pick = rng.randrange(6)
        if pick == 0:
            rng.choice(state["hands"])[0:1] = [rng.choice(codes)]
        elif pick == 1 and state["tricks"]:
            rng.choice(state["tricks"])["cards"] = [{"seat": 0, "card": "EX"}] * 4
        elif pick == 2:
            state["trick"] = [{"seat": rng.randrange(4), "card": rng.choice(codes)}
                              for _ in range(rng.randrange(5))]
        elif pick == 3:
            state["bids"] = rng.choices(["pass", "prise", "garde_contre"], k=rng.randrange(6))
        elif pick == 4:
            state["poignees"] = [{"seat": rng.randrange(4), "cards": rng.sample(codes, 10)}]
        else:
            state["chelem"] = rng.choice([None, True, False])
            state.pop("phase"), state.pop("to_act")
        r = client.post("/v1/games/tarot/legal-moves", json={"state": state})
        assert r.status_code in (200, 422), r.json
