"""Two-player Durak positions on bitmasks for the outside MCTS player of
bench/reference_durak.py: its own model of the game, as the thesis's program has one,
apart from the service's compiled core (rules/ai/core/durak.c). A hand is a mask of bits in
the lowest-valued-first order of the deal's trump (every plain card below every trump, by
rank, ties by card index), so that the lowest-valued card of a mask is its lowest bit.
tests/test_bench_reference_durak.py holds `Bits` to rules/durak move by move."""

from __future__ import annotations

from typing import Any

from rules.ai.durak_club import TRUMP_COST
from rules.durak import BEATERS, BOUT_LIMIT, HAND_SIZE, RANK_OF, SUIT_MASK, SUIT_OF, named
from rules.durak.cards import ALL_RANKS
from rules.game import Move

CARDS = 52


class Order:
    """One trump's order of value: a card's bit in it and the tables the play reads."""

    def __init__(self, trump: int):
        self.cost = [RANK_OF[c] + (TRUMP_COST if SUIT_OF[c] == trump else 0)
                     for c in range(CARDS)]
        self.card = sorted(range(CARDS), key=lambda c: (self.cost[c], c))  # bit -> card
        self.bit = [0] * CARDS  # card -> bit
        for b, c in enumerate(self.card):
            self.bit[c] = b
        self.trumps = self.carry(SUIT_MASK[trump])
        self.plain = ((1 << CARDS) - 1) & ~self.trumps
        rank_mask = [0] * len(ALL_RANKS)
        for b, c in enumerate(self.card):
            rank_mask[RANK_OF[c]] |= 1 << b
        self.same_rank = [rank_mask[RANK_OF[c]] for c in self.card]  # bit -> its rank's bits
        self.beaters = [self.carry(BEATERS[trump][c]) for c in self.card]  # bit -> beaters

    def carry(self, mask: int) -> int:
        """A mask of cards as a mask of bits of this order."""
        return _remap(mask, self.bit)

    def back(self, mask: int) -> int:
        """A mask of bits of this order as a mask of cards."""
        return _remap(mask, self.card)


def _remap(mask: int, to: list[int]) -> int:
    """The mask with each set bit i moved to bit to[i]."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << to[low.bit_length() - 1]
        mask ^= low
    return out


ORDERS = [Order(t) for t in range(4)]


def covers(state) -> bool:
    """The deals this engine plays: two players, no passing on (D21)."""
    state = named(state)
    return len(state.hands) == 2 and not state.setup.transfer


def bout_of(o: Order, table) -> tuple[int, int, int, int, int]:
    """The bout in progress, in `o`'s bits: its cards, their ranks, its count of attacks
    and of defences, and its (last) unbeaten attack (D7)."""
    on_table = ranks = n = beaten = unbeaten = 0
    for a, d in table:
        ba = 1 << o.bit[a]
        on_table |= ba
        ranks |= o.same_rank[o.bit[a]]
        n += 1
        if d >= 0:
            on_table |= 1 << o.bit[d]
            ranks |= o.same_rank[o.bit[d]]
            beaten += 1
        else:
            unbeaten = ba
    return on_table, ranks, n, beaten, unbeaten



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


