"""The strong level: determinized search over worlds sampled from the seat's view.

Each playout samples a world consistent with the view (`Game.sample`; in Ganjifa, one in
which basic's play explains the deal's history, `MODEL`, and the trick on the table when a
few draws find one), plays a root
candidate in it and then a fast epsilon-basic playout for every seat to the end of the
deal, and scores the seat's settlement. The playouts go to the candidates by Sequential
Halving, which plays the last one left. The search never reads a state: the fairness of the
AI follows from its arguments.

The number of playouts is a function of the budget and the view alone, so the same seed
gives the same move; a wall-clock deadline guards the budget on a loaded machine.
"""

from __future__ import annotations

import math
import random
import time

from rules import ganjifa as ganjifa_rules
from rules.ai import durak, ganjifa, ganjifa_playout, tarot
from rules.game import Game, Move, NoWorldFits, Template, View

POLICY = {"durak": durak.basic_move, "tarot": tarot.basic_move, "ganjifa": ganjifa.basic_move}
# Moves that play alike in a game are tried once (see the function's reasons).
PLAY_CLASS = {"ganjifa": ganjifa.play_class}
# The view narrowed by what the opponents' play so far says of their hands, had they
# played as the playouts model them (Ganjifa: basic, read from the deal's history). On
# seeds 0-199 and 1000-1399 (bench/README.md) +1.5 and +1.9 points of win share.
MODEL = {"ganjifa": ganjifa.modelled}

# Playouts per millisecond of budget from a fresh deal, about half of what one core runs
# (bench: a basic playout from the deal takes ~0.55 ms in Durak, ~1.3 ms in a played Tarot
# deal; a strong Ganjifa move at full deck measured ~95 ms of CPU for 200 ms at 0.8, and
# its playouts and sampling since took ~1.5x less CPU on the same moves, 0.42 -> 0.29 ms a
# playout, and its playouts ~1.45x less again with every suit's bosses found at once: at
# 2.0, 200 deals measured a searched move's CPU p50 68 ms, p99 154 ms), so that the
# deadline stays a guard and not the rule: a search it cuts short no longer gives the
# same move for the same seed. Tarot 0.35 -> 0.3 with FIXED_COST (bench/README.md, 600
# deals against basic): moves past the deadline 5% -> 0.03%, strength within the noise.
RATE = {"durak": 0.9, "tarot": 0.3, "ganjifa": 2.0}
DECK_IN_PLAY = {"durak": 36, "tarot": 78, "ganjifa": 120}
# What a playout costs beside playing its cards (sampling the world, dealing the hands,
# settling), in cards' worth. Tarot's playout took ~150 us + ~11 us a card left (bench,
# 868 moves), so its late moves, given playouts as if the cost were the cards alone, ran
# 1.6x the CPU of its first ones.
FIXED_COST = {"durak": 0, "tarot": 14, "ganjifa": 0}
DEADLINE_SHARE = 0.8  # of the budget spent searching; the rest is parsing and answering
# Share of random moves in a playout, so that playouts differ. Ganjifa has none: its
# playout is basic's exact play (rules/ai/ganjifa_playout.py), deterministic in a world;
# the sampled worlds already differ, and random moves would only blur the comparison of
# candidates on the same world.
EPSILON = {"durak": 0.1, "tarot": 0.1}
# Draws of a world before one is taken in which basic's play explains the trick on the
# table (Ganjifa, `ganjifa.sample`); the opponents' cards in a trick say much about their
# hands (bench, 100 deals: the strong seat's captured cards +2.4 a deal against basic).
# A move draws at most EXPLAIN_DRAWS per playout in all, so that a view few worlds explain
# does not run long; a draw and its test cost about 2/3 of a playout, so with a trick on
# the table the budget buys EXPLAIN_COST times fewer playouts.
EXPLAIN_TRIES = {"ganjifa": 8}
EXPLAIN_DRAWS = 3
EXPLAIN_COST = {"ganjifa": 3}
TEMPLATE_CANDIDATES = 6  # random completions of a combination move beside basic's choice
PER_CANDIDATE = 6  # playouts each root candidate should get at least


def playout_count(game: Game, view: View, budget_ms: int) -> int:
    """Deterministic in the budget and the view: the fewer cards left to play, the shorter
    each playout and the more of them fit."""
    left = sum(view.hidden) + game.hand(view.public, view.seat).bit_count()
    fixed = FIXED_COST[game.id]
    share = max(0.2, (fixed + left) / (fixed + DECK_IN_PLAY[game.id]))
    if game.id in EXPLAIN_TRIES and view.public.trick:
        share *= EXPLAIN_COST[game.id]
    return max(1, int(budget_ms * RATE[game.id] / share))


def value(game_id: str, settlement: dict, seat: int) -> float:
    """The seat's result scaled to [0, 1]."""
    scores = settlement["scores"]
    if game_id == "durak":
        return (scores[seat] + 1) / 2  # D15: -1, 0 or +1
    if game_id == "tarot":
        return 0.5 + 0.5 * math.tanh(scores[seat] / 150)  # T17: a garde is worth ~±60 a seat
    # G9: the captured cards, which decide the win and vary more smoothly than it does.
    winners = settlement["winners"]
    won = 1 / len(winners) if seat in winners else 0.0
    return 0.3 * won + 0.7 * min(1.0, settlement["captured"][seat] / 80)


def candidates(game: Game, world, seat: int, rng: random.Random) -> list[Move]:
    """The root moves: basic's choice first, then every listed move, a template giving a
    few random completions. The seat's own moves depend only on what it sees, so every
    candidate is legal in every sampled world."""
    out = [POLICY[game.id](world, seat, rng)]
    key = PLAY_CLASS[game.id](world, seat) if game.id in PLAY_CLASS else lambda m: m
    seen = {key(out[0])}
    for m in game.legal_moves(world):
        if m.seat != seat:
            continue
        for c in ([m.sample(rng) for _ in range(TEMPLATE_CANDIDATES)]
                  if isinstance(m, Template) else [m]):
            k = key(c)
            if k not in seen:
                seen.add(k)
                out.append(c)
    return out


def playout(game: Game, state, seat: int, rng: random.Random | None) -> float:
    """Epsilon-basic play for every seat to the end of the deal (Ganjifa: basic's play); the
    seat's value. Ganjifa's playout reads no rng (it may be None)."""
    if game.id == "ganjifa":  # the same play on bitmasks, several times faster
        counts = ganjifa_playout.play_out(state)
        return value("ganjifa", ganjifa_rules.settlement_of(counts), seat)
    policy = POLICY[game.id]
    apply, legal, to_act_in = game.apply, game.legal_moves, game.to_act
    epsilon = EPSILON[game.id]
    while (to_act := to_act_in(state)) is not None:
        if rng.random() < epsilon:
            m = rng.choice(legal(state))
            if isinstance(m, Template):
                m = m.sample(rng)
        else:
            m = policy(state, to_act, rng)
        state = apply(state, m)
    return value(game.id, game.settlement(state), seat)


def explaining(game: Game, view: View, n: int) -> list[int]:
    """The draws of worlds a move may spend on explaining the trick on the table (Ganjifa
    with a trick: EXPLAIN_DRAWS a playout), as a one-item counter `sample` runs down."""
    if EXPLAIN_TRIES.get(game.id) and view.public.trick:
        return [EXPLAIN_DRAWS * n]
    return [0]


def sample(game: Game, view: View, rng: random.Random, draws: list[int]) -> object:
    """A world of the view; for Ganjifa with a trick on the table, one that basic's play
    explains when one of at most EXPLAIN_TRIES draws does and the move's draws last."""
    if draws[0] > 1:
        world, used = ganjifa.sample(game, view, rng, min(EXPLAIN_TRIES[game.id], draws[0]))
        draws[0] -= used
        return world
    return game.sample(view, rng)


def halving(k: int, n: int, run, deadline: float) -> int:
    """Sequential Halving (Karnin, Koren and Somekh 2013) over candidates 0…k-1 with about
    n playouts: rounds of equal playouts for the candidates still in, the better half kept
    after each, ceil(log2 k) rounds sharing the budget evenly. It spends the playouts on
    telling the best candidate apart (simple regret), where UCB1 spends them on playing the
    best one often (cumulative regret). Every candidate still in plays the same worlds,
    `run(j, i)` being candidate j's playout on world i, so their totals compare like with
    like. Ties go to the lower index (basic's choice is 0). When the deadline passes, the
    best candidate on the worlds played so far is taken. Against basic (bench/README.md),
    in place of UCB1: Ganjifa's win share 48.8% -> 50.7% over 200 deals; Durak 92.6% ->
    90.9% of 300 decided deals and Tarot +10.3 -> +11.9 over 200, both within their noise."""
    alive = list(range(k))
    totals = [0.0] * k
    played = 0  # worlds every candidate still in has played
    rounds = math.ceil(math.log2(k))
    left = n
    for r in range(rounds):
        # The playouts left, shared by the rounds left: what a round could not spend (too
        # few to give every candidate one more world) goes to the later rounds.
        per = max(1, left // (len(alive) * (rounds - r)))
        for _ in range(per):
            if played and time.perf_counter() > deadline:
                return max(alive, key=lambda c: (totals[c], -c))
            for j in alive:
                totals[j] += run(j, played)
            played += 1
        left -= per * len(alive)
        alive = sorted(alive, key=lambda c: (-totals[c], c))[:(len(alive) + 1) // 2]
    return alive[0]


def strong_move(game: Game, view: View, rng: random.Random, budget_ms: int,
                playouts: int | None = None) -> Move:
    """The root candidates played on sampled worlds with common random numbers: the i-th
    playout of every candidate runs in the same world with the same playout seed, so
    candidates are compared on the same deals and the noise of the deal cancels out of the
    comparison; `halving` shares the playouts out among the candidates."""
    deadline = time.perf_counter() + budget_ms * DEADLINE_SHARE / 1000
    seat = view.seat
    n = playouts if playouts is not None else playout_count(game, view, budget_ms)
    draws = explaining(game, view, n)
    searched = MODEL[game.id](view) if game.id in MODEL else view
    try:
        worlds = [sample(game, searched, rng, draws)]
    except NoWorldFits:  # no deal fits the model: the opponents did not play as it does
        searched = view
        worlds = [sample(game, view, rng, draws)]
    seeds = [rng.getrandbits(64)]
    moves = candidates(game, worlds[0], seat, rng)
    if len(moves) == 1:
        return moves[0]
    # Few playouts spread over many candidates measure none of them: basic's choice and as
    # many others (drawn at random) as the playouts can try PER_CANDIDATE times each.
    keep = max(2, n // PER_CANDIDATE)
    if len(moves) > keep:
        others = moves[1:]
        rng.shuffle(others)
        moves = [moves[0], *others[:keep - 1]]
    k = len(moves)
    own_rng = game.id != "ganjifa"  # Ganjifa's playout reads no rng: none is made for it

    def run(j: int, i: int) -> float:
        """Candidate j's playout on the i-th world, drawn on first use."""
        if i == len(worlds):
            worlds.append(sample(game, searched, rng, draws))
            seeds.append(rng.getrandbits(64))
        return playout(game, game.apply(worlds[i], moves[j]), seat,
                       random.Random(seeds[i]) if own_rng else None)

    return moves[halving(k, n, run, deadline)]
