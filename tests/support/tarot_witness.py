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

The taker sits at seat 0 and, with five players and a partner, the partner at seat 1.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from rules.game import Move
from rules.tarot import CHIEN_TAKEN, COUNTS, EXCUSE, GAME, MONDE, PETIT, SUIT_OF, TarotState, attack
from rules.tarot.sheet import feasible, sheet_problems

A, D = "taker", "defense"
TRUMPS_DOWN = list(range(MONDE, PETIT - 1, -1))
PIPS = [[s * 14 + r for r in range(10)] for s in range(4)]
# The courts by rank, with the half points each adds over a card of half a point (T13).
COURT_RANKS = {10: 2, 11: 4, 12: 6, 13: 8}  # Jack, Knight, Queen, King
KING = 13
KINGS = [u * 14 + KING for u in range(4)]
# How often the winners of the tricks after the trumps are drawn again for one shape: a
# draw whose tricks cannot hold the sheet's courts rarely needs more.
REDRAWS = 20


class Sheet(NamedTuple):
    players: int
    contract: str
    attackers: int  # 2 with a five-player partner
    bouts: int
    half_points: int
    made_by: str | None  # the chelem
    petit_au_bout: str | None
    announced: bool = False
    # (camp, level) of each poignée declared, by the camp that declared it (T8, T21)
    poignees: tuple[tuple[str, str], ...] = ()


class Witness(NamedTuple):
    order: list[int]  # the deck as dealt (GAME.deal_from)
    dealer: int
    moves: list[Move]


class BoutPlace(NamedTuple):
    """Where the Petit or the Monde ends: in the tricks that `camp` wins, in the chien that
    `camp` gets, or (the Petit) kept to the last trick by a seat of `camp` (T15)."""

    where: str  # tricks | chien | kept
    camp: str


class ExcusePlace(NamedTuple):
    """Where its `owner` camp's Excuse goes: left in the chien (`owner` being the camp that
    gets it), played to an `early` trick or to the `last` one that the `won_by` camp wins,
    or led to the last trick of its owner's chelem (`slam`, T12's exception)."""

    where: str  # chien | early | last | slam
    owner: str
    won_by: str | None  # None in the chien


Placing = tuple[BoutPlace, BoutPlace, ExcusePlace]  # the Petit, the Monde, the Excuse


@dataclass
class Trick:
    kind: str  # trumps | suit | petit (the Petit led, every other seat discarding) | last
    # The tricks after the trumps get theirs when their winners are drawn (`_winners`).
    leader: int = -1
    winner: int = -1
    cards: dict[int, int] = field(default_factory=dict)  # seat: card, once known
    free: list[int] = field(default_factory=list)  # seats that play any suit card

    def copy(self) -> Trick:
        return replace(self, cards=dict(self.cards), free=list(self.free))


# An open place is a seat's card in a trick other than a one-suit one, where it plays any
# suit card: by the camp that wins the trick, as its card counts for that camp.
OpenPlaces = dict[str, list[tuple[Trick, int]]]


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


@dataclass
class Shape:
    """One shape tried for a sheet: where the bouts go, how many tricks are led in trumps,
    which seat keeps the Petit, the lean of the tricks either camp may win, and the tricks
    as their cards are placed. Every step of the placing reads it."""

    sheet: Sheet
    rng: random.Random
    petit: BoutPlace
    monde: BoutPlace
    excuse: ExcusePlace
    keeper: int | None  # the seat that keeps the Petit to the end (T15)
    trump_tricks: int  # the deal's first tricks, led in trumps
    lean: Lean
    tricks: list[Trick] = field(default_factory=list)
    camp: list[str] = field(init=False)  # by seat
    chien_to: str = field(init=False)
    chien_cards: list[int] = field(init=False)  # the bouts left in the chien

    def __post_init__(self) -> None:
        self.camp = _camps(self.sheet)
        self.chien_to = _chien_to(self.sheet)
        self.chien_cards = _in_chien((self.petit, self.monde, self.excuse))

    @property
    def chien_suit_cards(self) -> int:
        return COUNTS[self.sheet.players].chien - len(self.chien_cards)

    @property
    def king_seat(self) -> int | None:
        """With five players, the seat that holds the called King (T22): the partner, or
        the taker playing alone."""
        if self.sheet.players != 5:
            return None
        return 1 if self.sheet.attackers == 2 else 0

    @property
    def dealer(self) -> int:
        """The seat before the first trick's leader: the seat after the dealer leads it,
        and so does a taker announcing a chelem wherever it sits (T7)."""
        return (self.tricks[0].leader - 1) % self.sheet.players


@dataclass
class SuitCards:
    """The suit cards still to place: the courts that each camp must win, by suit, which
    make up its card points (T13), and the pips, by suit, worth half a point wherever."""

    courts: dict[str, list[list[int]]]
    pips: list[list[int]]


def other(camp: str) -> str:
    return D if camp == A else A


def _camps(sheet: Sheet) -> list[str]:
    return [A if s < sheet.attackers else D for s in range(sheet.players)]


def _chien_to(sheet: Sheet) -> str:
    return D if sheet.contract == "garde_contre" else A  # T6


def _in_chien(placing: Placing) -> list[int]:
    petit, monde, excuse = placing
    return [card for card, where in ((PETIT, petit.where), (MONDE, monde.where),
                                     (EXCUSE, excuse.where)) if where == "chien"]


def accepted_sheets(players: int) -> list[Sheet]:
    """Every sheet without a poignée that the rules accept for a count of players: each
    contract, partner or none, bouts, chelem, petit au bout and points (the reckoning)."""
    sheets = []
    for contract in ("prise", "garde", "garde_sans", "garde_contre"):
        for attackers in (1, 2) if players == 5 else (1,):
            table = feasible(players, "prise" if contract == "garde" else contract, attackers)
            for (bouts, made_by, petit), mask in table.items():
                sheets += [Sheet(players, contract, attackers, bouts, half, made_by, petit,
                                 announced=made_by == "taker" and half % 3 == 0)
                           for half in range(mask.bit_length()) if mask >> half & 1]
    return sheets


def sheets_with_poignees(players: int, count: int, seed: int) -> list[Sheet]:
    """`count` sheets the rules accept with one or two poignées, drawn with `seed`: an
    accepted sheet without a chelem and poignées of any camp and level that the
    reckoning accepts beside it (T8, T21: the tricks a poignée's trumps win)."""
    rng = random.Random(seed)
    plain = [sheet for sheet in accepted_sheets(players) if sheet.made_by is None]
    levels = list(COUNTS[players].poignees.values())
    drawn: list[Sheet] = []
    while len(drawn) < count:
        sheet = rng.choice(plain)._replace(poignees=tuple(
            (rng.choice((A, D)), rng.choice(levels)) for _ in range(rng.randint(1, 2))))
        if sheet not in drawn and not sheet_problems(
                players, sheet.contract, sheet.bouts, sheet.half_points, sheet.petit_au_bout,
                [({"declared_by": camp}, level) for camp, level in sheet.poignees],
                partner=1 if sheet.attackers == 2 else None):
            drawn.append(sheet)
    return drawn


def bout_places(sheet: Sheet) -> list[Placing]:
    """Every placing of the Petit, the Monde and the Excuse whose bouts and bonuses make
    the sheet's: its bouts, its chelem and its petit au bout."""
    chien_to = _chien_to(sheet)
    # A chien that nobody takes may hold bouts; an écart may not (T5).
    chien = [BoutPlace("chien", chien_to)] if sheet.contract not in CHIEN_TAKEN else []
    tricks = [BoutPlace("tricks", A), BoutPlace("tricks", D)]
    petits = [BoutPlace("kept", sheet.petit_au_bout)] if sheet.petit_au_bout else \
        tricks + chien
    excuses = [ExcusePlace("chien", chien_to, None) for _ in chien]
    seats = {A: sheet.attackers, D: sheet.players - sheet.attackers}
    for owner in (A, D):
        for won_by in (A, D):
            # The Excuse never wins its trick (T11): its own camp wins it by another seat.
            if won_by != owner or seats[owner] >= 2:
                excuses += [ExcusePlace("early", owner, won_by),
                            ExcusePlace("last", owner, won_by)]
        excuses.append(ExcusePlace("slam", owner, owner))
    return [placing for placing in itertools.product(petits, tricks + chien, excuses)
            if _makes(sheet, placing)]


def _makes(sheet: Sheet, placing: Placing) -> bool:
    petit, monde, excuse = placing
    if excuse.where == "last" and petit.where == "kept" and excuse.won_by != petit.camp:
        return False  # the Petit wins the last trick
    # T12: the Excuse played to the last trick changes camp, unless it closes a chelem.
    excuse_to = other(excuse.owner) if excuse.where == "last" else excuse.owner
    if [petit.camp, monde.camp, excuse_to].count(A) != sheet.bouts:
        return False
    made = sheet.made_by
    if excuse.where == "slam" and excuse.owner != made:
        return False
    if made is None:
        return True
    # A chelem's camp wins every trick, so every bout played but its own Excuse.
    won: list[str | None] = [place.camp for place in (petit, monde) if place.where != "chien"]
    if excuse.where in ("early", "last"):
        won.append(excuse.won_by)
    return all(camp == made for camp in won)


def deal_for(sheet: Sheet, seed: int = 0, tries: int = 3000) -> Witness | None:
    """A deal (and its moves) that ends on `sheet`, or None if no shape tried gives it
    (none with a poignée)."""
    places = bout_places(sheet)
    if not places or sheet.poignees:
        return None
    rng = random.Random(seed)
    for _ in range(tries):
        witness = _attempt(sheet, rng, places)
        if witness is not None:
            return witness
    return None


def _attempt(sheet: Sheet, rng: random.Random, places: list[Placing]) -> Witness | None:
    """One shape drawn at random and played out, or None if it cannot give the sheet."""
    n = sheet.players
    petit, monde, excuse = placing = rng.choice(places)
    kept = petit.where == "kept"
    # The trumps of the trump tricks: all but the chien's and a Petit kept to the end.
    in_chien = _in_chien(placing)
    trumps = sum(t not in in_chien for t in TRUMPS_DOWN) - kept
    # The tricks after the one-suit ones: the last and, for a chelem closed by the Excuse
    # with the Petit kept, the Petit led to the one before (T15 with T12's exception).
    closing = 1 + (kept and excuse.where == "slam")
    trump_tricks = _draw_trump_tricks(n, rng, trumps, closing)
    if trump_tricks is None:
        return None
    # The seat keeping the Petit holds a trump for every trump trick (the most of all).
    first = rng.choice([s for s, c in enumerate(_camps(sheet)) if c == petit.camp]) if kept \
        else rng.randrange(n)
    holds = _holds(rng, n, trumps, trump_tricks, first)
    # T7: an announced chelem's taker leads the first trick, a trump one.
    if holds is None or sheet.announced and not holds[0]:
        return None
    shape = Shape(sheet, rng, petit, monde, excuse, first if kept else None, trump_tricks,
                  Lean.draw(rng, COUNTS[n].hand))
    if not _play_trumps(shape, holds):
        return None
    _add_closing_tricks(shape, closing)
    return _finish(shape)


def _draw_trump_tricks(n: int, rng: random.Random, trumps: int, closing: int) -> int | None:
    """How many tricks are led in trumps: at most n trumps and at least one in each, and
    the tricks left but the `closing` ones of one suit each (14 // n in a suit)."""
    hand = COUNTS[n].hand
    low = max(-(-trumps // n), hand - closing - 4 * (14 // n), 1)
    high = min(trumps, hand - closing)
    return rng.randint(low, high) if low <= high else None


def _holds(rng: random.Random, n: int, trumps: int, trump_tricks: int, first: int
           ) -> list[int] | None:
    """Trumps per seat, `first` holding the most (one a trump trick)."""
    holds = [0] * n
    holds[first] = trump_tricks
    rest = trumps - trump_tricks
    others = [s for s in range(n) if s != first]
    rng.shuffle(others)
    for i, s in enumerate(others):
        least = max(0, rest - (len(others) - i - 1) * trump_tricks)
        # Often a second seat as long as the first, to hold the top of every trick.
        most = min(trump_tricks, rest)
        holds[s] = most if i == 0 and rng.random() < 0.5 else rng.randint(least, most)
        rest -= holds[s]
    return None if rest else holds


def _play_trumps(shape: Shape, holds: list[int]) -> bool:
    """The trump tricks, from the top down: every seat still holding trumps plays the next
    one, the top's holder wins (T10); the Monde wins the first. A seat that cannot
    overtrump may play any trump (T9): the Petit, at trick `petit_at`."""
    sheet, rng, n = shape.sheet, shape.rng, shape.sheet.players
    # T7: an announced chelem's taker leads; any seat else, holding a trump.
    leader = 0 if sheet.announced else rng.choice([s for s in range(n) if holds[s]])
    petit_at = rng.randint(1, shape.trump_tricks) if shape.petit.where == "tricks" else 0
    trumps = iter([t for t in TRUMPS_DOWN if t not in shape.chien_cards and t != PETIT])
    for i in range(1, shape.trump_tricks + 1):
        trick = _trump_trick(shape, holds, i, leader, trumps, petit_at)
        if trick is None:
            return False
        shape.tricks.append(trick)
        leader = trick.winner
    return True


def _trump_trick(shape: Shape, holds: list[int], i: int, leader: int, trumps: Iterator[int],
                 petit_at: int) -> Trick | None:
    """Trump trick `i`: its seats still holding trumps play the next of `trumps`, the top
    to its winner, and the Petit if `i` is `petit_at`; None if no seat may win it."""
    n = shape.sheet.players
    members = [s for s in range(n) if holds[s] >= i]
    # The Petit takes no place in the order down.
    block = [next(trumps) for _ in members[(i == petit_at):]]
    winner = _trump_winner(shape, holds, i, members, petit_at) if leader in members else None
    if winner is None:
        return None
    trick = Trick("trumps", leader, winner, free=[s for s in range(n) if s not in members])
    rivals = [s for s in members if s != winner]
    if i == petit_at and not _play_petit(shape.rng, trick, rivals, block, holds):
        return None
    trick.cards[winner] = block[0]
    trick.cards.update(zip(rivals, block[1:], strict=True))
    return trick


def _trump_winner(shape: Shape, holds: list[int], i: int, members: list[int], petit_at: int
                  ) -> int | None:
    """The winner of trump trick `i`: of the camp that the Monde's trick (the first), the
    Petit's or a chelem asks for, and left with a trump to lead the next trump trick."""
    petit, monde = shape.petit, shape.monde
    wanted = {monde.camp if i == 1 and monde.where == "tricks" else None,
              petit.camp if i == petit_at else None, shape.sheet.made_by} - {None}
    if len(wanted) > 1:
        return None
    choices = [s for s in members if (i == shape.trump_tricks or holds[s] > i)
               and (not wanted or shape.camp[s] in wanted)]
    if not choices:
        return None
    return shape.lean.pick(shape.rng, i - 1, choices, shape.camp)


def _play_petit(rng: random.Random, trick: Trick, rivals: list[int], block: list[int],
                holds: list[int]) -> bool:
    """The Petit in its trump trick: under the top, or led alone, when it wins."""
    if not rivals:
        block.append(PETIT)
        return True
    # Not a petit sec (T3): the seat holds another trump.
    players = [s for s in rivals if holds[s] >= 2]
    if not players:
        return False
    player = rng.choice(players)
    trick.cards[player] = PETIT
    rivals.remove(player)
    return True


def _add_closing_tricks(shape: Shape, closing: int) -> None:
    """The tricks after the trumps: one suit each, then the `closing` ones, with the Petit
    kept in the last or, for a chelem closed by the Excuse, led to the one before."""
    seats = list(range(shape.sheet.players))
    suit_tricks = COUNTS[shape.sheet.players].hand - shape.trump_tricks - closing
    shape.tricks += [Trick("suit", free=list(seats)) for _ in range(suit_tricks)]
    keeper = shape.keeper
    if keeper is None:
        shape.tricks.append(Trick("last", free=seats))
        return
    petit = Trick("petit" if closing == 2 else "last", cards={keeper: PETIT},
                  free=[s for s in seats if s != keeper])
    shape.tricks += [petit, Trick("last", free=seats)] if closing == 2 else [petit]


def _finish(shape: Shape) -> Witness | None:
    """The tricks after the trumps won and every card placed, on a copy of the tricks; the
    winners are drawn again while the cards cannot make the sheet's points."""
    for _ in range(REDRAWS):
        if not _winners(shape):
            continue
        witness = _cards(replace(shape, tricks=[t.copy() for t in shape.tricks]))
        if witness is not None:
            return witness
    return None


def _winners(shape: Shape) -> bool:
    """Winners of the tricks after the trumps, and so every trick's leader (T10); False
    if the draw breaks a chelem, a slam closed by the Excuse or the Petit kept."""
    tricks, camp, keeper = shape.tricks, shape.camp, shape.keeper
    made = shape.sheet.made_by
    pool = [s for s in range(len(camp)) if made is None or camp[s] == made]
    for index in range(shape.trump_tricks, len(tricks)):
        tricks[index].winner = shape.lean.pick(shape.rng, index, pool, camp)
    last = tricks[-1]
    slam = shape.excuse.where == "slam"
    if keeper is not None:
        last.winner = keeper
        if slam:
            # T15 with T12's exception: the Petit led to the trick before the last.
            tricks[-2].winner = keeper
            if tricks[-3].kind == "trumps" and tricks[-3].winner != keeper:
                return False
            tricks[-3].winner = keeper
    if slam:
        # The slam camp leads the Excuse to the last trick: the one before's winner.
        if camp[tricks[-2].winner] != shape.excuse.owner:
            return False
        last.winner = tricks[-2].winner
    for before, trick in itertools.pairwise(tricks):
        trick.leader = before.winner
    # Without a chelem, each camp wins a trick.
    return made is not None or len({camp[t.winner] for t in tricks}) == 2


def _cards(shape: Shape) -> Witness | None:
    """Places the Excuse and every suit card; None if the points miss."""
    rng, tricks, last = shape.rng, shape.tricks, shape.tricks[-1]
    if not _play_excuse(shape):
        return None
    pair = _last_pair(last)
    # What the attack camp holds when every suit card is worth half a point; the courts
    # it holds make up the rest (T13).
    extra = shape.sheet.half_points - _base(shape)
    if extra < 0 or extra % 2:
        return None
    open_places = _open_places(shape)
    # The places outside the one-suit tricks for each camp's courts: its open places and
    # the chien's suit cards if it gets the chien.
    spare = {c: len(open_places[c]) + (shape.chien_suit_cards if shape.chien_to == c else 0)
             for c in (A, D)}
    cards = _suit_cards(shape, extra, spare)
    if cards is None or not _suit_tricks(shape, cards, spare, open_places):
        return None
    if pair is not None and not _play_pair(rng, last, pair, cards.pips):
        return None
    chien = _chien_and_open_places(shape, cards, open_places)
    if chien is None:
        return None
    if shape.king_seat is not None and not _king_to(shape.king_seat, tricks, open_places):
        return None
    if not _last_won(last, pair):
        return None
    return _moves(shape, chien)


def _play_excuse(shape: Shape) -> bool:
    """The Excuse (T11, T12): led to the last trick by a chelem's camp, or played by a seat
    of its owner camp to an early trick or the last one that the `won_by` camp wins,
    where that seat neither leads nor wins; False if no trick has such a place."""
    where, owner, won_by = shape.excuse
    last, camp = shape.tricks[-1], shape.camp
    if where == "slam":
        last.cards[last.leader] = EXCUSE
        last.free.remove(last.leader)
    if where in ("chien", "slam"):
        return True
    tricks = [last] if where == "last" else shape.tricks[:-1]
    spots = [(t, s) for t in tricks if camp[t.winner] == won_by
             for s in t.free if camp[s] == owner and s not in (t.leader, t.winner)]
    if not spots:
        return False
    t, s = shape.rng.choice(spots)
    t.cards[s] = EXCUSE
    t.free.remove(s)
    return True


def _last_pair(last: Trick) -> tuple[int, int] | None:
    """The seats that play the last trick's led suit when neither the Petit nor the Excuse
    decides it and its winner does not lead it: the leader, then the winner."""
    if last.winner == last.leader or PETIT in last.cards.values() \
            or last.cards.get(last.leader) == EXCUSE:
        return None
    pair = (last.leader, last.winner)
    last.free = [s for s in last.free if s not in pair]
    return pair


def _base(shape: Shape) -> int:
    """The attack camp's half points with every suit card worth half a point (T11–T13)."""
    tricks, camp = shape.tricks, shape.camp
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
    if shape.chien_to == A:
        half += shape.chien_suit_cards + 9 * len(shape.chien_cards)
    return half


def _open_places(shape: Shape) -> OpenPlaces:
    places: OpenPlaces = {A: [], D: []}
    for t in shape.tricks:
        if t.kind != "suit":
            places[shape.camp[t.winner]] += [(t, s) for s in t.free]
    return places


def _suit_cards(shape: Shape, extra: int, spare: dict[str, int]) -> SuitCards | None:
    """The courts that each camp wins, adding `extra` half points to the attack camp, and
    the pips shuffled; None if no mix of courts fits the camps' places."""
    room = {c: spare[c] + sum(len(t.free) for t in shape.tricks
                              if t.kind == "suit" and shape.camp[t.winner] == c)
            for c in (A, D)}
    courts = _court_mix(shape.rng, extra, room)
    if courts is None:
        return None
    pips = [p[:] for p in PIPS]
    for p in pips:
        shape.rng.shuffle(p)
    return SuitCards(courts, pips)


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


def _suit_tricks(shape: Shape, cards: SuitCards, spare: dict[str, int],
                 open_places: OpenPlaces) -> bool:
    """Deals each one-suit trick its cards, the highest to its winner (T10). They take the
    courts their camp's other places (`spare`) cannot; with five players, a King to the
    called King's holder if it has no other place for one (T22)."""
    king_seat = shape.king_seat
    wants_king = king_seat is not None and not any(
        s == king_seat for c in (A, D) for _, s in open_places[c])
    for t in shape.tricks:
        if t.kind != "suit":
            continue
        c = shape.camp[t.winner]
        over = sum(map(len, cards.courts[c])) - spare[c]
        king = wants_king and t.winner == king_seat
        u = _trick_suit(shape.rng, cards, c, len(t.free), over, king)
        if u is None:
            return False
        _deal_suit(t, cards, c, u, over, king)
        wants_king = wants_king and not king
    return True


def _trick_suit(rng: random.Random, cards: SuitCards, camp: str, need: int, over: int,
                king: bool) -> int | None:
    """A suit with cards enough for a trick of `need` seats that `camp` wins: one holding
    a King of the camp's when the trick gives the called King's holder one, else one with
    courts of the camp's when its other places (`over` past them) cannot take them all."""
    courts = cards.courts[camp]
    suits = [u for u in range(4) if len(cards.pips[u]) + len(courts[u]) >= need]
    if king:
        suits = [u for u in suits if KINGS[u] in courts[u]]
    elif over > 0:
        suits = [u for u in suits if courts[u]] or suits
    return rng.choice(suits) if suits else None


def _deal_suit(t: Trick, cards: SuitCards, camp: str, u: int, over: int, king: bool) -> None:
    courts, pips = cards.courts[camp][u], cards.pips[u]
    need = len(t.free)
    if king:  # the courts are taken from the end: the King first, and to the winner
        courts.remove(KINGS[u])
        courts.append(KINGS[u])
    take = min(len(courts), need, max(int(king), over, need - len(pips)))
    dealt = [courts.pop() for _ in range(take)] + [pips.pop() for _ in range(need - take)]
    dealt.sort(key=lambda card: card % 14)
    t.cards[t.winner] = dealt.pop()
    for s, card in zip([s for s in t.free if s != t.winner], dealt, strict=True):
        t.cards[s] = card
    t.free = []


def _play_pair(rng: random.Random, last: Trick, pair: tuple[int, int], pips: list[list[int]]
               ) -> bool:
    """The last trick's pair: two pips of one suit, the lower to its leader."""
    suits = [u for u in range(4) if len(pips[u]) >= 2]
    if not suits:
        return False
    u = rng.choice(suits)
    last.cards[pair[0]], last.cards[pair[1]] = sorted(pips[u][-2:])
    del pips[u][-2:]
    return True


def _chien_and_open_places(shape: Shape, cards: SuitCards, open_places: OpenPlaces
                           ) -> list[int] | None:
    """The chien and every open place: each camp's courts left, then pips; None when the
    shape's places do not add up to the cards."""
    rng = shape.rng
    pips = [c for p in cards.pips for c in p]
    rng.shuffle(pips)
    chien = _chien(shape, cards.courts[shape.chien_to], len(open_places[shape.chien_to]),
                   pips)
    if chien is None:
        return None
    for c in (A, D):
        places = open_places[c]
        left = [card for u in cards.courts[c] for card in u]
        if len(left) > len(places) or len(places) - len(left) > len(pips):
            return None
        rng.shuffle(places)
        dealt = left + [pips.pop() for _ in range(len(places) - len(left))]
        for (t, s), card in zip(places, dealt, strict=True):
            t.cards[s] = card
    return None if pips else chien


def _chien(shape: Shape, courts: list[list[int]], open_n: int, pips: list[int]
           ) -> list[int] | None:
    """The chien: its bouts, then the courts of the camp getting it that the camp's open
    places (`open_n`) cannot take (an écart takes no King, T5), then pips."""
    size = COUNTS[shape.sheet.players].chien
    ecart = shape.sheet.contract in CHIEN_TAKEN
    chien = list(shape.chien_cards)
    mine = [card for u in courts for card in u]
    fits = [card for card in mine if not (ecart and card in KINGS)]
    shape.rng.shuffle(fits)
    take = min(len(fits), size - len(chien), max(0, len(mine) - open_n))
    chien += fits[:take]
    for card in fits[:take]:
        courts[card // 14].remove(card)
    if size - len(chien) > len(pips):
        return None
    return chien + [pips.pop() for _ in range(size - len(chien))]


def _king_to(seat: int, tricks: list[Trick], open_places: OpenPlaces) -> bool:
    """T22: the seat that holds the called King (the partner, or the taker playing alone)
    holds a King, or gets one from another seat's open place in a trick where it has one
    too: both play any suit card there, so the swap changes neither tricks nor points."""
    if any(t.cards[seat] in KINGS for t in tricks):
        return True
    places = [place for c in (A, D) for place in open_places[c]]
    for t, s in places:
        if s != seat and t.cards[s] in KINGS and (t, seat) in places:
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
        return not any(SUIT_OF[c] == SUIT_OF[top] and c > top for c in cards.values())
    if PETIT in cards.values() or cards.get(last.leader) == EXCUSE:
        return True
    if last.winner != last.leader:
        return False
    best = max((s for s in cards if cards[s] not in (EXCUSE, PETIT)),
               key=lambda s: cards[s] % 14)
    cards[best], cards[last.leader] = cards[last.leader], cards[best]
    return True


def _moves(shape: Shape, chien: list[int]) -> Witness | None:
    """The deck as dealt (the hands, then the chien) and every move of the deal; None
    with five players if the called King's holder has none to call."""
    sheet, n = shape.sheet, shape.sheet.players
    hands: list[list[int]] = [[] for _ in range(n)]
    for t in shape.tricks:
        for s, card in t.cards.items():
            hands[s].append(card)
    called = _called(shape, hands)
    if shape.king_seat is not None and called is None:
        return None
    order = [c for h in hands for c in h] + chien
    if sorted(order) != list(range(78)):
        raise AssertionError("a card placed twice")
    plays = [t.cards[seat] for t in shape.tricks for seat in _round_from(t.leader, n)]
    return witness_of(sheet, shape.dealer, order, plays, called)


def _round_from(seat: int, n: int) -> list[int]:
    return [(seat + i) % n for i in range(n)]


def _called(shape: Shape, hands: list[list[int]]) -> int | None:
    """The King the taker calls (T22): one that the partner holds, or, the taker playing
    alone, one of its own or of the chien."""
    seat = shape.king_seat
    if seat is None:
        return None
    holder = {c: s for s, h in enumerate(hands) for c in h}
    mine = [k for k in KINGS if holder.get(k) == seat]
    if not mine and seat == 0:
        mine = [k for k in KINGS if k not in holder]
    return shape.rng.choice(mine) if mine else None


def sheet_of_deal(state: TarotState) -> Sheet:
    """The sheet a finished deal gives, as a Sheet (the taker at seat 0, its partner at 1)."""
    settlement = GAME.settlement(state)
    camp = attack(state.taker, state.partner)
    return Sheet(len(state.hands), settlement["contract"], 1 + (state.partner is not None),
                 settlement["bouts"], round(2 * settlement["points"]),
                 (settlement["chelem"] or {}).get("made_by"),
                 (settlement["petit_au_bout"] or {}).get("camp"), bool(state.chelem),
                 tuple(sorted((A if camp >> p["seat"] & 1 else D, p["level"])
                              for p in settlement["poignees"])))


def witness_of(sheet: Sheet, dealer: int, order: list[int], plays: list[int],
               called: int | None, shown: dict[int, tuple[int, ...]] | None = None) -> Witness:
    """A deal's moves: the taker at seat 0 bids the contract and every other seat passes,
    calls the King `called` with five players, lays aside the chien as dealt (the deck's
    last cards) in a prise or garde, announces the chelem or not, then the `plays` in
    order, each seat showing its poignée of `shown` before its first card (T8)."""
    n, count = sheet.players, COUNTS[sheet.players]
    moves = [Move((dealer + 1 + i) % n, "bid",
                  contract=sheet.contract if (dealer + 1 + i) % n == 0 else "pass")
             for i in range(n)]
    if called is not None:
        moves.append(Move(0, "call", card=called))
    if sheet.contract in CHIEN_TAKEN:
        moves.append(Move(0, "discard", cards=tuple(order[n * count.hand:])))
    moves.append(Move(0, "chelem", announce=sheet.announced))
    seat_of = {card: i // count.hand for i, card in enumerate(order[:n * count.hand])}
    for i, card in enumerate(plays):
        seat = seat_of[card]
        if i < n and seat in (shown or {}):
            moves.append(Move(seat, "poignee", cards=shown[seat]))
        moves.append(Move(seat, "play", card=card))
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
