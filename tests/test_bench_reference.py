"""The outside reference players of bench/reference.py: they play only legal moves,
Tarot's `club` bids by the published barème it names (its worked examples give the same
points), and Ganjifa's `highest` and `standard` play as their descriptions say. Nothing
here is timed; their figures are bench/README.md's."""

from __future__ import annotations

import random

import pytest

from bench import ai, reference
from bench.reference_tarot import chavey, club_bid
from rules.ai.ganjifa import basic_move
from rules.cards import bit_list, mask_of
from rules.game import Move
from rules.ganjifa import BEATERS, STRENGTH, SUIT_OF
from rules.tarot import DECK


def hand(codes: str) -> int:
    return mask_of(DECK.index[c] for c in codes.split())


# Chavey's barème as the Tarot clubs reprint it, with the points of its worked examples.
GARDE_HAND = "T21 T19 T12 T6 T1 EX KH CH 10H 8H 1H JD 8D QC CC 7C 6S 4S"  # 41 + 14 + 5
PASS_HAND = "T20 T18 T14 T13 T9 T8 T6 KH 10H 5H 4H KD QD 7C 8C 8S 7S 5S"  # 18 + 6 + 10


def test_club_bids_by_chaveys_worked_examples():
    assert chavey(hand(GARDE_HAND)) == 60 and club_bid(hand(GARDE_HAND), ()) == "garde"
    assert chavey(hand(PASS_HAND)) == 34 and club_bid(hand(PASS_HAND), ()) == "pass"
    # A higher bid already made leaves the garde hand nothing to say (T4).
    assert club_bid(hand(GARDE_HAND), ("garde",)) == "pass"


def test_chavey_counts_a_run_of_major_trumps():
    # The third example's trumps: 10 + 8 + 8 x 2 + 4 x 2 + 3 (21, 20 and 19 in a run).
    trumps = hand("T21 T20 T19 T16 T14 T12 T8 EX")
    assert chavey(trumps) == 45


@pytest.mark.parametrize(("game_id", "level"), [
    ("tarot3", "club"), ("tarot", "club"), ("tarot5", "club"), ("durak", "greedy"),
    ("ganjifa", "highest"), ("ganjifa", "standard")])
def test_reference_players_play_only_legal_moves(game_id, level):
    game = ai.GAMES[ai.registry_id(game_id)].game
    player = reference.PLAYERS[ai.registry_id(game_id), level]
    takers = 0
    for seed in range(25):
        state = ai.seeded_deal(game_id, seed)
        while (seat := game.to_act(state)) is not None:
            move = player(game, game.observe(state, seat), random.Random(seed))
            assert game.verify(state, move) is None, (seed, move)
            state = game.apply(state, move)
        assert game.settlement(state) is not None
        takers += getattr(state, "taker", None) is not None
    assert not game_id.startswith("tarot") or takers > 0  # the barème takes some deals


def hopeless(trick, beaters, singles: list[int]) -> bool:
    """No valid card takes the trick under way (G2, G7)."""
    best = trick[0] if trick else None
    for c in trick[1:]:
        best = c if beaters[best] >> c & 1 else best
    return best is not None and not any(beaters[best] >> c & 1 for c in singles)


@pytest.mark.parametrize("level", ["highest", "standard"])
def test_ganjifas_outside_players_play_as_described(level):
    """Ganjifa's `highest` and `standard`, two seats of one beside a basic seat that leads
    Dukals: every card played to a trick is the highest valid one (G2, trumps above all,
    G7), except `standard`'s lowest when no valid card takes the trick; every Dukal
    answer the lowest cards (G8)."""
    game = ai.GAMES["ganjifa"].game
    player = reference.PLAYERS["ganjifa", level]
    answers = lowest = 0
    for seed in range(20):
        state = ai.seeded_deal("ganjifa", seed)
        trump = state.trump  # G3: fixed for the deal
        beaters = BEATERS[trump]

        def height(c: int) -> tuple[bool, int]:
            return (SUIT_OF[c] == trump, STRENGTH[c])  # noqa: B023

        while (seat := game.to_act(state)) is not None:
            if seat == seed % 3:
                state = game.apply(state, basic_move(state, seat, None))
                continue
            own = [m for m in game.legal_moves(state) if m.seat == seat]
            move = player(game, game.observe(state, seat), random.Random(seed))
            if move.action == "discard":
                answers += 1
                kept = bit_list(state.hands[seat] & ~mask_of(move.cards))
                assert max(map(height, move.cards)) <= min(map(height, kept), default=(2, 0))
                state = game.apply(state, move)
                continue
            assert move.card is not None
            singles = [m.card for m in own if isinstance(m, Move) and m.card is not None]
            if level == "standard" and hopeless(state.trick, beaters, singles):
                lowest += 1
                assert height(move.card) == min(map(height, singles)), (seed, move)
            else:
                assert height(move.card) == max(map(height, singles)), (seed, move)
            state = game.apply(state, move)
    assert answers  # the deals met a Dukal
    assert level == "highest" or lowest  # and tricks `standard` could not take
