"""French Tarot, rule by rule (RULES.md T1–T10): each test fails if its rule were broken.
Scoring (T11–T17) is in test_tarot_scoring.py, the wire in test_tarot_api.py."""

from __future__ import annotations

import random

import pytest

from rules.game import Move, Template
from rules.tarot import DECK, GAME, trick_winner
from tests.support.tarot_deals import (
    IX,
    bid,
    cards,
    chelem,
    deal,
    discard,
    lowest_legal,
    play,
    play_move,
    reason,
    stacked,
    step,
    suit,
    trumps,
)

# Every seat void in three suits: seat s holds one whole suit and four trumps.
VOID = [suit("S") + " T2 T3 T4 T5", suit("H") + " T6 T7 T8 T10",
        suit("D") + " T9 T11 T12 T13", suit("C") + " T14 T15 T16 T17"]
VOID_CHIEN = "T1 T18 T19 T20 T21 EX"


def at_play(hands=VOID, chien=VOID_CHIEN, contracts=("garde_sans", "pass", "pass", "pass"),
            announce=False, dealer=3):
    """A deal played through bidding and the chelem decision: garde sans, no discard (T6)."""
    return chelem(bid(deal(hands, chien, dealer), *contracts), announce)


def played_cards(moves) -> set[str]:
    return {DECK.codes[m.card] for m in moves if m.action == "play"}


# -- T1 deck ----------------------------------------------------------------------------

def test_T1_deck_is_78_cards_worth_91_points():
    assert len(DECK) == 78
    assert DECK.codes[:14] == tuple(suit("S").split())
    assert DECK.codes[-22:] == (*trumps(1, 21).split(), "EX")
    assert sum(c.points for c in DECK.cards) == 91  # T13
    names = {c.code: c.name for c in DECK.cards}
    assert names["CS"] == "Knight of Spades" and names["T21"] == "Trump 21"
    assert names["EX"] == "The Excuse"
    labels = {c.code: c.label for c in DECK.cards}
    assert (labels["CS"], labels["T21"], labels["KH"]) == ("C", "21", "R")


def test_T13_card_points_by_rank():
    points = {c.code: c.points for c in DECK.cards}
    assert [points[c] for c in ("T1", "T21", "EX", "KD", "QD", "CD", "JD", "10D", "T12")] == [
        4.5, 4.5, 4.5, 4.5, 3.5, 2.5, 1.5, 0.5, 0.5]


# -- T2 deal ----------------------------------------------------------------------------

def test_T2_stacked_deal_gives_18_cards_each_then_the_chien():
    order = list(range(78))[::-1]  # T21 first: no hand can hold a petit sec
    s = GAME.deal(random.Random(), order)
    for seat in range(4):
        assert s.hands[seat] == sum(1 << c for c in order[18 * seat:18 * seat + 18])
    assert s.chien == sum(1 << c for c in order[72:])
    assert (s.phase, s.to_act, s.dealer) == ("bidding", 0, 3)


@pytest.mark.parametrize(("dealer", "first"), [(3, 0), (0, 1), (1, 2), (2, 3)])
def test_T2_action_starts_at_the_dealers_right(dealer, first):
    s = deal(VOID, VOID_CHIEN, dealer)
    assert s.to_act == first
    assert [m.seat for m in GAME.legal_moves(s)] == [first] * 5


# -- T3 annulled deals -------------------------------------------------------------------

def test_T3_petit_sec_is_found_at_the_deal_and_annuls_it():
    hands = [suit("S") + " T2 T3 T4 T5", suit("H") + " 1D 2D 3D T1",  # seat 1: T1 alone
             suit("D", "4") + " T6 T7 T8 T9 T10 T11 T12", suit("C") + " T13 T14 T15 T16"]
    s = deal(hands, "T17 T18 T19 T20 T21 EX", annulled=True)
    assert (s.phase, s.to_act) == ("over", None)
    assert GAME.legal_moves(s) == []
    assert GAME.settlement(s) == {"players": 4, "annulled": "petit_sec", "scores": [0, 0, 0, 0]}
    assert reason(s, Move(0, "bid", contract="pass")) == ("deal_over", "T3")


def test_T3_the_petit_with_the_excuse_is_not_sec():
    hands = [suit("S") + " T2 T3 T4 T5", suit("H") + " 1D 2D T1 EX",  # seat 1: T1 and EX
             suit("D", "3") + " " + trumps(6, 11), suit("C") + " " + trumps(12, 15)]
    s = deal(hands, trumps(16, 21))
    assert s.phase == "bidding"
    assert GAME.settlement(s) is None


def test_T3_four_passes_annul_the_deal_with_a_settlement():
    s = bid(deal(VOID, VOID_CHIEN), "pass", "pass", "pass")
    last = Move(3, "bid", contract="pass")
    after, events = GAME.play(s, last)
    assert (after.phase, after.to_act, after.taker) == ("over", None, None)
    settlement = {"players": 4, "annulled": "all_pass", "scores": [0, 0, 0, 0]}
    assert GAME.settlement(after) == settlement
    assert events[-1] == {"type": "deal_over", "settlement": settlement}
    assert reason(after, Move(0, "bid", contract="prise")) == ("deal_over", "T3")


# -- T4 bidding --------------------------------------------------------------------------

def test_T4_each_bid_must_rise_above_the_highest():
    s = bid(deal(VOID, VOID_CHIEN), "pass", "garde")
    assert reason(s, Move(2, "bid", contract="prise")) == ("bid_too_low", "T4")
    assert reason(s, Move(2, "bid", contract="garde")) == ("bid_too_low", "T4")
    assert reason(s, Move(2, "bid", contract="garde_sans")) is None
    assert reason(s, Move(2, "bid", contract="pass")) is None
    assert [m.contract for m in GAME.legal_moves(s)] == ["pass", "garde_sans", "garde_contre"]


def test_T4_each_seat_bids_once_in_turn():
    s = bid(deal(VOID, VOID_CHIEN), "prise")
    assert reason(s, Move(0, "bid", contract="garde")) == ("already_bid", "T4")
    assert reason(s, Move(2, "bid", contract="garde")) == ("not_your_turn", "T4")
    s = bid(s, "pass", "pass", "pass")
    assert s.phase == "discard"  # four bids end the bidding, even after a lone prise


def test_T4_the_highest_bidder_takes_and_speaking_order_follows_the_dealer():
    s = bid(deal(VOID, VOID_CHIEN, dealer=1), "prise", "pass", "garde", "pass")
    # dealer 1: seats 2, 3, 0, 1 speak; seat 0 bid the garde.
    assert (s.taker, s.contract, s.bids) == (0, "garde", ("prise", "pass", "garde", "pass"))


# -- T5 chien and écart ------------------------------------------------------------------

def test_T5_the_chien_is_shown_and_taken_in_a_prise():
    s = bid(deal(VOID, VOID_CHIEN), "pass", "prise", "pass")
    after, events = GAME.play(s, Move(3, "bid", contract="pass"))
    chien = sum(1 << c for c in cards(VOID_CHIEN))
    assert (after.phase, after.to_act, after.taker) == ("discard", 1, 1)
    assert after.chien == 0 and after.chien_shown == chien
    assert after.hands[1] & chien == chien and after.hands[1].bit_count() == 24
    assert {"type": "chien_shown", "seat": 1, "cards": cards(VOID_CHIEN)} in events


def test_T5_never_a_king_or_a_bout_in_the_ecart():
    s = bid(deal(VOID, VOID_CHIEN), "garde", "pass", "pass", "pass")
    for bad in ("KS", "T1", "T21", "EX"):
        move = Move(0, "discard", cards=tuple(cards(f"1S 2S 3S 4S 5S {bad}")))
        assert reason(s, move) == ("discard_forbidden_card", "T5"), bad
    assert reason(s, Move(0, "discard", cards=tuple(cards("1S 2S 3S 4S 5S QS")))) is None


def test_T5_trumps_only_when_ordinary_cards_fall_short():
    s = bid(deal(VOID, VOID_CHIEN), "garde", "pass", "pass", "pass")
    # 13 ordinary spades: no trump may go.
    move = Move(0, "discard", cards=tuple(cards("1S 2S 3S 4S 5S T2")))
    assert reason(s, move) == ("discard_trump_not_needed", "T5")
    template = GAME.legal_moves(s)
    assert template == [Template(0, "discard", 6, (), tuple(cards(suit("S", "1", "Q"))))]


FOUR_KINGS = ["KS KH KD KC " + trumps(2, 15), "", "", ""]  # the T8 example's taker
FOUR_KINGS_CHIEN = "1S 2S 3S 4S 5S T16"


def test_T5_a_shortfall_takes_every_ordinary_card_and_exactly_that_many_trumps():
    s = bid(deal(FOUR_KINGS, FOUR_KINGS_CHIEN), "garde", "pass", "pass", "pass")
    # 24 cards: 4 Kings, 15 trumps, 5 ordinary: one trump fills the shortfall.
    [template] = GAME.legal_moves(s)
    assert template.must_include == tuple(cards("1S 2S 3S 4S 5S"))
    assert template.choose_from == tuple(cards(trumps(2, 16)))  # never the bouts
    assert reason(s, Move(0, "discard", cards=tuple(cards("1S 2S 3S 4S 5S T9")))) is None
    assert reason(s, Move(0, "discard", cards=tuple(cards("1S 2S 3S 4S T8 T9")))) == (
        "discard_trump_not_needed", "T5")


def test_T5_the_ecart_is_exactly_six_of_the_takers_cards():
    s = bid(deal(VOID, VOID_CHIEN), "garde", "pass", "pass", "pass")
    assert reason(s, Move(0, "discard", cards=tuple(cards("1S 2S 3S 4S 5S")))) == (
        "discard_wrong_count", "T5")
    assert reason(s, Move(0, "discard", cards=tuple(cards("1S 2S 3S 4S 5S 6S 7S")))) == (
        "discard_wrong_count", "T5")
    assert reason(s, Move(0, "discard", cards=tuple(cards("1S 1S 3S 4S 5S 6S")))) == (
        "repeated_card", "T5")
    assert reason(s, Move(0, "discard", cards=tuple(cards("1S 2S 3S 4S 5S 1H")))) == (
        "card_not_in_hand", "T5")
    assert reason(s, Move(1, "discard", cards=tuple(cards("1H 2H 3H 4H 5H 6H")))) == (
        "not_taker", "T5")


def test_T5_discarded_trumps_are_shown_and_the_hand_is_back_to_18():
    s = bid(deal(FOUR_KINGS, FOUR_KINGS_CHIEN), "garde", "pass", "pass", "pass")
    after, events = GAME.play(s, Move(0, "discard", cards=tuple(cards("1S 2S 3S 4S 5S T9"))))
    assert after.phase == "chelem" and after.hands[0].bit_count() == 18
    assert after.ecart == sum(1 << c for c in cards("1S 2S 3S 4S 5S T9"))
    assert {"type": "trumps_shown", "seat": 0, "cards": [IX["T9"]]} in events


# -- T6 garde sans / garde contre, T7 chelem ------------------------------------------------

@pytest.mark.parametrize("contract", ["garde_sans", "garde_contre"])
def test_T6_garde_sans_and_contre_skip_the_discard_and_hide_the_chien(contract):
    s = bid(deal(VOID, VOID_CHIEN), "pass", contract, "pass", "pass")
    chien = sum(1 << c for c in cards(VOID_CHIEN))
    assert (s.phase, s.to_act, s.taker) == ("chelem", 1, 1)
    assert s.chien == chien and s.chien_shown == 0 and s.hands[1].bit_count() == 18
    assert reason(s, Move(1, "discard", cards=tuple(cards("1H 2H 3H 4H 5H 6H")))) == (
        "wrong_phase", "T7")


def test_T7_only_the_taker_decides_the_chelem_after_the_discard():
    s = bid(deal(VOID, VOID_CHIEN), "pass", "pass", "garde", "pass")
    assert reason(s, Move(2, "chelem", announce=True)) == ("wrong_phase", "T5")
    s = discard(s, "1D 2D 3D 4D 5D 6D")
    assert reason(s, Move(0, "chelem", announce=True)) == ("not_taker", "T7")
    assert GAME.legal_moves(s) == [Move(2, "chelem", announce=False),
                                   Move(2, "chelem", announce=True)]
    assert reason(s, play_move(s, "7D")) == ("wrong_phase", "T7")


@pytest.mark.parametrize(("announce", "leader"), [(False, 0), (True, 2)])
def test_T7_the_announcer_leads_else_the_dealers_right(announce, leader):
    s = bid(deal(VOID, VOID_CHIEN), "pass", "pass", "garde_sans", "pass")
    s = chelem(s, announce)
    assert (s.phase, s.to_act, s.chelem) == ("play", leader, announce)


# -- T8 poignée ----------------------------------------------------------------------------

def poignees_listed(state):
    return [m.cards for m in GAME.legal_moves(state) if m.action == "poignee"]


def test_T8_one_canonical_poignee_per_level_lowest_trumps_ascending():
    s = at_play([trumps(2, 15) + " 1S 2S 3S KS", "", "", ""], "T1 T16 T17 T18 T19 T20")
    assert s.to_act == 0
    assert poignees_listed(s) == [tuple(cards(trumps(2, 11))), tuple(cards(trumps(2, 14)))]


def test_T8_the_excuse_stands_in_only_when_every_trump_is_shown():
    # nine trumps and the Excuse: a simple poignée with the Excuse last.
    s = at_play([trumps(2, 10) + " EX 1S 2S 3S 4S 5S 6S 7S 8S", "", "", ""],
                "T1 T16 T17 T18 T19 T20")
    assert poignees_listed(s) == [(*cards(trumps(2, 10)), IX["EX"])]
    # ten trumps and the Excuse: the Excuse may not replace the tenth trump.
    s = at_play([trumps(2, 11) + " EX 1S 2S 3S 4S 5S 6S 7S", "", "", ""],
                "T1 T16 T17 T18 T19 T20")
    assert poignees_listed(s) == [tuple(cards(trumps(2, 11)))]
    move = Move(0, "poignee", cards=(*cards(trumps(2, 10)), IX["EX"]))
    assert reason(s, move) == ("invalid_poignee", "T8")
    # twelve trumps and the Excuse: a double with the Excuse, and a simple without.
    s = at_play([trumps(2, 13) + " EX 1S 2S 3S 4S 5S", "", "", ""], "T1 T16 T17 T18 T19 T20")
    assert poignees_listed(s) == [tuple(cards(trumps(2, 11))),
                                  (*cards(trumps(2, 13)), IX["EX"])]


def test_T8_any_valid_subset_is_accepted_and_invalid_ones_refused():
    s = at_play([trumps(2, 15) + " 1S 2S 3S KS", "", "", ""], "T1 T16 T17 T18 T19 T20")
    assert reason(s, Move(0, "poignee", cards=tuple(cards(trumps(6, 15))))) is None
    assert reason(s, Move(0, "poignee", cards=tuple(cards(trumps(2, 12))))) == (
        "invalid_poignee", "T8")  # 11 trumps is no level
    assert reason(s, Move(0, "poignee", cards=tuple(cards(trumps(2, 10) + " 1S")))) == (
        "invalid_poignee", "T8")
    assert reason(s, Move(0, "poignee", cards=tuple(cards(trumps(7, 16))))) == (
        "invalid_poignee", "T8")  # T16 lies in the chien
    assert reason(s, Move(0, "poignee", cards=tuple(cards(trumps(2, 10) + " T2")))) == (
        "repeated_card", "T8")


def test_T8_the_takers_forced_discarded_trump_counts_in_a_triple():
    s = bid(deal(FOUR_KINGS, FOUR_KINGS_CHIEN), "garde", "pass", "pass", "pass")
    s = chelem(discard(s, "1S 2S 3S 4S 5S T2"), False)
    assert (s.hands[0] & sum(1 << c for c in cards(trumps(2, 16)))).bit_count() == 14
    triple = tuple(cards(trumps(2, 16)))
    assert triple in poignees_listed(s)
    assert reason(s, Move(0, "poignee", cards=triple)) is None


def test_T8_only_before_the_players_first_card_and_only_once():
    s = at_play([trumps(2, 11) + " 1S 2S 3S 1H 2H 3H 4H 5H",
                 trumps(12, 21) + " EX 4S 5S 6S 6H 7H 8H 9H", "", ""], "T1 QC KC QD KD KH")
    simple = tuple(cards(trumps(2, 11)))
    after, events = GAME.play(s, Move(0, "poignee", cards=simple))
    assert after.to_act == 0 and after.poignees == ((0, sum(1 << c for c in simple)),)
    assert events == [{"type": "poignee", "seat": 0, "level": "simple", "cards": list(simple)}]
    assert reason(after, Move(0, "poignee", cards=simple)) == ("poignee_already_declared", "T8")
    assert poignees_listed(after) == []
    after = play(after, "1S")
    # Seat 1 is about to play its first card: its poignée is offered now...
    mine = tuple(cards(trumps(12, 21)))
    assert after.to_act == 1 and poignees_listed(after) == [mine]
    after = play(after, "4S")
    while after.to_act != 1:
        after = step(after, lowest_legal(after))
    # ...and no more once it has played a card.
    assert len(after.tricks) == 1
    assert reason(after, Move(1, "poignee", cards=mine)) == ("poignee_too_late", "T8")
    assert poignees_listed(after) == []


# -- T9 following --------------------------------------------------------------------------

def test_T9_must_follow_the_led_suit():
    s = play(at_play([suit("S", "1", "9") + " T2 T3 T4 T5 1H 2H 3H 4H 5H",
                      suit("S", "10") + " " + suit("H", "7") + " T6 T7 T8 T9 T10", "", ""],
                     "T1 T16 T17 T18 T19 T20"), "5S")
    assert reason(s, play_move(s, "7H")) == ("must_follow_suit", "T9")
    assert reason(s, play_move(s, "T6")) == ("must_follow_suit", "T9")
    assert played_cards(GAME.legal_moves(s)) == set(suit("S", "10").split())


def test_T9_void_in_the_suit_must_trump():
    s = play(at_play(), "5S")
    assert reason(s, play_move(s, "5H")) == ("must_trump", "T9")
    assert played_cards(GAME.legal_moves(s)) == {"T6", "T7", "T8", "T10"}


def test_T9_must_overtrump_even_over_a_partner():
    s = play(at_play(), "5S", "T10")  # seats 1 and 2 defend together against seat 0
    assert reason(s, play_move(s, "T9")) == ("must_overtrump", "T9")
    assert reason(s, play_move(s, "5D")) == ("must_trump", "T9")
    assert played_cards(GAME.legal_moves(s)) == {"T11", "T12", "T13"}


def test_T9_undertrump_only_when_unable_to_overtrump():
    hands = [suit("S") + " T2 T3 T4 T21", VOID[1], VOID[2], VOID[3]]
    s = play(at_play(hands, "T1 T5 T18 T19 T20 EX"), "T21")
    assert played_cards(GAME.legal_moves(s)) == {"T6", "T7", "T8", "T10"}  # any trump
    assert reason(s, play_move(s, "T6")) is None
    assert reason(s, play_move(s, "5H")) == ("must_follow_suit", "T9")  # trumps led


def test_T9_a_trump_led_is_followed_by_a_higher_trump_when_held():
    s = play(at_play(), "T2")
    assert played_cards(GAME.legal_moves(s)) == {"T6", "T7", "T8", "T10"}
    s = play(s, "T6")
    assert reason(s, play_move(s, "T9")) is None  # seat 2: T9 beats T6
    assert played_cards(GAME.legal_moves(s)) == {"T9", "T11", "T12", "T13"}


def test_T9_with_neither_suit_nor_trump_any_card():
    hands = [VOID[0], suit("H", "5") + " T6 T7 T8 T10 T14 T15 T16 T17", VOID[2],
             suit("C") + " 1H 2H 3H 4H"]
    s = play(at_play(hands), "5S", "T6", "T11")
    assert played_cards(GAME.legal_moves(s)) == set(DECK.codes[c] for c in cards(hands[3]))


def test_T9_the_excuse_may_always_be_played():
    hands = [VOID[0], VOID[1], suit("D") + " T9 T11 T12 EX", VOID[3]]
    s = play(at_play(hands, "T1 T13 T18 T19 T20 T21"), "5S", "T10")
    assert "EX" in played_cards(GAME.legal_moves(s))
    assert reason(s, play_move(s, "EX")) is None


def test_T9_the_excuse_led_lets_the_next_card_set_the_suit():
    hands = [suit("S") + " T2 T3 T4 EX", VOID[1], VOID[2], VOID[3]]
    s = play(at_play(hands, "T1 T5 T18 T19 T20 T21"), "EX")
    assert len(GAME.legal_moves(s)) == 18  # the second player is free
    s = play(s, "5H")
    assert reason(s, play_move(s, "5D")) == ("must_trump", "T9")  # hearts now lead
    s = play(s, "T11")
    assert played_cards(GAME.legal_moves(s)) == {"T14", "T15", "T16", "T17"}


def test_T9_only_the_seat_to_act_plays_a_card_it_holds():
    s = at_play()
    assert reason(s, Move(1, "play", card=IX["5H"])) == ("not_your_turn", "T7")
    assert reason(s, play_move(s, "5H")) == ("card_not_in_hand", "T9")
    assert reason(s, Move(0, "bid", contract="garde")) == ("wrong_phase", "T9")


# -- T10 winning a trick -------------------------------------------------------------------

@pytest.mark.parametrize(("trick", "winner"), [
    ("5S T6 T11 T14", 3),  # the highest trump
    ("JS KS QH CS", 1),  # no trump: the highest of the led suit, whatever else is higher
    ("JS CS QS 10S", 2),  # Q > C > J > 10
    ("EX 2S 1S 3H", 1),  # the Excuse never wins; 2S set the suit
    ("KD T1 QD EX", 1),  # the Petit trumps a King
])
def test_T10_the_highest_trump_else_the_highest_of_the_led_suit(trick, winner):
    assert trick_winner(tuple(cards(trick)), 0, 0, ()) == winner


def test_T10_the_winner_takes_the_trick_and_leads_the_next():
    s = play(at_play(), "5S", "T6", "T11")
    after, events = GAME.play(s, play_move(s, "T14"))
    assert after.tricks == ((0, tuple(cards("5S T6 T11 T14")), 3),)
    assert (after.to_act, after.leader, after.trick) == (3, 3, ())
    assert events[-1] == {"type": "trick_won", "seat": 3, "cards": cards("5S T6 T11 T14")}


def test_T2_stacked_helper_keeps_named_cards_in_place():
    order = stacked(VOID, VOID_CHIEN)
    assert order[:18] == cards(VOID[0]) and order[72:] == cards(VOID_CHIEN)


def test_T2_the_deal_is_over_after_18_tricks():
    s = at_play()
    while s.phase == "play":
        s = step(s, next(m for m in GAME.legal_moves(s) if m.action == "play"))
    assert len(s.tricks) == 18 and s.to_act is None and not any(s.hands)
    assert reason(s, Move(0, "play", card=0)) == ("deal_over", "T9")
