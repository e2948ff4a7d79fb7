"""What a seat sees of a Ganjifa state, and the states it could be in."""

from __future__ import annotations

import random

from rules.cards import bit_list, mask_of
from rules.game import NoWorldFits, View
from rules.ganjifa.cards import DECK, PLAYERS, RAJAS, SUIT_OF
from rules.ganjifa.state import GanjifaState, opening
from rules.ganjifa.tricks import SHOWN_VOID
from rules.worlds import deal_hidden


def observe(state: GanjifaState, seat: int) -> View:
    """The seat's hand and everything played: the captured piles, the trick, a pending
    Dukal and its answers; the other two hands as counts. hidden = (hand 0, 1, 2)."""
    hands = [0] * PLAYERS
    hands[seat] = state.hands[seat]
    hidden = tuple(0 if s == seat else state.hands[s].bit_count() for s in range(PLAYERS))
    public = state._replace(hands=tuple(hands))
    return View(seat, public, hidden, state.phase, state.to_act)

def hidden_places(view: View) -> tuple[int, list[int]]:
    """The cards the seat has not seen, and the cards each seat may hold: a follower who
    did not follow the led suit lacks it, and lacks every suit it skipped on the way to
    the one it played unless it trumped (G6), in the trick in progress and in the
    completed tricks when the state gives them; before the opening lead the trump Raja
    is the leader's (G5)."""
    public = view.public
    seen = public.hands[0] | public.hands[1] | public.hands[2]
    seen |= public.captured[0] | public.captured[1] | public.captured[2]
    voids = public.voids
    allowed = [DECK.full & ~voids[0], DECK.full & ~voids[1], DECK.full & ~voids[2]]
    trick, trump = public.trick, public.trump
    for i, c in enumerate(trick):
        seen |= 1 << c
        if i:
            s = (public.leader + i) % PLAYERS
            allowed[s] &= ~SHOWN_VOID[trump][SUIT_OF[trick[0]]][SUIT_OF[c]]
    dukal = public.dukal
    if dukal is not None:
        seen |= dukal.cards
        for m in dukal.discards:
            seen |= m
    raja = 1 << RAJAS[trump]
    if opening(public) and not trick and dukal is None and not seen & raja:
        for s in range(PLAYERS):
            if s != public.leader:
                allowed[s] &= ~raja  # G5: the holder of the trump Raja leads
    return DECK.full & ~seen, allowed


def sample(view: View, rng: random.Random) -> GanjifaState:
    """The unseen cards dealt between the other two hands, each within what it may hold
    (`hidden_places`)."""
    public = view.public
    unseen, allowed = hidden_places(view)
    hidden = view.hidden
    first, second = (s for s in range(PLAYERS) if s != view.seat)
    # Two hands share the unseen cards: a card that only one of them may hold is that
    # one's, and the others go to the first hand as a uniform draw of the room left
    # there, the rest to the second: a uniform deal among those that fit the view.
    only = unseen & ~allowed[second]
    free = unseen & allowed[second] & allowed[first]
    room = hidden[first] - only.bit_count()
    if (hidden[view.seat] or unseen & ~allowed[first] & ~allowed[second]
            or room < 0 or room > free.bit_count()
            or hidden[first] + hidden[second] != unseen.bit_count()):
        dealt = deal_hidden(bit_list(unseen), list(hidden), allowed, rng)
        if dealt is None:
            raise NoWorldFits("no deal of the hidden cards fits this view")
        hands = tuple(public.hands[s] | dealt[s] for s in range(PLAYERS))
        return public._replace(hands=hands)
    pool = bit_list(free)
    if 2 * room <= len(pool):
        mine = only | mask_of(rng.sample(pool, room))
    else:
        mine = only | free & ~mask_of(rng.sample(pool, len(pool) - room))
    dealt = list(public.hands)
    dealt[first] |= mine
    dealt[second] |= unseen & ~mine
    return public._replace(hands=tuple(dealt))
