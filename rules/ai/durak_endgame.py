"""Exact play at the end of a two-player Durak deal.

Once no card of the stock is hidden (the stock is empty, or only the turned-up card is
left, D2), the seat knows every card: the other hand is whatever it has not seen, and the
deal is a game of perfect information. Its value, +1, 0 or -1 for the seat (D15), is found
by alpha-beta (`Solver`) with a table of the positions already valued (the same position
comes back by many orders of the same cards).

Positions come in two shapes with the same search: the rules' own states and moves
(`Rules`, any two-player deal, passing on too) and the bitmasks of
rules/ai/durak_playout.py (`Bits`, two players without passing on: some twice as many
positions a second). A search that would pass its count of positions gives up, and the
caller searches as before; the count is a function of the playouts the budget buys alone,
so the same view gives the same move whatever the machine's load.
"""

from __future__ import annotations

import random
from typing import Any

from rules.ai.durak_playout import ORDERS, bout_of, covers
from rules.durak import BOUT_LIMIT, HAND_SIZE, RANK_OF, SUIT_OF, named
from rules.game import Game, Move, View

# Positions valued per playout the budget buys (`search.playout_count`): a solve of that
# many takes about SHARE of the time of the playouts, so that a solve that does not finish
# leaves the search that follows it (with SHARE fewer playouts) inside the budget. A count
# of playouts, not of milliseconds: a caller that fixes the playouts fixes the solve too.
NODES_PER_PLAYOUT = 10
# The same for a deal that rules/ai/durak_playout.py plays: its playouts are some eight
# times as fast, its positions (`Bits`) about twice as fast as the rules' own.
NODES_PER_FAST_PLAYOUT = 4
SHARE = 0.4
# With no card hidden, the search's playouts all run in the one world there is, each
# candidate's alike: the solve may spend the budget's playouts but a few (PERFECT_SHARE of
# them), at NODES_PER_FAST_PLAYOUT / SHARE positions each (a position costs about a
# seventh of a late playout, bench/README.md), the few left for the search to rank the
# candidates by one playout each when the solve does not finish.
PERFECT_SHARE = 0.85

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


class Bits:
    """Positions of a deal of two players without passing on (D21), on the bitmasks of
    rules/ai/durak_playout.py (the club player's cost order, so that the cheapest card of
    a mask is its lowest bit and is tried first), with every rule of that engine. A
    position is a tuple: both hands, the bout's attacker, the cards on the table and their
    ranks, the attacks and defences laid, the unbeaten attack, whether the defender
    takes, the stock's cards in drawing order (the turned-up one last, D2) and D9's cap.
    A child is (the move's action and card bit, or 0, as a pair; the position after it or
    None once the deal is over; then the deal's value for seat 0)."""

    def __init__(self, trump: int):
        self.o = ORDERS[trump]

    @staticmethod
    def key(p: tuple) -> tuple:
        return p  # the ranks and the count of attacks follow from the rest

    @staticmethod
    def mover(p: tuple) -> int:
        return 1 - p[2] if p[7] and not p[8] else p[2]

    def children(self, p: Any) -> list[tuple]:
        h0, h1, att, on_table, ranks, n, beaten, unbeaten, taking, stock, cap = p
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
                out.append((("defend", b), (*((h0, nh) if att == 0 else (nh, h1)), att,
                            on_table | b, ranks | same_rank[b.bit_length() - 1], n,
                            beaten + 1, 0, False, stock, cap), 0))
            out.append((("take", 0), (h0, h1, att, on_table, ranks, n, beaten, unbeaten,
                                      True, stock, cap), 0))
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
            out.append((("attack", b), (*((nh, h1) if att == 0 else (h0, nh)), att,
                        on_table | b, ranks | same_rank[b.bit_length() - 1], n + 1,
                        beaten, b, taking, stock, cap), 0))
        if n:
            out.append((("pass", 0), *self.end_bout(h0, h1, att, on_table, taking, stock,
                                                   cap)))
        return out

    @staticmethod
    def end_bout(h0: int, h1: int, att: int, on_table: int, taking: bool,
                 stock: tuple[int, ...], cap: int) -> tuple:
        """D10, D11, D12 and D14 after the attacker's pass: the next position, or None and
        the deal's value for seat 0 (D15)."""
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
            at = 0
            for s in (first, 1 - first):
                h = hands[s]
                while h.bit_count() < HAND_SIZE and at < len(stock):
                    h |= stock[at]
                    at += 1
                hands[s] = h
            h0, h1 = hands
            stock = stock[at:]
        if not stock and not (h0 and h1):  # D14, D15
            return None, (0 if not (h0 or h1) else 1 if not h0 else -1)
        return (h0, h1, att, 0, 0, 0, 0, 0, False, stock, cap), 0

    def position(self, state) -> tuple:
        """The position of a rules state (two players, no passing on)."""
        state = named(state)
        o = self.o
        carry = o.carry
        on_table, ranks, n, beaten, unbeaten = bout_of(o, state.table)
        cap = state.setup.cap(state.discard)
        return (carry(state.hands[0]), carry(state.hands[1]), state.attacker, on_table,
                ranks, n, beaten, unbeaten, state.taking,
                tuple(1 << o.bit[c] for c in state.stock), cap)

    def root(self, state) -> tuple[tuple, list[Move], list[tuple]]:
        """The position of a rules state, its moves as the rules name them and its
        children, in the order `children` lists them."""
        p = self.position(state)
        card = self.o.card
        mover: int = named(state).to_act  # type: ignore[assignment]  # a seat is to act
        children = self.children(p)
        return p, [Move(mover, a, card=None if not b else card[b.bit_length() - 1])
                   for (a, b), _, _ in children], children


def shape_of(game: Game, state) -> Rules | Bits:
    """The faster shape that plays `state`'s deal."""
    return Bits(named(state).trump) if covers(state) else Rules(game)


class Solver:
    """The value of positions of one deal for `seat`, within `nodes` positions: one
    alpha-beta for either shape of position."""

    def __init__(self, shape: Rules | Bits, seat: int, nodes: int):
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
    shape = shape_of(game, state)
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
    if covers(world):
        share = PERFECT_SHARE
        nodes = int(playouts * NODES_PER_FAST_PLAYOUT / SHARE * share)
    else:  # the generic playouts differ (epsilon-basic): they keep most of the budget
        share = SHARE
        nodes = playouts * NODES_PER_PLAYOUT
    found = solve(game, world, seat, nodes)
    if found is None or found[0] == LOSS:
        return None, share
    return found[1], share
