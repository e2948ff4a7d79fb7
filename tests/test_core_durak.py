"""The compiled core's two-player Durak (rules/ai/core/durak.c) held to rules/durak, the
authority: move by move along thousands of seeded deals of every deck and first bout
(D1–D16), the club player's choices (rules/ai/durak_club.py), the exact endgame against
brute force, and the search it runs for the strong level."""

from __future__ import annotations

import random

import pytest

from rules.ai import durak_search, search
from rules.ai.durak_club import club_move
from rules.ai.levels import choose
from rules.ai.native import CORE, MISSING
from rules.durak import ALL, GAME, named
from rules.game import Move
from tests.support.durak import apply, deal
from tests.test_durak_endgame import brute, small_position

DEALS = [({}, 600), ({"cards": 24}, 200), ({"cards": 52}, 200), ({"first_bout": 5}, 200),
         ({"known": True}, 100)]


def test_the_core_is_built_by_the_install():
    """`make test` installs the package, which builds the core (setup.py): a tree where it
    does not build fails here rather than searching in Python unnoticed."""
    assert CORE is not None and MISSING is None


def expected(state) -> tuple:
    """`durak_apply`'s answer for a rules state: the table as a mask, its first unbeaten
    attack (none once the defender takes, D10), its attacks and defences, and the end."""
    s = named(state)
    on_table = unbeaten = 0
    beaten = 0
    unbeaten = -1
    for a, d in s.table:
        on_table |= 1 << a
        if d >= 0:
            on_table |= 1 << d
            beaten += 1
        elif unbeaten < 0:
            unbeaten = a
    return (s.trump, s.hands[0], s.hands[1], tuple(s.stock), s.attacker, on_table,
            -1 if s.taking else unbeaten, int(s.taking), s.setup.cap(s.discard), len(s.table),
            beaten, int(s.phase == "over"))


def pair(move: Move) -> tuple[str, int]:
    return move.action, -1 if move.card is None else move.card


@pytest.mark.parametrize(("options", "deals"), DEALS)
def test_D1_D16_the_core_lists_plays_and_chooses_as_the_rules_and_the_club_player(options,
                                                                                    deals):
    """At every state of seeded deals, half their moves random and half the club player's:
    the core lists the rules' legal moves (D6–D9, D13), its club player chooses
    `club_move`'s move, and each move leads to the rules' next position (drawing from the
    stock, D12; the turned-up card last, D2; the end, D14)."""
    moves = ended = 0
    for seed in range(deals):
        rng = random.Random(seed)
        state = deal(rng, **options)
        while (seat := GAME.to_act(state)) is not None:
            position = durak_search.position(state)
            legal = GAME.legal_moves(state)
            assert sorted(CORE.durak_legal(position)) == sorted(pair(m) for m in legal)
            club = club_move(state, seat, rng)
            assert CORE.durak_club(position) == pair(club)
            move = rng.choice(legal) if rng.random() < 0.5 else club
            state = apply(state, move)
            got = CORE.durak_apply(position, pair(move))
            want = expected(state)
            if got[7]:  # a taking defender faces no unbeaten card (D10)
                got = (*got[:6], -1, *got[7:])
            if want[-1]:  # over: D18's attacker of a finished deal is the rules' alone
                assert got[-1] and got[1:4] == want[1:4]
                ended += 1
            else:
                assert got == want
            moves += 1
    assert ended == deals and moves > 50 * deals


def test_D9_D16_a_short_first_bout_holds_five_attacks_in_the_core_too():
    ix = ALL.index
    on_table = [("6S", "6H"), ("6C", "7H"), ("6D", "8H"), ("7S", "9H"), ("7C", "10H")]
    placed = {c for p in on_table for c in p} | {"7D", "JH"}
    stock = [c for c in ALL.codes[:36] if c not in placed and c != "AH"] + ["AH"]
    state = named(GAME.build(trump="H", hands=[[ix["7D"]], [ix["JH"]]],
                             stock=[ix[c] for c in stock], discard=[], attacker=0,
                             table=[(ix[a], ix[d]) for a, d in on_table], taking=False,
                             first_bout=5))
    assert CORE.durak_legal(durak_search.position(state)) == [("pass", -1)]


@pytest.mark.parametrize(("cards", "stock"), [(2, 0), (4, 0), (6, 0), (2, 1), (4, 1), (4, 2),
                                             (2, 3)])
def test_D15_the_core_solver_values_small_positions_as_brute_force(cards, stock):
    """Its value under best play, with a stock of known order drawn by D12 and the
    turned-up card last (D2), is plain minimax's; its move keeps that value."""
    rng = random.Random(cards * 10 + stock)
    outcomes = set()
    for _ in range(20 if cards + stock < 6 else 6):
        state = small_position(rng, cards, stock)
        seat = state.to_act
        value, (action, card) = CORE.durak_solve(durak_search.position(state), seat, 10**6,
                                                 None)
        assert value == brute(state, seat)
        move = Move(seat, action, card=None if card < 0 else card)
        assert GAME.verify(state, move) is None
        assert brute(apply(state, move), seat) == value
        outcomes.add(value)
    assert len(outcomes) > 1


def test_a_core_solve_past_its_count_of_positions_gives_up():
    state = small_position(random.Random(3), 12)
    assert CORE.durak_solve(durak_search.position(state), state.to_act, 5, None) is None


def views(seeds: range, every: int = 3):
    """Views of the seat to act along deals played by the club player."""
    for seed in seeds:
        state = deal(random.Random(seed))
        k = 0
        while (seat := GAME.to_act(state)) is not None:
            if k % every == 0:
                yield state, GAME.observe(state, seat)
            state = apply(state, club_move(state, seat, random.Random(k)))
            k += 1


def test_the_search_chooses_one_of_its_candidates_the_same_for_the_same_seed():
    for state, view in views(range(3)):
        own = [m for m in GAME.legal_moves(state) if m.seat == view.seat]
        if len(own) < 2:
            continue
        found = CORE.durak_search(
            durak_search.position(view.public._replace(stock=())), view.seat,
            view.hidden[1 - view.seat], durak_search.unseen(view.public),
            view.public.stock[-1] if view.public.stock else -1, None,
            [pair(m) for m in own], 300, 7, 0.0, 8, 2000, 0.7)
        best, playouts, worlds, cut, means = found
        assert 0 <= best < len(own) and not cut and len(means) == len(own)
        assert playouts == 300 and worlds >= 1
        again = CORE.durak_search(
            durak_search.position(view.public._replace(stock=())), view.seat,
            view.hidden[1 - view.seat], durak_search.unseen(view.public),
            view.public.stock[-1] if view.public.stock else -1, None,
            [pair(m) for m in own], 300, 7, 0.0, 8, 2000, 0.7)
        assert again == found


def test_the_deadline_cuts_a_search_short_with_a_candidate():
    state = deal(random.Random(1))
    view = GAME.observe(state, GAME.to_act(state))
    own = [pair(m) for m in GAME.legal_moves(state)]
    best, playouts, _, cut, _ = CORE.durak_search(
        durak_search.position(view.public._replace(stock=())), view.seat,
        view.hidden[1 - view.seat], durak_search.unseen(view.public),
        view.public.stock[-1], None, own, 10**9, 1, 0.01, 0, 0, 0.7)
    assert cut and 0 <= best < len(own) and playouts < 10**9


def test_strong_plays_legal_moves_through_the_core_and_without_it(monkeypatch):
    """The strong level's move comes from the core where it is built, and from the
    Python search where it is not (rules/ai/native.py's fallback): legal either way."""
    for state, view in list(views(range(2), every=7)):
        assert search.compiled(GAME, view) is not None
        move, _ = choose(GAME, view, "strong", random.Random(0), 50)
        assert GAME.verify(state, move) is None
    monkeypatch.setattr(durak_search, "CORE", None)
    from rules.ai import durak_endgame
    monkeypatch.setattr(durak_endgame, "CORE", None)
    for state, view in list(views(range(1), every=9)):
        assert search.compiled(GAME, view) is None
        move, _ = choose(GAME, view, "strong", random.Random(0), 20)
        assert GAME.verify(state, move) is None


def test_a_service_without_the_core_says_so_once_at_start(monkeypatch, caplog):
    """Where the core was not built, the service starts and logs rules/ai/native.py's
    sentence (the strong level searches in Python); with the core it logs nothing."""
    from rules.ai import native
    from service.app import create_app
    with caplog.at_level("WARNING"):
        create_app()
    assert "compiled search core" not in caplog.text
    monkeypatch.setattr(native, "MISSING", "the compiled search core is not built (test)")
    with caplog.at_level("WARNING"):
        create_app()
    assert caplog.text.count("the compiled search core is not built (test)") == 1
