"""Durak, rule by rule (RULES.md D1–D15): each test fails if its rule were broken."""

from __future__ import annotations

import random

import pytest

from rules.durak import DECK, GAME, SUITS, named, turn
from rules.durak.options import setup
from rules.durak.state import ClassicFields, DurakState
from rules.game import IllegalMove, InvalidState, Move
from tests.support.durak import apply, build, deal, play

IX = DECK.index


def cards(*codes: str) -> list[int]:
    return [IX[c] for c in codes]


def make(hands, attacker=0, trump="H", stock=(), table=(), taking=False, discard=None):
    """A Durak state from codes; cards not placed anywhere go to the discard pile (whole
    bouts, D11: the cards placed must be even in number)."""
    placed = [c for h in hands for c in h] + list(stock)
    placed += [c for a, d in table for c in (a, d) if c]
    if discard is None:
        discard = [c for c in DECK.codes if c not in placed]
    return build(
        trump=trump,
        hands=[cards(*h) for h in hands],
        stock=cards(*stock),
        discard=cards(*discard),
        attacker=attacker,
        table=[(IX[a], IX[d] if d else None) for a, d in table],
        taking=taking,
    )


def attack(seat, card):
    return Move(seat, "attack", card=IX[card])


def defend(seat, card):
    return Move(seat, "defend", card=IX[card])


def reason(state, move):
    r = GAME.verify(state, move)
    return (r.code, r.rule) if r else None


def play_all(state, *moves):
    for m in moves:
        assert GAME.verify(state, m) is None, m
        state, _ = play(state, m)
    return state


def test_D1_deck_is_36_atlasnye_cards_with_cyrillic_courts():
    assert len(DECK) == 36
    assert DECK.codes[:9] == ("6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS")
    assert {c.label for c in DECK.cards if c.rank in "JQKA"} == {"В", "Д", "К", "Т"}
    assert DECK.cards[IX["QD"]].name == "Queen of Diamonds"
    assert {c.suit for c in DECK.cards} == set(SUITS)


def test_D1_every_card_exactly_once_in_a_state():
    with pytest.raises(InvalidState) as e:
        build(trump="H", hands=[cards("6S", "6S"), []], stock=[], discard=[],
                   attacker=0, table=[], taking=False)
    fields = [p.field for p in e.value.problems]
    assert "hands.0.1" in fields and "" in fields  # the duplicate and the 35 missing


def test_D1_a_repeated_card_is_caught_even_where_its_bits_add_up_to_a_missing_one():
    # Three 6S add up to the bits of 6S and 7S (cards 0 and 1), so a sum of bits alone
    # would take this state, 7S missing, for a whole deck: build must still refuse it.
    every = list(DECK.codes)
    hand = ["6S", "6S", "6S", *every[2:6]]
    with pytest.raises(InvalidState) as e:
        build(trump="H", hands=[cards(*hand), cards(*every[6:12])],
                   stock=cards(*every[12:36]), discard=[], attacker=0, table=[],
                   taking=False)
    fields = [p.field for p in e.value.problems]
    assert "hands.0.1" in fields and "" in fields  # the repeat, and 7S missing


def test_D2_stacked_deal_hands_trump_and_stock_order():
    order = list(range(36))
    s = deal(random.Random(), order)
    assert s.hands == (sum(1 << c for c in range(6)), sum(1 << c for c in range(6, 12)))
    assert s.stock == (*range(13, 36), 12)  # card 13 turned up, drawn last
    assert SUITS[s.trump] == DECK.cards[12].suit


def test_D2_seeded_deal_is_reproducible_and_random_deal_differs():
    a = deal(random.Random(7))
    assert a == deal(random.Random(7))
    assert a != deal(random.Random(8))


def test_D2_shuffled_deal_turns_up_every_card_equally_often():
    # The 13th card (D2) over 18,000 seeded deals: a uniform shuffle turns up each of the 36
    # cards ~500 times. Chi-square with 35 degrees of freedom; 90 is p ~ 1e-6, so a fair
    # shuffle fails this about once in a million runs and a fixed or skewed one every time.
    deals = 18_000
    seen = [0] * 36
    rng = random.Random(2026)
    for _ in range(deals):
        seen[deal(rng).stock[-1]] += 1
    expected = deals / 36
    assert sum((n - expected) ** 2 / expected for n in seen) < 90


def test_D2_trump_must_be_the_suit_of_the_turned_up_card():
    with pytest.raises(InvalidState) as e:
        make([["6S", "7S", "8S", "9S", "10S", "JS"], ["6H", "7H", "8H", "9H", "10H", "JH"]],
             trump="D", stock=["QS", "KS", "AS", "QH"])
    assert [p.field for p in e.value.problems] == ["trump"]


def test_D3_trump_stays_after_the_turned_up_card_is_drawn():
    # The stock's last card (the turned-up 6H) is drawn; hearts stay trump.
    s = make([["9S", "10S", "JS", "QS", "KS"], ["6D", "7D", "8D", "9D", "10D", "JD"]],
             stock=["6H"], table=[("7S", "8S")], trump="H")
    after, _ = play(s, Move(0, "pass"))
    assert not after.stock and SUITS[after.trump] == "H"
    # 7H now beats any diamond though no trump card is visible any more.
    s2 = make([["7H"], ["KD", "QD"]], attacker=1, table=[("AD", None)], trump="H")
    assert reason(s2, defend(0, "7H")) is None


def test_D4_same_suit_higher_or_trump_over_non_trump():
    s = make([["6S", "7D", "10D", "6H", "KH"], []], attacker=1, table=[("9D", None)],
             trump="H")
    assert reason(s, defend(0, "10D")) is None
    assert reason(s, defend(0, "6H")) is None  # any trump beats a non-trump
    assert reason(s, defend(0, "7D")) == ("cannot_beat", "D4")
    assert reason(s, defend(0, "6S")) == ("cannot_beat", "D4")


def test_D4_trump_beaten_only_by_higher_trump():
    s = make([["6H", "AS", "AH"], []], attacker=1, table=[("10H", None)], trump="H")
    assert reason(s, defend(0, "AH")) is None
    assert reason(s, defend(0, "6H")) == ("cannot_beat", "D4")
    assert reason(s, defend(0, "AS")) == ("cannot_beat", "D4")


def test_D4_following_suit_is_not_compulsory():
    s = make([["10D", "6H"], ["AS"]], attacker=1, table=[("9D", None)], trump="H")
    legal = {m.card for m in GAME.legal_moves(s) if m.action == "defend"}
    assert legal == {IX["10D"], IX["6H"]}


def test_D4_a_defence_that_does_not_beat_is_an_invalid_state():
    with pytest.raises(InvalidState) as e:
        make([["6S"], ["7S"]], table=[("9D", "8D")], trump="H")
    assert [p.field for p in e.value.problems] == ["table.0.defense"]


FILL0 = ["6C", "7C", "8C", "9C"]
FILL1 = ["10C", "JC", "QC", "KC"]


@pytest.mark.parametrize(("seat0", "seat1", "first"), [
    (["8H", "AS"], ["6H", "KS"], 1),  # lowest trump 6H in seat 1
    (["6H", "AS"], ["7H", "KS"], 0),
    (["AS", "KS"], ["QS", "JS"], 0),  # no trump in either hand: seat 0
    (["AS", "KS"], ["QS", "AH"], 1),  # only seat 1 holds a trump
])
def test_D5_lowest_trump_attacks_first(seat0, seat1, first):
    hands = seat0 + FILL0 + seat1 + FILL1
    rest = [c for c in DECK.codes if c not in hands and c != "9H"]
    order = hands + ["9H"] + rest
    s = deal(random.Random(), [IX[c] for c in order])
    assert SUITS[s.trump] == "H"
    assert s.attacker == first and GAME.to_act(s) == first


def test_D6_bout_starts_with_any_card_and_no_pass_on_empty_table():
    s = make([["6S", "AC"], ["7D", "8D"]])
    assert reason(s, Move(0, "pass")) == ("cannot_pass_empty_table", "D6")
    moves = GAME.legal_moves(s)
    assert {m.action for m in moves} == {"attack"} and len(moves) == 2
    assert reason(s, attack(0, "AC")) is None


def test_D7_defender_beats_or_takes_and_taking_is_always_allowed():
    s = make([["AC"], ["7S", "8D"]], table=[("6S", None)])
    assert GAME.to_act(s) == 1 and s.phase == "defend"
    assert reason(s, Move(1, "take")) is None  # even though 7S beats
    assert reason(s, Move(1, "pass")) == ("wrong_phase", "D7")
    assert reason(s, attack(1, "8D")) == ("wrong_phase", "D7")
    assert {(m.action, m.card) for m in GAME.legal_moves(s)} == {
        ("defend", IX["7S"]), ("take", None)}


def test_D8_adding_needs_a_rank_already_on_the_table():
    s = make([["7D", "9C", "6C"], ["AD", "AC", "KC"]], table=[("6S", "7S")])
    assert GAME.to_act(s) == 0
    assert reason(s, attack(0, "7D")) is None  # matches the defence's rank
    assert reason(s, attack(0, "6C")) is None  # matches the attack's rank
    assert reason(s, attack(0, "9C")) == ("rank_not_on_table", "D8")
    assert reason(s, Move(0, "pass")) is None


def test_D8_never_more_than_one_unbeaten_attack_while_defending():
    s = make([["6D", "6C"], ["AD", "AC", "KC"]], table=[("6S", None)])
    assert reason(s, attack(0, "6D")) == ("not_your_turn", "D8")
    with pytest.raises(InvalidState) as e:
        make([["6C"], ["AD", "AC", "KC"]], table=[("6S", None), ("6D", None)])
    assert "table" in [p.field for p in e.value.problems]


SIX_BEATEN = [("6S", "7S"), ("6D", "7D"), ("6C", "7C"), ("7H", "8H"), ("8S", "9S"),
              ("8D", "9D")]


def test_D9_bout_limit_is_six_attacks():
    s = make([["6H"], ["AD", "AC", "KC"]], table=SIX_BEATEN, trump="H")
    assert reason(s, attack(0, "6H")) == ("bout_limit_reached", "D9")
    assert GAME.legal_moves(s) == [Move(0, "pass")]


def test_D9_no_more_attacks_than_the_defender_held_at_the_bout_start():
    # The defender held 2 cards at the start: one beat, one in hand.
    s = make([["6D", "6C", "AH"], ["AC"]], table=[("6S", "7S")])
    s = play_all(s, attack(0, "6D"))
    s = play_all(s, Move(1, "take"))
    assert reason(s, attack(0, "6C")) == ("bout_limit_reached", "D9")
    with pytest.raises(InvalidState):
        make([["6C"], []], table=[("6S", "7S"), ("6D", None), ("6H", None)], taking=True)


def test_D10_after_take_the_attacker_adds_then_defender_picks_up_all():
    s = make([["6D", "6C", "JH", "AH"], ["AC", "KC", "QC"]], table=[("6S", None)], trump="H")
    s = play_all(s, Move(1, "take"))
    assert s.phase == "attack" and GAME.to_act(s) == 0
    assert reason(s, defend(1, "AC")) == ("not_your_turn", "D10")
    s = play_all(s, attack(0, "6D"), attack(0, "6C"))
    s = play_all(s, Move(0, "pass"))
    assert s.hands[1] == sum(1 << IX[c] for c in ("AC", "KC", "QC", "6S", "6D", "6C"))
    assert s.attacker == 0 and not s.table and not s.taking  # attacks again


def test_D11_beaten_off_cards_go_to_discard_and_defender_attacks_next():
    s = make([["JC", "QC"], ["AC", "KD"]], table=[("6S", "7S")])
    discard_before = s.discard
    s = play_all(s, Move(0, "pass"))
    assert s.discard == discard_before | (1 << IX["6S"]) | (1 << IX["7S"])
    assert s.attacker == 1 and not s.table


def test_D11_a_discard_pile_of_an_odd_count_is_invalid():
    # Beaten-off bouts go to the discard whole, each attack with its defence: an even count.
    with pytest.raises(InvalidState) as e:
        make([["JC", "QC", "KC"], ["AC", "KD"]], table=[("6S", "7S")])
    assert [(p.field, p.code, p.values) for p in e.value.problems] == [
        ("discard", "durak_discard_odd", {"count": 29})]
    assert "(D11)" in e.value.problems[0].message
    make([["JC", "QC"], ["AC", "KD"]], table=[("6S", "7S")])  # 30 discarded: accepted


def test_D12_refill_attacker_first_then_defender_until_stock_empty():
    hand0 = ["9C", "10C", "JC", "QC", "KC"]
    hand1 = ["6D", "7D", "8D", "9D", "10D"]
    s = make([hand0, hand1], table=[("6S", "7S")], stock=["8H", "AS"], trump="S")
    after, events = play(s, Move(0, "pass"))
    # The attacker (seat 0) needs one and takes 8H; the defender then gets the last card.
    assert after.hands[0] >> IX["8H"] & 1 and after.hands[1] >> IX["AS"] & 1
    assert not after.stock
    assert [e for e in events if e["type"] == "cards_drawn"] == [
        {"type": "cards_drawn", "seat": 0, "count": 1},
        {"type": "cards_drawn", "seat": 1, "count": 1}]


def test_D12_refill_order_follows_the_attacker_whichever_seat_it_is():
    hand0 = ["6D", "7D", "8D", "9D", "10D"]
    hand1 = ["9C", "10C", "JC", "QC", "KC"]
    s = make([hand0, hand1], attacker=1, table=[("6S", "7S")], stock=["8H", "AS"], trump="S")
    after = apply(s, Move(1, "pass"))
    assert after.hands[1] >> IX["8H"] & 1 and after.hands[0] >> IX["AS"] & 1
    # After a take the taker holds more than six and draws nothing; the attacker draws.
    taker = [*hand0, "JD", "QD"]
    s = make([taker, hand1], attacker=1, table=[("6S", None)], stock=["8H", "AS", "KH"],
             trump="H", taking=True)
    after = apply(s, Move(1, "pass"))
    assert after.hands[0] == sum(1 << c for c in cards(*taker, "6S"))
    assert after.hands[1] == sum(1 << c for c in cards(*hand1, "8H"))
    assert after.attacker == 1 and after.stock == (IX["AS"], IX["KH"])


def test_D13_forced_pass_when_nothing_can_be_added():
    s = make([["AC", "AH"], ["KD", "QD"]], table=[("6S", "7S")])
    assert GAME.legal_moves(s) == [Move(0, "pass")]
    s = make([[], ["KD", "QD"]], table=[("6S", "7S")])  # empty hand
    assert GAME.legal_moves(s) == [Move(0, "pass")]


def test_D14_game_ends_only_after_a_complete_bout_with_stock_empty():
    # Seat 0 plays its last card; the deal goes on until the bout ends.
    s = make([["6S"], ["7S", "KD", "QD"]])
    s = play_all(s, attack(0, "6S"))
    assert s.phase == "defend" and GAME.settlement(s) is None
    s = play_all(s, defend(1, "7S"), Move(0, "pass"))
    assert s.phase == "over" and GAME.settlement(s)["durak"] == 1


def test_D14_both_hands_empty_is_a_draw():
    s = make([["6S"], ["7S"]])
    s = play_all(s, attack(0, "6S"), defend(1, "7S"), Move(0, "pass"))
    assert GAME.settlement(s) == {"outcome": "draw", "durak": None, "out": [[0, 1]], "players": 2,
                                  "scores": [0, 0]}
    assert reason(s, attack(1, "7S")) == ("deal_over", "D14")


def test_D14_an_empty_hand_with_stock_left_does_not_end_the_deal():
    # 10D in the discard, 6H in the stock: a trump beat the Club left over (D11).
    stock = ["JS", "QS", "KS", "AS", "10S", "6H", "JD", "QD", "KD"]
    s = make([[], ["AD", "AC", "KC"]], table=SIX_BEATEN, stock=stock, trump="D")
    s = play_all(s, Move(0, "pass"))
    assert s.phase == "attack" and GAME.settlement(s) is None
    assert s.hands[0].bit_count() == 6 and s.hands[1].bit_count() == 6


def test_D15_settlement_winner_plus_one_durak_minus_one():
    s = make([["6S"], ["7S", "KD", "QD"]])
    s = play_all(s, attack(0, "6S"), defend(1, "7S"), Move(0, "pass"))
    assert GAME.settlement(s) == {"outcome": "durak", "durak": 1, "out": [[0]], "players": 2,
                                  "scores": [1, -1]}


def test_D6_D7_D14_stored_phase_and_seat_to_act_follow_the_facts():
    # Each move sets the phase and the seat to act it decides; they must be those the facts
    # give (`turn`, what `build` stores), and the deal is over exactly when no move is left.
    rng = random.Random(14)
    ends = 0
    for _ in range(30):
        s = deal(rng)
        while True:
            assert (s.phase, s.to_act) == turn(s.hands, s.stock, s.attacker, s.table, s.taking)
            assert GAME.derived(s) == (s.phase, s.to_act, GAME.settlement(s))
            moves = GAME.legal_moves(s)
            assert (s.phase == "over") == (not moves) == (GAME.settlement(s) is not None)
            if not moves:
                ends += 1
                break
            s = apply(s, rng.choice(moves))
    assert ends == 30


@pytest.mark.parametrize("card", [-1, -2, -36, -37, -72, 36, 51, 71, 10**6, "AC", None, 1.5])
def test_D1_the_default_deal_plays_no_card_outside_the_hand_whatever_its_index(card):
    # `apply` unverified, as a search calls it: an index that is no card of the hand is
    # refused, never read as another card (-1 would be AC's place in a tuple of bits).
    s = make([["AC", "6S"], ["7S", "8S"]])
    with pytest.raises(IllegalMove):
        GAME.apply(tuple(s), Move(0, "attack", card=card))
    after = apply(tuple(s), attack(0, "AC"))
    assert after.hands[0] == s.hands[0] & ~(1 << IX["AC"]) and after.table == ((IX["AC"], -1),)


def test_D1_D15_the_default_deals_fast_path_plays_as_the_general_rules():
    # The default deal (two players, 36 cards, no option) is played by its own code
    # (`Durak.legal_moves`' and `apply`'s plain-tuple path, rules/durak/state.py); any
    # other deal by rules/durak/bout.py. The same cards dealt with `history` (a deal the
    # general rules play) take the same moves to the same states, events and settlement.
    fields = ClassicFields._fields
    moves = 0
    for seed in range(200):
        order = GAME.shuffle(random.Random(seed))
        fast = GAME.deal_from(list(order))
        general = GAME.deal_from(list(order), setup(history=True))
        assert type(fast) is tuple and type(general) is DurakState
        rng = random.Random(seed)
        while listed := GAME.legal_moves(fast):
            assert GAME.legal_moves(general) == listed
            move = rng.choice(listed)
            (fast, said), (general, told) = (GAME.transition(fast, move),
                                              GAME.transition(general, move))
            assert said == told
            assert [getattr(named(fast), f) for f in fields] == \
                [getattr(general, f) for f in fields]
            moves += 1
        assert GAME.legal_moves(general) == []
        assert GAME.settlement(fast) == GAME.settlement(general)
    assert moves > 20_000
