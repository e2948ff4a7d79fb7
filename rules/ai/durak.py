"""A plain Durak heuristic for every count and option (D16–D25): beat with the cheapest
sufficient card, save trumps, add cheap matching cards, take when beating would cost too
much, pass the attack on (D21) with a plain card rather than beat. It reads only the
seat's own hand and the public table, stock size and trump."""

from __future__ import annotations

import random

from rules.ai import durak_search
from rules.ai.durak_club import TRUMP_COST, club_move
from rules.ai.durak_endgame import core_solves, exact_move, unlost_move
from rules.ai.settings import Core, Settings
from rules.cards import bit_list
from rules.durak import (
    BEATERS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    State,
    bout_limit,
    first_unbeaten,
    named,
    table_ranks,
    transfer_cards,
)
from rules.durak.cards import ALL_RANKS
from rules.durak.game import GAME
from rules.durak.state import Named
from rules.game import Move, View

# The rank of J: trumps from here up are worth keeping while the stock lasts.
JACK = ALL_RANKS.index("J")


def _cost(card: int, trump: int) -> int:
    return RANK_OF[card] + (TRUMP_COST if SUIT_OF[card] == trump else 0)


def basic_move(state: State, seat: int, rng: random.Random) -> Move:
    state = named(state)
    if state.phase == "defend":
        return basic_defence(state, seat)
    trump, hand, table = state.trump, state.hands[seat], state.table
    if not table:
        plain = hand & ~SUIT_MASK[trump]
        return Move(seat, "attack", card=min(bit_list(plain or hand),
                                             key=lambda c: _cost(c, trump)))
    if len(table) < bout_limit(state):
        matching = [c for c in bit_list(hand & table_ranks(table))
                    if SUIT_OF[c] != trump and (RANK_OF[c] < JACK or not state.stock)]
        if matching:
            return Move(seat, "attack", card=min(matching, key=lambda c: _cost(c, trump)))
    return Move(seat, "pass")


def basic_defence(state: Named, seat: int) -> Move:
    """Pass the attack on with a plain card (D21), else beat it with the cheapest card,
    but take rather than give a high trump for plain cards while the stock lasts (D7)."""
    trump, table = state.trump, state.table
    cost = lambda c: _cost(c, trump)  # noqa: E731
    attack = table[first_unbeaten(table)][0]  # D20: the first laid first
    passing = [c for c in bit_list(transfer_cards(state, seat))
               if SUIT_OF[c] != trump] if state.setup.transfer else None
    if passing:  # D21: a plain card passes the whole attack on, at no cost
        return Move(seat, "transfer", card=min(passing, key=cost))
    beaters = bit_list(state.hands[seat] & BEATERS[trump][attack])
    if not beaters:
        return Move(seat, "take")
    best = min(beaters, key=cost)
    if state.stock and SUIT_OF[best] == trump and SUIT_OF[attack] != trump \
            and RANK_OF[best] >= JACK:
        return Move(seat, "take")  # D7: a high trump is worth more than these cards
    return Move(seat, "defend", card=best)


def value(settlement: dict, seat: int) -> float:
    """D25 (D15): the seat's score, from −(players − 1) to +1, scaled to [0, 1]."""
    players = len(settlement["scores"])
    return (settlement["scores"][seat] + players - 1) / players


def level_move(state: State, seat: int, rng: random.Random) -> Move:
    """The basic level: the club player's move with two seats and no passing on, the plain
    heuristic's otherwise."""
    s = named(state)
    if len(s.hands) == 2 and not s.setup.transfer:
        return club_move(state, seat, rng)
    return basic_move(state, seat, rng)


# The basic level's exact end: at most this many positions of the compiled solver (a few
# tens of ms at worst), past which the club player's move stands.
LEVEL_NODES = 200_000


def counting_move(state: State, seat: int, rng: random.Random) -> Move:
    """The basic level: `level_move`, and in a two-player deal once no card is hidden (the
    stock down to its turned-up card, D2, so that the other hand is every card not seen)
    the end played exactly, as a player who counts the cards plays it; `level_move`'s
    move stands where the solve does not fit or every move loses, and wherever the core is
    not built (the Python solver would take seconds). A fixed rule: the world it is given
    is the view's one deal, and no budget changes its move."""
    move = level_move(state, seat, rng)
    if len(named(state).stock) > 1 or not core_solves(state):
        return move
    return unlost_move(GAME, state, seat, LEVEL_NODES, move) or move


RATE = 0.9  # the generic playouts' rate (Settings.rate)
# The generic playout with more seats: a deal of 3 to 6 players is two to three times the
# moves of a two-player one, and RATE (set for two) would overrun the service's deadline.
SEATS_SCALE = {3: 0.45, 4: 0.33, 5: 0.33, 6: 0.33}


def rate_scale(view: View) -> float:
    """How many times the generic count of playouts fits this view's time: fewer of the
    longer deals of more seats."""
    return SEATS_SCALE.get(len(view.public.hands), 1.0)


# The compiled core's tree iterations per millisecond of budget, set so that a strong
# move's CPU time stays under its deadline on a loaded machine (bench/README.md), and their
# overhead (drawing the world, the root move) in cards' worth.
CORE_RATE = 125.0
CORE_FIXED = 6

SETTINGS = Settings(basic=level_move, value=value, rate=RATE, exact=exact_move,
                    rate_scale=rate_scale, level=counting_move,
                    core=Core(covers=durak_search.covers, search=durak_search.search,
                              rate=CORE_RATE, fixed_cost=CORE_FIXED))
