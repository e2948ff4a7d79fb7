"""The club player's two-player Durak (rules/ai/durak_club.py) for both seats to the end of
the deal, fast: the search's playouts are most of its time, and the more of them fit in the
budget the better it plays.

The same decisions as `club_move`, on bitmasks whose bit order is the club player's cost
order (every plain card below every trump, by rank, ties by card index): the cheapest card
of a mask is its lowest bit, with no list or sort. The rules played are those of
rules/durak for two players without passing on (D1–D15, D16's decks and first bout); a
test plays it move by move against rules/durak and `club_move`.
"""

from __future__ import annotations

from rules.ai.durak_club import PAIR_WEIGHT, TRUMP_COST
from rules.durak import BEATERS, BOUT_LIMIT, HAND_SIZE, RANK_OF, SUIT_MASK, SUIT_OF, named
from rules.durak.cards import ALL_RANKS

CARDS = 52


class Order:
    """One trump's cost order: a card's bit in it and the tables the play reads."""

    def __init__(self, trump: int):
        self.cost = [RANK_OF[c] + (TRUMP_COST if SUIT_OF[c] == trump else 0)
                     for c in range(CARDS)]
        self.card = sorted(range(CARDS), key=lambda c: (self.cost[c], c))  # bit -> card
        self.bit = [0] * CARDS  # card -> bit
        for b, c in enumerate(self.card):
            self.bit[c] = b
        self.trumps = self.carry(SUIT_MASK[trump])
        self.plain = ((1 << CARDS) - 1) & ~self.trumps
        rank_mask = [0] * len(ALL_RANKS)
        for b, c in enumerate(self.card):
            rank_mask[RANK_OF[c]] |= 1 << b
        self.same_rank = [rank_mask[RANK_OF[c]] for c in self.card]  # bit -> its rank's bits
        self.beaters = [self.carry(BEATERS[trump][c]) for c in self.card]  # bit -> beaters
        # bit -> the lead's worth before its followers, ties by card index (club_move's
        # `min` over the hand in index order).
        self.lead = [self.cost[c] * CARDS + c for c in self.card]

    def carry(self, mask: int) -> int:
        """A mask of cards as a mask of bits of this order."""
        return _remap(mask, self.bit)

    def back(self, mask: int) -> int:
        """A mask of bits of this order as a mask of cards."""
        return _remap(mask, self.card)


def _remap(mask: int, to: list[int]) -> int:
    """The mask with each set bit i moved to bit to[i]."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << to[low.bit_length() - 1]
        mask ^= low
    return out


ORDERS = [Order(t) for t in range(4)]


def covers(state) -> bool:
    """The deals this engine plays: two players, no passing on (D21)."""
    state = named(state)
    return len(state.hands) == 2 and not state.setup.transfer


def play(state, trace: list | None = None) -> tuple[int, int]:
    """The club player's play for both seats from `state` (two players, no passing on) to
    the end of the deal: the two hands left, as masks of cards. With `trace`, each move is
    appended as (seat, action, card or None), in the rules' own terms."""
    state = named(state)
    o = ORDERS[state.trump]
    carry = o.carry
    plain, beaters, same_rank = o.plain, o.beaters, o.same_rank
    hands = [carry(state.hands[0]), carry(state.hands[1])]
    stock = [1 << o.bit[c] for c in state.stock]
    at = 0  # cards of the stock drawn
    left = len(stock)
    attacker = state.attacker
    cap = state.setup.cap(state.discard)  # D9, D16
    taking = state.taking
    phase = state.phase
    on_table, ranks, n, beaten, unbeaten = bout_of(o, state.table)
    if phase == "over":
        return state.hands[0], state.hands[1]
    while True:
        defender = 1 - attacker
        hand = hands[attacker]
        if phase == "defend":
            dh = hands[defender]
            m = dh & beaters[unbeaten.bit_length() - 1]
            if m:  # D4, D7: the cheapest card that beats
                b = m & -m
                hands[defender] = dh ^ b
                on_table |= b
                ranks |= same_rank[b.bit_length() - 1]
                beaten += 1
                unbeaten = 0
                if trace is not None:
                    trace.append((defender, "defend", o.card[b.bit_length() - 1]))
            else:  # D7: take
                taking = True
                if trace is not None:
                    trace.append((defender, "take", None))
            phase = "attack"
            continue
        if not n:  # D6: lead the cheapest plain card, a rank held twice first
            if not hand:
                raise AssertionError("an empty hand leads")  # D14 ends the deal first
            b = lead(o, hand, hand & plain if left - at else hand)
        else:
            limit = min(cap, hands[defender].bit_count() + beaten)  # D9
            m = hand & ranks & (plain if left - at else -1) if n < limit else 0  # D8
            b = m & -m
        if b:
            hands[attacker] = hand ^ b
            on_table |= b
            ranks |= same_rank[b.bit_length() - 1]
            n += 1
            if trace is not None:
                trace.append((attacker, "attack", o.card[b.bit_length() - 1]))
            if not taking:
                unbeaten = b
                phase = "defend"
            continue
        # The attacker passes: the bout ends (D10, D11), the hands refill (D12).
        if trace is not None:
            trace.append((attacker, "pass", None))
        if taking:
            hands[defender] |= on_table
        else:
            cap = BOUT_LIMIT
            attacker = defender
        if at < left:
            for s in (1 - defender, defender):  # D12: the bout's attacker draws first
                need = HAND_SIZE - hands[s].bit_count()
                while need > 0 and at < left:
                    hands[s] |= stock[at]
                    at += 1
                    need -= 1
        if at == left and not (hands[0] and hands[1]):  # D14
            return o.back(hands[0]), o.back(hands[1])
        on_table = ranks = n = beaten = 0
        taking = False


def bout_of(o: Order, table) -> tuple[int, int, int, int, int]:
    """The bout in progress, in `o`'s bits: its cards, their ranks, its count of attacks
    and of defences, and its (last) unbeaten attack (D7)."""
    on_table = ranks = n = beaten = unbeaten = 0
    for a, d in table:
        ba = 1 << o.bit[a]
        on_table |= ba
        ranks |= o.same_rank[o.bit[a]]
        n += 1
        if d >= 0:
            on_table |= 1 << o.bit[d]
            ranks |= o.same_rank[o.bit[d]]
            beaten += 1
        else:
            unbeaten = ba
    return on_table, ranks, n, beaten, unbeaten


def lead(o: Order, hand: int, follow: int) -> int:
    """D6, the club player's lead: the plain card (any card when only trumps are left)
    cheapest once each card of its rank in `follow` counts PAIR_WEIGHT ranks lower, so
    that a rank held twice goes first; the card's bit."""
    same_rank, lead_key = o.same_rank, o.lead
    best = best_key = -1
    m = hand & o.plain or hand
    while m:
        b = m & -m
        m ^= b
        i = b.bit_length() - 1
        key = lead_key[i] - PAIR_WEIGHT * CARDS * (
            (follow & same_rank[i]).bit_count() - (1 if follow & b else 0))
        if best < 0 or key < best_key:
            best, best_key = b, key
    return best


def playout(state, seat: int) -> float | None:
    """The seat's value (rules/ai/durak.py's `value`: 1 a win, 1/2 a draw, 0 the durak)
    after the club player's play to the end; None for a deal this engine does not play."""
    if not covers(state):
        return None
    h0, h1 = play(state)
    mine, theirs = (h0, h1) if seat == 0 else (h1, h0)
    if mine and not theirs:
        return 0.0
    if theirs and not mine:
        return 1.0
    return 0.5
