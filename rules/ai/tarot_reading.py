"""What the other seats' bids and play say of their hands, had they played as basic: the
search models every seat as basic, so the worlds in which basic would have bid or played
otherwise are the ones it need not weigh. It reads the seat's view only: the other hands
are a world's sample."""

from __future__ import annotations

import math
import random

from rules.ai.tarot_bidding import bid_misfit
from rules.ai.tarot_play import KING_CARDS, beats, best_card
from rules.game import NoWorldFits, View
from rules.tarot import (
    COUNTS,
    EXCUSE,
    EXCUSE_BIT,
    GAME,
    KINGS,
    ORDINARY,
    PETIT_BIT,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_SUIT,
    TRUMPS,
    TarotState,
    attack,
    led_card,
    opening_bar,
)
from rules.tarot.view import sample as view_sample

# -- what the bidding says of the hands (T4) ------------------------------------------


def hands_at_bidding(world: TarotState) -> list[int]:
    """Each seat's hand when it bid, in a whole deal: its hand now and the cards it played;
    for a taker who took the chien (T5), without the chien and with its écart."""
    n = len(world.hands)
    held = list(world.hands)
    for leader, cards, _ in world.tricks:
        for j, c in enumerate(cards):
            held[(leader + j) % n] |= 1 << c
    for j, c in enumerate(world.trick):
        held[(world.leader + j) % n] |= 1 << c
    taker = world.taker
    if taker is not None and world.chien_shown:
        held[taker] = (held[taker] | world.ecart) & ~world.chien_shown
    return held


def bids_misfit(world: TarotState, seat: int) -> float:
    """How far the other seats' hands in `world` lie from hands with which basic would have
    bid as they did (`bid_misfit`, summed): 0 when basic explains every bid."""
    n = len(world.hands)
    held = hands_at_bidding(world)
    total = 0.0
    for i, bid in enumerate(world.bids):
        s = (world.dealer + 1 + i) % n
        if s != seat:
            total += bid_misfit(held[s], world.bids[:i], bid)
    return total


def sample(game, view: View, rng: random.Random, tries: int) -> tuple[TarotState, int]:
    """A world of the view (`Game.sample`) whose hands explain the other seats' bids as
    basic would have made them: of up to `tries` draws the first that does, else the one
    that comes nearest (`bids_misfit`); and the draws made. A pass says the hand was no
    taker's, a garde that it was strong."""
    best, nearest = None, math.inf
    for i in range(1, tries + 1):
        world = read_sample(view, rng)
        misfit = bids_misfit(world, view.seat)
        if misfit < nearest:
            best, nearest = world, misfit
            if not misfit:
                return world, i
    assert best is not None
    return best, tries


def others_bid(view: View) -> bool:
    """Whether another seat has bid: what `sample` explains."""
    public = view.public
    n = len(public.hands)
    return any((public.dealer + 1 + i) % n != view.seat for i in range(len(public.bids)))


# -- what the play says of the hands (T9–T12, T22) -------------------------------------

def play_read(view: View) -> list[int]:
    """The cards each other seat cannot hold now, had it played every card so far as basic
    plays (rules/ai/tarot_play.py), one mask a seat. Reads only the tricks, which every
    seat sees. What it reads, by the play:
    - a lead of a plain card other than a King: no King it could lead (basic cashes its
      Kings first), and no lower card of that suit (basic leads the lowest of a suit);
    - a lead of a trump by a defender: no plain card it could lead, no cheaper trump;
    - the Excuse kept back in the last three tricks (T12: basic plays it there);
    - the called card not played on a trick it would have won (T22: its holder shows it);
    - against an opponent's winning card: a card that does not win, no card that would
      have (basic wins when it can) and none cheaper that it could play; a card that wins,
      no cheaper winner it could play (the Petit aside before the last card)."""
    public = view.public
    n = len(public.hands)
    taker, called = public.taker, public.called
    lacks = [0] * n
    if taker is None:
        return lacks
    late_from = COUNTS[n].hand - 3
    shown = called is None or bool(public.chien_shown >> called & 1)
    rounds = [(leader, cards) for leader, cards, _ in public.tricks]
    rounds.append((public.leader, public.trick))
    for t, (leader, cards) in enumerate(rounds):
        for j, card in enumerate(cards):
            s = (leader + j) % n
            if s != view.seat:
                if t >= late_from and card != EXCUSE:
                    lacks[s] |= EXCUSE_BIT
                before = list(cards[:j])
                if not before:
                    lacks[s] |= _lead_read(card, s, taker, called if t == 0 else None)
                else:
                    camp = attack(taker, public.partner) if shown else None
                    lacks[s] |= _follow_read(before, card, s, leader, n, taker, called,
                                             camp, j == n - 1)
            shown = shown or card == called
    return lacks


def _lead_read(card: int, seat: int, taker: int, bar_called: int | None) -> int:
    """What basic's lead of `card` says its leader lacks; `bar_called` the called card on
    the deal's first trick, whose suit T23 bars but for the card itself."""
    if card == EXCUSE:
        return 0
    barred = opening_bar(bar_called)
    if SUIT_OF[card] == TRUMP_SUIT:
        if seat == taker:
            return 0  # the taker may draw trumps with plain cards in hand
        # A defender with no plain card leads its cheapest trump.
        return (KINGS | ORDINARY) & ~barred | TRUMPS & ((1 << card) - 1) & ~PETIT_BIT
    suit = SUIT_MASK[SUIT_OF[card]]
    if card in KING_CARDS:
        return KINGS & ((1 << card) - 1) & ~barred  # the first King it holds goes first
    return (KINGS & ~barred) | (suit & ((1 << card) - 1))


def _follow_read(before: list[int], card: int, seat: int, leader: int, n: int, taker: int,
                 called: int | None, camp: int | None, last: bool) -> int:
    """What basic's answer `card` to the trick `before` says the seat lacks; `camp` the
    attack camp where every seat knows it (T22), None before the called card shows."""
    best, best_seat = best_card(before, leader, n)
    if best < 0 or card in (EXCUSE, called):
        return 0  # the called card goes on whatever it wins (T22), cheaper or not
    lacks = 0
    if called is not None and card != called and beats(called, best):
        lacks |= 1 << called  # its holder would have won with it (T22)
    if camp is not None:
        if (camp >> seat & 1) == (camp >> best_seat & 1):
            return lacks  # an ally's trick: basic feeds it or plays cheap
    elif best_seat == taker:
        return lacks  # the seat may be the partner, who would feed the taker
    if beats(card, best):
        return lacks | _cheaper_winners(card, best, last)
    led = led_card(before)
    if SUIT_OF[card] == SUIT_OF[led] != TRUMP_SUIT:
        # It followed and did not win: nothing above an opponent's card of the suit, and
        # nothing below its own.
        suit = SUIT_MASK[SUIT_OF[card]]
        if SUIT_OF[best] != TRUMP_SUIT:
            lacks |= suit & ~((2 << best) - 1)
        return lacks | (suit & ((1 << card) - 1))
    if SUIT_OF[card] == TRUMP_SUIT:
        return lacks | (TRUMPS & ((1 << card) - 1) & ~PETIT_BIT)  # its cheapest trump
    return lacks


def _cheaper_winners(card: int, best: int, last: bool) -> int:
    """The winners over `best` cheaper than `card`, which basic would have played instead
    (the Petit spared before the last card)."""
    if SUIT_OF[card] != TRUMP_SUIT:
        return SUIT_MASK[SUIT_OF[card]] & ((1 << card) - 1) & ~((2 << best) - 1)
    cheaper = TRUMPS & ((1 << card) - 1)
    if SUIT_OF[best] == TRUMP_SUIT:
        cheaper &= ~((2 << best) - 1)
    if not last:
        cheaper &= ~PETIT_BIT
    return cheaper


def read_sample(view: View, rng: random.Random) -> TarotState:
    """A world of the view whose hands hold none of the cards `play_read` rules out; the
    view's own world (`Game.sample`) where no deal fits that reading, as when a seat did
    not play as basic does."""
    try:
        return view_sample(view, rng, lacks(view))
    except NoWorldFits:
        return GAME.sample(view, rng)


# The last view read and its reading, one item replaced whole so that a thread of another
# search never pairs one view with another's reading: a search reads one view.
_read: list[tuple] = [(None, [])]


def lacks(view: View) -> list[int]:
    """`play_read(view)`, read once for the view a search reads."""
    last = _read[0]
    if last[0] is view:
        return last[1]
    read = play_read(view)
    _read[0] = (view, read)
    return read
