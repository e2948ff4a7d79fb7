"""A plain French Tarot heuristic for 3, 4 and 5 players, the basic level and the model of
every seat in the strong level's playouts: bid from hand strength scaled to the hand's size
and call a King it lacks (rules/ai/tarot_bidding.py), discard to make voids and show the
largest poignée (rules/ai/tarot_ecart.py), and play to win tricks cheaply, feed points to a
seat of its camp that is winning and throw the cheapest card otherwise
(rules/ai/tarot_play.py). It reads only what its seat may see: its own hand (and, as taker,
its own écart), the bids, the call, the shown chien, the poignées and the tricks played.

The strong level searches in the compiled core (rules/ai/tarot_search.py), over worlds read
from the bids and the play as basic would have made them (rules/ai/tarot_reading.py)."""

from __future__ import annotations

import random

from rules.ai import tarot_search
from rules.ai.settings import Core, Explain, Settings
from rules.ai.tarot_bidding import bid, call
from rules.ai.tarot_ecart import announce, discard, ecart_options, poignee
from rules.ai.tarot_play import play
from rules.ai.tarot_reading import others_bid, read_sample, sample
from rules.game import Move, View
from rules.tarot import TarotState


def basic_move(state: TarotState, seat: int, rng: random.Random) -> Move:
    """Basic's move in every phase; it reads no rng (the API's levels all take one)."""
    phase = state.phase
    if phase == "bidding":
        return bid(state, seat)
    if phase == "call":
        return call(state, seat)
    if phase == "discard":
        return discard(state, seat)
    if phase == "chelem":
        return Move(seat, "chelem", announce=announce(state.hands[seat]))
    return poignee(state, seat) or play(state, seat)


# Past any score a deal can give a seat (T17, T24: a garde contre with a chelem, a poignée
# and the Petit at the end, taken alone against four defenders, is about ±4,000).
SCORE_SPAN = 4000


def value(settlement: dict, seat: int) -> float:
    """T17, T24: the seat's score mapped linearly onto [0, 1], so that the search ranks the
    candidates by their mean score, what a seat plays for over a session. (A squashed score
    made a taker's big win and a small one look alike.)"""
    return min(1.0, max(0.0, 0.5 + settlement["scores"][seat] / (2 * SCORE_SPAN)))


# The playouts per millisecond of budget by the count of players (T18), as a factor on the
# four players' rate, so that each count's strong move takes about the same CPU: three
# players sample a world fastest, five slowest (more hidden places to deal to),
# bench/README.md.
RATE_SCALE = {3: 1.3, 4: 1.0, 5: 0.75}
# The bid (T4) gets half as many playouts again: it sets the deal's stake and comes once a
# deal, so its dearer search moves the CPU per move little but the score more
# (bench/README.md).
BID_SCALE = 1.5


def rate_scale(view: View) -> float:
    scale = RATE_SCALE[len(view.public.hands)]
    return scale * BID_SCALE if view.phase == "bidding" else scale


# The compiled core's playouts per millisecond of budget from a fresh deal, and their
# overhead (drawing the world, settling) in cards' worth: set so that a strong move's CPU
# p99 is about three quarters of the deadline at 200 ms (bench/README.md). Its rate by the
# count of players: three players' playouts are the shortest.
CORE_RATE = 72.0
CORE_FIXED = 40
CORE_SCALE = {3: 1.15, 4: 1.0, 5: 0.7}


def core_scale(view: View) -> float:
    scale = CORE_SCALE[len(view.public.hands)]
    return scale * BID_SCALE if view.phase == "bidding" else scale


# Without the core (rules/ai/native.py) the generic playouts play basic through the rules,
# about 0.4 ms from a fresh deal: half the rate of the Python bitmask playout they replace
# (kept only for this fallback, it was a second twin of the core's). A playout from a late
# move is shorter but not by its cards alone: sampling a world (the more voids shown, the
# dearer) and settling cost about 40 cards' worth, which keeps late moves within the
# deadline. Reading the bids (`sample`) draws up to 4 worlds for one and costs the search
# 2.4 times the CPU a playout would; but one such world serves every candidate still in,
# so the rate is set for the budget's CPU as measured, not as that cost model predicts
# (bench/README.md).
SETTINGS = Settings(basic=basic_move, value=value, rate=0.42, fixed_cost=40, epsilon=0.0,
                    rate_scale=rate_scale, propose=ecart_options,
                    draw=lambda game, view, rng: read_sample(view, rng),
                    explain=Explain(tries=4, cost=2.4, sample=sample, applies=others_bid),
                    core=Core(covers=tarot_search.covers, search=tarot_search.search,
                              rate=CORE_RATE, fixed_cost=CORE_FIXED, rate_scale=core_scale))
