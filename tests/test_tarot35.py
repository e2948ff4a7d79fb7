"""French Tarot for three and five players: a test per rule T18–T24, the wire for each
count over a real gunicorn, and published settlements (tests/data/tarot35_examples.json)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import requests

from rules.ai import complete
from rules.game import Move
from rules.tarot import DECK, GAME, KINGS, SUIT_MASK, SUIT_OF, TRUMPS, callable_cards, score
from schemas.registry import GAMES

SCHEMAS = GAMES["tarot"]
EXAMPLES = json.loads((Path(__file__).parent / "data" / "tarot35_examples.json").read_text())
code = DECK.codes.__getitem__
index = DECK.index.__getitem__


def dealt(players: int, seed: int = 0):
    """A seeded deal at `players` that is not annulled for a petit sec (T3)."""
    rng = random.Random(seed)
    while True:
        state = GAME.deal(rng, players=players)
        if state.phase == "bidding":
            return state


def bid(state, *contracts):
    for c in contracts:
        state = GAME.apply(state, Move(state.to_act, "bid", contract=c))
    return state


def called_deal(players_apart: bool = True, seed: int = 0):
    """A five-player garde by seat 0 whose called King lies in another hand (T22)."""
    for s in range(seed, seed + 500):
        state = bid(dealt(5, s), "garde", "pass", "pass", "pass", "pass")
        kings = [c for c in range(78) if KINGS >> c & 1 and not state.hands[0] >> c & 1
                 and any(h >> c & 1 for h in state.hands[1:])]
        if kings and players_apart:
            return state, kings[0]
    raise AssertionError("no deal found")


# -- T18–T24, one rule each ---------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5])
def test_T18_the_count_is_chosen_at_the_deal_and_seat_0_speaks_first(players):
    state = dealt(players)
    assert len(state.hands) == players and state.dealer == players - 1
    assert state.to_act == 0 and state.phase == "bidding"
    state = bid(state, *["pass"] * (players - 1))
    assert state.to_act == players - 1 and state.phase == "bidding"
    state = bid(state, "pass")  # T3 read by the count: all `players` passed
    assert GAME.settlement(state)["scores"] == [0] * players


@pytest.mark.parametrize(("players", "hand", "chien"), [(3, 24, 6), (4, 18, 6), (5, 15, 3)])
def test_T19_stacked_deal_sizes(players, hand, chien):
    order = list(range(78))
    state = GAME.deal(random.Random(0), order, players=players)
    for s in range(players):
        assert state.hands[s] == sum(1 << c for c in order[hand * s:hand * s + hand])
    assert state.chien.bit_count() == chien
    assert state.chien == sum(1 << c for c in order[hand * players:])


def test_T20_the_ecart_holds_as_many_cards_as_the_chien():
    state, king = called_deal()
    state = GAME.apply(state, Move(0, "call", card=king))
    assert state.phase == "discard" and state.hands[0].bit_count() == 18
    (template,) = GAME.legal_moves(state)
    assert template.count == 3
    six = tuple(template.choose_from[:6])
    assert GAME.verify(state, Move(0, "discard", cards=six)).code == "discard_wrong_count"
    assert GAME.verify(state, Move(0, "discard", cards=six[:3])) is None


@pytest.mark.parametrize(("players", "levels"), [(3, (13, 15, 18)), (5, (8, 10, 13))])
def test_T21_poignee_levels_by_count(players, levels):
    # Stacked (T19): seat 0 holds T2 and up, exactly the simple level, then suit cards.
    size = {3: 24, 5: 15}[players]
    mine = [index(f"T{n}") for n in range(2, 2 + levels[0])]
    mine += [c for c in range(56)][:size - len(mine)]
    order = mine + [c for c in range(78) if c not in mine]
    state = GAME.deal(random.Random(0), order, players=players)
    trumps = state.hands[0] & TRUMPS
    assert state.phase == "bidding" and trumps.bit_count() == levels[0]
    state = bid(state, "garde_sans", *["pass"] * (players - 1))
    if players == 5:
        state = GAME.apply(state, Move(0, "call", card=next(
            c for c in range(78) if KINGS >> c & 1)))
    state = GAME.apply(state, Move(0, "chelem", announce=False))
    shown = [c for c in range(78) if trumps >> c & 1]
    listed = [m.cards for m in GAME.legal_moves(state) if m.action == "poignee"]
    assert [len(c) for c in listed] == [n for n in levels if len(shown) >= n]
    assert GAME.verify(state, Move(0, "poignee", cards=tuple(shown[:levels[0]]))) is None
    short = GAME.verify(state, Move(0, "poignee", cards=tuple(shown[:levels[0] - 1])))
    assert short.code == "invalid_poignee" and short.rule == "T21"
    after = GAME.apply(state, Move(0, "poignee", cards=tuple(shown[:levels[0]])))
    assert after.poignees[0][1].bit_count() == levels[0]


def test_T22_callable_cards_go_down_the_courts_only_with_every_court_above():
    assert callable_cards(0) == KINGS
    queens = sum(1 << (s * 14 + 12) for s in range(4))
    assert callable_cards(KINGS) == KINGS | queens
    assert callable_cards(KINGS | queens ^ 1 << 12) == KINGS | queens


def test_T22_the_partner_is_the_holder_and_only_it_knows_until_the_card_is_played():
    state, king = called_deal()
    calls = GAME.legal_moves(state)
    assert {m.card for m in calls} == {c for c in range(78) if KINGS >> c & 1}
    state = GAME.apply(state, Move(0, "call", card=king))
    partner = next(s for s in range(5) if state.hands[s] >> king & 1)
    assert state.partner == partner and state.called == king
    for seat in range(5):
        seen = SCHEMAS.dump_view(GAME.observe(state, seat))["partner"]
        assert seen == (partner if seat == partner else "?"), seat
    # Played, the called card tells everyone.
    rng = random.Random(1)
    while not (king in state.trick or any(king in cards for _, cards, _ in state.tricks)):
        moves = GAME.legal_moves(state)
        mine = [m for m in moves if getattr(m, "card", None) == king]
        state = GAME.apply(state, mine[0] if mine else complete(rng.choice(moves), rng))
    for seat in range(5):
        assert SCHEMAS.dump_view(GAME.observe(state, seat))["partner"] == partner


def test_T22_a_called_card_in_the_takers_hand_or_a_shown_chien_means_alone():
    for seed in range(500):
        state = bid(dealt(5, seed), "prise", "pass", "pass", "pass", "pass")
        own = [c for c in range(78) if KINGS >> c & 1 and state.hands[0] >> c & 1]
        aside = [c for c in range(78) if KINGS >> c & 1 and state.chien >> c & 1]
        if own and aside:
            break
    alone = GAME.apply(state, Move(0, "call", card=own[0]))
    assert alone.partner is None
    views = [SCHEMAS.dump_view(GAME.observe(alone, s))["partner"] for s in range(5)]
    assert views == [None, "?", "?", "?", "?"]  # the taker knows; nobody else does
    shown = GAME.apply(state, Move(0, "call", card=aside[0]))
    assert shown.partner is None and shown.chien_shown >> aside[0] & 1
    assert [SCHEMAS.dump_view(GAME.observe(shown, s))["partner"] for s in range(5)] == \
        [None] * 5


def test_T22_a_called_queen_from_a_shown_chien_may_go_to_the_ecart():
    # Seat 0 holds the four Kings, so it may call a Queen; the Queen lies in the chien, which
    # a prise shows: the taker plays alone, everyone knows, and T5 lets the Queen be laid.
    kings = [c for c in range(78) if KINGS >> c & 1]
    hand0 = kings + [index(c) for c in ("1H", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H",
                                        "10H", "1D")]
    chien = [index(c) for c in ("QS", "2D", "3D")]
    rest = [c for c in range(78) if c not in hand0 and c not in chien]
    state = GAME.deal(random.Random(0), order=hand0 + rest + chien, players=5)
    assert state.phase == "bidding" and state.chien == sum(1 << c for c in chien)
    state = bid(state, "prise", "pass", "pass", "pass", "pass")
    queen = index("QS")
    assert callable_cards(state.hands[0]) >> queen & 1
    state = GAME.apply(state, Move(0, "call", card=queen))
    assert state.partner is None and state.phase == "discard" and state.hands[0] >> queen & 1
    ecart = (queen, index("1H"), index("2H"))
    assert GAME.verify(state, Move(0, "discard", cards=ecart)) is None
    laid = GAME.apply(state, Move(0, "discard", cards=ecart))
    assert laid.ecart >> queen & 1 and laid.partner is None
    assert [SCHEMAS.dump_view(GAME.observe(laid, s))["partner"] for s in range(5)] == \
        [None] * 5
    # A King called and held stays out of the écart (T5).
    king = GAME.verify(state, Move(0, "discard", cards=(kings[0], index("1H"), index("2H"))))
    assert king is not None and king.rule == "T5"


def test_T23_the_first_lead_may_not_be_of_the_called_suit_but_the_card_itself():
    state, king = called_deal()
    state = GAME.apply(state, Move(0, "call", card=king))
    state = GAME.apply(state, complete(GAME.legal_moves(state)[0], random.Random(0)))
    state = GAME.apply(state, Move(0, "chelem", announce=False))
    leader = state.to_act
    hand = state.hands[leader]
    barred = hand & SUIT_MASK[SUIT_OF[king]] & ~(1 << king)
    plays = {m.card for m in GAME.legal_moves(state) if m.action == "play"}
    assert plays and not plays & {c for c in range(78) if barred >> c & 1}
    for c in range(78):
        if barred >> c & 1:
            reason = GAME.verify(state, Move(leader, "play", card=c))
            assert (reason.code, reason.rule) == ("called_suit_opening", "T23")
    if hand >> king & 1:
        assert king in plays
    # After the first card, the called suit is played as any other.
    state = GAME.apply(state, Move(leader, "play", card=min(plays)))
    assert all(GAME.verify(state, m) is None for m in GAME.legal_moves(state))


def test_T24_shares_by_count():
    # RULES.md's worked example: 5 players, garde, partner seat 3, 2 bouts, 45 points.
    five = score("garde", 1, 2, 90, players=5, partner=3)
    assert five["per_defender"] == 58 and five["scores"] == [-58, 116, -58, 58, -58]
    assert five["partner"] == 3 and five["players"] == 5
    alone = score("garde", 1, 2, 90, players=5, partner=None)
    assert alone["scores"] == [-58, 232, -58, -58, -58]
    three = score("garde", 2, 2, 90, players=3)
    assert three["scores"] == [-58, -58, 116] and "partner" not in three
    assert score("garde", 1, 2, 90)["scores"] == [-58, 174, -58, -58]


def test_T24_the_partner_shares_the_attack_camps_tricks():
    state, king = called_deal()
    state = GAME.apply(state, Move(0, "call", card=king))
    rng = random.Random(3)
    while GAME.legal_moves(state):
        state = GAME.apply(state, complete(rng.choice(GAME.legal_moves(state)), rng))
    settlement = GAME.settlement(state)
    partner = state.partner
    d = settlement["per_defender"]
    assert settlement["partner"] == partner and sum(settlement["scores"]) == 0
    assert settlement["scores"][0] == 2 * d and settlement["scores"][partner] == d


# -- the wire, over a real gunicorn ----------------------------------------------------------

@pytest.mark.http
@pytest.mark.parametrize("players", [3, 5])
def test_http_deals_for_each_count(server, players):
    """Seeded deals played to the end over HTTP: every answer agrees with the rules."""
    base = server + "/v1/games/tarot/"
    with requests.Session() as s:
        for seed in range(4):
            r = s.post(base + "deal", json={"seed": seed, "players": players})
            assert r.status_code == 200, r.text
            body = r.json()
            state = body["state"]
            assert len(state["hands"]) == players and state["dealer"] == players - 1
            again = s.post(base + "deal", json={"deck": body["deck"], "players": players})
            assert again.json()["state"] == state
            rng = random.Random(seed)
            for _ in range(200):
                if state["phase"] == "over":
                    break
                listed = s.post(base + "legal-moves", json={"state": state}).json()
                seat = listed["to_act"]
                view = s.post(base + "view", json={"state": state, "seat": seat}).json()
                assert view["view"]["hands"][seat] == state["hands"][seat]
                if players == 5 and state["called"] is not None:
                    others = [v for v in range(5) if v != seat]
                    seen = s.post(base + "view", json={"state": state, "seat": others[0]})
                    assert seen.json()["view"]["partner"] in ("?", state["partner"])
                move = s.post(base + "ai-move", json={"state": state, "level": "basic",
                                                      "seed": seed}).json()["move"]
                if rng.random() < 0.3 and "count" not in listed["moves"][0]:
                    move = rng.choice(listed["moves"])
                answer = s.post(base + "move", json={"state": state, "move": move}).json()
                assert answer["legal"], (move, answer)
                state = answer["state"]
            assert state["phase"] == "over" and len(state["result"]["scores"]) == players
            for fmt in ("text", "svg"):
                picture = s.post(base + "render", json={"state": state, "seat": 0,
                                                        "format": fmt})
                assert picture.status_code == 200 and picture.content
            bad = s.post(base + "move", json={"state": state, "move": {
                "seat": players, "action": "play", "card": "1S"}})
            assert bad.status_code == 422


# -- published settlements -------------------------------------------------------------------

def sheet_of(example: dict, **given) -> dict:
    sheet = {k: example[k] for k in ("players", "contract", "taker", "bouts", "points",
                                     "petit_au_bout", "poignees", "chelem")}
    sheet.update(given)
    if example["players"] == 5:
        sheet["partner"] = example["partner"]
    return sheet


def settle(s, server: str, sheet: dict) -> dict:
    r = s.post(server + "/v1/games/tarot/settlement", json=sheet)
    assert r.status_code == 200, (sheet, r.text)
    return r.json()


def check_example(s, server: str, example: dict) -> None:
    """One published example, in the shape its `published_scores` has (tarot35_examples.md)."""
    published = example["published_scores"]
    if not example.get("deal_possible", True):
        # A score keeper's unit test of the formula alone, on a sheet no deal produces (a
        # chelem made with far fewer than every trick's points, T16): the endpoint refuses
        # it, naming the chelem; the pure settlement function still gives the published
        # scores.
        sheet = sheet_of(example)
        r = s.post(server + "/v1/games/tarot/settlement", json=sheet)
        assert r.status_code == 422
        assert [e["field"] for e in r.json()["errors"]] == ["chelem.made_by"]
        chelem = sheet["chelem"]
        got = score(sheet["contract"], sheet["taker"], sheet["bouts"], 2 * sheet["points"],
                    players=sheet["players"], chelem_announced=chelem["announced"],
                    chelem_made_by=chelem["made_by"])
        assert got["scores"] == published == example["rules_md_scores"]
        return
    if isinstance(example["taker"], list):  # several deals, their running totals published
        totals = [0] * example["players"]
        for taker, bouts, points in zip(example["taker"], example["bouts"], example["points"],
                                        strict=True):
            got = settle(s, server, sheet_of(example, taker=taker, bouts=bouts, points=points))
            totals = [t + g for t, g in zip(totals, got["scores"], strict=True)]
        assert totals == published
        return
    if isinstance(published, list) or "seat" in published or "margin" in published:
        got = settle(s, server, sheet_of(example))
        if isinstance(published, list):
            assert got["scores"] == published == example["rules_md_scores"]
        elif "seat" in published:
            assert all(got["scores"][int(seat)] == value
                       for seat, value in published["seat"].items())
        else:  # T14: the half point to the side that wins, a margin of 1 either way
            margin = published["margin"]
            assert got["made"] == (margin > 0)
            assert abs(got["base"]) == (25 + abs(margin)) * got["multiplier"]
            assert got["scores"] == example["rules_md_scores"]
        return
    if "petit_au_bout" in published:  # T15: any count of points, the bonus alone
        got = settle(s, server, sheet_of(example, bouts=1, points=51))
        assert got["petit_au_bout"] == published["petit_au_bout"]
        return
    for case, points in (("if_made", 60), ("if_failed", 30)):  # T17.3 for either result
        got = settle(s, server, sheet_of(example, contract="prise", bouts=1, points=points))
        (poignee,) = got["poignees"]
        assert (poignee["value"], poignee["camp"]) == (published[case]["poignee_value"],
                                                       published[case]["camp"])


@pytest.mark.http
def test_published_settlements_agree_through_the_endpoint(server):
    agreed = [e for e in EXAMPLES if e["agrees"]]
    assert len(agreed) == 57
    with requests.Session() as s:
        for example in agreed:
            try:
                check_example(s, server, example)
            except AssertionError as e:
                raise AssertionError(example["id"]) from e
