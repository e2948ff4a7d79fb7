"""AI levels: always legal, reproducible for a seed, and the basic heuristic plays sensibly."""

from __future__ import annotations

import random

import pytest

from rules.ai.levels import choose
from rules.durak import DECK as DURAK_DECK
from rules.durak import GAME as DURAK
from rules.game import Move
from rules.registry import ai_of
from schemas.registry import GAMES
from tests.test_durak import make
from tests.test_fair_ai import VARIANTS, variant_id

IX = DURAK_DECK.index


@pytest.mark.parametrize("level", ["random", "basic", "strong"])
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_ai_move_is_legal_and_seeded_moves_repeat(game_id, level):
    game = GAMES[game_id].game
    for deal_no in range(5):
        state = game.deal(random.Random(deal_no))
        while (seat := game.to_act(state)) is not None:
            view = game.observe(state, seat)
            # A fixed number of playouts and a budget its wall-clock guard never reaches:
            # the move is then a function of the view and the seed alone.
            move, _ = choose(game, view, level, random.Random(deal_no), 10_000, playouts=4)
            again, _ = choose(game, view, level, random.Random(deal_no), 10_000, playouts=4)
            assert move == again
            assert game.verify(state, move) is None, (move, game.verify(state, move))
            state = game.apply(state, move)


@pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
def test_every_level_plays_legal_moves_to_the_end_at_every_count_and_option(variant):
    game_id, options = variant
    game = GAMES[game_id].game
    rng = random.Random(7)
    state = game.deal(rng, **options)
    levels = ("basic", "strong", "random")
    while (seat := game.to_act(state)) is not None:
        view = game.observe(state, seat)
        move, _ = choose(game, view, levels[seat % 3], rng, 20, playouts=4)
        assert game.verify(state, move) is None, move
        state = game.apply(state, move)
    assert game.settlement(state) is not None


def test_basic_durak_beats_with_the_cheapest_sufficient_card():
    s = make([["AC"], ["9D", "QD", "7H", "AD"]], table=[("8D", None)], trump="H")
    move, _ = choose(DURAK, DURAK.observe(s, 1), "basic", random.Random(0), 200)
    assert move == Move(1, "defend", card=IX["9D"])


def test_basic_durak_D7_beats_with_a_high_trump_rather_than_take():
    """A taken bout costs more than the trump that beats it (bench/README.md): basic
    beats with its king of trumps while the stock lasts, where it once took."""
    hand1 = ["KH", "6S", "7S", "8S", "9S", "10S"]
    s = make([["6C", "7C", "8C", "9C", "10C", "JD"], hand1], table=[("AD", None)], trump="H",
             stock=["JC", "QC", "AH"])
    move, _ = choose(DURAK, DURAK.observe(s, 1), "basic", random.Random(0), 200)
    assert move == Move(1, "defend", card=IX["KH"])
    s = make([["6C", "7C", "8C", "9C", "10C", "JD"], hand1[1:] + ["QS"]],
             table=[("AD", None)], trump="H", stock=["JC", "QC", "AH"])
    move, _ = choose(DURAK, DURAK.observe(s, 1), "basic", random.Random(0), 200)
    assert move == Move(1, "take")  # nothing beats the ace: D7


def test_basic_durak_D6_leads_a_pair_before_a_lower_single_card():
    s = make([["8S", "8D", "6C", "AH", "KC", "QC"], ["KD", "QD", "JD", "10D", "9D", "7S"]],
             trump="H", stock=["JC", "9C", "7H", "10H"])
    move, _ = choose(DURAK, DURAK.observe(s, 0), "basic", random.Random(0), 200)
    assert move.action == "attack" and move.card in (IX["8S"], IX["8D"])


def test_basic_durak_D8_throws_in_trumps_only_once_the_stock_is_out():
    hands = [["9H", "JC", "6C", "7C", "8C"], ["KD", "QD", "JD", "6S", "7D"]]
    table = [("9S", "10S")]
    # The club player, the playouts' policy and the basic level until every card is known
    # (the level then plays the end exactly: tests/test_durak_ai.py).
    club = ai_of(DURAK).basic
    with_stock = make(hands, table=table, trump="H", stock=["JS", "QS", "AS", "AH"])
    assert club(with_stock, 0, random.Random(0)) == Move(0, "pass")
    without = make(hands, table=table, trump="H")
    assert club(without, 0, random.Random(0)) == Move(0, "attack", card=IX["9H"])


def test_basic_durak_leads_its_lowest_plain_card():
    s = make([["AH", "6H", "9S", "7D"], ["KD", "QD"]], trump="H")
    assert ai_of(DURAK).basic(s, 0, random.Random(0)) == Move(0, "attack", card=IX["7D"])


def test_basic_durak_beats_random_in_most_deals():
    won = lost = 0
    for deal_no in range(200):
        rng = random.Random(deal_no)
        state = DURAK.deal(rng)
        basic = deal_no % 2
        while (seat := DURAK.to_act(state)) is not None:
            level = "basic" if seat == basic else "random"
            view = DURAK.observe(state, seat)
            state = DURAK.apply(state, choose(DURAK, view, level, rng, 200)[0])
        durak = DURAK.settlement(state)["durak"]
        won += durak == 1 - basic
        lost += durak == basic
    assert won >= 0.85 * (won + lost), (won, lost)


def part_played_ganjifa(seed: int, rng: random.Random, most: int, basic_share: float):
    """Ganjifa deal `seed` (by day or night) after up to `most` moves, each basic's with
    probability `basic_share`, else a random legal one."""
    from rules.ai.ganjifa import basic_move
    from rules.ganjifa import GAME as GANJIFA

    state = GANJIFA.deal(random.Random(seed), period=("day", "night")[seed % 2])
    for _ in range(rng.randrange(most)):
        if state.to_act is None:
            break
        if rng.random() < basic_share:
            move = basic_move(state, state.to_act, rng)
        else:
            move = rng.choice(GANJIFA.legal_moves(state))
        state = GANJIFA.apply(state, move.sample(rng) if hasattr(move, "sample") else move)
    return state


def test_ganjifa_dukal_answers_the_search_tries_G8():
    """An answer to a Dukal is any k cards of the hand (G8); the search tries basic's k
    cheapest and the proposals beside it (courts' suits spared, bosses spared, short suits
    emptied): each k distinct cards of the seat's own hand, legal, and the same for any
    world of the seat's view (they read no hidden card)."""
    from rules.ai.ganjifa import discard_options
    from rules.ganjifa import GAME as GANJIFA
    from rules.ganjifa import SUIT_MASK

    answered = emptied = 0
    for seed in range(200):
        state = GANJIFA.deal(random.Random(seed))
        while state.to_act is not None and state.dukal is None:
            state = GANJIFA.apply(state, choose(GANJIFA, GANJIFA.observe(state, state.to_act),
                                                "basic", random.Random(0), 20)[0])
        if state.dukal is None:
            continue
        seat, k = state.to_act, state.dukal.cards.bit_count()
        view = GANJIFA.observe(state, seat)
        options = discard_options(state, seat)
        assert options and len(set(options)) == len(options)
        for m in options:
            assert len(set(m.cards)) == k and all(state.hands[seat] >> c & 1 for c in m.cards)
            assert GANJIFA.verify(state, m) is None
        for w in range(3):
            assert discard_options(GANJIFA.sample(view, random.Random(w)), seat) == options
        hand = state.hands[seat]
        emptied += any(hand & SUIT_MASK[s] and not hand & SUIT_MASK[s] & ~sum(
            1 << c for c in m.cards) for m in options for s in range(10))
        answered += 1
    assert answered >= 20 and emptied >= answered // 2


def test_ganjifa_sampled_worlds_respect_the_view():
    """Every world the search samples shows its seat exactly what the seat saw, and gives
    each follower of the trick in progress no card it would have had to play instead (G6)
    nor, before the opening lead, the trump Raja to a seat that does not lead (G5)."""
    from rules.ganjifa import AFTER, RAJAS, SUIT_MASK, SUIT_OF, opening
    from rules.ganjifa import GAME as GANJIFA

    rng = random.Random(11)
    voids = 0
    for seed in range(80):
        state = part_played_ganjifa(seed, rng, 115, basic_share=0.0)
        if state.to_act is None:
            continue
        for seat in range(3):
            view = GANJIFA.observe(state, seat)
            for k in range(4):
                world = GANJIFA.sample(view, random.Random(k))
                assert GANJIFA.observe(world, seat) == view
                held = world.hands[0] | world.hands[1] | world.hands[2]
                assert sum(h.bit_count() for h in world.hands) == held.bit_count()
                trick = world.trick
                for i, card in enumerate(trick[1:], 1):
                    led = SUIT_OF[trick[0]]
                    if SUIT_OF[card] == led:
                        continue
                    hand = world.hands[(world.leader + i) % 3]
                    assert not hand & SUIT_MASK[led]
                    voids += 1
                    if SUIT_OF[card] != world.trump:
                        for skipped in AFTER[led][:AFTER[led].index(SUIT_OF[card])]:
                            assert not hand & SUIT_MASK[skipped]
                if opening(world) and not trick and world.dukal is None:
                    assert world.hands[world.leader] >> RAJAS[world.trump] & 1
    assert voids >= 20


def test_ganjifa_worlds_explained_by_basic_play():
    """`explains` accepts the true deal of a trick played by basic, and rejects sampled
    worlds in which basic would have played other cards (it is not always true); the
    search's sampler keeps to the view, spends at most its draws, and takes an explained
    world whenever its draws find one."""
    from rules.ai import search
    from rules.ai.ganjifa_reading import explains
    from rules.ganjifa import GAME as GANJIFA
    from rules.registry import ai_of

    rng = random.Random(5)
    rejected = checked = taken = 0
    for seed in range(60):
        state = part_played_ganjifa(seed, rng, 115, basic_share=1.0)
        if state.to_act is None or not state.trick:
            continue
        for seat in range(3):
            assert explains(state, seat)  # basic played every card of this trick
            view = GANJIFA.observe(state, seat)
            for k in range(6):
                world = GANJIFA.sample(view, random.Random(k))
                checked += 1
                rejected += not explains(world, seat)
            draws = search.explaining(GANJIFA, view, 10)
            assert draws == [search.EXPLAIN_DRAWS * 10]
            world = search.sample(GANJIFA, view, random.Random(seed), draws)
            assert GANJIFA.observe(world, seat) == view
            assert 0 <= draws[0] < search.EXPLAIN_DRAWS * 10
            if draws[0] > search.EXPLAIN_DRAWS * 10 - ai_of(GANJIFA).explain.tries:
                assert explains(world, seat)  # found before the last try
                taken += 1
    assert checked >= 200 and 0.1 * checked <= rejected < checked, (rejected, checked)
    assert taken >= 20
    # No trick on the table: nothing to explain, no draw spent.
    state = GANJIFA.deal(random.Random(3))
    assert search.explaining(GANJIFA, GANJIFA.observe(state, state.to_act), 10) == [0]


def test_sequential_halving_finds_the_best_candidate_on_common_worlds():
    """Halving keeps the best candidate to the end, within the playouts it is given, and
    every candidate it plays meets the worlds in the same order from the first (common
    random numbers); a world's luck, common to all candidates, does not sway it."""
    import math

    from rules.ai import search

    worth = [0.30, 0.50, 0.55, 0.20, 0.45, 0.10, 0.52]
    luck = random.Random(1)
    world_luck: list[float] = []
    played: dict[int, list[int]] = {j: [] for j in range(len(worth))}

    def run(j: int, i: int) -> float:
        while len(world_luck) <= i:
            world_luck.append(luck.uniform(-1, 1))
        played[j].append(i)
        return worth[j] + world_luck[i]

    assert search.halving(len(worth), 100, run, math.inf) == 2
    assert sum(len(p) for p in played.values()) <= 100
    for worlds in played.values():
        assert worlds == list(range(len(worlds)))
    assert len(played[2]) > len(played[5]) >= 1


def test_sequential_halving_stops_at_the_deadline_with_the_best_so_far():
    """With its deadline passed, halving plays one world for every candidate and takes
    the best on it, basic's choice (0) on a tie."""
    import math

    from rules.ai import search

    calls = []

    def run(j: int, i: int) -> float:
        calls.append((j, i))
        return (0.5, 0.7, 0.7, 0.1)[j]

    assert search.halving(4, 1000, run, -math.inf) == 1
    assert calls == [(0, 0), (1, 0), (2, 0), (3, 0)]
    assert search.halving(3, 1000, lambda j, i: 0.5, -math.inf) == 0


def test_ganjifa_playouts_late_in_the_deal_are_counted_with_their_fixed_cost():
    """A Ganjifa playout costs its cards plus a fixed part (drawing the world, the root
    move, the settlement: `fixed_cost`), so the count a budget buys grows as the cards
    left shrink, but by less than their ratio: a lead with eight cards a hand buys fewer
    playouts than the share floor alone would give, and never fewer than the first."""
    from rules.ai import search
    from rules.ai.ganjifa import SETTINGS, basic_move
    from rules.ganjifa import GAME as GANJIFA

    state = GANJIFA.deal(random.Random(3))
    counts = []
    while state.to_act is not None:
        if not state.trick and state.dukal is None:
            view = GANJIFA.observe(state, state.to_act)
            counts.append((state.hands[state.to_act].bit_count(),
                           search.playout_count(GANJIFA, view, 200)))
        state = GANJIFA.apply(state, basic_move(state, state.to_act, None))
    first = counts[0][1]
    counted = SETTINGS if SETTINGS.core is None or not SETTINGS.core.covers(view) \
        else SETTINGS.core
    assert counted.fixed_cost > 0
    playouts = [n for _, n in counts]
    assert playouts == sorted(playouts)  # more as the cards go
    late = [n for cards, n in counts if cards == 8]
    assert late and first < late[0] < 200 * counted.rate / 0.2
