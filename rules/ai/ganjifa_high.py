"""The high player, a second model of an opponent beside basic: it takes a trick with the
highest card it may play when that card takes it, else plays its lowest; it leads its
highest card, never a Dukal, and answers one with its lowest cards (as basic does). Many
trick-taking programs play so (the "Standard" player of card-game apps); a seat whose
history basic's play does not explain and this play does is modelled as such in the
search's worlds and playouts (rules/ai/ganjifa_reading.py `reading`).

`high_lacks` reads the history as this play, as `lacks_by_basic` reads it as basic's: the
cards each seat held none of when it played, which it lacks now, and the seats whose
later play contradicts that. It reads only what the searching seat sees."""

from __future__ import annotations

from rules.ai.ganjifa_basic import cheapest_cards, cost
from rules.cards import bit_list
from rules.game import Move
from rules.ganjifa import (
    AFTER,
    BEATERS,
    DECK,
    PLAYERS,
    RAJAS,
    SUIT_MASK,
    SUIT_OF,
    GanjifaState,
    follow_options,
    opening,
)


def high_move(state: GanjifaState, seat: int) -> Move:
    """The high player's move (the rules' state, its seat to act)."""
    trump, trick, hand = state.trump, state.trick, state.hands[seat]
    if state.dukal is not None:
        return Move(seat, "discard",
                    cards=cheapest_cards(hand, state.dukal.cards.bit_count(), trump))
    if not trick and opening(state):
        return Move(seat, "play", card=RAJAS[trump])  # G5
    cards = bit_list(follow_options(hand, SUIT_OF[trick[0]], trump) if trick else hand)
    top = max(cards, key=lambda c: cost(c, trump))  # the first of equals: the lower index
    if trick and not BEATERS[trump][_best(trump, trick)] >> top & 1:
        return Move(seat, "play", card=min(cards, key=lambda c: cost(c, trump)))
    return Move(seat, "play", card=top)


def _best(trump: int, trick: tuple[int, ...]) -> int:
    """The card winning the trick so far (G7)."""
    best = trick[0]
    for c in trick[1:]:
        if BEATERS[trump][best] >> c & 1:
            best = c
    return best


def _preferred(trump: int) -> tuple[int, ...]:
    """For each card, the cards the high player's `max` takes before it: the higher ones,
    and those as high of a lower index."""
    out = []
    for c in range(len(DECK)):
        key = (-cost(c, trump), c)
        out.append(sum(1 << x for x in range(len(DECK)) if (-cost(x, trump), x) < key))
    return tuple(out)


PREFERRED = tuple(_preferred(t) for t in range(len(SUIT_MASK)))


def _follow_lacks(trump: int, best: int, card: int, led: int) -> int:
    """What a follower playing `card` on a trick led in `led` and won so far by `best`
    held none of, had it played as the high player: taking, no card it might play above
    `card`; not taking, none that takes and none it might play below `card`."""
    beaters = BEATERS[trump]
    suit = SUIT_OF[card]
    trumps = SUIT_MASK[trump]
    below = ~PREFERRED[trump][card] & ~(1 << card) & SUIT_MASK[suit]
    if beaters[best] >> card & 1:
        return PREFERRED[trump][card] & SUIT_MASK[suit]
    takers = beaters[best] & (SUIT_MASK[led] | trumps)
    if suit == led:
        return takers & SUIT_MASK[led] | below
    if suit == trump:  # its lowest option a trump: no plain suit came first (G6)
        skipped = 0
        for s in AFTER[led]:
            if s == trump:
                break
            skipped |= SUIT_MASK[s]
        return skipped | below | takers & trumps
    return takers & trumps | below


def _trick_lacks(trump: int, seat: int, t: int, leader: int, cards: tuple[int, ...]
                 ) -> list[tuple[int, int]]:
    """What each seat but `seat` held none of at trick t, as (seat, cards): its lead the
    highest of its hand (not the opening's, G5), each follow `_follow_lacks`."""
    out = []
    if t and leader != seat:
        out.append((leader, PREFERRED[trump][cards[0]]))
    best = cards[0]
    for j in range(1, len(cards)):
        s = (leader + j) % PLAYERS
        if s != seat:
            out.append((s, _follow_lacks(trump, best, cards[j], SUIT_OF[cards[0]])))
        if BEATERS[trump][best] >> cards[j] & 1:
            best = cards[j]
    return out


def high_lacks(public: GanjifaState, seat: int) -> tuple[list[int], tuple[bool, ...]]:
    """The cards each other seat cannot hold now had it played the history as the high
    player, and the seats whose play contradicts it (a Dukal led, or a card played after a
    trick where it should have held none of it)."""
    trump = public.trump
    lacks = [0, 0, 0]
    unlike = [False, False, False]
    played = [0, 0, 0]  # from the trick at hand on

    def lack(s: int, cards: int) -> None:
        if cards & played[s]:
            unlike[s] = True
        lacks[s] |= cards

    for d in public.dukals or ():
        unlike[d.seat] = True
    if public.dukal is not None:
        unlike[public.dukal.seat] = True
    tricks = [(t, *trick[:2]) for t, trick in enumerate(public.tricks or ())]
    if public.trick:
        tricks.append((len(tricks), public.leader, public.trick))
    for t, leader, cards in reversed(tricks):
        for j, card in enumerate(cards):
            played[(leader + j) % PLAYERS] |= 1 << card
        for s, cards_lacked in _trick_lacks(trump, seat, t, leader, cards):
            lack(s, cards_lacked)
    return [0 if unlike[s] or s == seat else lacks[s] for s in range(PLAYERS)], tuple(unlike)
