"""What the generic invariant test needs to know of Durak, for every count, deck and
option (D16)."""

from __future__ import annotations

import random

from rules.durak import ALL, CLASSIC, GAME, State, gone, named, round_of, turn
from rules.durak import bout as general
from rules.durak.state import Named
from rules.game import Move
from tests.support.game import GameTests

EVERY_MOVE = {
    players: [Move(s, a) for s in range(players) for a in ("take", "pass")] + [
        Move(s, a, card=c) for s in range(players) for a in ("attack", "defend", "transfer")
        for c in range(len(ALL))]
    for players in range(2, 7)
}


def candidate_moves(state: State, rng: random.Random) -> list[Move]:
    """Every move of every seat: `verify` must accept exactly those `legal_moves` lists."""
    return EVERY_MOVE[len(state[1])]


def check_state(state: State) -> None:
    """D1, D16: the deck's cards exactly once across hands, stock, table and discard; the
    phase and seat to act that the moves keep (D6, D7, D14, D20) are those the facts give;
    the fast path of the default deal lists the moves the general functions do, on the
    plain tuple the rules keep its state as."""
    kept, state = state, named(state)
    hands, stock, discard, attacker, table, taking, phase, to_act = state[1:9]
    setup, out, known = state.setup, state.out, state.known
    seen = discard
    count = discard.bit_count()
    for h in hands:
        seen |= h
        count += h.bit_count()
    for c in stock:
        seen |= 1 << c
    count += len(stock)
    for a, d in table:
        seen |= 1 << a
        count += 1
        if d >= 0:
            seen |= 1 << d
            count += 1
    assert seen == setup.deck and count == setup.cards
    out_mask = gone(out)
    players = len(hands)
    if players == 2:
        assert (phase, to_act) == turn(hands, stock, attacker, table, taking)
    elif phase == "over":
        assert to_act is None and not table and not stock
    else:
        defender = GAME.defender(state)
        assert not out_mask >> attacker & 1 and defender != attacker
        if table and general.first_unbeaten(table) >= 0 and not taking:
            assert (phase, to_act) == ("defend", defender)
        else:
            asked = round_of(attacker, defender, players, out_mask, setup.throw_in)
            assert phase == "attack" and to_act in (asked if table else (attacker,))
    for s in range(players):
        if out_mask >> s & 1:
            assert not hands[s]  # D23: out for good
    if known is not None:
        for s, cards in enumerate(known):
            assert all(hands[s] >> c & 1 for c in cards)
    if setup is CLASSIC:
        assert type(kept) is tuple
        assert GAME.legal_moves(kept) == general.legal_moves(state)


def check_final(state: State, settlement: dict) -> None:
    """D24, D25: the durak alone holds cards and scores −(players − 1), the others +1;
    `out` lists everyone else in the order they went out; a draw is 0 for everyone."""
    state = named(state)
    hands, stock, table = state.hands, state.stock, state.table
    players = len(hands)
    assert not stock and not table
    holding = [s for s in range(players) if hands[s]]
    result = GAME.result(state)
    assert result is not None and result["players"] == players
    assert sum(result["scores"]) == 0
    flat = [s for group in result["out"] for s in group]
    assert all(group == sorted(group) for group in result["out"])
    if not holding:
        assert settlement["outcome"] == "draw" and settlement["durak"] is None
        assert result["scores"] == [0] * players
        assert sorted(flat) == list(range(players))
    else:
        (durak,) = holding
        assert settlement["outcome"] == "durak" and settlement["durak"] == durak
        assert result["scores"][durak] == -(players - 1)
        assert sorted(flat) == [s for s in range(players) if s != durak]
    if players == 2:
        # D15's shape, with `out` and `players` added as for every count.
        assert set(settlement) == {"outcome", "durak", "out", "players", "scores"}
    assert GAME.legal_moves(state) == []


TESTS = GameTests(GAME, check_state, check_final, candidate_moves, deals=2000, http_deals=30,
                  deal_options=({},), over_rule="D14", record_seed=3,
                  fullest={"known": True}, count_deals={n: 300 for n in range(3, 7)})


# The rules keep the default deal's state as a plain tuple (rules/durak/state.py); these
# give the states the Durak tests read by name.
def deal(rng: random.Random, *args, **options) -> Named:
    return named(GAME.deal(rng, *args, **options))


def apply(state: State, move: Move) -> Named:
    return named(GAME.apply(state, move))


def build(*args, **fields) -> Named:
    return named(GAME.build(*args, **fields))


def sample(view, rng: random.Random) -> Named:
    return named(GAME.sample(view, rng))


def play(state: State, move: Move) -> tuple[Named, list[dict]]:
    new, events = GAME.play(state, move)
    return named(new), events
