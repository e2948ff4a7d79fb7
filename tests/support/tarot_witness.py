"""A deal for a Tarot score sheet: the hands, the chien and every move of a deal that ends
on the sheet, so that a test can play it through the rules (issue 40.6: every sheet the
service accepts is one that a deal produces).

The deal is built trick by trick, in a shape whose every card is legal whatever the
hands around it:
- first the trumps, led from the top down: in each trick every seat still holding trumps
  plays the next highest one (T9: nobody can overtrump, as the higher trumps are gone or
  on the table), and the seats without trumps discard any suit card;
- then tricks of one plain suit that every seat follows, won by the highest card;
- the last trick, where every seat plays the card it has left.
A seat that keeps the Petit for the last trick (T15) is given a trump in every trump
trick, so it is never made to play it early. The attack camp's card points then come from
where the sixteen courts fall: every other card is worth half a point (T13), so the
courts in the attack camp's tricks, chien or écart make up what the sheet says.
`deal_for` tries such shapes at random until one ends on the sheet; the rules, not this
module, say what the deal produces.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import NamedTuple

from rules.game import Move
from rules.tarot import CHIEN_TAKEN, COUNTS, EXCUSE, GAME, MONDE, PETIT, SUIT_OF, TarotState

A, D = "taker", "defense"
TRUMPS_DOWN = list(range(MONDE, PETIT - 1, -1))
PIPS = [[s * 14 + r for r in range(10)] for s in range(4)]
# The courts by rank, with the half points each adds over a card of half a point (T13).
COURT_RANKS = {10: 2, 11: 4, 12: 6, 13: 8}  # Jack, Knight, Queen, King
KING = 13


class Sheet(NamedTuple):
    players: int
    contract: str
    attackers: int  # 2 with a five-player partner
    bouts: int
    half_points: int
    made_by: str | None  # the chelem
    petit_au_bout: str | None
    announced: bool = False


class Witness(NamedTuple):
    order: list[int]  # the deck as dealt (GAME.deal_from)
    dealer: int
    moves: list[Move]


@dataclass
class Trick:
    leader: int
    winner: int
    kind: str  # trumps | suit | last | petit (the Petit led, every other seat discarding)
    cards: dict[int, int] = field(default_factory=dict)  # seat: card, once known
    free: list[int] = field(default_factory=list)  # seats that play any suit card
    suit: int | None = None


def other(camp: str) -> str:
    return D if camp == A else A


def bout_places(sheet: Sheet, chien_to: str, sizes: dict[str, int]):
    """Every (petit, monde, excuse) placing whose bouts and bonuses make the sheet's key."""
    open_chien = sheet.contract not in CHIEN_TAKEN
    made = sheet.made_by
    petits = [("kept", sheet.petit_au_bout)] if sheet.petit_au_bout else \
        [("tricks", A), ("tricks", D)] + ([("chien", chien_to)] if open_chien else [])
    mondes = [("tricks", A), ("tricks", D)] + ([("chien", chien_to)] if open_chien else [])
    excuses: list[tuple[str, str, str | None]] = \
        [("chien", chien_to, None)] if open_chien else []
    for owner in (A, D):
        for winner in (A, D):
            if winner != owner or sizes[owner] >= 2:
                excuses += [("early", owner, winner), ("last", owner, winner)]
        excuses.append(("slam", owner, owner))
    for petit, monde, excuse in itertools.product(petits, mondes, excuses):
        kind, owner, won_by = excuse
        if kind == "last" and petit[0] == "kept" and won_by != petit[1]:
            continue  # the Petit wins the last trick
        ends_with = {"chien": owner, "early": owner, "last": other(owner) if owner else None,
                     "slam": owner}[kind]
        if (petit[1] == A) + (monde[1] == A) + (ends_with == A) != sheet.bouts:
            continue
        if kind == "slam" and made != owner:
            continue
        if made is not None:
            camps = [p[1] for p in (petit, monde) if p[0] == "tricks"]
            if kind in ("early", "last") and won_by is not None:
                camps.append(won_by)
            if any(c != made for c in camps) or petit[0] == "kept" and petit[1] != made:
                continue
        yield petit, monde, excuse


def deal_for(sheet: Sheet, seed: int = 0, tries: int = 3000) -> Witness | None:
    """A deal (and its moves) that ends on `sheet`, or None if no shape tried gives it."""
    rng = random.Random(seed)
    for _ in range(tries):
        witness = _attempt(sheet, rng)
        if witness is not None:
            return witness
    return None


def _attempt(sheet: Sheet, rng: random.Random) -> Witness | None:
    n = sheet.players
    count = COUNTS[n]
    tricks_n = count.hand
    taker, partner = 0, (1 if sheet.attackers == 2 else None)
    camp = [A if s in (taker, partner) else D for s in range(n)]
    sizes = {A: camp.count(A), D: camp.count(D)}
    chien_to = D if sheet.contract == "garde_contre" else A
    places = list(bout_places(sheet, chien_to, sizes))
    if not places:
        return None
    petit, monde, excuse = rng.choice(places)
    kept = petit[0] == "kept"
    slam = excuse[0] == "slam"
    chien_cards = [c for c, p in ((PETIT, petit), (MONDE, monde)) if p[0] == "chien"]
    if excuse[0] == "chien":
        chien_cards.append(EXCUSE)
    # The trumps led down from the top; the Petit goes to a trick of its own choosing.
    in_tricks = [t for t in TRUMPS_DOWN if t not in chien_cards and t != PETIT]
    n_trumps = len(in_tricks) + (petit[0] == "tricks")
    # Tricks after the trumps: one suit each, then the last (and, for a chelem closed by the
    # Excuse with the Petit kept, the Petit led to the one before).
    specials = 1 + (kept and slam)
    pure_cap = 4 * (14 // n)
    low = max(-(-n_trumps // n), tricks_n - specials - pure_cap, 1)
    high = min(n_trumps, tricks_n - specials)
    if low > high:
        return None
    m_t = rng.randint(low, high)
    m_p = tricks_n - specials - m_t
    first = rng.choice([s for s in range(n) if camp[s] == petit[1]]) if kept \
        else rng.randrange(n)
    keeper = first if kept else None
    holds = _holds(rng, n, n_trumps, m_t, first)
    if holds is None or sheet.announced and not holds[taker]:
        return None
    # How often the attack camp wins where either camp may: extreme points need extremes.
    lean = Lean.draw(rng, count.hand)
    leader = taker if sheet.announced else rng.choice([s for s in range(n) if holds[s]])
    dealer = (leader - 1) % n
    petit_at = rng.randint(1, m_t) if petit[0] == "tricks" else 0
    tricks = _trump_tricks(sheet, rng, camp, holds, in_tricks, leader, lean,
                           (petit, monde, petit_at))
    if tricks is None:
        return None
    # The suit tricks, the last ones and who wins them: the attack camp's count of tricks
    # is what the points need; try each possible count.
    seats = list(range(n))
    for _ in range(m_p):
        tricks.append(Trick(-1, -1, "suit", free=seats[:]))
    if kept and slam:
        tricks.append(Trick(-1, keeper, "petit"))  # type: ignore[arg-type]
    tricks.append(Trick(-1, -1, "last"))
    return _finish(sheet, rng, tricks, camp, dealer, chien_cards, chien_to, petit, excuse,
                   keeper, m_t, lean)


def _holds(rng: random.Random, n: int, n_trumps: int, m_t: int, first: int
           ) -> list[int] | None:
    """Trumps per seat, `first` holding the most (m_t, one a trump trick)."""
    holds = [0] * n
    holds[first] = m_t
    rest = n_trumps - m_t
    others = [s for s in range(n) if s != first]
    rng.shuffle(others)
    for i, s in enumerate(others):
        least = max(0, rest - (len(others) - i - 1) * m_t)
        # Often a second seat as long as the first, to hold the top of every trick.
        most = min(m_t, rest)
        holds[s] = most if i == 0 and rng.random() < 0.5 else rng.randint(least, most)
        rest -= holds[s]
    return None if rest else holds


def _trump_tricks(sheet: Sheet, rng: random.Random, camp: list[str], holds: list[int],
                  in_tricks: list[int], leader: int, lean: Lean, bouts: tuple
                  ) -> list[Trick] | None:
    """The trump tricks, from the top down: every seat still holding trumps plays the next
    one, the top's holder wins (T10); the Monde wins the first. A seat that cannot
    overtrump may play any trump (T9): the Petit, at trick `petit_at`."""
    petit, monde, petit_at = bouts
    n = len(camp)
    made = sheet.made_by
    trumps = iter(in_tricks)
    tricks = []
    m_t = max(holds)
    for i in range(1, m_t + 1):
        members = [s for s in range(n) if holds[s] >= i]
        block = [next(trumps) for _ in members[(i == petit_at):]]
        wanted = {monde[1] if i == 1 and monde[0] == "tricks" else None,
                  petit[1] if i == petit_at else None, made} - {None}
        if len(wanted) > 1:
            return None
        choices = [s for s in members if (i == m_t or holds[s] > i)
                   and (not wanted or camp[s] in wanted)]
        if leader not in members or not choices:
            return None
        winner = lean.pick(rng, i - 1, choices, camp)
        trick = Trick(leader, winner, "trumps")
        rivals = [s for s in members if s != winner]
        if i == petit_at:
            if rivals:
                # Not a petit sec (T3): the seat holds another trump.
                player = rng.choice([s for s in rivals if holds[s] >= 2] or [-1])
                if player < 0:
                    return None
                trick.cards[player] = PETIT
                rivals.remove(player)
            else:
                block.append(PETIT)  # led alone, it wins
        trick.cards[winner] = block[0]
        for s, card in zip(rivals, block[1:], strict=True):
            trick.cards[s] = card
        trick.free = [s for s in range(n) if s not in members]
        tricks.append(trick)
        leader = winner
    return tricks


@dataclass
class Lean:
    """Which camp wins where either may: the attack camp with probability `attack`, but
    at the tricks in `turned`, where the other camp is favoured. Extreme points need a
    camp that wins every trick but one or two."""

    attack: float
    turned: frozenset[int] = frozenset()

    @classmethod
    def draw(cls, rng: random.Random, tricks: int) -> Lean:
        if rng.random() < 0.4:
            return cls(rng.random())
        spots = [0, tricks - 1, tricks - 2, rng.randrange(tricks)]
        return cls(rng.choice([0.0, 1.0]), frozenset(rng.sample(spots, rng.randint(0, 2))))

    def pick(self, rng: random.Random, index: int, seats: list[int], camp: list[str]) -> int:
        mine = [s for s in seats if camp[s] == A]
        theirs = [s for s in seats if camp[s] == D]
        if not (mine and theirs):
            return rng.choice(seats)
        attack = rng.random() < self.attack
        return rng.choice(mine if attack != (index in self.turned) else theirs)


def _winners(sheet, rng, tricks, camp, m_t, keeper, petit, excuse, lean: Lean) -> bool:
    """Winners of the tricks after the trumps, and so every trick's leader (T10); False
    if the draw breaks a chelem, a slam closed by the Excuse or the Petit kept."""
    n = len(camp)
    made = sheet.made_by
    pool = [s for s in range(n) if made is None or camp[s] == made]
    for t in tricks[m_t:]:
        t.winner = lean.pick(rng, tricks.index(t), pool, camp)
    last = tricks[-1]
    if petit[0] == "kept":
        last.winner = keeper
        if excuse[0] == "slam":
            # T15 with T12's exception: the Petit led to the trick before the last.
            tricks[-2].winner = keeper
            if tricks[-3].kind == "trumps" and tricks[-3].winner != keeper:
                return False
            tricks[-3].winner = keeper
    if excuse[0] == "slam":
        # The slam camp leads the Excuse to the last trick: the one before's winner.
        if camp[tricks[-2].winner] != excuse[1]:
            return False
        last.winner = tricks[-2].winner
    for i in range(1, len(tricks)):
        tricks[i].leader = tricks[i - 1].winner
    return made is not None or len({camp[t.winner] for t in tricks}) == 2


def _finish(sheet, rng, tricks, camp, dealer, chien_cards, chien_to, petit, excuse, keeper,
            m_t, lean) -> Witness | None:
    n = len(camp)
    count = COUNTS[n]
    tricks[0].leader = (dealer + 1) % n
    # The suit tricks' winners are drawn; redraw until the counts can give the points.
    for _ in range(20):
        if not _winners(sheet, rng, tricks, camp, m_t, keeper, petit, excuse, lean):
            continue
        witness = _cards(sheet, rng, tricks, camp, dealer, chien_cards, chien_to, petit,
                         excuse, keeper, count)
        if witness is not None:
            return witness
    return None


def _cards(sheet, rng, tricks, camp, dealer, chien_cards, chien_to, petit, excuse, keeper,
           count) -> Witness | None:
    """Places the Petit kept, the Excuse and every suit card; None if the points miss."""
    n = len(camp)
    tricks = [Trick(t.leader, t.winner, t.kind, dict(t.cards), list(t.free), t.suit)
              for t in tricks]
    last = tricks[-1]
    placed = _specials(rng, tricks, camp, petit, excuse, keeper)
    if placed is None:
        return None
    pair = placed[0]
    # What the attack camp holds when every suit card is worth half a point; the courts
    # it holds make up the rest (T13).
    chien_n = count.chien - len(chien_cards)
    extra = sheet.half_points - _base(tricks, camp, chien_to, chien_cards, chien_n)
    if extra < 0 or extra % 2:
        return None
    open_slots: dict[str, list] = {A: [], D: []}
    for t in tricks:
        if t.kind != "suit":
            open_slots[camp[t.winner]] += [(t, s) for s in t.free]
    ecart = sheet.contract in CHIEN_TAKEN
    suit_tricks = [t for t in tricks if t.kind == "suit"]
    room = {c: len(open_slots[c]) + (chien_n if chien_to == c else 0)
            + sum(len(t.free) for t in suit_tricks if camp[t.winner] == c) for c in (A, D)}
    courts = _court_mix(rng, extra, room)
    if courts is None:
        return None
    pips = [p[:] for p in PIPS]
    for p in pips:
        rng.shuffle(p)
    king_seat = (1 if sheet.attackers == 2 else 0) if n == 5 else None
    spare = {c: len(open_slots[c]) + (chien_n if chien_to == c else 0) for c in (A, D)}
    if not _suit_tricks(rng, suit_tricks, camp, courts, pips, spare, king_seat,
                        open_slots):
        return None
    if pair is not None:
        suits = [u for u in range(4) if len(pips[u]) >= 2]
        if not suits:
            return None
        u = rng.choice(suits)
        y, x = sorted(pips[u][-2:])
        del pips[u][-2:]
        last.cards[pair[0]], last.cards[pair[1]] = y, x
        last.suit = u
    chien = _open_places(rng, pips, courts, open_slots, chien_cards, chien_to,
                         (count.chien, ecart))
    if chien is None:
        return None
    if king_seat is not None and not _king_to(king_seat, tricks, open_slots):
        return None
    if not _last_won(last, pair):
        return None
    return _moves(sheet, rng, tricks, camp, dealer, chien)


def _open_places(rng, pips, courts, open_slots, chien_cards: list[int], chien_to: str,
                 chien_rule: tuple[int, bool]) -> list[int] | None:
    """The chien (an écart takes no King, T5) and every open place, each camp's left
    courts and then pips; None when the shape's places do not add up to the cards."""
    size, ecart = chien_rule
    rest_pips = [c for p in pips for c in p]
    rng.shuffle(rest_pips)
    chien = list(chien_cards)
    mine = [card for u in courts[chien_to] for card in u]
    fits = [card for card in mine if not (ecart and card % 14 == KING)]
    rng.shuffle(fits)
    take = min(len(fits), size - len(chien), max(0, len(mine) - len(open_slots[chien_to])))
    chien += fits[:take]
    for card in fits[:take]:
        courts[chien_to][card // 14].remove(card)
    while len(chien) < size:
        if not rest_pips:
            return None
        chien.append(rest_pips.pop())
    for c in (A, D):
        slots = open_slots[c]
        left = [card for u in courts[c] for card in u]
        if len(left) > len(slots) or len(slots) - len(left) > len(rest_pips):
            return None
        rng.shuffle(slots)
        cards = left + [rest_pips.pop() for _ in range(len(slots) - len(left))]
        for (t, s), card in zip(slots, cards, strict=True):
            t.cards[s] = card
    return None if rest_pips else chien


def _specials(rng, tricks: list[Trick], camp: list[str], petit, excuse, keeper
              ) -> tuple[tuple[int, int] | None] | None:
    """The Petit kept to the end (T15), the Excuse (T11, T12), and the seats of the last
    trick's pair when its winner does not lead it: None if the tricks leave no room."""
    n = len(camp)
    last = tricks[-1]
    last.free = list(range(n))
    if petit[0] == "kept":
        at = tricks[-2] if excuse[0] == "slam" else last
        at.cards[keeper] = PETIT
        at.free = [s for s in range(n) if s != keeper]
    # The Excuse.
    kind, owner, winner = excuse
    if kind == "slam":
        last.cards[last.leader] = EXCUSE
        last.free = [s for s in last.free if s != last.leader]
    elif kind == "last":
        if camp[last.winner] != winner:
            return None
        seats = [s for s in last.free if camp[s] == owner and s != last.winner
                 and s != last.leader]
        if not seats:
            return None
        s = rng.choice(seats)
        last.cards[s] = EXCUSE
        last.free.remove(s)
    elif kind == "early":
        spots = [(t, s) for t in tricks[:-1] if camp[t.winner] == winner and t.kind != "petit"
                 for s in t.free if camp[s] == owner
                 and (t.kind == "trumps" or s not in (t.leader, t.winner))]
        if not spots:
            return None
        t, s = rng.choice(spots)
        t.cards[s] = EXCUSE
        t.free.remove(s)
    # The last trick: its winner's card beats the leader's when they differ.
    pair = None
    if last.winner != last.leader and PETIT not in last.cards.values() \
            and last.cards.get(last.leader) != EXCUSE:
        if last.leader not in last.free or last.winner not in last.free:
            return None
        pair = (last.leader, last.winner)
        last.free = [s for s in last.free if s not in pair]
    return (pair,)


def _court_mix(rng: random.Random, extra: int, room: dict[str, int]
               ) -> dict[str, list[list[int]]] | None:
    """The courts of each camp, by suit, that add `extra` half points to the attack camp
    (T13) and fit each camp's places; None if none do."""
    mixes = [m for m in itertools.product(range(5), repeat=4)
             if sum(COURT_RANKS[r] * k for r, k in zip(COURT_RANKS, m, strict=True)) == extra
             and sum(m) <= room[A] and 16 - sum(m) <= room[D]]
    if not mixes:
        return None
    courts: dict[str, list[list[int]]] = {A: [[], [], [], []], D: [[], [], [], []]}
    for rank, k in zip(COURT_RANKS, rng.choice(mixes), strict=True):
        suits = [0, 1, 2, 3]
        rng.shuffle(suits)
        for i, u in enumerate(suits):
            courts[A if i < k else D][u].append(u * 14 + rank)
    return courts


def _suit_tricks(rng, suit_tricks: list[Trick], camp: list[str], courts, pips,
                 spare: dict[str, int], king_seat: int | None, open_slots) -> bool:
    """Deals each one-suit trick its cards, the highest to its winner (T10). They take the
    courts their camp's other places (`spare`) cannot; with five players, a King to the
    called King's holder if it has no other place for one (T22)."""
    wants_king = king_seat is not None and not any(
        s == king_seat for c in (A, D) for _, s in open_slots[c])
    for t in suit_tricks:
        c = camp[t.winner]
        over = sum(map(len, courts[c])) - spare[c]
        need = len(t.free)
        suits = [u for u in range(4) if len(pips[u]) + len(courts[c][u]) >= need]
        king = wants_king and t.winner == king_seat
        if king:
            suits = [u for u in suits if u * 14 + KING in courts[c][u]]
        elif over > 0:
            suits = [u for u in suits if courts[c][u]] or suits
        if not suits:
            return False
        u = rng.choice(suits)
        if king:
            courts[c][u].remove(u * 14 + KING)
            courts[c][u].append(u * 14 + KING)
            wants_king = False
        take = min(len(courts[c][u]), need, max(int(king), over, need - len(pips[u])))
        cards = [courts[c][u].pop() for _ in range(take)] + \
            [pips[u].pop() for _ in range(need - take)]
        cards.sort(key=lambda card: card % 14)
        t.suit = u
        t.cards[t.winner] = cards.pop()
        for s, card in zip([s for s in t.free if s != t.winner], cards, strict=True):
            t.cards[s] = card
        t.free = []
    return True


def _base(tricks: list[Trick], camp: list[str], chien_to: str, chien_cards: list[int],
          chien_n: int) -> int:
    """The attack camp's half points with every suit card worth one (T11–T13)."""
    last = len(tricks) - 1
    half = 0
    for i, t in enumerate(tricks):
        attack_won = camp[t.winner] == A
        for s in range(len(camp)):
            card = t.cards.get(s)
            if card != EXCUSE:
                half += attack_won * (9 if card in (PETIT, MONDE) else 1)
            elif i < last:  # T11: the Excuse stays; half a point changes camp
                half += 9 * (camp[s] == A) + (camp[s] != camp[t.winner]) * (
                    1 if attack_won else -1)
            elif t.leader == s == t.winner:  # T12's exception
                half += 9 * (camp[s] == A)
            else:  # T12: to the other camp
                half += 9 * (camp[s] == D)
    if chien_to == A:
        half += chien_n + 9 * len(chien_cards)
    return half


def _king_to(seat: int, tricks: list[Trick], open_slots: dict[str, list]) -> bool:
    """T22: the seat that holds the called King (the partner, or the taker playing alone)
    holds a King, or gets one from another seat's open slot in a trick where it has one
    too: both play any suit card there, so the swap changes neither tricks nor points."""
    if any(t.cards[seat] < PETIT and t.cards[seat] % 14 == KING for t in tricks):
        return True
    slots = [slot for c in (A, D) for slot in open_slots[c]]
    for t, s in slots:
        if s != seat and t.cards[s] < MONDE and t.cards[s] % 14 == KING \
                and seat in t.cards and (t, seat) in slots:
            t.cards[s], t.cards[seat] = t.cards[seat], t.cards[s]
            return True
    return False


def _last_won(last: Trick, pair: tuple[int, int] | None) -> bool:
    """Makes the last trick go to its winner (T10): with no Petit or Excuse deciding it,
    the leader plays the trick's highest card, or the pair's higher card of the led suit
    is the highest of that suit. False when it cannot."""
    cards = last.cards
    if pair is not None:
        top = cards[pair[1]]
        return not any(s not in pair and c < EXCUSE and SUIT_OF[c] == last.suit and c > top
                       for s, c in cards.items())
    if PETIT in cards.values() or cards.get(last.leader) == EXCUSE:
        return True
    if last.winner != last.leader:
        return False
    best = max((s for s in cards if cards[s] not in (EXCUSE, PETIT)),
               key=lambda s: cards[s] % 14)
    cards[best], cards[last.leader] = cards[last.leader], cards[best]
    return True


def _called(sheet, hands, camp, rng) -> int | None:
    if sheet.players != 5:
        return None
    kings = [s * 14 + KING for s in range(4)]
    holder = {c: s for s, h in enumerate(hands) for c in h}
    seat = 1 if sheet.attackers == 2 else 0
    mine = [k for k in kings if holder.get(k) == seat]
    if not mine and sheet.attackers == 1:
        mine = [k for k in kings if k not in holder]  # in the chien: the taker plays alone
    return rng.choice(mine) if mine else None


def _moves(sheet, rng, tricks, camp, dealer, chien) -> Witness | None:
    n = len(camp)
    hands: list[list[int]] = [[] for _ in range(n)]
    for t in tricks:
        if len(t.cards) != n:
            return None
        for s, c in t.cards.items():
            hands[s].append(c)
    called = _called(sheet, hands, camp, rng)
    if sheet.players == 5 and called is None:
        return None
    order = [c for h in hands for c in h] + chien
    if sorted(order) != list(range(78)):
        raise AssertionError("a card placed twice")
    moves = []
    for i in range(n):
        seat = (dealer + 1 + i) % n
        moves.append(Move(seat, "bid", contract=sheet.contract if seat == 0 else "pass"))
    if called is not None:
        moves.append(Move(0, "call", card=called))
    if sheet.contract in CHIEN_TAKEN:
        moves.append(Move(0, "discard", cards=tuple(chien)))
    moves.append(Move(0, "chelem", announce=sheet.announced))
    for t in tricks:
        for i in range(n):
            seat = (t.leader + i) % n
            moves.append(Move(seat, "play", card=t.cards[seat]))
    return Witness(order, dealer, moves)


def play(witness: Witness, players: int) -> TarotState:
    """The witness played through the rules; AssertionError naming the first move refused."""
    state = GAME.deal_from(witness.order, dealer=witness.dealer, players=players)
    for move in witness.moves:
        reason = GAME.verify(state, move)
        if reason is not None:
            raise AssertionError(f"{move} refused: {reason}")
        state = GAME.apply(state, move)
    return state
