"""Exact play at the end of a two-player Durak deal.

Once no card of the stock is hidden (the stock is empty, or only the turned-up card is
left, D2), the seat knows every card: the other hand is whatever it has not seen, and the
deal is a game of perfect information. Its value, +1, 0 or -1 for the seat (D15), is found
by alpha-beta (`Solver`) with a table of the positions already valued (the same position
comes back by many orders of the same cards).

Two players without passing on are solved by the compiled core (rules/ai/core/durak.c,
the same alpha-beta on bitmasks, some hundred times as fast); a deal with passing on (D21),
or any deal where the core is not built, by the same search over the rules' own states
and moves (`Rules`). A search that would pass its count of positions gives up, and the
caller searches as before; the count is a function of the playouts the budget buys alone,
so the same view gives the same move whatever the machine's load.
"""

from __future__ import annotations

import random
from typing import Any

from rules.ai import durak_search
from rules.ai.native import CORE
from rules.durak import RANK_OF, SUIT_OF, named
from rules.game import Game, Move, View

# Positions valued per playout the budget buys (`search.playout_count`): a solve of that
# many takes about SHARE of the time of the playouts, so that a solve that does not finish
# leaves the search that follows it (with SHARE fewer playouts) inside the budget. A count
# of playouts, not of milliseconds: a caller that fixes the playouts fixes the solve too.
NODES_PER_PLAYOUT = 10
SHARE = 0.4
# The core's positions against its playouts: a position costs about a third of a late
# playout (bench/README.md). With no card hidden, the search's playouts all run in the one
# world there is, each candidate's alike: the solve may spend the budget's playouts but a
# few (PERFECT_SHARE of them), the few left for the search to rank the candidates by one
# playout each when the solve does not finish.
NODES_PER_CORE_PLAYOUT = 3
PERFECT_SHARE = 0.85

WIN, DRAW, LOSS = 1, 0, -1
EXACT, LOWER, UPPER = 0, 1, 2


def core_solves(state) -> bool:
    """Whether the compiled core solves the deal: two players without passing on (D21)."""
    s = named(state)
    return CORE is not None and len(s.hands) == 2 and not s.setup.transfer


class OutOfNodes(Exception):
    """The solve passed its count of positions."""


def perfect(view: View) -> bool:
    """Two seats and no hidden card in the stock: the other hand is every unseen card."""
    return len(view.public.hands) == 2 and view.hidden[-1] == 0


def _ordered(moves: list[Move], trump: int) -> list[Move]:
    """Cheap cards first, taking and passing last: the move a player tries first is most
    often the best, and alpha-beta cuts most when the best comes first."""
    def key(m: Move) -> tuple[int, int, int]:
        if m.card is None:
            return (2, 0, 0)
        return (0, SUIT_OF[m.card] == trump, RANK_OF[m.card])
    return sorted(moves, key=key)


def _listed(game: Game, state) -> list[Move]:
    """The moves of the seat to act (Durak lists no template)."""
    return [m for m in game.legal_moves(state) if isinstance(m, Move)]


class Rules:
    """Positions as the rules' states (any two-player deal): a child is (the move, the
    state after it or None once the deal is over, then the deal's value for seat 0)."""

    def __init__(self, game: Game):
        self.game = game

    def root(self, state) -> tuple[Any, list[Move], list[tuple]]:
        """The position of a rules state, its moves and its children, in one order."""
        state = named(state)
        children = self.children(state)
        return state, [c[0] for c in children], children

    @staticmethod
    def key(state) -> tuple:
        # Every field that decides the play from here: not the discard (out of play, D11)
        # nor the cards seen (no card is hidden any more).
        return (state.hands, state.stock, state.attacker, state.table, state.taking,
                state.to_act, state.out)

    @staticmethod
    def mover(state) -> int:
        return state.to_act

    def children(self, state) -> list[tuple]:
        game = self.game
        out: list[tuple] = []
        for m in _ordered(_listed(game, state), state.trump):
            after = named(game.apply(state, m))  # positions are read by name
            if after.to_act is None:
                settled = game.settlement(after)
                assert settled is not None  # nobody is to act: the deal is over
                out.append((m, None, settled["scores"][0]))
            else:
                out.append((m, after, 0))
        return out


class Solver:
    """The value of positions of one deal for `seat`, within `nodes` positions, over the
    rules' own states (`Rules`)."""

    def __init__(self, shape: Rules, seat: int, nodes: int):
        self.shape, self.seat, self.left = shape, seat, nodes
        self.sign = 1 if seat == 0 else -1
        self.table: dict[tuple, tuple[int, int, object]] = {}

    def value(self, p, alpha: int, beta: int) -> int:
        """The position's value for `seat` within the window (alpha, beta)."""
        self.left -= 1
        if self.left < 0:
            raise OutOfNodes
        shape = self.shape
        key = shape.key(p)
        known = self.table.get(key)
        first = None
        if known is not None:
            v, kind, first = known
            if kind == EXACT or (kind == LOWER and v >= beta) or (kind == UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        moves = shape.children(p)
        if first is not None:  # the best move of an earlier visit first: it cuts most often
            for i, m in enumerate(moves):
                if m[0] == first:
                    moves.insert(0, moves.pop(i))
                    break
        sign = self.sign
        best_move = None
        if shape.mover(p) == self.seat:
            best = LOSS - 1
            for m in moves:
                v = m[2] * sign if m[1] is None else self.value(m[1], alpha, beta)
                if v > best:
                    best, best_move = v, m[0]
                    alpha = max(alpha, v)
                    if alpha >= beta:
                        break
        else:
            best = WIN + 1
            for m in moves:
                v = m[2] * sign if m[1] is None else self.value(m[1], alpha, beta)
                if v < best:
                    best, best_move = v, m[0]
                    beta = min(beta, v)
                    if alpha >= beta:
                        break
        kind = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        self.table[key] = (best, kind, best_move)
        return best

    def child_value(self, child: tuple, alpha: int = LOSS - 1, beta: int = WIN + 1) -> int:
        """A root move's value for `seat`, from `children`'s entry for it."""
        return child[2] * self.sign if child[1] is None else self.value(child[1], alpha, beta)


def solve(game: Game, state, seat: int, nodes: int, first: Move | None = None
          ) -> tuple[int, Move] | None:
    """The value of `state` for `seat` (to act) and a move that reaches it, `first` when it
    does (the caller's own choice, so that a tie keeps the move it would have played);
    None when the solve passes `nodes` positions."""
    if core_solves(state):
        assert CORE is not None  # core_solves said so
        found = CORE.durak_solve(durak_search.position(state), seat, nodes,
                                 None if first is None else durak_search.pair(first))
        if found is None:
            return None
        (action, card) = found[1]
        return found[0], Move(seat, action, card=None if card < 0 else card)
    shape = Rules(game)
    solver = Solver(shape, seat, nodes)
    _, moves, children = shape.root(state)
    order = list(range(len(moves)))
    if first is not None and first in moves:
        order.remove(moves.index(first))
        order.insert(0, moves.index(first))
    try:
        # Null windows, the cheapest searches: is any move a win, else any a draw? A bound
        # learnt in the first pass stays in the table for the second.
        for target in (WIN, DRAW):
            for i in order:
                if solver.child_value(children[i], target - 1, target) >= target:
                    return target, moves[i]
    except OutOfNodes:
        return None
    return LOSS, moves[order[0]]


def exact_move(game: Game, view: View, playouts: int) -> tuple[Move | None, float]:
    """Exact play when the view is of perfect information: the move, when the solve fits
    the count of positions `playouts` give and the seat does not lose against best play;
    else None, and the share of the budget the attempt may have spent (0 when the view is
    not of perfect information). A lost position is left to the search, which plays for
    the opponent's mistakes where exact play would give every move up as lost."""
    if not perfect(view):
        return None, 0.0
    # One world only: the unseen cards all lie in the other hand, whatever their order.
    world = game.sample(view, random.Random(0))
    seat = view.seat
    own = _listed(game, world)
    if len(own) == 1:
        return own[0], 0.0
    if core_solves(world):
        share = PERFECT_SHARE
        nodes = int(playouts * NODES_PER_CORE_PLAYOUT * share)
    else:  # the generic playouts differ (epsilon-basic): they keep most of the budget
        share = SHARE
        nodes = playouts * NODES_PER_PLAYOUT
    return unlost_move(game, world, seat, nodes), share


def unlost_move(game: Game, state, seat: int, nodes: int, first: Move | None = None
                ) -> Move | None:
    """`solve`'s move where it fits in `nodes` positions and the seat does not lose
    against best play, else None: a lost position is left to the caller's own play, which
    counts on the other seat's mistakes where exact play gives every move up as lost."""
    found = solve(game, state, seat, nodes, first)
    return None if found is None or found[0] == LOSS else found[1]
