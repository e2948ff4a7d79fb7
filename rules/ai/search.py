"""The strong level: determinized search over worlds sampled from the seat's view.

Each playout samples a world consistent with the view (`Game.sample`; with a game's
`model`, `draw` and `explain` settings, rules/ai/settings.py, one in which the modelled
play explains the deal's history and the play in progress when a few draws find one), plays
a root candidate in it and then a fast epsilon-basic playout for every seat to the end of the
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

from rules.ai.settings import Core
from rules.game import Game, Move, NoWorldFits, Template, View
from rules.registry import ai_of

DEADLINE_SHARE = 0.8  # of the budget spent searching; the rest is parsing and answering
# Draws of a world a move may spend, per playout, on explaining the play in progress
# (`rules.ai.settings.Explain`), so that a view few worlds explain does not run long.
EXPLAIN_DRAWS = 3
TEMPLATE_CANDIDATES = 6  # random completions of a combination move beside basic's choice
PER_CANDIDATE = 6  # playouts each root candidate should get at least


def compiled(game: Game, view: View) -> Core | None:
    """The compiled core's search of the view, where it covers it."""
    core = ai_of(game).core
    return core if core is not None and core.covers(view) else None


def playout_count(game: Game, view: View, budget_ms: int) -> int:
    """Deterministic in the budget and the view: the fewer cards left to play, the shorter
    each playout and the more of them fit."""
    ai = ai_of(game)
    core = compiled(game, view)
    fixed = ai.fixed_cost if core is None else core.fixed_cost
    left = sum(view.hidden) + game.hand(view.public, view.seat).bit_count()
    share = max(0.2, (fixed + left) / (fixed + len(game.deck)))
    if core is not None:
        rate = core.rate if core.rate_scale is None else core.rate * core.rate_scale(view)
        return max(1, int(budget_ms * rate / share))
    if ai.explain is not None and ai.explain.applies(view):
        share *= ai.explain.cost
    rate = ai.rate if ai.rate_scale is None else ai.rate * ai.rate_scale(view)
    return max(1, int(budget_ms * rate / share))


def candidates(game: Game, world, seat: int, rng: random.Random) -> list[Move]:
    """The root moves: basic's choice first, then every listed move, a template giving a
    few random completions. The seat's own moves depend only on what it sees, so every
    candidate is legal in every sampled world."""
    ai = ai_of(game)
    out = [ai.basic(world, seat, rng)]
    key = ai.play_class(world, seat) if ai.play_class is not None else lambda m: m
    seen = {key(out[0])}
    for m in game.legal_moves(world):
        if m.seat != seat:
            continue
        if isinstance(m, Template):
            proposed = ai.propose(world, seat) if ai.propose is not None else []
            found = proposed or [m.sample(rng) for _ in range(TEMPLATE_CANDIDATES)]
        else:
            found = [m]
        for c in found:
            k = key(c)
            if k not in seen:
                seen.add(k)
                out.append(c)
    return out


def playout(game: Game, state, seat: int, seed: int) -> float:
    """Epsilon-basic play for every seat to the end of the deal, its rng seeded with
    `seed`, or the game's own faster playout of basic's exact play where it has one for
    the deal (which reads no rng); the seat's value."""
    ai = ai_of(game)
    if ai.playout is not None:
        fast = ai.playout(state, seat)
        if fast is not None:
            return fast
    rng = random.Random(seed)
    policy = ai.basic
    apply, legal, to_act_in = game.apply, game.legal_moves, game.to_act
    epsilon = ai.epsilon
    while (to_act := to_act_in(state)) is not None:
        if rng.random() < epsilon:
            m = rng.choice(legal(state))
            if isinstance(m, Template):
                m = m.sample(rng)
        else:
            m = policy(state, to_act, rng)
        state = apply(state, m)
    settled = game.settlement(state)
    assert settled is not None  # nobody is to act: the deal is over
    return ai.value(settled, seat)


def explaining(game: Game, view: View, n: int) -> list[int]:
    """The draws of worlds a move may spend on explaining the play in progress (a game
    with `Explain` settings that apply to the view: EXPLAIN_DRAWS a playout), as a one-item
    counter `sample` runs down."""
    explain = ai_of(game).explain
    if explain is not None and explain.applies(view):
        return [EXPLAIN_DRAWS * n]
    return [0]


def sample(game: Game, view: View, rng: random.Random, draws: list[int]) -> object:
    """A world of the view; with `Explain` settings that apply to it, one that the
    model explains when one of at most `tries` draws does and the move's draws last."""
    ai = ai_of(game)
    explain = ai.explain
    if draws[0] > 1 and explain is not None:
        world, used = explain.sample(game, view, rng, min(explain.tries, draws[0]))
        draws[0] -= used
        return world
    return game.sample(view, rng) if ai.draw is None else ai.draw(game, view, rng)


def halving(k: int, n: int, run, deadline: float) -> int:
    """Sequential Halving (Karnin, Koren and Somekh 2013) over candidates 0…k-1 with about
    n playouts: rounds of equal playouts for the candidates still in, the better half kept
    after each, ceil(log2 k) rounds sharing the budget evenly. It spends the playouts on
    telling the best candidate apart (simple regret), where UCB1 spends them on playing the
    best one often (cumulative regret). Every candidate still in plays the same worlds,
    `run(j, i)` being candidate j's playout on world i, so their totals compare like with
    like. Ties go to the lower index (basic's choice is 0). When the deadline passes, the
    best candidate on the worlds played so far is taken. Its strength against basic, in
    place of UCB1, is in bench/README.md."""
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
    ai = ai_of(game)
    if ai.exact is not None:
        exact, spent = ai.exact(game, view, n)
        if exact is not None:
            return exact
        n = max(1, int(n * (1 - spent)))
    draws = explaining(game, view, n)
    searched = ai.model(view) if ai.model is not None else view
    core = compiled(game, view)

    def first(v: View) -> object:
        """The first world: the core draws its own, so there it only lists the moves."""
        return sample(game, v, rng, draws) if core is None else game.sample(v, rng)

    try:
        worlds = [first(searched)]
    except NoWorldFits:  # no deal fits the model: the opponents did not play as it does
        searched = view
        worlds = [first(view)]
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
    if core is not None:
        left = deadline - time.perf_counter()
        return moves[core.search(game, searched, moves, n, rng.getrandbits(64),
                                 max(left, 1e-3))]

    def run(j: int, i: int) -> float:
        """Candidate j's playout on the i-th world, drawn on first use."""
        if i == len(worlds):
            worlds.append(sample(game, searched, rng, draws))
            seeds.append(rng.getrandbits(64))
        return playout(game, game.apply(worlds[i], moves[j]), seat, seeds[i])

    return moves[halving(k, n, run, deadline)]
