"""Exact play at the end of a two-player Durak deal.

Once no card of the stock is hidden (the stock is empty, or only the turned-up card is
left, D2), the seat knows every card: the other hand is whatever it has not seen, and the
deal is a game of perfect information. Its value, +1, 0 or -1 for the seat (D15), is found
by alpha-beta over the moves of the rules themselves (`Game.legal_moves`, `Game.apply`),
with a table of the positions already valued (the same position comes back by many orders
of the same cards). A search that would pass its count of positions gives up, and the
caller searches as before; the count is a function of the playouts the budget buys alone,
so the same view gives the same move whatever the machine's load.
"""

from __future__ import annotations

import random

from rules.durak import RANK_OF, SUIT_OF
from rules.game import Game, Move, View

# Positions valued per playout the budget buys (`search.playout_count`): a solve of that
# many takes about SHARE of the time of the playouts, so that a solve that does not finish
# leaves the search that follows it (with SHARE fewer playouts) inside the budget. A count
# of playouts, not of milliseconds: a caller that fixes the playouts fixes the solve too.
NODES_PER_PLAYOUT = 10
SHARE = 0.4

WIN, DRAW, LOSS = 1, 0, -1
EXACT, LOWER, UPPER = 0, 1, 2


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


class Solver:
    """The value of positions of one deal for `seat`, within `nodes` positions."""

    def __init__(self, game: Game, seat: int, nodes: int):
        self.game, self.seat, self.left = game, seat, nodes
        self.table: dict[tuple, tuple[int, int]] = {}

    def value(self, state, alpha: int, beta: int) -> int:
        game, seat = self.game, self.seat
        if state.to_act is None:
            settled = game.settlement(state)
            assert settled is not None
            return settled["scores"][seat]
        self.left -= 1
        if self.left < 0:
            raise OutOfNodes
        # Every field that decides the play from here: not the discard (out of play, D11)
        # nor the cards seen (no card is hidden any more).
        key = (state.hands, state.stock, state.attacker, state.table, state.taking,
               state.to_act, state.out)
        known = self.table.get(key)
        if known is not None:
            v, kind = known
            if kind == EXACT or (kind == LOWER and v >= beta) or (kind == UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        moves = _ordered(_listed(game, state), state.trump)
        if state.to_act == seat:
            best = LOSS - 1
            for m in moves:
                v = self.value(game.apply(state, m), alpha, beta)
                if v > best:
                    best = v
                    alpha = max(alpha, v)
                    if alpha >= beta:
                        break
        else:
            best = WIN + 1
            for m in moves:
                v = self.value(game.apply(state, m), alpha, beta)
                if v < best:
                    best = v
                    beta = min(beta, v)
                    if alpha >= beta:
                        break
        kind = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        self.table[key] = (best, kind)
        return best


def solve(game: Game, state, seat: int, nodes: int, first: Move | None = None
          ) -> tuple[int, Move] | None:
    """The value of `state` for `seat` (to act) and a move that reaches it, `first` when it
    does (the caller's own choice, so that a tie keeps the move it would have played);
    None when the solve passes `nodes` positions."""
    solver = Solver(game, seat, nodes)
    moves = _ordered(_listed(game, state), state.trump)
    if first is not None and first in moves:
        moves.remove(first)
        moves.insert(0, first)
    best_move, best = moves[0], LOSS - 1
    try:
        for m in moves:
            # A window just above the best so far: only a strictly better move replaces it.
            v = solver.value(game.apply(state, m), max(best, LOSS - 1), WIN + 1)
            if v > best:
                best, best_move = v, m
                if best == WIN:
                    break
    except OutOfNodes:
        return None
    return best, best_move


def exact_move(game: Game, view: View, playouts: int) -> tuple[Move | None, float]:
    """Exact play when the view is of perfect information: the move, when the solve fits
    the count of positions `playouts` give and the seat does not lose against best play; else
    None, and the share of the budget the attempt may have spent (0 when the view is not of
    perfect information). A lost position is left to the search, which plays for the
    opponent's mistakes where exact play would give every move up as lost."""
    if not perfect(view):
        return None, 0.0
    # One world only: the unseen cards all lie in the other hand, whatever their order.
    world = game.sample(view, random.Random(0))
    seat = view.seat
    own = _listed(game, world)
    if len(own) == 1:
        return own[0], 0.0
    found = solve(game, world, seat, playouts * NODES_PER_PLAYOUT)
    if found is None or found[0] == LOSS:
        return None, SHARE
    return found[1], SHARE
