"""The compiled core's French Tarot (rules/ai/core/tarot*.c) held to rules/tarot, the
authority, and to the basic level (rules/ai/tarot.py): move by move along thousands of
seeded deals of 3, 4 and 5 players (T1–T24), the legal moves, the next positions, basic's
choice in every phase and the settlement of every finished deal."""

from __future__ import annotations

import random

import pytest

from rules.ai import search, tarot_reading, tarot_search
from rules.ai.levels import choose
from rules.ai.native import CORE
from rules.ai.tarot import basic_move, value
from rules.ai.tarot_reading import bids_misfit, hands_at_bidding
from rules.cards import bit_list
from rules.game import Move, Template
from rules.tarot import (
    COUNTS,
    EXCUSE,
    GAME,
    KINGS,
    TRUMPS,
    TarotState,
    petit_sec,
    playable_now,
    settle,
    void_shown,
)

DEALS = 700  # a count of players
STRONG_HAND = 0.95  # the share of basic's moves in a strong-hand deal


def listed(move) -> tuple:
    """A legal move as `tarot_legal` lists it: a template by its fields."""
    if isinstance(move, Template):
        return move.seat, move.action, move.count, move.must_include, move.choose_from
    return tuple(move)


def settled(state) -> tuple:
    """`tarot_settle`'s answer from the rules' settlement (API.md, "Settlements")."""
    s = settle(state)
    if "annulled" in s:
        return s["annulled"], 0, 0, None, None, 0, tuple(s["scores"])
    petit = s["petit_au_bout"]
    chelem = s["chelem"]
    return (None, round(2 * s["points"]), s["bouts"], petit and petit["camp"],
            chelem and chelem["made_by"], s["per_defender"], tuple(s["scores"]))


def mixed_move(state, seat: int, rng: random.Random, basic: float = 0.67) -> Move:
    """Basic's move, or a random legal one (a random écart) the rest of the time; in a
    strong-hand deal (`strong_hand_deal`) seat 0 plays its highest card and keeps the
    Excuse for the last trick."""
    if basic == STRONG_HAND and seat == 0 and state.phase == "play" and state.tricks:
        cards = bit_list(playable_now(state, seat))
        return Move(seat, "play", card=max(cards, key=lambda c: (c != EXCUSE, c)))
    if rng.random() < basic:
        return basic_move(state, seat, rng)
    move = rng.choice(GAME.legal_moves(state))
    return move.sample(rng) if isinstance(move, Template) else move


def check_deal(state, rng: random.Random, seen: dict, basic: float = 0.67) -> None:
    """Plays the deal to its end, holding the core to the rules at every state."""
    while (seat := GAME.to_act(state)) is not None:
        assert CORE.tarot_legal(state) == [listed(m) for m in GAME.legal_moves(state)]
        assert Move(*CORE.tarot_basic(state)) == basic_move(state, seat, rng)
        move = mixed_move(state, seat, rng, basic)
        after = GAME.apply(state, move)
        assert TarotState(*CORE.tarot_apply(state, move)) == after
        seen[move.action] = seen.get(move.action, 0) + 1
        if move.action == "chelem" and move.announce:
            seen["announced"] = seen.get("announced", 0) + 1
        state = after
    assert CORE.tarot_settle(state) == settled(state)
    s = settle(state)
    for key in ("petit_au_bout", "chelem"):
        seen[f"{key}_scored"] = seen.get(f"{key}_scored", 0) + bool(s.get(key))
    made = bool(s.get("chelem") and s["chelem"]["made_by"])
    seen["chelem_made"] = seen.get("chelem_made", 0) + made
    excuse_last = bool(state.tricks) and state.tricks[-1][1][0] == EXCUSE
    seen["excuse_led_last"] = seen.get("excuse_led_last", 0) + excuse_last
    seen["annulled"] = seen.get("annulled", 0) + ("annulled" in s)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_T1_T24_the_core_lists_plays_chooses_and_settles_as_the_rules_and_basic(players):
    """At every state of seeded deals, two thirds of their moves basic's and a third
    random: the core lists the rules' legal moves (the bids T4, the call T22, the écart's
    template T5 and T20, the chelem T7, the poignées T8 and T21, the cards T9 and T23),
    chooses basic's move, and each move leads to the rules' next position (the auction
    T3–T4, the partner T22, the chien T5–T6, each trick's winner T10 and T12); each
    finished deal settles as the rules settle it (T3, T11–T17, T24)."""
    seen: dict = {}
    for seed in range(DEALS):
        rng = random.Random(seed)
        check_deal(GAME.deal(rng, players=players), rng, seen)
    assert seen["play"] > 40 * DEALS and seen["discard"] > DEALS // 10
    assert seen["poignee"] and seen["petit_au_bout_scored"] > 10 and seen["annulled"] > 10
    if players == 5:
        assert seen["call"] > DEALS // 2


def strong_hand_deal(rng: random.Random, players: int):
    """A deal whose first seat to bid holds the Excuse, most of the top trumps and Kings:
    the chelem is announced (T7), made or not (T16), and the Excuse led to the last trick
    (T12)."""
    hand = COUNTS[players].hand
    strong = [EXCUSE, *bit_list(TRUMPS)[::-1][:rng.randrange(hand - 5, hand)]]
    strong += rng.sample(bit_list(KINGS), min(4, hand - len(strong)))
    rest = [c for c in range(78) if c not in strong]
    rng.shuffle(rest)
    return GAME.deal_from([*strong, *rest], players - 1, players)  # seat 0 bids first


@pytest.mark.parametrize("players", [3, 4, 5])
def test_T7_T12_T16_chelems_in_the_core_as_in_the_rules(players):
    """Deals whose first seat is all but sure of every trick: the chelem announced, made
    or failed, and the Excuse's last trick (T12's exception), as the rules play them."""
    seen: dict = {}
    for seed in range(60):
        rng = random.Random(seed)
        check_deal(strong_hand_deal(rng, players), rng, seen, basic=STRONG_HAND)
    assert seen["announced"] >= 5 and seen["chelem_scored"] >= 5 and seen["poignee"] >= 10
    assert seen["chelem_made"] >= 3 and seen["excuse_led_last"] >= 3


def states(players: int, seeds: range):
    """States along seeded deals played by basic and random moves."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.deal(rng, players=players)
        while (seat := GAME.to_act(state)) is not None:
            yield state
            state = GAME.apply(state, mixed_move(state, seat, rng))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_core_playout_is_basics_play_to_the_end_scored_by_the_rules(players):
    """From states in every phase, the core's playout gives the seat the value that
    basic's moves played through the rules to the end give it (rules/ai/tarot.py
    `value`), and the core reads the bids of a whole deal as rules/ai/tarot.py does."""
    checked = 0
    for k, state in enumerate(states(players, range(40))):
        if k % 7:
            continue
        end = state
        while (seat := GAME.to_act(end)) is not None:
            end = GAME.apply(end, basic_move(end, seat, random.Random(0)))
        for seat in range(players):
            assert CORE.tarot_playout(state, seat) == value(settle(end), seat)
            assert CORE.tarot_misfit(end, seat) == bids_misfit(end, seat)
        checked += 1
    assert checked > 100


def test_the_core_refuses_a_position_it_cannot_read():
    state = GAME.deal(random.Random(1))
    for bad in [(), state[:-1], state._replace(hands=(1, 2)), state._replace(phase="nap"),
                state._replace(bids=("pass", "shout")), state._replace(to_act=9)]:
        with pytest.raises((TypeError, ValueError)):
            CORE.tarot_legal(bad)
    assert CORE.tarot_basic(state._replace(phase="over", to_act=None)) is None


# -- the search's worlds and choices --------------------------------------------------------

def basic_states(players: int, seeds: range, every: int = 1):
    """States along seeded deals played by basic in every seat, one in `every`."""
    k = 0
    for seed in seeds:
        state = GAME.deal(random.Random(seed), players=players)
        while (seat := GAME.to_act(state)) is not None:
            if k % every == 0:
                yield state
            k += 1
            state = GAME.apply(state, basic_move(state, seat, random.Random(0)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_T3_T5_T8_T9_T22_the_core_worlds_show_the_seat_its_view_and_follow_the_reading(
        players):
    """Every world the core draws for the search shows its seat exactly what the seat saw
    (the shown chien with the taker, the écart's hidden cards ordinary, poignées with their
    seat, the voids shown, T5, T8, T9), names the partner as the holder of the called card
    (T22), deals no petit sec (T3) and no hand a card the reading of the play rules out of
    it; and the worlds read from the bids explain them as basic's bids more often."""
    fit = plain_fit = worlds = voided = 0
    for state in basic_states(players, range(30), every=5):
        seat = state.to_act
        view = GAME.observe(state, seat)
        read = tarot_search.core_view(view, True, 100)
        lacks = tarot_reading.play_read(view)
        voids = voids_shown(state)
        voided += any(voids[s] for s in range(players) if s != seat)
        drawn = CORE.tarot_worlds(read, 6, 11)
        plain = CORE.tarot_worlds((*read[:6], False, 0), 6, 11)
        assert drawn is not None and plain is not None
        for fields in [*drawn, *plain]:
            world = TarotState(*fields)
            assert GAME.observe(world, seat) == view
            assert world.partner == (None if world.called is None else partner_of(world))
            assert not any(world.hands[s] & voids[s] for s in range(players))
            for s, shown in world.poignees:
                assert world.hands[s] & shown == shown & ~played_by(world)[s]
            assert not any(petit_sec(h) for h in hands_at_bidding(world))
        for fields in drawn:
            world = TarotState(*fields)
            assert not any(world.hands[s] & lacks[s] for s in range(players))
        if read[6]:
            fit += sum(bids_misfit(TarotState(*w), seat) == 0 for w in drawn)
            plain_fit += sum(bids_misfit(TarotState(*w), seat) == 0 for w in plain)
            worlds += len(drawn)
    assert worlds > 100 and fit > 1.3 * plain_fit, (fit, plain_fit, worlds)
    assert voided > 20


def voids_shown(state) -> list[int]:
    """T9 read backwards from every trick, the rules' own way: the cards each seat showed
    it lacks when it did not follow, did not trump or did not overtrump."""
    players = len(state.hands)
    voids = [0] * players
    rounds = [(leader, cards) for leader, cards, _ in state.tricks]
    for leader, cards in [*rounds, (state.leader, state.trick)]:
        for j, card in enumerate(cards):
            voids[(leader + j) % players] |= void_shown(cards[:j], card)
    return voids


def played_by(state) -> list[int]:
    """The cards each seat played."""
    players = len(state.hands)
    played = [0] * players
    rounds = [(leader, cards) for leader, cards, _ in state.tricks]
    for leader, cards in [*rounds, (state.leader, state.trick)]:
        for j, card in enumerate(cards):
            played[(leader + j) % players] |= 1 << card
    return played


def partner_of(world) -> int | None:
    """T22: the seat beside the taker that holds or played the called card."""
    n = len(world.hands)
    held = hands_at_bidding(world)
    holder = next(s for s in range(n) if held[s] >> world.called & 1 or (
        s == world.taker and (world.ecart | world.chien) >> world.called & 1))
    return None if holder == world.taker else holder


def test_a_view_no_deal_fits_draws_no_world():
    state = next(s for s in basic_states(4, range(3)) if s.tricks and not s.trick)
    view = GAME.observe(state, state.to_act)
    read = list(tarot_search.core_view(view, False, 10))
    read[4] = (0,) * len(read[4])  # no place may hold any card
    assert CORE.tarot_worlds(tuple(read), 1, 1) is None
    moves = [m for m in GAME.legal_moves(state) if m.seat == view.seat]
    assert len(moves) > 1 and CORE.tarot_search(tuple(read), moves, 10, 1, 0.0) is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_core_search_chooses_a_candidate_the_same_for_the_same_seed(players):
    checked = 0
    for state in basic_states(players, range(3), every=4):
        view = GAME.observe(state, state.to_act)
        moves = search.candidates(GAME, GAME.sample(view, random.Random(0)), view.seat,
                                  random.Random(0))
        if len(moves) < 2:
            continue
        found = CORE.tarot_search(tarot_search.core_view(view, True, 300), moves, 300, 7, 0.0)
        best, playouts, worlds, cut, means = found
        assert 0 <= best < len(moves) and not cut and len(means) == len(moves)
        assert playouts >= min(300, len(moves)) and worlds >= 1
        assert CORE.tarot_search(tarot_search.core_view(view, True, 300), moves, 300, 7,
                                 0.0) == found
        checked += 1
    assert checked > 10


def test_the_deadline_cuts_a_core_search_short_with_a_candidate():
    state = GAME.deal(random.Random(2))
    view = GAME.observe(state, state.to_act)
    moves = [m for m in GAME.legal_moves(state)]
    best, playouts, _, cut, _ = CORE.tarot_search(tarot_search.core_view(view, True, 10**9),
                                                  moves, 10**9, 1, 0.01)
    assert cut and 0 <= best < len(moves) and playouts < 10**9


@pytest.mark.parametrize("players", [3, 4, 5])
def test_strong_plays_legal_moves_through_the_core_and_without_it(players, monkeypatch):
    """The strong level's move comes from the core where it is built, and from the
    Python search where it is not (rules/ai/native.py's fallback): legal either way."""
    states = list(basic_states(players, range(1), every=9))
    for state in states:
        view = GAME.observe(state, state.to_act)
        assert search.compiled(GAME, view) is not None
        move, _ = choose(GAME, view, "strong", random.Random(0), 50)
        assert GAME.verify(state, move) is None
    monkeypatch.setattr(tarot_search, "CORE", None)
    for state in states[::2]:
        view = GAME.observe(state, state.to_act)
        assert search.compiled(GAME, view) is None
        move, _ = choose(GAME, view, "strong", random.Random(0), 20)
        assert GAME.verify(state, move) is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_strong_gives_the_same_move_for_the_same_seed_when_no_deadline_cuts(players):
    """The strong level through the core, with the playouts a 200 ms budget buys and its
    deadline far off (as the bench plays it): the same view and seed give the same move,
    in the bid and in the play at least."""
    phases = set()
    for state in basic_states(players, range(2), every=7):
        view = GAME.observe(state, state.to_act)
        assert search.compiled(GAME, view) is not None
        playouts = search.playout_count(GAME, view, 200)
        first, again = (choose(GAME, view, "strong", random.Random(state.to_act), 60_000,
                               playouts=playouts)[0] for _ in range(2))
        assert first == again
        phases.add(view.phase)
    assert {"bidding", "play"} <= phases
