"""Dashavatara Ganjifa, rule by rule (RULES.md G1–G9): each test fails if its rule were
broken. Endpoint and AI tests are in test_ganjifa_api.py."""

from __future__ import annotations

import random

import pytest

from rules.game import InvalidState, Move, Template
from rules.ganjifa import (
    DECK,
    GAME,
    PERIOD_OF,
    PERIODS,
    RANK_ORDER,
    SUITS,
    GanjifaState,
    opening,
)

IX = DECK.index
FIRST_FIVE = SUITS[:5]
LAST_FIVE = SUITS[5:]


def ids(*codes: str) -> list[int]:
    return [IX[c] for c in codes]


def mask(*codes: str) -> int:
    return sum(1 << IX[c] for c in codes)


def play(seat: int, code: str) -> Move:
    return Move(seat, "play", card=IX[code])


def dukal(seat: int, *codes: str) -> Move:
    return Move(seat, "dukal", cards=tuple(sorted(ids(*codes))))


def discard(seat: int, *codes: str) -> Move:
    return Move(seat, "discard", cards=tuple(sorted(ids(*codes))))


def reason(state, move):
    r = GAME.verify(state, move)
    return (r.code, r.rule) if r else None


def play_all(state, *moves):
    events = []
    for m in moves:
        assert GAME.verify(state, m) is None, (m, GAME.verify(state, m))
        state, ev = GAME.play(state, m)
        events += ev
    return state, events


def fields(**kwargs) -> dict:
    """The fields of a state from codes, for GAME.build; see `make`."""
    hands, leader = kwargs["hands"], kwargs.get("leader", 0)
    trick, pending = kwargs.get("trick", ()), kwargs.get("dukal")
    captured = kwargs.get("captured") or {}
    full, spare = padded(hands, leader, trick, pending, captured, kwargs.get("period", "day"))
    piles = [list(captured.get(s, [])) for s in range(3)]
    rest_to = kwargs.get("rest_to")
    piles[leader if rest_to is None else rest_to] += spare
    out = {
        "period": kwargs.get("period", "day"),
        "hands": [ids(*h) for h in full],
        "captured": [ids(*p) for p in piles],
        "leader": leader,
        "trick": [((leader + i) % 3, IX[c]) for i, c in enumerate(trick)],
        "dukal": None,
    }
    if pending is not None:
        cards, answers = pending
        out["dukal"] = {"seat": leader, "cards": ids(*cards), "discards": [
            ((leader + 1 + j) % 3, ids(*a)) for j, a in enumerate(answers)]}
    return out


def given_since_the_lead(leader: int, trick, pending) -> list[int]:
    """The cards each hand has given since the lead, to size the padded hands."""
    delta = [0, 0, 0]
    for i in range(len(trick)):
        delta[(leader + i) % 3] = 1
    if pending is not None:
        cards, answers = pending
        delta[leader] = len(cards)
        for j in range(len(answers)):
            delta[(leader + 1 + j) % 3] = len(cards)
    return delta


def placed(hands, trick, pending, captured: dict) -> set[str]:
    """Every card the hands, the trick, the Dukal and the captured piles name."""
    used = {c for h in hands for c in h if c is not ...} | set(trick)
    if pending is not None:
        used |= set(pending[0]) | {c for a in pending[1] for c in a}
    return used | {c for pile in captured.values() for c in pile}


def padded(hands, leader: int, trick, pending, captured: dict, period: str
           ) -> tuple[list[list[str]], list[str]]:
    """The hands, each holding `...` padded with unused cards to the size the others
    imply, and the cards left over."""
    delta = given_since_the_lead(leader, trick, pending)
    used = placed(hands, trick, pending, captured)
    # The trump Raja last: padded hands leave it to a captured pile, where it lies once
    # anything is captured (G5, G7).
    raja = "RRAM" if period == "day" else "RKRI"
    spare = sorted((c for c in reversed(DECK.codes) if c not in used), key=raja.__eq__)
    fixed = next(s for s in range(3) if ... not in hands[s])
    fresh = len(hands[fixed]) + delta[fixed]
    full = []
    for s in range(3):
        h = [c for c in hands[s] if c is not ...]
        if ... in hands[s]:
            need = fresh - delta[s] - len(h)
            h, spare = h + spare[:need], spare[need:]
        full.append(h)
    return full, spare


def make(hands, leader=0, trick=(), dukal=None, period="day", captured=None, rest_to=None):
    """A Ganjifa state from codes. A hand holding `...` is padded with unused cards (from
    Kalki's end of the deck) to the size the other hands imply; the cards placed nowhere
    are captured by the leader, or by `rest_to` beside the piles `captured` gives.
    `trick` lists the cards played from the leader on; `dukal` is (cards, [answers])."""
    return GAME.build(**fields(hands=hands, leader=leader, trick=trick, dukal=dukal,
                               period=period, captured=captured, rest_to=rest_to))


def problems(**kwargs) -> list[str]:
    with pytest.raises(InvalidState) as e:
        GAME.build(**kwargs)
    return [p.field for p in e.value.problems]


def stacked(*prefixes: list[str]) -> list[int]:
    """A full deck order whose hand s (G4: cards 40s+1 … 40s+40) starts with prefixes[s]."""
    used = {c for p in prefixes for c in p}
    rest = [c for c in DECK.codes if c not in used]
    order = []
    for s in range(3):
        p = list(prefixes[s]) if s < len(prefixes) else []
        need = 40 - len(p)
        order += p + rest[:need]
        rest = rest[need:]
    return ids(*order)


# -- G1 deck ------------------------------------------------------------------------


def test_G1_deck_is_120_cards_of_ten_avatar_suits_in_avatar_order():
    assert len(DECK) == 120
    assert SUITS == ("MAT", "KUR", "VAR", "NAR", "VAM", "PAR", "RAM", "KRI", "BAL", "KAL")
    for s in SUITS:
        suit = [c for c in DECK.cards if c.suit == s]
        assert [c.rank for c in suit] == [*map(str, range(1, 11)), "M", "R"]
    assert {"1MAT", "10KAL", "MRAM", "RKRI"} <= set(DECK.codes)
    assert DECK.cards[IX["RRAM"]].name == "Raja of Rama"
    assert DECK.cards[IX["MKAL"]].name == "Mantri of Kalki"
    assert DECK.cards[IX["7MAT"]].name == "7 of Matsya"
    assert DECK.cards[IX["MKAL"]].label == "Mantri" and DECK.cards[IX["7MAT"]].label == "7"


def test_G1_every_card_exactly_once_across_hands_captures_trick_and_dukal():
    f = fields(hands=[["1MAT", "2MAT"], ["3MAT", "4MAT"], ["5MAT", "6MAT"]])
    f["hands"][1][1] = IX["1MAT"]  # 1MAT twice, 4MAT nowhere
    got = problems(**f)
    assert "hands.1.1" in got and "" in got
    f = fields(hands=[["1MAT", "2MAT"], ["3MAT", "4MAT"], ["5MAT", "6MAT"]])
    f["captured"][0][0] = IX["2MAT"]
    assert "captured.0.0" in problems(**f)
    f = fields(hands=[["2MAT"], ["3MAT", "4MAT"], ["5MAT", "6MAT"]], trick=["1MAT"])
    f["trick"][0] = (0, IX["3MAT"])
    assert "trick.0.card" in problems(**f)
    f = fields(hands=[["2KUR"], ["3KUR", "4KUR", "5KUR", "6KUR", "7KUR", "8KUR"],
                      ["9KUR", "10KUR", "MKUR", "RKUR", "1VAR", "2VAR"]],
               dukal=(["RMAT", "MMAT", "1MAT", "2MAT", "3MAT"], []), leader=0)
    f["dukal"]["cards"][0] = IX["2KUR"]
    assert "dukal.cards.0" in problems(**f)


# -- G2 ranks, G7 winning a trick ----------------------------------------------------------


def _three(period, cards, leader=0):
    """A trick of three single cards (hands of one card each), played out."""
    hands = [[], [], []]
    for i, c in enumerate(cards):
        hands[(leader + i) % 3] = [c]
    state = make(hands, leader=leader, period=period)
    return play_all(state, *(play((leader + i) % 3, c) for i, c in enumerate(cards)))


def _winner(period, cards, leader=0) -> int:
    _, ev = _three(period, cards, leader)
    assert ev[-2]["type"] == "trick_won"
    return ev[-2]["seat"]


def _ranked_high_to_low(suit: str, order: list[str]) -> None:
    """Each card beats the next one in `order`, whichever of the two leads; the third card
    is of the next suit (a void player's choice, G6), which never wins (G7)."""
    # A period whose trump Raja is not among the cards: mid-deal it lies captured (G5,
    # G7). The third card is of the first suit after `suit` that is not the trump.
    period = "night" if "RAM" in (suit, SUITS[(SUITS.index(suit) + 1) % 10]) else "day"
    trump = "KRI" if period == "night" else "RAM"
    nxt = next(s for s in (SUITS[(SUITS.index(suit) + i) % 10] for i in range(1, 10))
               if s != trump)
    for hi, lo in zip(order, order[1:], strict=False):
        assert _winner(period, [lo, hi, f"1{nxt}"]) == 1, (hi, lo)
        assert _winner(period, [hi, lo, f"1{nxt}"]) == 0, (hi, lo)


@pytest.mark.parametrize("suit", FIRST_FIVE)
def test_G2_first_five_suits_rank_raja_mantri_then_1_high_down_to_10(suit):
    assert list(RANK_ORDER["first"]) == ["R", "M", *map(str, range(1, 11))]
    _ranked_high_to_low(suit, [f"R{suit}", f"M{suit}", *(f"{p}{suit}" for p in range(1, 11))])


@pytest.mark.parametrize("suit", LAST_FIVE)
def test_G2_last_five_suits_rank_raja_mantri_then_10_high_down_to_1(suit):
    assert list(RANK_ORDER["last"]) == ["R", "M", *map(str, range(10, 0, -1))]
    _ranked_high_to_low(suit, [f"R{suit}", f"M{suit}", *(f"{p}{suit}" for p in range(10, 0, -1))])


def test_G7_any_trump_beats_the_highest_card_of_the_led_suit():
    # Seat 1 holds only Rama cards: void in Matsya, it may trump (G6).
    _, ev = _three("day", ["RMAT", "1RAM", "2MAT"])
    assert ev[-2] == {"type": "trick_won", "seat": 1, "cards": ids("RMAT", "1RAM", "2MAT")}


def test_G7_the_highest_of_two_trumps_wins():
    _, ev = _three("day", ["RMAT", "9RAM", "10RAM"])
    assert ev[-2]["seat"] == 2
    _, ev = _three("day", ["RMAT", "10RAM", "9RAM"])
    assert ev[-2]["seat"] == 1


def test_G7_a_card_of_another_suit_never_wins():
    # Seat 1 is void in Matsya and throws the Raja of Kurma (the next suit): it loses to
    # the 9 of Matsya, though a Raja outranks every pip.
    _, ev = _three("day", ["10MAT", "RKUR", "9MAT"])
    assert ev[-2]["seat"] == 2
    _, ev = _three("day", ["10MAT", "RKUR", "RVAR"])
    assert ev[-2]["seat"] == 0


def test_G3_G7_the_period_decides_which_suit_trumps():
    # By day Rama trumps, by night Krishna.
    _, ev = _three("day", ["RMAT", "1KRI", "1RAM"])
    assert ev[-2]["seat"] == 2
    _, ev = _three("night", ["RMAT", "1KRI", "1RAM"])
    assert ev[-2]["seat"] == 1


def test_G7_the_winner_captures_the_three_cards_and_leads_the_next_trick():
    s = make([["RMAT", "5KUR"], ["1RAM", "6KUR"], ["2MAT", "7KUR"]], leader=0)
    before = s.captured
    s, ev = play_all(s, play(0, "RMAT"), play(1, "1RAM"), play(2, "2MAT"))
    assert [e["type"] for e in ev] == ["card_played"] * 3 + ["trick_won"]
    assert s.captured[1] == before[1] | mask("RMAT", "1RAM", "2MAT")
    assert s.captured[0] == before[0] and s.captured[2] == before[2]
    assert s.leader == 1 and s.trick == () and GAME.to_act(s) == 1
    assert {m.card for m in GAME.legal_moves(s)} == set(ids("6KUR"))
    assert reason(s, play(2, "7KUR")) == ("not_your_turn", "G7")


# -- G3 period, G4 deal ----------------------------------------------------------------


def test_G3_day_makes_rama_trump_and_night_krishna():
    order = list(range(120))
    day = GAME.deal(random.Random(), order)
    night = GAME.deal(random.Random(), order, period="night")
    assert SUITS[day.trump] == "RAM" and PERIOD_OF[day.trump] == "day"
    assert SUITS[night.trump] == "KRI" and PERIOD_OF[night.trump] == "night"
    assert {"day": SUITS.index("RAM"), "night": SUITS.index("KRI")} == PERIODS


def test_G4_stacked_deal_gives_hand_s_cards_40s_plus_1_to_40s_plus_40():
    order = list(reversed(range(120)))
    s = GAME.deal(random.Random(), order)
    for seat in range(3):
        assert s.hands[seat] == sum(1 << c for c in order[40 * seat:40 * seat + 40])
    assert s.captured == (0, 0, 0) and s.trick == () and s.dukal is None


def test_G4_seeded_deal_is_reproducible_and_another_seed_differs():
    a = GAME.deal(random.Random(11))
    assert a == GAME.deal(random.Random(11))
    assert a != GAME.deal(random.Random(12))
    assert all(h.bit_count() == 40 for h in a.hands)


def test_G4_stacked_deck_must_hold_every_card_once():
    order = list(range(120))
    order[5] = 4
    with pytest.raises(InvalidState):
        GAME.deal(random.Random(), order)


def test_G4_hands_are_equal_at_each_lead_and_a_trick_takes_one_card_from_each():
    f = fields(hands=[["1MAT", "2MAT"], ["3MAT", "4MAT"], ["5MAT", "6MAT"]])
    f["hands"][2].append(f["captured"][0].pop())
    assert "hands.2" in problems(**f)
    # Mid-trick: the two seats that played hold one card fewer than the third.
    make([["1MAT"], ["2MAT"], ["3MAT", "4MAT"]], trick=["5MAT", "6MAT"])
    f = fields(hands=[["1MAT"], ["2MAT"], ["3MAT", "4MAT"]], trick=["5MAT", "6MAT"])
    f["hands"][0].append(f["captured"][0].pop())  # seat 0 led, yet holds two cards
    assert "hands.0" in problems(**f)


# -- G5 opening -------------------------------------------------------------------------


def test_G5_holder_of_the_trump_raja_opens_by_leading_it_alone():
    dukal_hand = ["RMAT", "MMAT", "1MAT", "2MAT", "3MAT"]
    s = GAME.deal(random.Random(), stacked(["RKRI"], ["1RAM"], ["RRAM", *dukal_hand]))
    assert s.leader == 2 and GAME.to_act(s) == 2
    assert GAME.legal_moves(s) == [play(2, "RRAM")]
    assert reason(s, play(2, "1MAT")) == ("opening_must_be_trump_raja", "G5")
    assert reason(s, dukal(2, *dukal_hand)) == ("dukal_on_opening", "G5")
    assert reason(s, play(1, "1RAM")) == ("not_your_turn", "G5")
    assert reason(s, play(2, "RRAM")) is None


def test_G5_by_night_the_raja_of_krishna_opens():
    order = stacked(["RRAM"], ["RKRI", "1MAT"])
    assert GAME.deal(random.Random(), order).leader == 0
    s = GAME.deal(random.Random(), order, period="night")
    assert s.leader == 1
    assert GAME.legal_moves(s) == [play(1, "RKRI")]
    assert reason(s, play(1, "1MAT")) == ("opening_must_be_trump_raja", "G5")


def test_G5_after_the_opening_lead_the_others_follow_it_under_G6():
    s = GAME.deal(random.Random(), stacked(["RRAM"], ["1RAM", "1MAT"], ["1KUR"]))
    s, _ = play_all(s, play(0, "RRAM"))
    assert opening(s) and GAME.to_act(s) == 1
    assert reason(s, play(1, "1MAT")) == ("must_follow_suit", "G6")
    assert all(m.action == "play" for m in GAME.legal_moves(s))


def test_G5_a_state_whose_opening_leader_lacks_the_trump_raja_is_invalid():
    s = GAME.deal(random.Random(), stacked([], ["RRAM"]))
    base = {"period": "day", "hands": [_bits(h) for h in s.hands],
            "captured": [[], [], []], "trick": [], "dukal": None}
    assert problems(**base, leader=0) == ["leader"]
    assert GAME.build(**base, leader=1, tricks=[], dukals=[]) == s
    # An opening trick led with anything but the trump Raja.
    s = GAME.deal(random.Random(), stacked(["1MAT"], ["RRAM"]))
    hands = [_bits(h) for h in s.hands]
    hands[0].remove(IX["1MAT"])
    got = problems(period="day", hands=hands, captured=[[], [], []], leader=0,
                   trick=[(0, IX["1MAT"])], dukal=None)
    assert got == ["trick.0.card"]


def test_G5_G7_once_cards_are_captured_the_trump_raja_is_among_them():
    # The trump Raja opens the deal (G5) and, the highest trump, wins that trick (G7): a
    # state with captured cards and the Raja still in a hand, in the trick or in a pending
    # Dukal cannot happen.
    assert problems(**fields(hands=[["RRAM", "1MAT"], ["2MAT", "3MAT"], ["4MAT", "5MAT"]],
                             leader=1, rest_to=1)) == ["captured"]
    assert problems(**fields(hands=[["1MAT"], ["2MAT", "3MAT"], ["4MAT", "5MAT"]],
                             leader=0, trick=["RRAM"])) == ["captured"]
    assert make(hands=[["1MAT"], ["2MAT"], ["4MAT"]], leader=0,
                captured={1: ["RRAM", "1RAM", "2RAM"]}, rest_to=0).leader == 0
    by_night = fields(hands=[["RRAM", "1MAT"], ["2MAT", "3MAT"], ["RKRI", "5MAT"]],
                      period="night", leader=1, rest_to=1)
    assert problems(**by_night) == ["captured"]


def _bits(m: int):
    return [c for c in range(120) if m >> c & 1]


# -- G6 following ------------------------------------------------------------------------


def test_G6_a_player_holding_the_led_suit_must_follow_it():
    s = make([["9KUR", "9MAT"], ["1KUR", "MRAM", "2VAR"], [...]], trick=["5KUR"])
    assert GAME.to_act(s) == 1
    assert GAME.legal_moves(s) == [play(1, "1KUR")]
    assert reason(s, play(1, "MRAM")) == ("must_follow_suit", "G6")
    assert reason(s, play(1, "2VAR")) == ("must_follow_suit", "G6")
    assert reason(s, play(1, "1KUR")) is None


def test_G6_void_player_may_play_a_trump_or_the_next_suit_in_avatar_order():
    s = make([["9KUR", "9MAT", "8MAT"], ["3NAR", "4VAR", "5VAR", "1RAM"], [...]],
             trick=["5KUR"])
    assert {m.card for m in GAME.legal_moves(s)} == set(ids("4VAR", "5VAR", "1RAM"))
    assert reason(s, play(1, "3NAR")) == ("must_follow_or_next_suit", "G6")
    assert reason(s, play(1, "1RAM")) is None  # [decided] both choices are open
    assert reason(s, play(1, "4VAR")) is None


def test_G6_void_player_may_play_next_suit_in_avatar_order_skipping_suits_not_held():
    s = make([["9KUR", "9MAT"], ["3NAR", "4PAR", "1RAM"], [...]], trick=["5KUR"])
    assert {m.card for m in GAME.legal_moves(s)} == set(ids("3NAR", "1RAM"))
    assert reason(s, play(1, "4PAR")) == ("must_follow_or_next_suit", "G6")


def test_G6_next_suit_wraps_from_kalki_to_matsya():
    s = make([["9KAL", "9MAT"], ["3MAT", "4KUR", "2BAL"], [...]], trick=["5KAL"])
    assert {m.card for m in GAME.legal_moves(s)} == set(ids("3MAT"))
    assert reason(s, play(1, "4KUR")) == ("must_follow_or_next_suit", "G6")
    assert reason(s, play(1, "2BAL")) == ("must_follow_or_next_suit", "G6")
    s = make([["9KAL"], ["4KUR", "2BAL"], [...]], trick=["5KAL"])
    assert {m.card for m in GAME.legal_moves(s)} == set(ids("4KUR"))  # Balarama comes last


def test_G6_the_trump_suit_is_not_skipped_when_it_is_the_next_held_suit():
    # [decided] Led Vamana; Parashurama not held; Rama (the day trump) is the next held
    # suit, so the only choice is a trump, not Balarama further on.
    s = make([["9VAM"], ["1RAM", "2BAL"], [...]], trick=["5VAM"])
    assert {m.card for m in GAME.legal_moves(s)} == set(ids("1RAM"))
    assert reason(s, play(1, "2BAL")) == ("must_follow_or_next_suit", "G6")


def test_G6_void_in_a_trump_lead_plays_the_next_suit_after_the_trump():
    s = make([["9RAM"], ["2BAL", "3MAT"], [...]], trick=["5RAM"])
    assert {m.card for m in GAME.legal_moves(s)} == set(ids("2BAL"))
    assert reason(s, play(1, "3MAT")) == ("must_follow_or_next_suit", "G6")


def test_G6_players_add_one_card_each_in_turn():
    s = make([["9NAR", "9MAT"], ["1KUR", "2KUR"], ["3KUR"]], trick=["5NAR"], leader=2)
    assert GAME.to_act(s) == 0
    assert reason(s, play(1, "1KUR")) == ("not_your_turn", "G6")
    assert reason(s, play(0, "2KUR")) == ("card_not_in_hand", "G6")
    s, _ = play_all(s, play(0, "9NAR"))
    assert GAME.to_act(s) == 1


def test_G6_a_trick_card_that_broke_the_following_rule_is_an_invalid_state():
    # Seat 2 led Kurma; seat 0, void in it, played the next suit it held: valid.
    GAME.build(**fields(hands=[["9MAT"], ["1KUR", "3NAR"], ["7MAT"]], trick=["5KUR", "4VAR"],
                        leader=2))
    # Seat 0 held Varaha, the next suit, yet played Narasimha.
    f = fields(hands=[["4VAR"], ["1KUR", "3NAR"], ["7MAT"]], trick=["5KUR", "4NAR"], leader=2)
    assert problems(**f) == ["trick.1.card"]
    # Seat 0 held Kurma and had to follow it.
    f = fields(hands=[["6KUR"], ["1KUR", "3NAR"], ["7MAT"]], trick=["5KUR", "4VAR"], leader=2)
    assert problems(**f) == ["trick.1.card"]


# -- G8 Dukal ------------------------------------------------------------------------------

LEAD = ["RMAT", "MMAT", "3MAT", "4MAT", "5MAT", "6MAT", "7MAT",
        "RKAL", "MKAL", "8KAL", "9KAL", "10KAL",
        "RVAR", "MVAR", "1VAR", "2VAR",  # two pips only: no Dukal
        "MNAR", "1NAR", "2NAR", "3NAR"]  # no Raja: no Dukal


def test_G8_legal_moves_list_every_dukal_of_every_run():
    s = make([LEAD, [...], [...]], leader=0)
    listed = {m.cards for m in GAME.legal_moves(s) if m.action == "dukal"}
    mat = [f"{p}MAT" for p in range(3, 8)]
    runs = [mat[i:j] for i in range(5) for j in range(i + 3, 6)]
    expected = {dukal(0, "RMAT", "MMAT", *r).cards for r in runs}
    expected.add(dukal(0, "RKAL", "MKAL", "8KAL", "9KAL", "10KAL").cards)
    assert len(runs) == 6 and listed == expected
    assert all(reason(s, Move(0, "dukal", cards=c)) is None for c in listed)
    plays = [m for m in GAME.legal_moves(s) if m.action == "play"]
    assert {m.card for m in plays} == set(ids(*LEAD))


@pytest.mark.parametrize(("cards", "why"), [
    (["MNAR", "1NAR", "2NAR", "3NAR"], "no Raja"),
    (["RVAR", "MVAR", "1VAR", "2VAR"], "two pips"),
    (["RMAT", "MMAT", "3MAT", "4MAT", "6MAT"], "a gap"),
    (["RMAT", "MMAT", "3MAT", "4MAT", "5MAT", "7MAT"], "a stray pip"),
    (["RMAT", "MMAT", "3MAT", "4MAT", "5MAT", "8KAL"], "another suit"),
    (["RMAT", "3MAT", "4MAT", "5MAT", "6MAT"], "no Mantri"),
    (["RKAL", "MKAL", "9KAL", "10KAL", "1KAL"], "no wrap from 10 to 1"),
])
def test_G8_a_dukal_is_the_raja_the_mantri_and_one_run_of_three_or_more_pips(cards, why):
    lead = [*LEAD, "1KAL"]
    s = make([lead, [...], [...]], leader=0)
    assert reason(s, dukal(0, *cards)) == ("invalid_dukal", "G8"), why
    assert dukal(0, *cards) not in GAME.legal_moves(s)


def test_G8_a_dukal_must_be_held_and_name_each_card_once():
    s = make([LEAD, [...], [...]], leader=0)
    assert reason(s, dukal(0, "RKUR", "MKUR", "1KUR", "2KUR", "3KUR")) == (
        "card_not_in_hand", "G8")
    twice = Move(0, "dukal", cards=tuple(ids("3MAT", "3MAT", "4MAT", "5MAT", "MMAT", "RMAT")))
    assert reason(s, twice) == ("repeated_card", "G8")


def test_G8_a_dukal_is_led_only_by_the_player_on_lead_and_never_on_the_opening():
    s = make([LEAD, [...], [...]], leader=0)
    assert reason(s, dukal(1, "RMAT", "MMAT", "3MAT", "4MAT", "5MAT")) == (
        "not_your_turn", "G7")
    # Seat 2 has led; seat 0, to act, holds a Dukal but is not on lead.
    s = make([LEAD, [...], [...]], leader=2, trick=["9NAR"])
    assert GAME.to_act(s) == 0
    assert reason(s, dukal(0, "RMAT", "MMAT", "3MAT", "4MAT", "5MAT")) == ("not_on_lead", "G8")
    assert not any(m.action == "dukal" for m in GAME.legal_moves(s))
    dealt = GAME.deal(random.Random(), stacked(["RRAM", "RMAT", "MMAT", "1MAT", "2MAT",
                                                "3MAT"]))
    assert reason(dealt, dukal(0, "RMAT", "MMAT", "1MAT", "2MAT", "3MAT")) == (
        "dukal_on_opening", "G5")
    assert GAME.legal_moves(dealt) == [play(0, "RRAM")]


def test_G8_a_dukal_may_not_exceed_an_opponents_hand_but_may_equal_it():
    # Hands are equal at every lead in a reachable state (G4), so the limit binds only in
    # a state built directly; `verify` and `legal_moves` enforce it all the same.
    lead = mask("RMAT", "MMAT", "1MAT", "2MAT", "3MAT", "4MAT")
    s = GanjifaState(PERIODS["day"], (lead, mask(*(f"{p}KUR" for p in range(1, 6))),
                                      mask(*(f"{p}VAR" for p in range(1, 7)))),
                     (mask("RKAL", "MKAL", "1KAL"), 0, 0), 0, (), None, "play", 0)
    six = dukal(0, "RMAT", "MMAT", "1MAT", "2MAT", "3MAT", "4MAT")
    assert reason(s, six) == ("dukal_too_large", "G8")
    assert reason(s, dukal(0, "RMAT", "MMAT", "1MAT", "2MAT", "3MAT")) is None
    listed = [m for m in GAME.legal_moves(s) if m.action == "dukal"]
    assert len(listed) == 2 and all(len(m.cards) == 5 for m in listed)
    # A pending Dukal larger than an opponent's hand at the time is an invalid state.
    f = fields(hands=[["9NAR"], [...], [...]], dukal=(FIVE, []))
    moved = f["hands"][2][4:]
    f["hands"][2] = f["hands"][2][:4]
    f["captured"][0] += moved
    assert {"dukal.cards", "hands.2"} <= set(problems(**f))


FIVE = ["RMAT", "MMAT", "3MAT", "4MAT", "5MAT"]


def _dukal_led():
    """Seat 1 leads a Dukal of five; seat 2 then seat 0 answer."""
    hand1 = [*FIVE, "9NAR", "8NAR"]
    hand2 = ["1MAT", "MRAM", "2KUR", "3KUR", "4KUR", "5KUR", "6KUR"]
    hand0 = ["2MAT", "7KRI", "8KRI", "9KRI", "10KRI", "1BAL", "2BAL"]
    s = make([hand0, hand1, hand2], leader=1, captured={1: ["1KAL", "2KAL", "3KAL"]},
             rest_to=0)
    s, ev = play_all(s, dukal(1, *FIVE))
    return s, ev, hand0, hand2


def test_G8_opponents_answer_one_at_a_time_in_turn_order_with_exactly_k_cards():
    s, ev, hand0, hand2 = _dukal_led()
    assert ev == [{"type": "dukal_led", "seat": 1, "cards": sorted(ids(*FIVE))}]
    assert s.phase == "dukal" and GAME.to_act(s) == 2  # [decided] the leader's next seat
    assert GAME.legal_moves(s) == [Template(2, "discard", 5, (), tuple(sorted(ids(*hand2))))]
    assert reason(s, discard(0, *hand0[:5])) == ("not_your_turn", "G8")
    assert reason(s, play(2, "1MAT")) == ("wrong_phase", "G8")
    assert reason(s, dukal(1, "9NAR")) == ("not_your_turn", "G8")
    assert reason(s, discard(2, *hand2[:4])) == ("discard_wrong_size", "G8")
    assert reason(s, discard(2, *hand2[:6])) == ("discard_wrong_size", "G8")
    assert reason(s, discard(2, "7MAT", *hand2[:4])) == ("card_not_in_hand", "G8")
    again = Move(2, "discard", cards=tuple(ids(*hand2[:4], hand2[0])))
    assert reason(s, again) == ("repeated_card", "G8")
    s, ev = play_all(s, discard(2, *hand2[2:7]))
    assert ev == [{"type": "dukal_answered", "seat": 2, "cards": sorted(ids(*hand2[2:7]))}]
    assert GAME.to_act(s) == 0 and s.phase == "dukal"
    assert GAME.legal_moves(s) == [Template(0, "discard", 5, (), tuple(sorted(ids(*hand0))))]
    assert reason(s, discard(2, *hand2[:2])) == ("not_your_turn", "G8")


def test_G8_discards_need_not_follow_suit():
    s, _, hand0, hand2 = _dukal_led()
    # Seat 2 holds the 1 of Matsya, the Dukal's suit, and keeps it.
    assert reason(s, discard(2, "MRAM", "2KUR", "3KUR", "4KUR", "5KUR")) is None


def test_G8_the_leader_captures_all_3k_cards_and_leads_again():
    s, _, hand0, hand2 = _dukal_led()
    before = s.captured[1]
    s, ev = play_all(s, discard(2, *hand2[2:7]), discard(0, *hand0[2:7]))
    won = mask(*FIVE, *hand2[2:7], *hand0[2:7])
    assert won.bit_count() == 15
    assert ev[-1] == {"type": "dukal_captured", "seat": 1, "cards": _bits(won)}
    assert s.captured[1] == before | won
    assert s.dukal is None and s.trick == () and s.leader == 1 and s.phase == "play"
    assert GAME.to_act(s) == 1
    assert {m.card for m in GAME.legal_moves(s)} == set(ids("9NAR", "8NAR"))
    assert [h.bit_count() for h in s.hands] == [2, 2, 2]


def test_G8_a_dukal_of_the_whole_hand_empties_every_hand_and_ends_the_deal():
    s = make([FIVE, ["1KUR", "2KUR", "3KUR", "4KUR", "5KUR"], [...]], leader=0)
    s, _ = play_all(s, dukal(0, *FIVE), discard(1, "1KUR", "2KUR", "3KUR", "4KUR", "5KUR"))
    rest = _bits(s.hands[2])
    s, ev = play_all(s, Move(2, "discard", cards=tuple(rest)))
    assert s.phase == "over" and ev[-1]["type"] == "deal_over"
    assert ev[-1]["settlement"] == GAME.settlement(s)


def test_G8_a_pending_dukal_must_be_consistent():
    ok = fields(hands=[["9NAR", "8NAR"], [...], [...]], leader=0,
                dukal=(FIVE, [["1KUR", "2KUR", "3KUR", "4KUR", "5KUR"]]))
    GAME.build(**ok)
    f = fields(hands=[["9NAR", "8NAR"], [...], [...]], leader=0,
               dukal=(FIVE, [["1KUR", "2KUR", "3KUR", "4KUR", "5KUR"]]))
    f["dukal"]["seat"] = 1  # seat 0 leads, so the Dukal is seat 0's
    assert "dukal.seat" in problems(**f)
    f = fields(hands=[["9NAR", "8NAR"], [...], [...]], leader=0,
               dukal=(FIVE, [["1KUR", "2KUR", "3KUR", "4KUR", "5KUR"]]))
    f["dukal"]["discards"][0] = (2, f["dukal"]["discards"][0][1])  # seat 1 answers first
    assert "dukal.discards.0.seat" in problems(**f)
    f = fields(hands=[["9NAR", "8NAR"], [...], [...]], leader=0,
               dukal=(["RMAT", "MMAT", "3MAT", "4MAT", "6MAT"], []))
    assert "dukal.cards" in problems(**f)
    f = fields(hands=[["9NAR", "8NAR"], [...], [...]], leader=0,
               dukal=(FIVE, [["1KUR", "2KUR", "3KUR", "4KUR"]]))
    assert "dukal.discards.0.cards" in problems(**f)
    f = fields(hands=[["9NAR", "8NAR"], [...], [...]], leader=0,
               dukal=(FIVE, [["1KUR", "2KUR", "3KUR", "4KUR", "5KUR"],
                             ["1VAR", "2VAR", "3VAR", "4VAR", "5VAR"]]))
    assert "dukal.discards" in problems(**f)
    # No trick is played while the Dukal waits, and a Dukal never opens the deal.
    f = fields(hands=[["9NAR", "8NAR"], [...], [...]], leader=0, dukal=(FIVE, []))
    f["trick"] = [(0, f["hands"][0].pop())]
    assert "trick" in problems(**f)
    rest = [c for c in range(120) if c not in ids(*FIVE)]
    f = {"period": "day", "hands": [rest[:35], rest[35:75], rest[75:]],
         "captured": [[], [], []], "leader": 0, "trick": [],
         "dukal": {"seat": 0, "cards": ids(*FIVE), "discards": []}}
    assert problems(**f) == ["dukal"]


def test_G8_a_pending_dukal_given_with_another_phase_or_seat_to_act_is_invalid():
    # Seat 0's Dukal, answered by seat 1: the phase is "dukal" and seat 2 answers next.
    f = fields(hands=[["9NAR", "8NAR"], [...], [...]], leader=0,
               dukal=(FIVE, [["1KUR", "2KUR", "3KUR", "4KUR", "5KUR"]]))
    s = GAME.build(**f, phase="dukal", to_act=2)
    assert (s.phase, s.to_act) == ("dukal", 2)
    assert problems(**f, phase="play") == ["phase"]
    assert problems(**f, to_act=0) == ["to_act"]  # the leader, as if the Dukal were won
    assert problems(**f, to_act=1) == ["to_act"]  # seat 1 has answered
    assert problems(**f, phase="play", to_act=1) == ["phase", "to_act"]
    # Mid-trick, the next seat plays: a state naming another one is refused.
    f = fields(hands=[["1MAT"], ["2MAT", "3MAT"], ["5MAT", "6MAT"]], trick=["4MAT"])
    assert GAME.build(**f, phase="play", to_act=1).to_act == 1
    assert problems(**f, to_act=0) == ["to_act"]
    assert problems(**f, phase="dukal") == ["phase"]


# -- G9 end and score --------------------------------------------------------------------


def _over(split: dict[int, int], leader: int = 0) -> GanjifaState:
    codes = list(DECK.codes)
    piles = {}
    for s, n in split.items():
        piles[s], codes = codes[:n], codes[n:]
    return make([[], [], []], leader=leader, captured=piles, rest_to=leader)


@pytest.mark.parametrize(("split", "winners"), [
    ({0: 45, 1: 42, 2: 33}, [0]),
    ({0: 30, 1: 45, 2: 45}, [1, 2]),
    ({0: 42, 1: 36, 2: 42}, [0, 2]),
    ({0: 0, 1: 120, 2: 0}, [1]),
])
def test_G9_one_point_per_captured_card_and_the_highest_scores_share_the_win(split, winners):
    leader = next(s for s in range(3) if split[s])
    s = _over(split, leader)
    counts = [split[0], split[1], split[2]]
    assert s.phase == "over" and GAME.to_act(s) is None and GAME.legal_moves(s) == []
    assert GAME.settlement(s) == {"captured": counts, "scores": counts, "winners": winners}
    assert reason(s, play(leader, "1MAT")) == ("deal_over", "G9")


def test_G9_the_last_trick_ends_the_deal_with_its_settlement():
    s = make([["RMAT"], ["1RAM"], ["2MAT"]], leader=0, captured={2: list(DECK.codes[12:54])},
             rest_to=0)
    assert GAME.settlement(s) is None
    s, ev = play_all(s, play(0, "RMAT"), play(1, "1RAM"), play(2, "2MAT"))
    assert ev[-1] == {"type": "deal_over", "settlement": GAME.settlement(s)}
    assert GAME.settlement(s)["captured"] == [75, 3, 42]


def test_G9_a_result_that_disagrees_with_the_state_is_invalid():
    f = fields(hands=[[], [], []], leader=0)
    assert GAME.build(**f, result={"captured": [120, 0, 0], "scores": [120, 0, 0],
                                   "winners": [0]}).phase == "over"
    assert problems(**f, result={"captured": [120, 0, 0], "scores": [120, 0, 0],
                                 "winners": [1]}) == ["result"]
    assert problems(**f, phase="play") == ["phase"]
    assert problems(**f, to_act=0) == ["to_act"]


# -- invalid states: every problem at once ----------------------------------------------


def test_an_invalid_state_reports_every_problem_with_its_field_path():
    f = fields(hands=[["1MAT", "2MAT"], ["3MAT", "4MAT"], ["5MAT", "6MAT"]], leader=1,
               captured={1: ["7MAT", "8MAT", "9MAT"]}, rest_to=0)
    f["hands"][0].append(IX["3MAT"])  # seat 0 one card too many, and 3MAT twice
    f["captured"][2].append(f["captured"][1].pop())  # piles of two and of one card
    assert set(problems(**f)) == {"hands.1.0", "hands.0", "captured.1", "captured.2"}
    f = fields(hands=[["1MAT", "2MAT"], ["3MAT", "4MAT"], ["5MAT", "6MAT"]], leader=0)
    f["leader"] = 2  # seat 2 has captured nothing, yet leads
    assert problems(**f) == ["leader"]
    f = fields(hands=[["1MAT"], ["2MAT"], ["5MAT", "6MAT"]], trick=["3MAT", "4MAT"])
    f["trick"][1] = (2, f["trick"][1][1])
    assert "trick.1.seat" in problems(**f)
    f = fields(hands=[["1MAT"], ["2MAT"], ["5MAT"]], trick=["3MAT", "4MAT"])
    f["trick"].append((2, f["hands"][2].pop()))
    assert "trick" in problems(**f)
