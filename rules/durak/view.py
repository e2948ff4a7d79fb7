"""What a seat sees (API.md, "A View"): its own hand, the table, the discard pile (every
card of it was seen on the table), the turned-up card, the shown `trump_card` (D17) and,
when the deal keeps them, the cards each hand is known to hold; the rest as counts."""

from __future__ import annotations

import random

from rules.cards import mask_of
from rules.durak.cards import BIT, HAND_SIZE
from rules.durak.deal import first_attacker
from rules.durak.state import Named, State, plain
from rules.game import View


def known_masks(state: Named) -> tuple[int, ...]:
    """The cards each hand is seen to hold, as masks (none when the deal keeps no list)."""
    if state.known is None:
        return (0,) * len(state.hands)
    return tuple(mask_of(cards) for cards in state.known)


def observe(state: Named, seat: int) -> View:
    """hidden = (one count a seat: the cards of its hand not seen, 0 for the seat's own;
    then the stock but its turned-up last card)."""
    hands, stock = state.hands, state.stock
    seen = known_masks(state)
    public_hands = tuple(h if s == seat else seen[s] for s, h in enumerate(hands))
    hidden = tuple(0 if s == seat else h.bit_count() - seen[s].bit_count()
                   for s, h in enumerate(hands))
    public = state._replace(hands=public_hands, stock=stock[-1:])
    return View(seat, public, (*hidden, max(0, len(stock) - 1)), state.phase, state.to_act)


# Shuffles at most for a world of a view as dealt whose first attacker is the view's.
DEAL_TRIES = 1000


def sample(view: View, rng: random.Random) -> State:
    """The unseen cards shuffled into the other hands and the stock: the view says nothing
    more of them, but as dealt, nothing played: then the attacker holds the lowest trump
    of the hands (D5), and a world is shuffled again until its attacker does."""
    public = view.public
    hands, stock = public.hands, public.stock
    seen = public.discard
    for h in hands:
        seen |= h
    for a, d in public.table:
        seen |= BIT[a] | BIT[d]
    for c in stock:
        seen |= BIT[c]
    pile = []
    unseen = public.setup.deck & ~seen
    while unseen:
        low = unseen & -unseen
        pile.append(low.bit_length() - 1)
        unseen ^= low
    tries = DEAL_TRIES if as_dealt(view) else 1
    for _ in range(tries):
        rng.shuffle(pile)
        dealt = list(hands)
        at = 0
        for s in range(len(hands)):
            n = view.hidden[s]
            if n:
                dealt[s] |= mask_of(pile[at:at + n])
                at += n
        if tries == 1 or first_attacker(tuple(dealt), public.trump) == public.attacker:
            break
    return plain(public._replace(hands=tuple(dealt), stock=(*pile[at:], *stock)))


def as_dealt(view: View) -> bool:
    """Nothing played yet: no card on the table or discarded, the stock whole, six a hand."""
    public = view.public
    players = len(public.hands)
    return (not public.discard and not public.table and not public.out
            and len(public.stock) + view.hidden[-1] == public.setup.cards - HAND_SIZE * players
            and all(h.bit_count() + view.hidden[s] == HAND_SIZE
                    for s, h in enumerate(public.hands)))
