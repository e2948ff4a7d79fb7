"""Durak for two to six players, 24/36/52 cards and passing, rule by rule (RULES.md
D16–D25): each test fails if its rule were broken; then deals of three and four players
worked by hand, checked move by move."""

from __future__ import annotations

import random

import pytest

from rules.durak import ALL, DECKS, GAME, IllegalMove, sorted_cards
from rules.game import InvalidState, Move
from schemas.registry import GAMES
from tests.support.durak import apply, build, deal

IX = ALL.index


def cards(*codes: str) -> list[int]:
    return [IX[c] for c in codes]


def make(hands, attacker=0, trump="H", stock=(), table=(), taking=False, deck=36, **more):
    """A state from codes; the cards placed nowhere go to the discard pile."""
    placed = {c for h in hands for c in h} | set(stock)
    placed |= {c for a, d in table for c in (a, d) if c}
    discard = [ALL.codes[c] for c in sorted_cards(DECKS[deck]) if ALL.codes[c] not in placed]
    return build(trump=trump, hands=[cards(*h) for h in hands], stock=cards(*stock),
                      discard=cards(*discard), attacker=attacker,
                      table=[(IX[a], IX[d] if d else None) for a, d in table], taking=taking,
                      **more)


def attack(seat, card):
    return Move(seat, "attack", card=IX[card])


def defend(seat, card):
    return Move(seat, "defend", card=IX[card])


def transfer(seat, card):
    return Move(seat, "transfer", card=IX[card])


def take(seat):
    return Move(seat, "take")


def pass_(seat):
    return Move(seat, "pass")


def reason(state, move):
    r = GAME.verify(state, move)
    return (r.code, r.rule) if r else None


def play(state, move):
    assert GAME.verify(state, move) is None, (move, GAME.verify(state, move))
    assert move in GAME.legal_moves(state)
    return GAME.play(state, move)[0]


def codes_of(mask):
    return {ALL.codes[c] for c in sorted_cards(mask)}


def problems(**fields):
    with pytest.raises(InvalidState) as e:
        make(**fields)
    return [p.field for p in e.value.problems]


def test_D16_three_decks_two_to_six_players_and_the_options():
    sizes = {n: len(sorted_cards(m)) for n, m in DECKS.items()}
    assert sizes == {24: 24, 36: 36, 52: 52}
    assert {ALL.cards[c].rank for c in sorted_cards(DECKS[24])} == {"9", "10", "J", "Q", "K",
                                                                      "A"}
    assert "2S" in ALL.index and "5C" in ALL.index
    for players in range(2, 7):
        for size in (24, 36, 52):
            if players > 4 and size == 24:
                with pytest.raises(InvalidState) as e:  # D16: 24 cards serve at most 4
                    deal(random.Random(1), players=players, cards=size)
                assert [p.field for p in e.value.problems] == ["players"]
                continue
            state = deal(random.Random(1), players=players, cards=size, transfer=True,
                              throw_in="neighbours", first_bout=5)
            assert len(state.hands) == players and state.setup.cards == size
            assert state.setup[2:5] == (True, "neighbours", 5)
    with pytest.raises(InvalidState):  # a deck none of the three
        deal(random.Random(1), order=cards("6S", "7S"))
    with pytest.raises(InvalidState) as e:  # `cards` disagrees with the deck given
        deal(random.Random(1), order=sorted_cards(DECKS[24]), cards=36)
    assert [p.field for p in e.value.problems] == ["cards"]
    with pytest.raises(InvalidState):
        deal(random.Random(1), players=7)


def test_D16_first_bout_of_five_holds_five_attack_cards_until_a_bout_is_beaten_off():
    table = [("9S", "10S"), ("9C", "10C"), ("9D", "10D"), ("10H", "JH"), ("JS", "QS")]
    hands = [["JC"], ["AS"]]
    used = {c for h in hands for c in h} | {c for pair in table for c in pair}
    rest = [ALL.codes[c] for c in sorted_cards(DECKS[24]) if ALL.codes[c] not in used]
    stock = sorted(rest, key=lambda c: c.endswith("H"))  # a heart turned up, last
    first = make(hands, stock=stock, table=table, deck=24, first_bout=5)
    assert first.discard == 0  # no bout beaten off yet: the first bout
    assert reason(first, attack(0, "JC")) == ("bout_limit_reached", "D9")
    assert reason(make(hands, stock=stock, table=table, deck=24), attack(0, "JC")) is None


def test_D17_stacked_deal_of_three_and_the_whole_deck_dealt_out():
    order = sorted_cards(DECKS[36])
    state = deal(random.Random(0), order=order, players=3)
    for s in range(3):
        assert sorted_cards(state.hands[s]) == order[6 * s:6 * s + 6]
    assert state.stock == (*order[19:], order[18])  # card 19 turned, under the stock
    whole = deal(random.Random(0), order=order, players=6, known=True)
    assert whole.stock == () and whole.trump_card == order[-1]  # shown, stays in hand 5
    assert whole.hands[5] >> order[-1] & 1 and whole.known[5] == (order[-1],)
    assert whole.trump == 3  # the last card dealt is AC: clubs are trumps
    four = deal(random.Random(0), order=sorted_cards(DECKS[24]), players=4)
    assert four.stock == () and four.trump_card == sorted_cards(DECKS[24])[-1]


def test_D18_defender_is_the_first_player_in_after_the_attacker_and_who_attacks_next():
    s = make([["6S", "AH"], ["7S", "QC"], ["8D", "9D"], ["KC", "KD"]], attacker=1,
             out=[], to_act=1)
    assert GAME.defender(s) == 2
    s = play(s, attack(1, "QC"))
    s = play(s, take(2))
    s = play(s, pass_(1))
    s = play(s, pass_(3))
    s = play(s, pass_(0))
    assert s.attacker == 3 and GAME.defender(s) == 0  # after a take: first in after defender
    s = play(s, attack(3, "KD"))
    s = play(s, defend(0, "AH"))
    for seat in (3, 1, 2):
        s = play(s, pass_(seat))
    assert s.attacker == 0  # beaten off: the defender attacks next


def test_D19_throwers_add_and_neighbours_only_the_seat_after_the_defender():
    hands = [["6S", "AH"], ["7S", "QC", "KS"], ["6C", "9D"], ["6D", "KD", "QD"]]
    s = make(hands, out=[], to_act=0)
    s = play(play(s, attack(0, "6S")), defend(1, "7S"))
    s = play(s, pass_(0))
    assert s.to_act == 2 and attack(2, "6C") in GAME.legal_moves(s)
    n = make(hands, out=[], to_act=0, throw_in="neighbours")
    n = play(play(n, attack(0, "6S")), defend(1, "7S"))
    n = play(n, pass_(0))
    assert n.to_act == 2  # the first player in after the defender
    n = play(n, pass_(2))
    assert n.table == () and n.attacker == 1  # seat 3 was never asked: beaten off


def test_D20_a_card_laid_starts_the_round_again_and_a_full_round_of_passes_ends_it():
    hands = [["6S", "7C"], ["7S", "QC", "KS", "8C"], ["6C", "9D"], ["6D", "KD"]]
    s = make(hands, out=[], to_act=0)
    s = play(play(s, attack(0, "6S")), defend(1, "7S"))
    assert (s.phase, s.to_act) == ("attack", 0)
    s = play(s, pass_(0))
    s = play(s, attack(2, "6C"))
    assert (s.phase, s.to_act) == ("defend", 1)
    s = play(s, defend(1, "8C"))
    assert s.to_act == 0  # the round starts again with the attacker
    assert reason(s, pass_(3)) == ("not_your_turn", "D20")
    s = play(s, attack(0, "7C"))
    s = play(s, defend(1, "QC"))
    for seat in (0, 2, 3):
        s = play(s, pass_(seat))
    assert s.table == () and s.attacker == 1
    # D20: the seat asked is a fact of the state with more than two players.
    mid = dict(table=[("9S", "10S")], out=[])
    assert problems(hands=hands, to_act=1, **mid) == ["to_act"]
    assert problems(hands=hands, **mid) == ["to_act"]
    assert make(hands, to_act=3, **mid).to_act == 3


def test_D21_passing_the_attack_on():
    hands = [["6S", "AH"], ["6D", "QC", "KS"], ["8S", "9D", "10C"]]
    off = make(hands, out=[], to_act=0)
    off = play(off, attack(0, "6S"))
    assert reason(off, transfer(1, "6D")) == ("transfer_not_allowed", "D21")
    s = make(hands, out=[], to_act=0, transfer=True)
    s = play(s, attack(0, "6S"))
    assert reason(s, transfer(1, "QC")) == ("transfer_wrong_rank", "D21")
    s = play(s, transfer(1, "6D"))
    assert (s.attacker, GAME.defender(s), s.to_act) == (1, 2, 2)
    s = play(s, defend(2, "8S"))  # the first unbeaten card first
    assert s.to_act == 2 and reason(s, transfer(2, "6C")) is not None
    # Too few cards in the new defender's hand for the attack cards after passing on.
    tight = make([["6S", "AH"], ["6D", "QC"], ["8D", "6C"]], out=[], to_act=0, transfer=True)
    tight = play(tight, attack(0, "6S"))
    tight = play(tight, transfer(1, "6D"))
    assert reason(tight, transfer(2, "6C")) == ("transfer_too_many", "D21")
    # Two players: the attack goes back and forth.
    two = make([["6S", "6H", "AH", "10S"], ["6D", "QC", "KS", "JS"]], transfer=True)
    two = play(two, attack(0, "6S"))
    two = play(two, transfer(1, "6D"))
    assert (two.attacker, two.to_act) == (1, 0)
    two = play(two, transfer(0, "6H"))
    assert (two.attacker, two.to_act, len(two.table)) == (0, 1, 3)
    # D21 in a state: several unbeaten attacks with passing off are refused.
    assert "table" in problems(hands=[["AH", "10S"], ["QC", "KS"], ["8D", "9D"]],
                               table=[("6S", None), ("6D", None)], attacker=1, out=[])


def test_D22_refill_the_attacker_first_then_in_seat_order_the_defender_last():
    hands = [["10S", "JS", "QS", "KS", "AS"], ["10H", "JH", "QH", "KH"],
             ["10C", "JC", "QC", "KC", "AC"]]
    s = make(hands, stock=["AD", "9H"], table=[("6S", "7S"), ("6C", "9C")], out=[],
             to_act=2, known=[[], [], []])
    s = play(s, pass_(2))
    assert codes_of(s.hands[0]) == set(hands[0]) | {"AD"}
    assert codes_of(s.hands[2]) == set(hands[2]) | {"9H"}  # before the defender
    assert codes_of(s.hands[1]) == set(hands[1]) and s.stock == ()
    assert s.known[2] == (IX["9H"],)  # the turned-up card is seen drawn


def test_D23_going_out_together_once_the_stock_is_empty():
    s = make([["6S"], ["7S", "7C"], ["6C"], ["KD", "QD"]], out=[], to_act=0)
    s = play(play(s, attack(0, "6S")), defend(1, "7S"))
    s = play(s, pass_(0))
    s = play(s, attack(2, "6C"))
    s = play(s, defend(1, "7C"))
    for seat in (0, 2, 3):
        s = play(s, pass_(seat))
    assert s.out == ((0, 1, 2),) and s.phase == "over"
    assert GAME.result(s)["durak"] == 3


def test_D22_D23_a_player_short_of_its_bout_start_laid_the_rest_in_the_bout():
    """Issue 40.6: with the stock empty everyone in began the bout with a card (one with
    none went out after the bout before), so a player in with none now laid one in it:
    as a thrower the round allows (D19), each its own card beside the attacker's. While
    the stock lasts, six; in the first bout, the six dealt."""
    four = [["6S", "9C"], ["7S", "8S"], [], ["QD"]]
    # Seat 2 threw in the second Ten, or it had no card when the bout began.
    assert make(four, table=[("10S", "JS"), ("10C", None)], out=[], to_act=1).phase == "defend"
    assert problems(hands=four, table=[("10S", None)], out=[], to_act=1) == ["hands"]
    # With neighbours only the seat after the defender throws in (D19): not seat 3.
    three_empty = [["6S", "9C"], ["7S", "8S"], ["QD"], []]
    table = [("10S", "JS"), ("10C", None)]
    assert make(three_empty, table=table, out=[], to_act=1).phase == "defend"
    assert problems(hands=three_empty, table=table, out=[], to_act=1,
                    throw_in="neighbours") == ["hands.3"]
    # The defender with no card beat at least one attack.
    assert make([["6S", "9C"], [], ["QD", "KD"]], table=[("10S", "JS")], out=[],
                to_act=0).phase == "attack"
    # First bout of three, the stock whole: each began with the six dealt. The attacker
    # laid the Queen, so began with seven, and seat 1, with five, laid one more than the
    # one card on the table; a seven no deal gives either. And no trump was dealt: seat 0
    # would have led (D5).
    def first_bout(hands):
        placed = {c for h in hands for c in h} | {"QC"}
        rest = [ALL.codes[c] for c in sorted_cards(DECKS[36]) if ALL.codes[c] not in placed]
        return problems(hands=hands, stock=[c for c in rest if c != "AH"] + ["AH"],
                        table=[("QC", None)], attacker=2, to_act=0, out=[])

    spades, diamonds = ["6S", "7S", "8S", "9S", "10S", "JS"], ["6D", "7D", "8D", "9D", "10D"]
    clubs = ["6C", "7C", "8C", "9C", "10C", "JC"]
    assert first_bout([spades, diamonds, clubs]) == ["hands.2", "hands", "attacker"]
    assert "hands.1" in first_bout([spades, [*diamonds, "JD", "QD"], clubs[:4]])


def test_D11_the_discard_pile_is_beaten_pairs():
    """Issue 40.6: each beaten-off bout leaves attack and beater, two of a suit or a trump
    and another (D4): two plain cards of different suits and no trump beat nothing."""
    hands = [["6S", "7S", "8S", "9S", "10S", "JS"], ["6C", "7C", "8C", "9C", "10C", "JC"]]
    rest = [ALL.codes[c] for c in sorted_cards(DECKS[36])
            if ALL.codes[c] not in {*hands[0], *hands[1]}]
    pairs = ["QS", "KS"]  # two Spades: the King beat the Queen
    stock = [c for c in rest if c not in pairs and c != "AH"] + ["AH"]
    assert make(hands, stock=stock, trump="H").phase == "attack"
    plain = ["QS", "QC"]  # a Spade and a Club, no trump: no beaten pair
    stock = [c for c in rest if c not in plain and c != "AH"] + ["AH"]
    assert problems(hands=hands, stock=stock, trump="H") == ["discard"]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_D5_a_state_as_dealt_has_the_first_attacker_of_D5(players):
    """Issue 40.6: nothing played, no card moved: the deal's own first attacker."""
    schemas = GAMES["durak"]
    dealt = schemas.dump_state(schemas.game.deal(random.Random(5), players=players))

    def built(attacker: int):
        state = {**dealt, "attacker": attacker, "to_act": attacker}
        for derived in ("phase", "defender", "result"):
            state.pop(derived, None)
        return schemas.game.build(**schemas.requests["state"].load({"state": state})["state"])

    assert built(dealt["attacker"])
    with pytest.raises(InvalidState) as refused:
        built((dealt["attacker"] + 1) % players)
    assert [p.field for p in refused.value.problems] == ["attacker"]


def test_D24_the_last_player_holding_cards_is_the_durak_and_nobody_is_a_draw():
    s = make([["6S"], ["7S"], []], out=[[2]], to_act=0, attacker=0)
    s = play(play(s, attack(0, "6S")), defend(1, "7S"))
    s = play(s, pass_(0))
    assert s.phase == "over" and GAME.result(s)["outcome"] == "draw"
    assert GAME.result(s)["out"] == [[2], [0, 1]]


def test_D23_a_draw_names_every_seat_out_the_last_one_too():
    # After the last bout every empty hand goes out: a seat left in with none is no state.
    assert problems(hands=[[], [], []], out=[[0, 1]]) == ["out"]
    assert problems(hands=[[], [], []], out=[[2], [0]]) == ["out"]
    assert make([[], [], []], out=[[2], [0, 1]]).phase == "over"


def test_D24_no_bout_goes_on_with_fewer_than_two_players_in():
    # The deal ended after the bout that left one player in: no table, nobody to defend.
    table = [("7S", None)]
    assert "out" in problems(hands=[["6S", "AH", "9S"], [], []], table=table, out=[[1, 2]])
    assert "out" in problems(hands=[["6S", "AH"], [], []], table=[("7S", "8S")],
                             out=[[1, 2]], to_act=0)
    assert "out" in problems(hands=[[], ["6S", "AH", "9S"], []], table=table, out=[[0, 2]])


def test_D25_settlement_durak_loses_players_minus_one():
    s = make([["6S"], ["AD", "AS"], ["7S"], []], out=[[3]], to_act=0)
    s = play(play(s, attack(0, "6S")), defend(1, "AS"))
    for seat in (0, 2):
        s = play(s, pass_(seat))
    assert s.phase == "attack" and s.out == ((3,), (0,))  # seat 0 out, the deal goes on
    assert s.attacker == 1 and GAME.defender(s) == 2
    s = play(play(s, attack(1, "AD")), take(2))
    s = play(s, pass_(1))
    assert GAME.result(s) == {"outcome": "durak", "durak": 2, "out": [[3], [0], [1]],
                              "players": 4, "scores": [1, 1, -3, 1]}


def test_illegal_moves_applied_unverified_raise_and_never_duplicate_a_card():
    s = make([["6S", "AH"], ["7S"], ["8D"]], out=[], to_act=0)
    with pytest.raises(IllegalMove):
        apply(s, attack(0, "7S"))  # not in the hand
    with pytest.raises(IllegalMove):
        apply(s, attack(1, "7S"))  # not the seat to act
    two = deal(random.Random(3))
    other = 1 - two.to_act
    card = sorted_cards(two.hands[other])[0]
    with pytest.raises(IllegalMove):
        apply(two, Move(two.to_act, "attack", card=card))


def test_hand_worked_three_player_deal_with_passing():
    s = make([["7S", "7C"], ["7D", "KH"], ["9S", "10S"]], out=[], to_act=0, transfer=True)
    s = play(s, attack(0, "7S"))
    assert set(GAME.legal_moves(s)) == {defend(1, "KH"), take(1), transfer(1, "7D")}
    s = play(s, transfer(1, "7D"))  # seat 2 holds 2 cards, as many as the attack cards
    assert (s.attacker, GAME.defender(s), s.phase, s.to_act) == (1, 2, "defend", 2)
    assert set(GAME.legal_moves(s)) == {defend(2, "9S"), defend(2, "10S"), take(2)}
    s = play(s, defend(2, "9S"))  # 7S first, the first laid
    assert (s.phase, s.to_act) == ("defend", 2)
    assert set(GAME.legal_moves(s)) == {take(2)}  # 10S does not beat 7D
    s = play(s, take(2))
    assert (s.phase, s.to_act, s.taking) == ("attack", 1, True)
    assert GAME.legal_moves(s) == [pass_(1)]  # the limit: 1 card + 1 beaten
    s = play(s, pass_(1))
    assert s.to_act == 0 and GAME.legal_moves(s) == [pass_(0)]
    s = play(s, pass_(0))
    assert codes_of(s.hands[2]) == {"10S", "7S", "9S", "7D"}  # picked up
    assert (s.attacker, GAME.defender(s), s.out) == (0, 1, ())  # first in after the taker
    s = play(s, attack(0, "7C"))
    assert set(GAME.legal_moves(s)) == {defend(1, "KH"), take(1)}  # no 7 to pass on with
    s = play(s, defend(1, "KH"))
    assert GAME.legal_moves(s) == [pass_(0)]  # an empty hand: the forced pass (D13)
    s = play(s, pass_(0))
    assert GAME.legal_moves(s) == [pass_(2)]  # the defender has no card left: the limit
    s = play(s, pass_(2))
    assert s.phase == "over" and s.out == ((0, 1),)
    assert GAME.result(s) == {"outcome": "durak", "durak": 2, "out": [[0, 1]],
                              "players": 3, "scores": [1, 1, -2]}
    assert s.attacker == 1  # D18 once over: the defender of a bout beaten off


def test_hand_worked_four_player_deal_with_passing():
    s = make([["8S", "8H"], ["8D", "AS"], ["8C", "9C"], ["QH", "6D"]], trump="C", out=[],
             to_act=0, transfer=True)
    s = play(s, attack(0, "8S"))
    s = play(s, transfer(1, "8D"))
    assert (s.attacker, GAME.defender(s), s.to_act) == (1, 2, 2)
    # Seat 3 holds 2 cards, fewer than the 3 attack cards passing on again would make.
    assert reason(s, transfer(2, "8C")) == ("transfer_too_many", "D21")
    assert set(GAME.legal_moves(s)) == {defend(2, "8C"), defend(2, "9C"), take(2)}
    s = play(s, defend(2, "9C"))
    s = play(s, defend(2, "8C"))
    assert (s.phase, s.to_act) == ("attack", 1)
    for seat in (1, 3, 0):  # D20: the round, the attacker first, then in seat order
        assert GAME.legal_moves(s) == [pass_(seat)]
        s = play(s, pass_(seat))
    assert s.out == ((2,),)  # seat 2 beat everything with its last cards
    assert (s.attacker, GAME.defender(s)) == (3, 0)  # the defender went out: the next in
    s = play(s, attack(3, "6D"))
    assert set(GAME.legal_moves(s)) == {take(0)}
    s = play(s, take(0))
    s = play(s, pass_(3))
    assert s.to_act == 1  # seat 2 is out: never asked
    s = play(s, pass_(1))
    assert codes_of(s.hands[0]) == {"8H", "6D"}
    assert (s.attacker, GAME.defender(s)) == (1, 3)
    s = play(s, attack(1, "AS"))
    s = play(s, take(3))
    s = play(s, pass_(1))
    s = play(s, pass_(0))
    assert s.out == ((2,), (1,)) and (s.attacker, GAME.defender(s)) == (0, 3)
    s = play(play(s, attack(0, "8H")), defend(3, "QH"))
    assert GAME.legal_moves(s) == [pass_(0)]
    s = play(s, pass_(0))
    assert (s.attacker, GAME.defender(s)) == (3, 0)
    s = play(play(s, attack(3, "AS")), take(0))
    s = play(s, pass_(3))
    assert s.phase == "over" and s.attacker == 1
    assert GAME.result(s) == {"outcome": "durak", "durak": 0, "out": [[2], [1], [3]],
                              "players": 4, "scores": [-3, 1, 1, 1]}
