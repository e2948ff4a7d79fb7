"""Basic's Ganjifa play (rules/ai/ganjifa.py) for every seat to the end of the deal, fast:
the search's playouts are most of its time, and the more of them fit in the budget the
better it plays.

The same decisions as `basic_move`, on bitmasks whose bit order is basic's cost order
(trumps above every other suit, then G2 strength, ties by card index): the cheapest card
of a mask is then its lowest bit, with no list or sort. The unseen cards basic reads are,
in a sampled world, exactly the other two hands. Only the captured counts are kept (G9).
"""

from __future__ import annotations

from rules.ganjifa import (
    AFTER,
    BEATERS,
    DECK,
    MANTRI_BITS,
    MANTRIS,
    PERIODS,
    PIP_BITS,
    PLAYERS,
    RAJAS,
    STRENGTH,
    SUIT_COUNT,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SIZE,
    GanjifaState,
    dukal_moves,
)

CARDS = len(DECK)
PLAIN_ROW = SUIT_COUNT - 1  # plain suits: one bit each in a row of the cost order


class _Order:
    """One trump's cost order: a card's bit in it, and the game's masks carried over."""

    def __init__(self, trump: int):
        cost = [STRENGTH[c] + (SUIT_SIZE if SUIT_OF[c] == trump else 0) for c in range(CARDS)]
        self.card = sorted(range(CARDS), key=lambda c: (cost[c], c))  # bit -> card
        self.bit = [0] * CARDS  # card -> bit
        for b, c in enumerate(self.card):
            self.bit[c] = b
        self._carry: tuple[list[int], ...] | None = None
        self._back: tuple[list[int], ...] | None = None
        self.suit_mask = tuple(self._carry_slow(SUIT_MASK[s]) for s in range(SUIT_COUNT))
        self.beaters = tuple(self._carry_slow(BEATERS[trump][self.card[b]]) for b in range(CARDS))
        self.suit_of = tuple(SUIT_OF[self.card[b]] for b in range(CARDS))
        self.raja = 1 << self.bit[RAJAS[trump]]
        self.plain_masks = tuple(self.suit_mask[s] for s in range(SUIT_COUNT) if s != trump)
        # Each plain suit holds one card of each strength, and a strength's plain cards are
        # in suit order: the plain cards are the low bits, a row of nine (one bit a suit)
        # per strength, and a shift down by nine moves a card to the next weaker card of
        # its suit (see `_tricks`).
        self.plain = sum(self.plain_masks)
        assert self.plain == (1 << PLAIN_ROW * SUIT_SIZE) - 1
        assert all(self.suit_mask[s] == sum(1 << (PLAIN_ROW * r + i) for r in range(SUIT_SIZE))
                   for i, s in enumerate(x for x in range(SUIT_COUNT) if x != trump))
        # G6's fallback suits after each led suit, as masks in cost order.
        self.after = tuple(tuple(self.suit_mask[t] for t in AFTER[s]) for s in range(SUIT_COUNT))
        # In cost order the plain Mantris, then the plain Rajas, each in suit order, lie
        # in two runs of bits, and the trump Mantri and Raja are the two top bits: a hand
        # holds some suit's Raja and Mantri when a shifted AND of the runs is not empty.
        plain = [s for s in range(SUIT_COUNT) if s != trump]
        self.mantri0 = self.bit[MANTRIS[plain[0]]]
        self.raja0 = self.bit[RAJAS[plain[0]]]
        self.trump_courts = CARDS - 2
        assert all(self.bit[MANTRIS[s]] == self.mantri0 + i and self.bit[RAJAS[s]] == self.raja0 + i
                   for i, s in enumerate(plain))
        assert {self.bit[MANTRIS[trump]], self.bit[RAJAS[trump]]} == {CARDS - 2, CARDS - 1}

    def _carry_slow(self, mask: int) -> int:
        return sum(1 << self.bit[c] for c in range(CARDS) if mask >> c & 1)

    def carry(self, mask: int) -> int:
        """A card-order mask in cost order, twelve bits at a time from tables."""
        tables = self._carry
        if tables is None:
            tables = self._carry = _chunk_tables(self.bit)
        return (tables[0][mask & 0xFFF] | tables[1][mask >> 12 & 0xFFF]
                | tables[2][mask >> 24 & 0xFFF] | tables[3][mask >> 36 & 0xFFF]
                | tables[4][mask >> 48 & 0xFFF] | tables[5][mask >> 60 & 0xFFF]
                | tables[6][mask >> 72 & 0xFFF] | tables[7][mask >> 84 & 0xFFF]
                | tables[8][mask >> 96 & 0xFFF] | tables[9][mask >> 108])

    def back(self, mask: int) -> int:
        """A cost-order mask in card order."""
        tables = self._back
        if tables is None:
            tables = self._back = _chunk_tables(self.card)
        return (tables[0][mask & 0xFFF] | tables[1][mask >> 12 & 0xFFF]
                | tables[2][mask >> 24 & 0xFFF] | tables[3][mask >> 36 & 0xFFF]
                | tables[4][mask >> 48 & 0xFFF] | tables[5][mask >> 60 & 0xFFF]
                | tables[6][mask >> 72 & 0xFFF] | tables[7][mask >> 84 & 0xFFF]
                | tables[8][mask >> 96 & 0xFFF] | tables[9][mask >> 108])


def _chunk_tables(to: list[int]) -> tuple[list[int], ...]:
    """For each 12-bit chunk of a mask, every value of the chunk mapped bit by bit."""
    tables = []
    for chunk in range(CARDS // 12):
        table = [0] * 4096
        for bits in range(1, 4096):
            low = bits & -bits
            table[bits] = table[bits ^ low] | 1 << to[12 * chunk + low.bit_length() - 1]
        tables.append(table)
    return tuple(tables)


# Built at import for both periods' trumps (G3), so that no move pays for the tables.
_ORDERS: dict[int, _Order] = {}
for _trump in PERIODS.values():
    _ORDERS[_trump] = _Order(_trump)
    _ORDERS[_trump].carry(0)
    _ORDERS[_trump].back(0)


def _order(trump: int) -> _Order:
    order = _ORDERS.get(trump)
    if order is None:
        order = _ORDERS[trump] = _Order(trump)
    return order


def _cheapest(mask: int, k: int) -> int:
    """The k lowest bits of a mask: basic's k cheapest cards."""
    out = 0
    for _ in range(k):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def _bosses(hand: int, unseen: int, suit_mask: int) -> int:
    """The hand's cards of one suit that no unseen card of that suit beats: within a suit
    the cost order is G2's rank order, so those above the highest unseen one."""
    u = unseen & suit_mask
    return hand & suit_mask & ~((1 << u.bit_length()) - 1)


def _largest_dukal(order: _Order, cards: int, seat: int, limit: int) -> int:
    """Basic's Dukal lead (G8) from a hand in card order: the first largest one, as a
    mask in cost order, or 0."""
    both = cards & cards >> 1 & MANTRI_BITS
    best = None
    while both:
        low = both & -both
        both ^= low
        suit = low.bit_length() // SUIT_SIZE
        pips = cards >> (SUIT_SIZE * suit) & PIP_BITS
        if not pips & pips >> 1 & pips >> 2:
            continue  # no three pips in a row: no Dukal of this suit
        for m in dukal_moves(seat, suit, pips):
            run = m.cards or ()
            if len(run) <= limit and (best is None or len(run) > len(best)):
                best = run
    if best is None:
        return 0
    bit = order.bit
    return sum(1 << bit[c] for c in best)


def play_out(state: GanjifaState) -> list[int]:
    """The captured counts at the end of the deal (G9), every seat playing basic's move: the
    Dukal answers still due, the trick in progress, then whole tricks (`_tricks`)."""
    o = _order(state.trump)
    beaters, suit_mask = o.beaters, o.suit_mask
    trump_mask = suit_mask[state.trump]
    hands = [o.carry(h) for h in state.hands]
    counts = [c.bit_count() for c in state.captured]
    leader = state.leader
    dukal = state.dukal
    if dukal is not None:  # G8: the answers still due (the cheapest cards), then the capture
        k = dukal.cards.bit_count()
        for i in range(len(dukal.discards), PLAYERS - 1):
            s = (dukal.seat + 1 + i) % PLAYERS
            hands[s] ^= _cheapest(hands[s], k)
        counts[dukal.seat] += 3 * k
    trick = [o.bit[c] for c in state.trick]
    if trick:
        led = o.suit_of[trick[0]]
        best = trick[0]
        for c in trick[1:]:
            if beaters[best] >> c & 1:
                best = c
        while len(trick) < PLAYERS:
            seat = (leader + len(trick)) % PLAYERS
            hand = hands[seat]
            options = _follow(hand, suit_mask[led], trump_mask, o.after[led])
            winners = options & beaters[best]
            if winners and len(trick) == PLAYERS - 1:
                card = winners & -winners  # last to play: the win is certain
            else:
                unseen = hands[(seat + 1) % PLAYERS] | hands[(seat + 2) % PLAYERS]
                safe = winners & (_bosses(hand, unseen, suit_mask[led])
                                  | _bosses(hand, unseen, trump_mask))
                card = safe & -safe or options & -options
            hands[seat] = hand ^ card
            card = card.bit_length() - 1
            if beaters[best] >> card & 1:
                best = card
            trick.append(card)
        leader = (leader + trick.index(best)) % PLAYERS  # G7
        counts[leader] += 3
    return _tricks(o, hands, counts, leader)


def _follow(hand: int, led_mask: int, trump_mask: int, after_led: tuple[int, ...]) -> int:
    """G6: the cards of the led suit; void in it, the trumps and the first suit after the led
    one of which the hand holds any (cost-order masks)."""
    options = hand & led_mask
    if options:
        return options
    options = hand & trump_mask
    for m in after_led:
        if hand & m:
            return options | hand & m
    return options


_NEXT = tuple(((a + 1) % PLAYERS, (a + 2) % PLAYERS) for a in range(PLAYERS))
_PLAIN = (1 << PLAIN_ROW) - 1


def _tricks(o: _Order, hands: list[int], counts: list[int], leader: int) -> list[int]:
    """Basic's play from a lead with an empty trick to the end of the deal, a whole trick
    at a time."""
    suit_mask, beaters, suit_of = o.suit_mask, o.beaters, o.suit_of
    trump_mask = suit_mask[o.suit_of[CARDS - 1]]
    plain, after, back = o.plain, o.after, o.back
    mantri0, raja0, top = o.mantri0, o.raja0, o.trump_courts
    # A seat that leads a card holds no Dukal (basic leads one first), and cards only
    # leave a hand: it is not looked for again.
    dukals = [True, True, True]
    opening = not (counts[0] | counts[1] | counts[2])  # G5: nothing captured yet
    while hands[leader]:  # every hand holds as many cards at a lead (see rules/ganjifa.py)
        a = leader
        b, c = _NEXT[a]
        ha, hb, hc = hands[a], hands[b], hands[c]
        if opening:
            card = ha & o.raja  # G5: the opening lead
            opening = False
        else:
            if dukals[a] and (ha >> mantri0 & ha >> raja0 & _PLAIN or ha >> top == 3):
                dukal = _largest_dukal(o, back(ha), a, min(hb.bit_count(), hc.bit_count()))
                dukals[a] = bool(dukal)
                if dukal:  # G8: both answer with their cheapest cards
                    k = dukal.bit_count()
                    hands[a] = ha ^ dukal
                    hands[b] = hb ^ _cheapest(hb, k)
                    hands[c] = hc ^ _cheapest(hc, k)
                    counts[a] += 3 * k
                    continue
            # Basic's cheapest boss: the leader's plain cards that no unseen card of their
            # suit beats, every plain suit at once. Each unseen plain card is spread to every
            # weaker card of its suit (rows of PLAIN_ROW bits down, see `_Order`); the
            # hand's plain cards outside the spread are bosses.
            u = (hb | hc) & plain
            u |= u >> PLAIN_ROW
            u |= u >> 2 * PLAIN_ROW
            u |= u >> 4 * PLAIN_ROW
            u |= u >> 8 * PLAIN_ROW
            bosses = ha & plain & ~u
            card = bosses & -bosses or ha & -ha
        ha ^= card
        first = card.bit_length() - 1
        led = suit_of[first]
        led_mask = suit_mask[led]
        # The second seat: win safely if it can, else its cheapest card.
        options = hb & led_mask or _follow(hb, led_mask, trump_mask, after[led])
        winners = options & beaters[first]
        if winners:
            unseen = hc | ha
            u = unseen & led_mask
            t = unseen & trump_mask
            safe = winners & ((hb & led_mask & ~((1 << u.bit_length()) - 1))
                              | (hb & trump_mask & ~((1 << t.bit_length()) - 1)))
            card = safe & -safe or options & -options
        else:
            card = options & -options
        hb ^= card
        second = card.bit_length() - 1
        best = second if beaters[first] >> second & 1 else first
        # The third seat: the cheapest winner, else its cheapest card.
        options = hc & led_mask or _follow(hc, led_mask, trump_mask, after[led])
        winners = options & beaters[best]
        card = winners & -winners or options & -options
        hands[a], hands[b], hands[c] = ha, hb, hc ^ card
        leader = c if winners else (b if best == second else a)  # G7
        counts[leader] += 3
    return counts
