"""What the history of a Ganjifa deal says of the other hands, read as basic's play
(rules/ai/ganjifa_basic.py): the cards each other seat cannot hold now (`lacks_by_basic`),
what per-card lacks cannot say (clauses), the seats whose play was no basic's, the Dukals a
seat that led a card cannot hold (`led_since`), and whether basic explains the trick in
progress (`explains`). The search draws its worlds under this reading: the compiled core
from the masks and clauses `reading` gives (rules/ai/ganjifa_search.py), the Python
fallback with `misfits` and `explains` themselves."""

from __future__ import annotations

from rules.ai.ganjifa_basic import basic_move, cost, unseen_by
from rules.ai.ganjifa_high import high_move
from rules.cards import bit_list
from rules.ganjifa import (
    AFTER,
    BEATERS,
    DECK,
    MANTRI_BITS,
    PIP_BITS,
    PLAYERS,
    SUIT_COUNT,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SIZE,
    GanjifaState,
    opening,
)

BASIC, HIGH = 0, 1  # an opponent's models: basic's play, the high player's


def _picked_before(trump: int) -> tuple[int, ...]:
    """For each card, the cards basic would pick before it as its cheapest (`_cost`, ties
    to the lower index, as `min` and a stable sort over `bit_list` break them)."""
    order = sorted(range(len(DECK)), key=lambda c: (cost(c, trump), c))
    before = [0] * len(DECK)
    mask = 0
    for c in order:
        before[c] = mask
        mask |= 1 << c
    return tuple(before)


PICKED_BEFORE = tuple(_picked_before(t) for t in range(len(SUIT_MASK)))


def _in_progress(public: GanjifaState) -> tuple[list[int], list[tuple[int, int]]]:
    """The cards each seat played to the trick and the Dukal in progress, and every answer
    to a Dukal, captured or pending, as (seat, cards)."""
    played = [0, 0, 0]
    for i, card in enumerate(public.trick):
        played[(public.leader + i) % PLAYERS] |= 1 << card
    answers = [((d.seat + 1 + j) % PLAYERS, m) for d in public.dukals or ()
               for j, m in enumerate(d.discards)]
    if public.dukal is not None:
        d = public.dukal
        played[d.seat] |= d.cards
        for j, m in enumerate(d.discards):
            played[(d.seat + 1 + j) % PLAYERS] |= m
            answers.append(((d.seat + 1 + j) % PLAYERS, m))
    return played, answers


class _Reading:
    """`lacks_by_basic`'s walk back through the completed tricks, newest first: what each
    seat played from the trick at hand on (`played`), and what it lacks."""

    def __init__(self, public: GanjifaState, seat: int):
        self.seat = seat
        self.trump = public.trump
        self.before = PICKED_BEFORE[public.trump]
        self.beaters = BEATERS[public.trump]
        self.lacks = [0, 0, 0]
        self.unlike_basic = [False, False, False]
        # Lacks one seat's play puts on another, (source, seat, cards): they hold only if
        # the source played as basic, which the walk may disprove later (`lacks_by_basic`).
        self.lacks_of_others: list[tuple[int, int, int]] = []
        # What per-card lacks cannot say, for `misfits`: (s, cards, above, held): seat s
        # holds none of `cards` unless the other seat holds one of `above` (all unseen),
        # or with `held`, none of `cards` if the other seat holds one of `above`.
        self.clauses: list[tuple[int, int, int, bool]] = []
        self.hand = public.hands[seat]
        self.unseen = unseen_by(public, seat)
        self.played, self.answers = _in_progress(public)
        self.tricks = public.tricks or ()
        # The cards gone before each trick, and each seat's cards in captured Dukals
        # (played before or after any given trick: the history does not say).
        prior = [0] * (len(self.tricks) + 1)
        for t, (_, cards, _) in enumerate(self.tricks):
            prior[t + 1] = prior[t] | 1 << cards[0] | 1 << cards[1] | 1 << cards[2]
        self.prior = prior
        in_dukals = [0, 0, 0]
        for d in public.dukals or ():
            in_dukals[d.seat] |= d.cards
            for j, m in enumerate(d.discards):
                in_dukals[(d.seat + 1 + j) % PLAYERS] |= m
        self.in_dukals = in_dukals
        self.undated = in_dukals[0] | in_dukals[1] | in_dukals[2]

    def lack(self, s: int, cards: int) -> None:
        """Seat s held none of `cards` at the trick at hand: it holds none now, and one it
        played since says it is no basic player."""
        if cards & self.played[s]:
            self.unlike_basic[s] = True
        self.lacks[s] |= cards

    def walk(self, public: GanjifaState) -> None:
        """The trick in progress, read as a completed one, then the completed tricks from
        the newest back: each follow, and each lead but the opening's (G5: forced) and
        the seat's own."""
        tricks, seat = self.tricks, self.seat
        if public.trick:
            self.follows(len(tricks), public.leader, public.trick)
            if public.leader != seat:
                self.lead(len(tricks), public.leader, public.trick[0])
        for t in range(len(tricks) - 1, -1, -1):
            leader, cards, _ = tricks[t]
            for j in range(PLAYERS):
                self.played[(leader + j) % PLAYERS] |= 1 << cards[j]
            self.follows(t, leader, cards)
            if t and leader != seat:
                self.lead(t, leader, cards[0])

    def follows(self, t: int, leader: int, cards: tuple[int, ...]) -> None:
        """Trick t, complete or in progress: a follower that did not win played its
        cheapest card of the led suit, or, void (G6), of the suit it played (and a trump
        played void says no plain suit came before the trump in its search for the next
        suit it held); the last to play wins whenever it can, with its cheapest winner;
        the second to play held no safe winner (`_safe_winners`) when it lost, none
        cheaper than its card when it won, and when its card was no boss, it won with its
        cheapest card."""
        trump, before, beaters = self.trump, self.before, self.beaters
        led = SUIT_OF[cards[0]]
        best = cards[0]
        for j in range(1, len(cards)):
            s, card = (leader + j) % PLAYERS, cards[j]
            wins = beaters[best] >> card & 1
            if s != self.seat:
                suit = SUIT_OF[card]
                # The cards of its options that beat the trick so far (G6, G7): of the led
                # suit when it followed it, else trumps.
                winners = beaters[best] & SUIT_MASK[led if suit == led else trump]
                cheapest = before[card] & SUIT_MASK[suit]
                if suit == trump and suit != led:
                    cheapest |= self._skipped(led)
                if not wins or (j == 1 and not self._boss_then(s, card, cards[0])):
                    self.lack(s, cheapest)
                elif j == 1:
                    # No boss if the other seat held a card above it: then its cheapest.
                    above = beaters[card] & SUIT_MASK[suit] & self.unseen
                    if above:
                        self.clauses.append((s, cheapest, above, True))
                cheaper = winners & before[card] if wins else winners
                self.lack(s, cheaper if j == 2 else self._safe_winners(t, s, cheaper, cards[0]))
            if wins:
                best = card

    def _skipped(self, led: int) -> int:
        """The plain suits that G6 reaches before the trump on a trick led in `led`: none
        held by a seat that trumped it as its cheapest option."""
        out = 0
        for skipped in AFTER[led]:
            if skipped == self.trump:
                break
            out |= SUIT_MASK[skipped]
        return out

    def _accounted(self, t: int, s: int, shown: int) -> int:
        """Cards seat s did not count as unseen at trick t: gone before it, shown in the
        trick, or its own then (played from that trick on, or in a Dukal it led or
        answered, which it held then or had already given up)."""
        return self.prior[t] | shown | self.played[s] | self.in_dukals[s]

    def _safe_winners(self, t: int, s: int, winners: int, shown: int) -> int:
        """Those of `winners` that seat s, second to play at trick t, would have seen as
        safe (no card of their suit above them unseen, `_boss`) had it held them: every
        card above them gone or its own then. Basic would have won with one. One with
        the cards above it not so accounted for but all unseen now is safe unless the
        other seat held one of those: a clause."""
        accounted = self._accounted(t, s, 1 << shown)
        elsewhere = self._elsewhere(s)
        out = 0
        rest = winners
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            higher = self.beaters[c] & SUIT_MASK[SUIT_OF[c]]
            outside = higher & ~accounted
            if not outside:
                out |= low
            elif low & self.unseen and not outside & (elsewhere | self.undated):
                self.clauses.append((s, low, outside, False))
        return out

    def _elsewhere(self, s: int) -> int:
        """Cards known to lie outside seat s's hand at the trick at hand: the searching
        seat's, and those the other seats played from that trick on."""
        elsewhere = self.hand
        for o in range(PLAYERS):
            if o != s:
                elsewhere |= self.played[o]
        return elsewhere

    def _boss_then(self, s: int, card: int, shown: int) -> bool:
        """Whether `card`, which seat s played second, may have been a boss to
        it then: no card above it known to lie elsewhere (the searching seat's, or played
        since by the third seat)."""
        higher = self.beaters[card] & SUIT_MASK[SUIT_OF[card]]
        return not higher & self._elsewhere(s) & ~(1 << shown)

    def lead(self, t: int, leader: int, card: int) -> None:
        """Basic's lead of `card` at trick t (no Dukal, not the opening): the cheapest of
        its bosses (plain cards that no card outside its hand beats), or, with no boss,
        its cheapest card. Either way it held no boss cheaper than `card`, and none at
        all when `card` was no boss: a card known to lie elsewhere beat it, or it is a
        trump. When the leader held a cheaper card then (it played one later), `card`
        was a boss: the higher cards of its suit still unseen are the leader's."""
        before, beaters, unseen, trump = self.before, self.beaters, self.unseen, self.trump
        played = self.played
        after = played[leader] & ~(1 << card)  # the leader held these at trick t
        elsewhere = self.hand
        for s in range(PLAYERS):
            if s != leader:
                elsewhere |= played[s]
        suit = SUIT_OF[card]
        if suit == trump or beaters[card] & SUIT_MASK[suit] & elsewhere:
            self.lack(leader, before[card])
            forbidden = ~SUIT_MASK[trump]
        else:
            forbidden = before[card] & ~SUIT_MASK[trump]
            above = beaters[card] & SUIT_MASK[suit] & unseen
            if after & before[card]:
                self.lacks_of_others.append((leader, PLAYERS - leader - self.seat, above))
            elif above:  # no boss if the other seat held one of those: then its cheapest
                self.clauses.append((leader, before[card], above, True))
        # For each boss it may not have held: the higher cards of its suit either gone or
        # the leader's then for sure (a Dukal it led or answered held them either way).
        accounted = self.prior[t] | after | self.in_dukals[leader]
        for s in range(SUIT_COUNT):
            if s != trump:
                rest = SUIT_MASK[s] & forbidden & (unseen | after) & ~(1 << card)
                while rest:
                    low = rest & -rest
                    rest ^= low
                    self._no_boss(leader, low, accounted, elsewhere)

    def _no_boss(self, leader: int, low: int, accounted: int, elsewhere: int) -> None:
        """The card `low`, cheaper than the lead or the lead no boss: it was no boss to the
        leader then. `accounted` are the cards gone or the leader's then, `elsewhere` those
        known to lie outside its hand."""
        higher = self.beaters[low.bit_length() - 1] & SUIT_MASK[SUIT_OF[low.bit_length() - 1]]
        outside = higher & ~accounted
        if higher & elsewhere or outside & self.undated:
            return  # it was no boss, or may have been a Dukal's card then
        unseen = self.unseen
        if low & unseen:
            if not outside:
                self.lack(leader, low)  # it would have been a boss
            else:  # a boss unless the other seat held one of those above it
                self.clauses.append((leader, low, outside, False))
            return
        # The leader held this card then, and it was no boss: one of the higher cards
        # still unseen was the other seat's.
        left = outside & unseen
        if not left:
            self.unlike_basic[leader] = True
        elif not left & (left - 1):
            self.lack(leader, left)
        else:
            self.clauses.append((leader, -1, left, False))

Clause = tuple[int, int, int, int, bool]  # (seat, other seat, …): `_Reading.clauses`


def lacks_by_basic(public: GanjifaState, seat: int
                    ) -> tuple[list[int], list[Clause], tuple[bool, ...]]:
    """The cards each other seat cannot hold now had it played the deal's history as basic
    does (`basic_move`), read from what `seat` sees: every rule takes a card basic chose
    as the cheapest of some set, so the seat held none of that set cheaper than it then,
    and cards only leave a hand (`_Reading.follows`, `_Reading.lead`); an answer to a Dukal
    is the seat's k cheapest cards.

    What per-card lacks cannot say comes as clauses, for `misfits`: a seat that held a
    card cheaper than its lead or its winner as second to play, one that would have been a
    boss unless the other seat held a card above it; a lead or a second's winner that was
    no boss if the other seat held a card above it, and then the seat's cheapest card.

    A seat that later played a card it could not have held, had it played as basic, is
    no basic player: nothing is inferred for it, nor from its play for the other seat
    (against random players, the inferences would only mislead: bench/README.md), and the
    third item says which seats those are."""
    r = _Reading(public, seat)
    r.walk(public)
    trump = public.trump
    for s, m in r.answers:
        if s != seat and m:
            r.lacks[s] |= r.before[max(bit_list(m), key=lambda c: (cost(c, trump), c))]
    for source, s, lacked in r.lacks_of_others:
        if not r.unlike_basic[source]:
            r.lack(s, lacked)
    lacks = [0 if r.unlike_basic[s] else r.lacks[s] for s in range(PLAYERS)]
    clauses = [(s, PLAYERS - s - seat, cards, above, held)  # each once: leads repeat them
               for s, cards, above, held in dict.fromkeys(r.clauses) if not r.unlike_basic[s]]
    return lacks, clauses, tuple(r.unlike_basic)


def explains(world: GanjifaState, seat: int, unlike: tuple[bool, ...] = (False,) * PLAYERS,
             models: tuple[int, ...] = (BASIC,) * PLAYERS) -> bool:
    """Whether basic's play accounts for the cards that the other seats put in the trick in
    progress, had this world been the true deal: each of them, played by a seat other than
    `seat` and not one `unlike` names (whose play was no basic's) unless `models` gives it
    the high player (rules/ai/ganjifa_high.py), is its model's move in the state before
    it (the forced opening lead, G5, tells nothing). Its reading is the seat's
    own: the world's other hands are a sample of its view, and basic plays from what its
    seat sees, so the test uses no hidden card."""
    trick = world.trick
    if not trick:
        return True
    hands = list(world.hands)
    for i, card in enumerate(trick):
        hands[(world.leader + i) % PLAYERS] |= 1 << card
    at_opening = opening(world)
    for i, card in enumerate(trick):
        s = (world.leader + i) % PLAYERS
        high = models[s] == HIGH
        if s != seat and (high or not unlike[s]) and not (i == 0 and at_opening):
            before = world._replace(hands=tuple(hands), trick=trick[:i], to_act=s)
            move = high_move(before, s) if high else basic_move(before, s, None)
            if move.action != "play" or move.card != card:
                return False
        hands[s] &= ~(1 << card)
    return True


def led_since(public: GanjifaState, seat: int,
               unlike: tuple[bool, ...] = (False,) * PLAYERS) -> list[tuple[int, int]]:
    """For each other seat that has led a single card after the opening (G5), the cards
    it has played from its first such lead on: basic held no Dukal then, or it would have
    led it (G8), so its hand now with those cards holds none. Not for the seats `unlike`
    names, whose play was no basic's (`lacks_by_basic`)."""
    tricks = public.tricks or ()
    played, _ = _in_progress(public)
    since = {}
    if public.trick and public.leader != seat and tricks:
        since[public.leader] = played[public.leader]
    for t in range(len(tricks) - 1, 0, -1):
        leader, cards, _ = tricks[t]
        for j in range(PLAYERS):
            played[(leader + j) % PLAYERS] |= 1 << cards[j]
        if leader != seat:
            since[leader] = played[leader]
    return [(s, cards) for s, cards in since.items() if not unlike[s]]


def holds_dukal(hand: int) -> bool:
    """Whether a hand holds a Dukal (G8): some suit's Raja, Mantri and three pips in a
    row. At a lead every hand is as large, so its size never forbids one."""
    both = hand & hand >> 1 & MANTRI_BITS
    while both:
        low = both & -both
        both ^= low
        pips = hand >> (SUIT_SIZE * SUIT_OF[low.bit_length() - 1]) & PIP_BITS
        if pips & pips >> 1 & pips >> 2:
            return True
    return False


# A Dukal that basic would have led weighs as several plays unexplained: in the playouts
# it captures 3k cards at once (G8).
PHANTOM_DUKAL = 8


def misfits(world: GanjifaState, since: list[tuple[int, int]], clauses: list[Clause]) -> int:
    """What basic's play of the history does not explain in a world: a seat holding a
    Dukal at a lead since the opening (`led_since`; it would have led it, G8), and the
    broken clauses of the leads' reading (`lacks_by_basic`)."""
    hands = world.hands
    out = 0
    for s, cards in since:
        if holds_dukal(hands[s] | cards):
            out += PHANTOM_DUKAL
    for s, other, cards, above, held in clauses:
        if hands[s] & cards and bool(hands[other] & above) == held:
            out += 1
    return out
