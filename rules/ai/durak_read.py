"""The other hand read from the bout on the table, two-player Durak without passing on: the
view keeps no history, but the bout in progress is the other seat's play of this bout, and
a club player (rules/ai/durak_club.py) leads its cheapest plain card, a rank held twice
first (D6), throws in its cheapest card of a rank on the table (D8), beats with its
cheapest beater and takes only when nothing beats (D7). A world whose other hand would
have played the bout otherwise is less likely: `draw` prefers, of a few drawn, the world
that explains the most of those moves. It reads only the view: the seat's own hand, the
table, the stock's size and trump.
"""

from __future__ import annotations

import random
from functools import lru_cache

from rules.ai.durak_playout import ORDERS, covers, lead
from rules.durak import named
from rules.game import Game, Move, View

TRIES = 6  # worlds drawn for one at most: a draw and its reading cost about a playout

LEAD, THROW, DEFEND, TAKE = range(4)


def bout_of(state) -> tuple:
    """What `checks` reads of a state: trump, the bout's attacker, the table, whether the
    defender takes, whether any stock is left (the same in the view and its worlds)."""
    s = named(state)
    return s.trump, s.attacker, s.table, s.taking, bool(s.stock)


def bout_moves(attacker: int, table: tuple, taking: bool) -> list[tuple[int, tuple, Move]]:
    """The moves of the bout on the table in the order they were made, each as (the seat
    that made it, the table before it, the move): an attack, then its defence or the take
    (D7, D10), then the next attack (D8)."""
    defender = 1 - attacker
    out: list[tuple[int, tuple, Move]] = []
    taken = False
    for i, (a, d) in enumerate(table):
        before = table[:i]
        out.append((attacker, before, Move(attacker, "attack", card=a)))
        if d >= 0:
            out.append((defender, (*before, (a, -1)), Move(defender, "defend", card=d)))
        elif not taken and taking:  # the take (D10) came right after the first unbeaten
            taken = True
            out.append((defender, (*before, (a, -1)), Move(defender, "take")))
    return out


@lru_cache(maxsize=16)
def checks(bout: tuple, seat: int) -> tuple[tuple[int, int, int, int], ...]:
    """The other seat's moves in the bout (`bout_of`) as tests of its hand, in the club
    player's bit order (rules/ai/durak_playout.py, the cheapest card the lowest bit): (what
    the move was, the cards it laid from that move on, the move's card bit, the mask it
    reads)."""
    trump, attacker, table, taking, stock_left = bout
    o = ORDERS[trump]
    bit = o.bit
    other = 1 - seat
    moves = bout_moves(attacker, table, taking)
    out = []
    for k, (who, before, move) in enumerate(moves):
        if who != other:
            continue
        later = 0
        for w, _, m in moves[k:]:
            if w == other and m.card is not None:
                later |= 1 << bit[m.card]
        if move.action == "take":
            unbeaten = before[-1][0]
            out.append((TAKE, later, 0, o.beaters[bit[unbeaten]]))
            continue
        b = 1 << bit[move.card]  # type: ignore[index]  # an attack or defence names its card
        if move.action == "defend":
            out.append((DEFEND, later, b, o.beaters[bit[before[-1][0]]]))
        elif not before:
            out.append((LEAD, later, b, o.plain if stock_left else -1))
        else:
            ranks = 0
            for a, d in before:
                ranks |= o.same_rank[bit[a]]
                if d >= 0:
                    ranks |= o.same_rank[bit[d]]
            out.append((THROW, later, b, ranks & (o.plain if stock_left else -1)))
    return tuple(out)


def explained(world, seat: int) -> int:
    """How many of the other seat's moves in the bout on the table the club player would
    have made with the world's other hand as it was then (its cards laid from that move on
    given back to it)."""
    s = named(world)
    tests = checks(bout_of(s), seat)
    if not tests:
        return 0
    o = ORDERS[s.trump]
    hand = o.carry(s.hands[1 - seat])
    count = 0
    for kind, later, b, mask in tests:
        held = hand | later
        if kind in (DEFEND, THROW):  # D7, D8: no cheaper card would have done
            count += not held & mask & (b - 1)
        elif kind == TAKE:  # D7: nothing beat the card
            count += not held & mask
        else:  # D6: the lead
            count += lead(o, held, held & mask) == b
    return count


def draw(game: Game, view: View, rng: random.Random):
    """A world of the view, the one of TRIES drawn whose other hand explains the most of its
    play in the bout on the table (the first such on a tie)."""
    best = game.sample(view, rng)
    if not named(view.public).table or not covers(view.public):
        return best
    target = len(checks(bout_of(view.public), view.seat))
    if not target:
        return best
    most = explained(best, view.seat)
    for _ in range(TRIES - 1):
        if most >= target:
            break
        world = game.sample(view, rng)
        n = explained(world, view.seat)
        if n > most:
            best, most = world, n
    return best

