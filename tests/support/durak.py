"""What the generic invariant test needs to know of Durak."""

from __future__ import annotations

import random

from rules.durak import DECK, GAME, DurakState, turn
from rules.game import Move
from tests.support.game import GameTests

CARDS = range(len(DECK))
EVERY_MOVE = [Move(s, a) for s in (0, 1) for a in ("take", "pass")] + [
    Move(s, a, card=c) for s in (0, 1) for a in ("attack", "defend") for c in CARDS
]


def candidate_moves(state: DurakState, rng: random.Random) -> list[Move]:
    """Every move of every seat: `verify` must accept exactly those `legal_moves` lists."""
    return EVERY_MOVE


def check_state(state: DurakState) -> None:
    """D1: the 36 cards exactly once across hands, stock, table and discard; the phase and
    seat to act that the moves keep (D6, D7, D14) are those the facts give."""
    _, hands, stock, discard, attacker, table, taking, phase, to_act = state
    assert (phase, to_act) == turn(hands, stock, attacker, table, taking)
    seen = hands[0] | hands[1] | discard
    count = hands[0].bit_count() + hands[1].bit_count() + discard.bit_count()
    for c in stock:
        seen |= 1 << c
    count += len(stock)
    for a, d in table:
        seen |= 1 << a
        count += 1
        if d >= 0:
            seen |= 1 << d
            count += 1
    assert seen == DECK.full and count == 36


def check_final(state: DurakState, settlement: dict) -> None:
    """D14, D15: a durak loses 1 to the winner's +1; a draw is 0 and 0."""
    hands, stock, table = state.hands, state.stock, state.table
    assert not stock and not table
    empty = [s for s in (0, 1) if not hands[s]]
    if len(empty) == 2:
        assert settlement == {"outcome": "draw", "durak": None, "scores": [0, 0]}
    else:
        durak = 1 - empty[0]
        assert settlement["outcome"] == "durak" and settlement["durak"] == durak
        assert settlement["scores"][durak] == -1 and sum(settlement["scores"]) == 0
    assert GAME.legal_moves(state) == []


TESTS = GameTests(GAME, check_state, check_final, candidate_moves, deals=2000, http_deals=100,
                  deal_options=({},), over_rule="D14", record_seed=3)
