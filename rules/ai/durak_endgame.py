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

from rules.ai.durak_playout import ORDERS, bout_of, covers
from rules.durak import BIT, BOUT_LIMIT, HAND_SIZE, RANK_OF, SUIT_OF, named
from rules.game import Game, Move, View

# Positions valued per playout the budget buys (`search.playout_count`): a solve of that
# many takes about SHARE of the time of the playouts, so that a solve that does not finish
# leaves the search that follows it (with SHARE fewer playouts) inside the budget. A count
# of playouts, not of milliseconds: a caller that fixes the playouts fixes the solve too.
NODES_PER_PLAYOUT = 10
# The same for a deal that rules/ai/durak_playout.py plays: its playouts are some eight
# times as fast, its solver (`Bits`) about twice as fast as the generic one.
NODES_PER_FAST_PLAYOUT = 4
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
        state = named(state)
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


class Bits:
    """The solver of `Solver` for a deal of two players without passing on (D21), on the
    bitmasks of rules/ai/durak_playout.py (the club player's cost order, so that the
    cheapest card of a mask is its lowest bit and is tried first), with every rule of
    that engine; nearly twice as many positions a second as the generic one. The
    position: both hands, the bout's attacker, the cards on the table and their ranks,
    the attacks and defences laid, the unbeaten attack, whether the defender takes, the
    one card left in the stock (the turned-up one, D2) or none, and D9's cap."""

    def __init__(self, trump: int, seat: int, nodes: int):
        self.o = ORDERS[trump]
        self.seat, self.left = seat, nodes
        self.table: dict[tuple, tuple[int, int, int]] = {}

    def children(self, h0: int, h1: int, att: int, on_table: int, ranks: int, n: int,
                 beaten: int, unbeaten: int, taking: bool, stock: int, cap: int
                 ) -> list[tuple]:
        """The positions after each move of the seat to act, cheapest card first: each as
        (the seat's action, the card's bit or 0, then the position's fields, or only
        the deal's value for seat 0 once it is over)."""
        o = self.o
        same_rank = o.same_rank
        hd = h1 if att == 0 else h0
        out: list[tuple] = []
        if unbeaten and not taking:  # D7: the defender beats the unbeaten card or takes
            m = hd & o.beaters[unbeaten.bit_length() - 1]
            while m:
                b = m & -m
                m ^= b
                nh = hd ^ b
                out.append(("defend", b, (h0, nh, att) if att == 0 else (nh, h1, att),
                            on_table | b, ranks | same_rank[b.bit_length() - 1], n,
                            beaten + 1, 0, False, stock, cap))
            out.append(("take", 0, (h0, h1, att), on_table, ranks, n, beaten, unbeaten,
                        True, stock, cap))
            return out
        ha = h0 if att == 0 else h1
        if n:
            m = ha & ranks if n < min(cap, hd.bit_count() + beaten) else 0  # D8, D9
        else:
            m = ha  # D6
        while m:
            b = m & -m
            m ^= b
            nh = ha ^ b
            out.append(("attack", b, (nh, h1, att) if att == 0 else (h0, nh, att),
                        on_table | b, ranks | same_rank[b.bit_length() - 1], n + 1, beaten,
                        b, taking, stock, cap))
        if n:
            out.append(("pass", 0, *self.end_bout(h0, h1, att, on_table, taking, stock, cap)))
        return out

    def end_bout(self, h0: int, h1: int, att: int, on_table: int, taking: bool, stock: int,
                 cap: int) -> tuple:
        """D10, D11, D12 and D14 after the attacker's pass: the next position's fields."""
        if taking:  # D10: the defender picks every card up; the attacker attacks again
            if att == 0:
                h1 |= on_table
            else:
                h0 |= on_table
        else:  # D11: beaten off; the defender attacks next
            att = 1 - att
            cap = BOUT_LIMIT
        if stock:  # D12: the bout's attacker draws first (after D11, the new defender)
            first = att if taking else 1 - att
            hands = [h0, h1]
            for s in (first, 1 - first):
                if hands[s].bit_count() < HAND_SIZE:
                    hands[s] |= stock
                    stock = 0
                    break
            h0, h1 = hands
        if not stock and not (h0 and h1):  # D14, D15: the value for seat 0
            return (0 if not (h0 or h1) else 1 if not h0 else -1),
        return (h0, h1, att), 0, 0, 0, 0, 0, False, stock, cap

    def value(self, alpha: int, beta: int, hands: tuple[int, int, int], on_table: int,
              ranks: int, n: int, beaten: int, unbeaten: int, taking: bool, stock: int,
              cap: int) -> int:
        """The position's value for `seat` within the window (alpha, beta)."""
        h0, h1, att = hands
        self.left -= 1
        if self.left < 0:
            raise OutOfNodes
        key = (h0, h1, att, on_table, beaten, unbeaten, taking, stock, cap)
        known = self.table.get(key)
        first = 0
        if known is not None:
            v, kind, first = known
            if kind == EXACT or (kind == LOWER and v >= beta) or (kind == UPPER and v <= alpha):
                return v
        a0, b0 = alpha, beta
        moves = self.children(h0, h1, att, on_table, ranks, n, beaten, unbeaten, taking,
                              stock, cap)
        if first:  # the best move of an earlier visit first: it cuts most often
            for i, m in enumerate(moves):
                if m[1] == first:
                    moves.insert(0, moves.pop(i))
                    break
        mover = 1 - att if unbeaten and not taking else att
        sign = 1 if self.seat == 0 else -1
        best_bit = 0
        if mover == self.seat:
            best = LOSS - 1
            for m in moves:
                v = m[2] * sign if len(m) == 3 else self.value(alpha, beta, *m[2:])
                if v > best:
                    best, best_bit = v, m[1]
                    alpha = max(alpha, v)
                    if alpha >= beta:
                        break
        else:
            best = WIN + 1
            for m in moves:
                v = m[2] * sign if len(m) == 3 else self.value(alpha, beta, *m[2:])
                if v < best:
                    best, best_bit = v, m[1]
                    beta = min(beta, v)
                    if alpha >= beta:
                        break
        kind = UPPER if best <= a0 else LOWER if best >= b0 else EXACT
        self.table[key] = (best, kind, best_bit)
        return best

    def root(self, state) -> tuple[tuple, list]:
        """The position of a rules state (two players, no passing on) and its moves as the
        rules name them, in the order `children` lists them."""
        o = self.o
        carry = o.carry
        state = named(state)
        h0, h1 = carry(state.hands[0]), carry(state.hands[1])
        on_table, ranks, n, beaten, unbeaten = bout_of(o, state.table)
        assert len(state.stock) <= 1  # perfect information: no hidden stock card
        stock = carry(BIT[state.stock[0]]) if state.stock else 0
        cap = state.setup.first_bout if not state.discard else BOUT_LIMIT
        position = ((h0, h1, state.attacker), on_table, ranks, n, beaten, unbeaten,
                    state.taking, stock, cap)
        mover = state.to_act
        moves = [Move(mover, m[0], card=None if not m[1] else o.card[m[1].bit_length() - 1])
                 for m in self.children(h0, h1, state.attacker, on_table, ranks, n, beaten,
                                        unbeaten, state.taking, stock, cap)]
        return position, moves


def solve(game: Game, state, seat: int, nodes: int, first: Move | None = None
          ) -> tuple[int, Move] | None:
    """The value of `state` for `seat` (to act) and a move that reaches it, `first` when it
    does (the caller's own choice, so that a tie keeps the move it would have played);
    None when the solve passes `nodes` positions."""
    state = named(state)
    if covers(state) and len(state.stock) <= 1 and state.to_act is not None:
        return _solve_bits(state, seat, nodes, first)
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


def _solve_bits(state, seat: int, nodes: int, first: Move | None
                ) -> tuple[int, Move] | None:
    solver = Bits(state.trump, seat, nodes)
    position, moves = solver.root(state)
    children = solver.children(*position[0], *position[1:])
    order = list(range(len(moves)))
    if first is not None and first in moves:
        order.remove(moves.index(first))
        order.insert(0, moves.index(first))
    sign = 1 if seat == 0 else -1
    best_i, best = order[0], LOSS - 1
    try:
        for i in order:
            m = children[i]
            v = m[2] * sign if len(m) == 3 else solver.value(max(best, LOSS - 1), WIN + 1,
                                                               *m[2:])
            if v > best:
                best, best_i = v, i
                if best == WIN:
                    break
    except OutOfNodes:
        return None
    return best, moves[best_i]


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
    per = NODES_PER_FAST_PLAYOUT if covers(world) else NODES_PER_PLAYOUT
    found = solve(game, world, seat, playouts * per)
    if found is None or found[0] == LOSS:
        return None, SHARE
    return found[1], SHARE
