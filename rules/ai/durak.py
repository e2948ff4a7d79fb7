"""A plain Durak heuristic for every count and option (D16–D25): beat with the cheapest
sufficient card, save trumps, add cheap matching cards, take when beating would cost too
much, pass the attack on (D21) with a plain card rather than beat. It reads only the
seat's own hand and the public table, stock size and trump."""

from __future__ import annotations

import random

from rules.ai.durak_club import club_move
from rules.ai.durak_endgame import exact_move
from rules.ai.durak_playout import covers, playout
from rules.ai.settings import Explain, Settings
from rules.cards import bit_list
from rules.durak import (
    BEATERS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    State,
    bout_limit,
    first_unbeaten,
    table_ranks,
    transfer_cards,
)
from rules.durak.cards import ALL_RANKS
from rules.game import Game, Move, View

# The rank of J: trumps from here up are worth keeping while the stock lasts.
JACK = ALL_RANKS.index("J")
TRUMP_COST = 13  # above every rank: any trump costs more than any plain card


def _cost(card: int, trump: int) -> int:
    return RANK_OF[card] + (TRUMP_COST if SUIT_OF[card] == trump else 0)


def basic_move(state: State, seat: int, rng: random.Random) -> Move:
    trump, hands, stock, table = state.trump, state.hands, state.stock, state.table
    hand = hands[seat]
    cost = lambda c: _cost(c, trump)  # noqa: E731
    if state.phase == "defend":
        attack = table[first_unbeaten(table)][0]  # D20: the first laid first
        passing = [c for c in bit_list(transfer_cards(state, seat))
                   if SUIT_OF[c] != trump] if state.setup.transfer else None
        if passing:  # D21: a plain card passes the whole attack on, at no cost
            return Move(seat, "transfer", card=min(passing, key=cost))
        beaters = bit_list(hand & BEATERS[trump][attack])
        if not beaters:
            return Move(seat, "take")
        best = min(beaters, key=cost)
        if stock and SUIT_OF[best] == trump and SUIT_OF[attack] != trump \
                and RANK_OF[best] >= JACK:
            return Move(seat, "take")  # D7: a high trump is worth more than these cards
        return Move(seat, "defend", card=best)
    if not table:
        plain = hand & ~SUIT_MASK[trump]
        return Move(seat, "attack", card=min(bit_list(plain or hand), key=cost))
    if len(table) < bout_limit(state):
        matching = [c for c in bit_list(hand & table_ranks(table))
                    if SUIT_OF[c] != trump and (RANK_OF[c] < JACK or not stock)]
        if matching:
            return Move(seat, "attack", card=min(matching, key=cost))
    return Move(seat, "pass")


def value(settlement: dict, seat: int) -> float:
    """D25 (D15): the seat's score, from −(players − 1) to +1, scaled to [0, 1]."""
    players = len(settlement["scores"])
    return (settlement["scores"][seat] + players - 1) / players


def level_move(state: State, seat: int, rng: random.Random) -> Move:
    """The basic level: the club player's move with two seats and no passing on, the plain
    heuristic's otherwise."""
    if len(state.hands) == 2 and not state.setup.transfer:
        return club_move(state, seat, rng)
    return basic_move(state, seat, rng)


RATE = 0.9  # the generic playouts' rate (Settings.rate)
# The two-player engine (rules/ai/durak_playout.py): playouts per millisecond of budget from
# a fresh deal, about half of what one core runs with the search's own overhead, and that
# overhead (sampling the world, the root move, settling) in cards' worth: a playout of it
# costs about (FAST_FIXED + cards left) times the same, the overhead a larger share of a
# short playout than of a generic one (bench/README.md).
FAST_RATE = 4.0
FAST_FIXED = 11


# The generic playout with more seats: a deal of 3 to 6 players is two to three times the
# moves of a two-player one, and RATE (set for two) would overrun the service's deadline.
SEATS_SCALE = {3: 0.45, 4: 0.33, 5: 0.33, 6: 0.33}


def rate_scale(view: View) -> float:
    """How many times the generic count of playouts fits this view's time: the two-player
    engine's speed-up (search.playout_count's share of the deal, with its overhead), or
    the longer deals of more seats."""
    if not covers(view.public):
        return SEATS_SCALE.get(len(view.public.hands), 1.0)
    deck = view.public.setup.cards
    left = sum(view.hidden) + view.public.hands[view.seat].bit_count()
    generic = max(0.2, left / deck)
    fast = (FAST_FIXED + left) / (FAST_FIXED + deck)
    return FAST_RATE / RATE * generic / fast


def ruled_out(view: View) -> int:
    """The cards the other seat of a two-player deal no longer holds, had it played the
    bout on the table as the club player (and the outside greedy player) plays. As the
    defender, it beats with the cheapest card that beats (D4, D7), so it held no cheaper
    beater of an attack it beat, and it takes only when no card beats (D7, D10), so it
    holds no beater of the attack it took (the first left unbeaten: later ones were added
    after the take). As the attacker, it adds the cheapest plain card of a rank on the
    table while the stock lasts (D8), so it held no cheaper one of the ranks on the table
    before each card it added. A hand only loses cards within a bout (D12 refills after
    it). Only the bout on the table says so: the view keeps no history."""
    public = view.public
    if len(public.hands) != 2:
        return 0
    trump = public.trump
    out = 0
    if public.attacker == view.seat:
        for a, d in public.table:
            beaters = BEATERS[trump][a]
            if d >= 0:
                cost = _cost(d, trump)
                out |= sum(1 << c for c in bit_list(beaters) if _cost(c, trump) < cost)
            elif public.taking:
                out |= beaters
                break
        return out
    if not public.stock:  # no hidden card left to place: the view is of perfect information
        return 0
    for i in range(1, len(public.table)):
        cost = _cost(public.table[i][0], trump)
        plain = table_ranks(public.table[:i]) & ~SUIT_MASK[trump]
        out |= sum(1 << c for c in bit_list(plain) if _cost(c, trump) < cost)
    return out


def ruled(view: View) -> bool:
    """Whether the bout on the table rules cards out of the other hand (`ruled_out`)."""
    return covers(view.public) and view.hidden[1 - view.seat] > 0 and bool(ruled_out(view))


def sample_ruled(game: Game, view: View, rng: random.Random, tries: int) -> tuple[State, int]:
    """A world of the view in which the other hand holds none of the cards `ruled_out`
    says it does not: a world drawn as usual, each such card of the other hand swapped
    with one of the hidden stock's cards that it may hold, drawn at random (which leaves
    the other hand a uniform draw of the cards it may hold). When too few are left, the
    other seat did not play as the club player does, and the world is kept as drawn."""
    world = game.sample(view, rng)
    other = 1 - view.seat
    out = ruled_out(view)
    hidden = world.hands[other] & ~view.public.hands[other]
    wrong = bit_list(hidden & out)
    hidden_stock = len(world.stock) - len(view.public.stock)
    free = [i for i in range(hidden_stock) if not out >> world.stock[i] & 1]
    if not wrong or len(free) < len(wrong):
        return world, 1
    stock = list(world.stock)
    hand = world.hands[other]
    for c, i in zip(wrong, rng.sample(free, len(wrong)), strict=False):
        hand ^= (1 << c) | (1 << stock[i])
        stock[i] = c
    hands = list(world.hands)
    hands[other] = hand
    return world._replace(hands=tuple(hands), stock=tuple(stock)), 1


# With the other seat's play in the bout on the table, a world is drawn in which the club
# player's play explains it (`ruled_out`), at the cost of a plain draw.
SETTINGS = Settings(basic=level_move, value=value, rate=RATE, exact=exact_move,
                    playout=playout, rate_scale=rate_scale,
                    explain=Explain(tries=1, cost=1.0, sample=sample_ruled, applies=ruled))
