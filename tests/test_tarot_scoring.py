"""French Tarot scoring, rule by rule (RULES.md T6, T11–T17), on played deals and on the
pure settlement function behind `POST /v1/games/tarot/settlement`."""

from __future__ import annotations

import pytest

from rules.tarot import DECK, GAME, camp_cards, score
from tests.support.tarot_deals import IX, bid, chelem, deal, finish, suit, trumps

TOP_SUITS = "KS QS CS KH QH CH KD QD CD"  # nine leads nobody can beat without a trump
LEADS = TOP_SUITS.split()


def sheet(contract="garde", taker=1, bouts=2, points=45, petit_au_bout=None, poignees=(),
          announced=False, made_by=None):
    return score(contract, taker, bouts, round(points * 2), petit_au_bout,
                 [({"declared_by": camp}, level) for camp, level in poignees], announced,
                 made_by)


# -- played deals: the taker's camp wins everything (chelem scenarios) --------------------

def takers_chelem(announce: bool):
    """Seat 0 takes a garde sans with the nine top suit cards, T14–T21 and the Excuse; seat
    1 holds T1–T8 and follows every suit; seats 2 and 3 have no trump. Seat 0 leads the
    suits, then its trumps from the top while seat 1 sheds T8 down to T1 on the 17th trick,
    then leads the Excuse to the 18th."""
    s = deal([TOP_SUITS + " " + trumps(14, 21) + " EX",
              trumps(1, 8) + " 1S 2S 3S 1H 2H 3H 1D 2D 3D 1C", "", ""], trumps(9, 13) + " KC")
    s = chelem(bid(s, "garde_sans", "pass", "pass", "pass"), announce)
    script = {(k, 0): lead for k, lead in enumerate(LEADS)}
    script.update({(9 + i, 0): f"T{21 - i}" for i in range(8)})
    script.update({(9 + i, 1): f"T{8 - i}" for i in range(8)})
    script[(17, 0)] = "EX"
    return finish(s, script)


def test_T12_a_chelem_camp_leading_the_excuse_to_the_last_trick_wins_it():
    s = takers_chelem(announce=True)
    assert s.tricks[17][1][0] == IX["EX"] and s.tricks[17][2] == 0
    assert {w for _, _, w in s.tricks} == {0}
    half, bouts, won = camp_cards(s)
    assert won == DECK.full and (half, bouts) == (182, 3)  # the Excuse stays: all 91 points


def test_T15_T16_announced_chelem_made_with_the_excuse_and_petit_au_bout_on_trick_17():
    s = takers_chelem(announce=True)
    assert IX["T1"] in s.tricks[16][1]  # seat 1's Petit fell to the 17th trick
    settlement = GAME.settlement(s)
    # T14: 91 points, 3 bouts: (25 + 55) x 4; T15: 10 x 4; T16: 400, not multiplied.
    assert settlement["base"] == 320
    assert settlement["petit_au_bout"] == {"camp": "taker", "value": 40}
    assert settlement["chelem"] == {"announced": True, "made_by": "taker", "camp": "taker",
                                    "value": 400}
    assert settlement["per_defender"] == 760
    assert settlement["scores"] == [2280, -760, -760, -760]


def test_T16_a_chelem_made_without_announcement_earns_200():
    settlement = GAME.settlement(takers_chelem(announce=False))
    assert settlement["chelem"] == {"announced": False, "made_by": "taker", "camp": "taker",
                                    "value": 200}
    assert settlement["per_defender"] == 320 + 40 + 200


def defender_with_excuse(script):
    """Seat 0 takes a garde sans with the nine top suit cards and T13–T21 and leads them in
    that order; seat 1 holds T1–T8, the Excuse and three low cards of S, H and D."""
    s = deal([TOP_SUITS + " " + trumps(13, 21),
              trumps(1, 8) + " EX 1S 2S 3S 1H 2H 3H 1D 2D 3D", "", ""],
             trumps(9, 12) + " QC KC")
    s = chelem(bid(s, "garde_sans", "pass", "pass", "pass"))
    leads = {(k, 0): lead for k, lead in enumerate(LEADS)}
    leads.update({(9 + i, 0): f"T{21 - i}" for i in range(9)})
    return finish(s, {**leads, **script})


def test_T12_the_excuse_on_the_last_trick_goes_to_the_other_camp():
    s = defender_with_excuse({})  # seat 1 keeps its Excuse to the end
    assert IX["EX"] in s.tricks[17][1] and s.tricks[17][2] == 0
    half, bouts, won = camp_cards(s)
    assert won >> IX["EX"] & 1 and (half, bouts) == (182, 3)
    assert GAME.settlement(s)["points"] == 91


def test_T11_the_excuse_before_the_last_trick_stays_and_half_a_point_changes_camp():
    s = defender_with_excuse({(0, 1): "EX"})  # seat 1 plays it into the taker's first trick
    assert s.tricks[0][2] == 0
    half, bouts, won = camp_cards(s)
    assert not won >> IX["EX"] & 1
    assert (half, bouts) == (182 - 9 + 1, 2)  # 91 - 4.5 + 0.5
    settlement = GAME.settlement(s)
    assert (settlement["points"], settlement["bouts"], settlement["target"]) == (87, 2, 41)


def test_T16_winning_every_trick_counts_the_trick_where_the_defence_excused_itself():
    settlement = GAME.settlement(defender_with_excuse({(0, 1): "EX"}))
    assert settlement["chelem"] == {"announced": False, "made_by": "taker", "camp": "taker",
                                    "value": 200}


def test_T15_the_petit_in_the_last_trick_scores_for_the_camp_that_wins_it():
    script = {(9, 1): "EX", **{(10 + i, 1): f"T{8 - i}" for i in range(7)}, (17, 1): "T1"}
    s = defender_with_excuse(script)
    assert IX["T1"] in s.tricks[17][1] and s.tricks[17][2] == 0  # a defender's Petit
    assert GAME.settlement(s)["petit_au_bout"] == {"camp": "taker", "value": 40}


# -- played deals: a hopeless taker -----------------------------------------------------

LOW = " ".join(suit(s, "1", "4") for s in "SHDC")  # the four lowest of every suit


def hopeless(hand: str, contract="garde_contre", script=None, keep=""):
    s = chelem(bid(deal([hand, "", "", ""]), contract, "pass", "pass", "pass"))
    return finish(s, script, keep)


def test_T11_the_takers_excuse_lost_in_a_trick_keeps_its_points_less_a_half():
    s = hopeless(LOW + " 5S EX", script={(0, 0): "EX"})
    assert s.tricks[0][2] != 0
    half, bouts, won = camp_cards(s)
    assert won == 1 << IX["EX"] and (half, bouts) == (8, 1)  # 4.5 - 0.5
    settlement = GAME.settlement(s)
    assert (settlement["points"], settlement["bouts"], settlement["target"]) == (4, 1, 51)


def test_T12_the_takers_excuse_kept_to_the_last_trick_is_lost():
    s = hopeless(LOW + " 5S EX")
    assert IX["EX"] in s.tricks[17][1]
    assert camp_cards(s) == (0, 0, 0)
    assert GAME.settlement(s)["points"] == 0


def test_T16_a_defence_chelem_gives_each_defender_200_more():
    settlement = GAME.settlement(hopeless(LOW + " 5S EX"))
    assert settlement["chelem"] == {"announced": False, "made_by": "defense", "camp": "defense",
                                    "value": 200}
    # T14: 0 bouts, 0 points, failed by 56, x6; then the defence's chelem, unmultiplied.
    assert settlement["base"] == -(25 + 56) * 6
    assert settlement["per_defender"] == -(25 + 56) * 6 - 200


def test_T15_the_takers_petit_caught_in_the_last_trick_scores_for_the_defence():
    s = hopeless(" ".join(suit(x, "1", "3") for x in "SHDC") + " " + trumps(1, 6), keep="T1")
    last_leader, last, winner = s.tricks[17]
    assert last[(0 - last_leader) % 4] == IX["T1"] and winner != 0
    settlement = GAME.settlement(s)
    assert not settlement["made"]
    assert settlement["petit_au_bout"] == {"camp": "defense", "value": 60}


def test_T6_the_chien_counts_for_the_taker_in_garde_sans_and_the_defence_in_garde_contre():
    hand = LOW + " T1 T2"
    sans = hopeless(hand, "garde_sans", keep="T1")
    contre = hopeless(hand, "garde_contre", keep="T1")
    assert sans.tricks == contre.tricks and sans.chien == contre.chien
    chien_half = sum(2 * DECK.cards[c].points for c in range(78) if sans.chien >> c & 1)
    assert camp_cards(sans)[0] - camp_cards(contre)[0] == chien_half > 0
    assert camp_cards(sans)[2] & sans.chien == sans.chien
    assert camp_cards(contre)[2] & contre.chien == 0


# -- the settlement arithmetic (T14–T17) ----------------------------------------------------

def test_T17_the_worked_example_garde_2_bouts_45_points():
    s = sheet()
    assert (s["multiplier"], s["target"], s["made"], s["base"]) == (2, 41, True, 58)
    assert s["per_defender"] == 58 and s["scores"] == [-58, 174, -58, -58]


@pytest.mark.parametrize(("bouts", "target"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_T14_the_target_falls_with_the_bouts(bouts, target):
    exactly = sheet("prise", bouts=bouts, points=target)
    assert (exactly["target"], exactly["made"], exactly["base"]) == (target, True, 25)
    short = sheet("prise", bouts=bouts, points=target - 1)
    assert (short["made"], short["base"]) == (False, -26)


@pytest.mark.parametrize(("points", "made", "base"), [
    (40.5, False, -26),  # counts as 40: failed by 1
    (41.5, True, 26),  # counts as 42: made by 1
    (41, True, 25),
    (0, False, -66),
])
def test_T14_a_leftover_half_point_goes_to_the_winning_side(points, made, base):
    s = sheet("prise", bouts=2, points=points)
    assert (s["made"], s["base"], s["points"]) == (made, base, points)


@pytest.mark.parametrize(("contract", "multiplier"), [
    ("prise", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)])
def test_T4_T17_the_contract_multiplies_base_and_petit_au_bout(contract, multiplier):
    s = sheet(contract, points=45, petit_au_bout="defense")
    assert s["base"] == 29 * multiplier
    assert s["petit_au_bout"] == {"camp": "defense", "value": 10 * multiplier}
    assert s["per_defender"] == 19 * multiplier


def test_T15_petit_au_bout_goes_to_its_camp_whether_or_not_the_contract_is_made():
    failed = sheet("garde", points=30, petit_au_bout="taker")
    assert failed["base"] == -(25 + 11) * 2
    assert failed["per_defender"] == -72 + 20


def test_T17_poignee_goes_to_the_camp_that_won_the_contract_whoever_declared_it():
    made = sheet(points=45, poignees=[("defense", "simple"), ("taker", "triple")])
    assert [p["camp"] for p in made["poignees"]] == ["taker", "taker"]
    assert [p["value"] for p in made["poignees"]] == [20, 40]  # not multiplied
    assert made["per_defender"] == 58 + 60
    failed = sheet(points=40, poignees=[("taker", "double")])
    assert failed["poignees"] == [{"declared_by": "taker", "level": "double", "value": 30,
                                   "camp": "defense"}]
    assert failed["per_defender"] == -(25 + 1) * 2 - 30


@pytest.mark.parametrize(("announced", "made_by", "camp", "value"), [
    (True, "taker", "taker", 400),
    (True, None, "defense", 200),
    (False, "taker", "taker", 200),
    (False, "defense", "defense", 200),
])
def test_T16_chelem_bonuses_are_not_multiplied(announced, made_by, camp, value):
    s = sheet("garde_sans", points=60, announced=announced, made_by=made_by)
    assert s["chelem"] == {"announced": announced, "made_by": made_by, "camp": camp,
                           "value": value}
    base = (25 + 19) * 4
    assert s["per_defender"] == base + (value if camp == "taker" else -value)


def test_T17_the_four_scores_sum_to_zero_and_the_taker_scores_three_times():
    for taker in range(4):
        s = sheet("garde_contre", taker=taker, points=12.5, bouts=0, petit_au_bout="defense",
                  poignees=[("defense", "double")], made_by="defense")
        assert sum(s["scores"]) == 0
        assert s["scores"][taker] == 3 * s["per_defender"] < 0


# -- the endpoint ---------------------------------------------------------------------------

def test_T17_settlement_endpoint_answers_the_worked_example(client):
    r = client.post("/v1/games/tarot/settlement",
                    json={"contract": "garde", "taker": 1, "bouts": 2, "points": 45})
    assert r.status_code == 200
    assert r.json == {"players": 4, "taker": 1, "contract": "garde", "multiplier": 2, "bouts": 2,
                      "target": 41, "points": 45, "made": True, "base": 58,
                      "petit_au_bout": None, "poignees": [], "chelem": None,
                      "per_defender": 58, "scores": [-58, 174, -58, -58]}


def test_T17_settlement_endpoint_with_every_bonus_matches_the_api_example(client):
    r = client.post("/v1/games/tarot/settlement", json={
        "contract": "garde", "taker": 1, "bouts": 2, "points": 45, "petit_au_bout": "taker",
        "poignees": [{"camp": "taker", "level": "simple"}],
        "chelem": {"announced": False, "made_by": None}})
    assert (r.json["per_defender"], r.json["scores"]) == (98, [-98, 294, -98, -98])
    assert r.json["poignees"] == [{"declared_by": "taker", "level": "simple", "value": 20,
                                   "camp": "taker"}]


def test_T14_settlement_endpoint_takes_half_points_and_defaults_the_taker_to_0(client):
    r = client.post("/v1/games/tarot/settlement",
                    json={"contract": "prise", "bouts": 2, "points": 40.5})
    assert r.status_code == 200
    assert (r.json["points"], r.json["made"], r.json["base"]) == (40.5, False, -26)
    assert r.json["scores"] == [-78, 26, 26, 26]


@pytest.mark.parametrize(("body", "field"), [
    ({"points": 91.5}, "points"),
    ({"points": -0.5}, "points"),
    ({"points": 45.25}, "points"),
    ({"points": "45"}, "points"),
    ({"points": True}, "points"),
    ({"bouts": 4}, "bouts"),
    ({"bouts": -1}, "bouts"),
    ({"bouts": 1.0}, "bouts"),
    ({"contract": "pass"}, "contract"),
    ({"contract": "grand_chelem"}, "contract"),
    ({"taker": 4}, "taker"),
    ({"taker": -1}, "taker"),
    ({"petit_au_bout": "dealer"}, "petit_au_bout"),
    ({"poignees": [{"camp": "taker", "level": "quadruple"}]}, "poignees.0.level"),
    ({"poignees": [{"camp": "both", "level": "simple"}]}, "poignees.0.camp"),
    ({"chelem": {"announced": "yes"}}, "chelem.announced"),
    ({"chelem": {"announced": False, "made_by": "nobody"}}, "chelem.made_by"),
    ({"bonus": 10}, "bonus"),
])
def test_settlement_endpoint_refuses_a_bad_sheet_naming_the_field(client, body, field):
    sheet_body = {"contract": "garde", "taker": 1, "bouts": 2, "points": 45, **body}
    r = client.post("/v1/games/tarot/settlement", json=sheet_body)
    assert r.status_code == 422 and r.content_type == "application/problem+json"
    assert field in {e["field"] for e in r.json["errors"]}, r.json


def test_settlement_endpoint_names_every_missing_field(client):
    r = client.post("/v1/games/tarot/settlement", json={})
    assert r.status_code == 422
    assert {e["field"] for e in r.json["errors"]} == {"contract", "bouts", "points"}


def test_settlement_endpoint_and_played_deal_use_the_same_arithmetic(client):
    s = takers_chelem(announce=True)
    played = GAME.settlement(s)
    r = client.post("/v1/games/tarot/settlement", json={
        "contract": played["contract"], "taker": played["taker"], "bouts": played["bouts"],
        "points": played["points"], "petit_au_bout": played["petit_au_bout"]["camp"],
        "chelem": {"announced": True, "made_by": "taker"}})
    assert r.json == played
