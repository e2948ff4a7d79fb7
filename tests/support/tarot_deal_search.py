"""A deal for a Tarot score sheet found by a constraint solver (issue 40.6), for the sheets
that the shapes of tests/support/tarot_witness.py do not reach: the Monde kept to the last
trick, a ruffed King, trumps that only ever fall on plain suits. `python -m
tests.support.tarot_deal_search` (with the `deals` extra: pip install -e '.[deals]') goes
through every accepted sheet and writes tests/data/tarot_found_deals.json.

The whole play is one model for OR-Tools' CP-SAT: which seat plays which card to which
trick, and which cards lie in the chien. Its constraints are T9 (follow the led suit, else
trump, over the highest trump already in the trick when the seat can), T10 (the highest
trump or card of the led suit wins, and leads next), T11 and T12 (where the Excuse's points
go), T13 (card points), T15 (the petit au bout), T3 (no petit sec), T5 (the écart, which
the model takes to be the chien as dealt: no King, bout or trump), T6 (whose chien), T22
and T23 (the five-player call and opening lead) and the sheet's bouts and half points. A
solution is only a candidate: `play` from tarot_witness replays it through the rules,
which alone say what it gives. The model leaves out chelems and poignées, which the
shapes build.

The taker sits at seat 0 and, with five players and a partner, the partner at seat 1.
"""

from __future__ import annotations

import itertools
import multiprocessing
import sys

from ortools.sat.python import cp_model

from rules.tarot import COUNTS, EXCUSE, MONDE, PETIT
from rules.tarot.bidding import CHIEN_TAKEN
from rules.tarot.cards import FIRST_TRUMP, HALF_POINTS, SUIT_OF
from rules.tarot.sheet import A, D, Way, least_tricks, ways
from tests.support import tarot_found_deals
from tests.support.tarot_witness import (
    KINGS,
    Sheet,
    Witness,
    accepted_sheets,
    play,
    sheet_of_deal,
    witness_of,
)
from tests.support.tarot_witness import deal_for as shaped_deal_for

TRUMP, EXCUSE_SUIT = 4, 5
SUITS = range(6)  # the four plain suits, the trumps, the Excuse
TRUMPS = range(FIRST_TRUMP, EXCUSE)
BOUTS = (PETIT, MONDE, EXCUSE)
WAYS = 12  # of a sheet's ways, those tried: a sheet with many has easy ones


class Play:
    """The model of one deal's play for a sheet, and its solution as a Witness."""

    def __init__(self, sheet: Sheet, way: Way | None = None) -> None:
        self.sheet = sheet
        self.n = n = sheet.players
        self.tricks = COUNTS[n].hand
        self.chien_size = COUNTS[n].chien
        self.attack = [s < sheet.attackers for s in range(n)]
        self.m = m = cp_model.CpModel()
        h = self.tricks
        self.card = [[[m.NewBoolVar("") for _ in range(78)] for _ in range(n)] for _ in range(h)]
        self.chien = [m.NewBoolVar("") for _ in range(78)]
        self.lead = [[m.NewBoolVar("") for _ in range(n)] for _ in range(h)]
        self.win = [[m.NewBoolVar("") for _ in range(n)] for _ in range(h)]
        self._deal()
        self._suits()
        self._following()
        self._overtrumping()
        self._winning()
        self._sheet()
        self._poignees()
        if way is not None:
            self._fall(way)

    # -- the deal ------------------------------------------------------------------------

    def suit_of(self, t: int, s: int, u: int):
        """1 when seat s plays a card of suit u to trick t."""
        return sum(self.card[t][s][c] for c in range(78) if SUIT_OF[c] == u)

    def _deal(self) -> None:
        m, n, h = self.m, self.n, self.tricks
        for t, s in itertools.product(range(h), range(n)):
            m.AddExactlyOne(self.card[t][s])
        for c in range(78):
            m.AddExactlyOne([self.card[t][s][c] for t in range(h) for s in range(n)]
                            + [self.chien[c]])
        m.Add(sum(self.chien) == self.chien_size)
        if self.sheet.contract in CHIEN_TAKEN:  # T5: the écart, here the chien as dealt
            for c in list(TRUMPS) + [EXCUSE] + KINGS:
                m.Add(self.chien[c] == 0)
        for s in range(n):  # T3: no petit sec
            petit = sum(self.card[t][s][PETIT] for t in range(h))
            others = sum(self.card[t][s][c] for t in range(h)
                         for c in list(TRUMPS[1:]) + [EXCUSE])
            m.Add(others >= 1).OnlyEnforceIf(self._holds(petit))
        for t in range(h):
            m.AddExactlyOne(self.lead[t])
            m.AddExactlyOne(self.win[t])
            if t + 1 < h:
                for s in range(n):
                    m.Add(self.lead[t + 1][s] == self.win[t][s])

    def _holds(self, expr):
        """A literal for `expr` ≥ 1."""
        b = self.m.NewBoolVar("")
        self.m.Add(expr >= 1).OnlyEnforceIf(b)
        self.m.Add(expr == 0).OnlyEnforceIf(b.Not())
        return b

    def _and(self, *lits):
        """A literal for every one of `lits`."""
        b = self.m.NewBoolVar("")
        self.m.AddBoolAnd(list(lits)).OnlyEnforceIf(b)
        self.m.AddBoolOr([x.Not() for x in lits]).OnlyEnforceIf(b.Not())
        return b

    def _and_sum(self, lit, expr):
        """A literal for `lit` and the 0/1 expression `expr`."""
        b = self.m.NewBoolVar("")
        self.m.Add(b <= expr)
        self.m.AddImplication(b, lit)
        self.m.Add(b >= expr).OnlyEnforceIf(lit)
        return b

    def _suits(self) -> None:
        """plays[t][s][u]: seat s plays a card of suit u to trick t; has[t][s][u]: it holds
        one as the trick starts; led[t][u]: the trick is led in u (T9)."""
        m, n, h = self.m, self.n, self.tricks
        self.plays = [[[self._holds(self.suit_of(t, s, u)) for u in SUITS] for s in range(n)]
                      for t in range(h)]
        self.has = [[[m.NewBoolVar("") for _ in SUITS] for _ in range(n)] for _ in range(h)]
        for t, s, u in itertools.product(range(h), range(n), SUITS):
            has, now = self.has[t][s][u], self.plays[t][s][u]
            later = self.has[t + 1][s][u] if t + 1 < h else now
            m.AddImplication(now, has)
            m.AddImplication(later, has)
            m.AddBoolOr([now, later]).OnlyEnforceIf(has)
        self.led = [[m.NewBoolVar("") for _ in range(5)] for _ in range(h)]
        for t in range(h):
            m.AddExactlyOne(self.led[t])
            for u in range(5):
                self._led(t, u)

    def _led(self, t: int, u: int) -> None:
        """Trick t is led in suit u: its leader plays a card of u, or leads the Excuse and
        the next seat plays one (T9)."""
        ways = []
        for s in range(self.n):
            ways.append(self._and(self.lead[t][s], self.plays[t][s][u]))
            ways.append(self._and(self.lead[t][s], self.plays[t][s][EXCUSE_SUIT],
                                  self.plays[t][(s + 1) % self.n][u]))
        self.m.AddBoolOr(ways).OnlyEnforceIf(self.led[t][u])
        for way in ways:
            self.m.AddImplication(way, self.led[t][u])

    def before(self, t: int, a: int, b: int):
        """1 when seat a plays before seat b in trick t."""
        n = self.n
        return sum(self.lead[t][lead] for lead in range(n) if (a - lead) % n < (b - lead) % n)

    # -- T9 ------------------------------------------------------------------------------

    def _following(self) -> None:
        m, n, h = self.m, self.n, self.tricks
        for t, s in itertools.product(range(h), range(n)):
            excuse = self.plays[t][s][EXCUSE_SUIT]
            for u in range(5):
                # A seat holding the led suit plays it (the Excuse may always be played).
                m.AddBoolOr([self.plays[t][s][u], excuse, self.lead[t][s]]).OnlyEnforceIf(
                    [self.led[t][u], self.has[t][s][u]])
                if u < TRUMP:  # else a trump, holding one
                    m.AddBoolOr([self.plays[t][s][TRUMP], excuse, self.lead[t][s]]
                                ).OnlyEnforceIf([self.led[t][u], self.has[t][s][u].Not(),
                                                 self.has[t][s][TRUMP]])

    def _overtrumping(self) -> None:
        """A seat playing a trump under one already in the trick holds none above it."""
        m, n, h = self.m, self.n, self.tricks
        # above[t][s][c]: seat s holds a trump above c as trick t starts.
        above = [[[m.NewBoolVar("") for _ in TRUMPS] for _ in range(n)] for _ in range(h)]
        for t, s, i in itertools.product(range(h), range(n), range(len(TRUMPS))):
            now = sum(self.card[t][s][c] for c in range(FIRST_TRUMP + i + 1, EXCUSE))
            later = above[t + 1][s][i] if t + 1 < h else 0
            m.Add(above[t][s][i] <= later + now)
            m.Add(above[t][s][i] >= now)
            if t + 1 < h:
                m.AddImplication(later, above[t][s][i])
        for t, s in itertools.product(range(h), range(n)):
            for i, c in enumerate(TRUMPS[:-1]):
                shown = [self._and(self.card[t][s2][c], self._before_lit(t, s2, s))
                         for s2 in range(n) if s2 != s]
                for x in range(FIRST_TRUMP, c):
                    for lit in shown:
                        m.AddBoolOr([self.card[t][s][x].Not(), lit.Not(),
                                     above[t][s][i].Not()])

    def _before_lit(self, t: int, a: int, b: int):
        key = (t, a, b)
        cache = self.__dict__.setdefault("_before_cache", {})
        if key not in cache:
            cache[key] = self._holds(self.before(t, a, b))
        return cache[key]

    # -- T10 -----------------------------------------------------------------------------

    def _winning(self) -> None:
        """top[t][c]: card c wins trick t: no higher trump in it, or, a card of the led
        suit, no trump and no higher card of that suit in it. The Excuse never wins."""
        m, n, h = self.m, self.n, self.tricks
        for t in range(h):
            top = {c: m.NewBoolVar("") for c in range(EXCUSE)}
            m.AddExactlyOne(top.values())
            for c, is_top in top.items():
                u = SUIT_OF[c]
                higher = range(c + 1, EXCUSE if u == TRUMP else u * 14 + 14)
                for s in range(n):
                    m.AddBoolOr([is_top.Not(), self.card[t][s][c].Not(), self.win[t][s]])
                    for c2 in higher:
                        m.AddImplication(is_top, self.card[t][s][c2].Not())
                    if u != TRUMP:
                        m.AddImplication(is_top, self.plays[t][s][TRUMP].Not())
                m.AddBoolOr([self.card[t][s][c] for s in range(n)]).OnlyEnforceIf(is_top)
                if u != TRUMP:
                    m.AddImplication(is_top, self.led[t][u])

    # -- the sheet -----------------------------------------------------------------------

    def _sheet(self) -> None:
        m, n, h, sheet = self.m, self.n, self.tricks, self.sheet
        if sheet.made_by is not None:
            raise ValueError("the model leaves chelems to the shapes")
        self.attack_won = [sum(self.win[t][s] for s in range(n) if self.attack[s])
                           for t in range(h)]
        won = [self._holds(x) for x in self.attack_won]
        # No chelem: each camp wins a trick, and no camp leads the Excuse to the last trick
        # after winning every other (T12's exception would make it one).
        m.AddBoolOr(won)
        m.AddBoolOr([x.Not() for x in won])
        for s in range(n):
            mine = won[:-1] if self.attack[s] else [x.Not() for x in won[:-1]]
            m.AddBoolOr([x.Not() for x in mine]).OnlyEnforceIf(
                [self.lead[h - 1][s], self.card[h - 1][s][EXCUSE]])
        self._points(won)
        petit_last = sum(self.card[h - 1][s][PETIT] for s in range(n))
        if sheet.petit_au_bout is None:
            m.Add(petit_last == 0)
        else:  # T15
            m.Add(petit_last == 1)
            m.Add(won[h - 1] == (sheet.petit_au_bout == "taker"))
        self._call()

    def _points(self, won: list) -> None:
        """The attack camp's bouts and half points (T13, T14): the cards of the tricks it
        won (`won`, a literal a trick) and of a chien that counts for it (T6)."""
        n, h = self.n, self.tricks
        chien_to_attack = self.sheet.contract != "garde_contre"
        half, bouts = [], []
        self.won, self.won_cards = won, {}
        for c in range(EXCUSE):
            self.won_cards[c] = sum(self._and_sum(won[t], sum(self.card[t][s][c]
                                                               for s in range(n)))
                                    for t in range(h))
            taken = self.won_cards[c] + (self.chien[c] if chien_to_attack else 0)
            half.append(HALF_POINTS[c] * taken)
            if c in BOUTS:
                bouts.append(taken)
        excuse_half, excuse = self._excuse_half(won, chien_to_attack)
        self.m.Add(sum(half) + excuse_half == self.sheet.half_points)
        self.m.Add(sum(bouts) + excuse == self.sheet.bouts)

    def _excuse_half(self, won: list, chien_to_attack: bool):
        """The attack camp's half points and bouts from the Excuse (T11, T12)."""
        h, card, n = self.tricks, self.card, self.n
        attack = [s for s in range(n) if self.attack[s]]
        defence = [s for s in range(n) if not self.attack[s]]
        early = sum(card[t][s][EXCUSE] for t in range(h - 1) for s in attack)
        last = sum(card[h - 1][s][EXCUSE] for s in defence)
        given = sum(self._and(card[t][s][EXCUSE], won[t]) for t in range(h - 1)
                    for s in defence)
        taken = sum(self._and(card[t][s][EXCUSE], won[t].Not()) for t in range(h - 1)
                    for s in attack)
        owned = early + last + (self.chien[EXCUSE] if chien_to_attack else 0)
        return 9 * owned + given - taken, owned

    def _call(self) -> None:
        """T22, T23: the taker calls a King its partner holds, or one of its own or in the
        chien when it plays alone; the first card led is not of that suit but the King."""
        m, n, h, sheet = self.m, self.n, self.tricks, self.sheet
        if n != 5:
            self.called = None
            return
        self.called = [m.NewBoolVar("") for _ in range(4)]
        m.AddExactlyOne(self.called)
        seat = 1 if sheet.attackers == 2 else 0
        for u, king in enumerate(KINGS):
            holds = sum(self.card[t][seat][king] for t in range(h))
            if seat == 0:
                holds += self.chien[king]
            m.Add(holds == 1).OnlyEnforceIf(self.called[u])
            for s in range(n):
                for c in range(u * 14, u * 14 + 13):
                    m.AddImplication(self.lead[0][s], self.card[0][s][c].Not()
                                     ).OnlyEnforceIf(self.called[u])

    def _poignees(self) -> None:
        """T8, T21: each poignée is shown by a seat of its camp, one a seat, that holds its
        trumps, or one fewer and the Excuse."""
        m, n, h = self.m, self.n, self.tricks
        sizes = {level: size for size, level in COUNTS[n].poignees.items()}
        self.shows: list[tuple[int, dict]] = []
        for camp, level in self.sheet.poignees:
            pick = {s: m.NewBoolVar("") for s in range(n) if self.attack[s] == (camp == A)}
            m.AddExactlyOne(pick.values())
            self.shows.append((sizes[level], pick))
            for s, lit in pick.items():
                held = sum(self.card[t][s][c] for t in range(h) for c in (*TRUMPS, EXCUSE))
                m.Add(held >= sizes[level]).OnlyEnforceIf(lit)
        for s in range(n):
            m.Add(sum(pick[s] for _, pick in self.shows if s in pick) <= 1)

    def _fall(self, way: Way) -> None:
        """The deal falls the reckoning's way (rules/tarot/sheet.py): the attack camp's
        tricks, the last trick's camp, where the Excuse, the Petit and the Monde end."""
        m, h, card, n = self.m, self.tricks, self.card, self.n
        m.Add(sum(self.attack_won) == way.attack_tricks)
        m.Add(self.won[h - 1] == (way.last == A))
        for bout, place in ((PETIT, way.petit), (MONDE, way.monde)):
            m.Add(self.chien[bout] == (place == "chien"))
            m.Add(self.won_cards[bout] == (place == A))
        kind, owner, winner = way.excuse
        m.Add(self.chien[EXCUSE] == (kind == "chien"))
        owners = [s for s in range(n) if self.attack[s] == (owner == A)]
        if kind == "last":
            m.Add(sum(card[h - 1][s][EXCUSE] for s in owners) == 1)
        elif kind == "early":
            m.Add(sum(card[t][s][EXCUSE] for t in range(h - 1) for s in owners) == 1)
            for t, s in itertools.product(range(h - 1), owners):
                m.Add(self.won[t] == (winner == A)).OnlyEnforceIf(card[t][s][EXCUSE])

    # -- the solution --------------------------------------------------------------------

    def solve(self, seconds: float = 60.0, seed: int = 0) -> Witness | None:
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = seconds
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = seed
        status = solver.Solve(self.m)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return self._witness(solver)

    def _witness(self, solver) -> Witness:
        n, h = self.n, self.tricks

        def which(literals) -> int:
            return next(i for i, x in enumerate(literals) if solver.BooleanValue(x))

        played = [[which(self.card[t][s]) for s in range(n)] for t in range(h)]
        leaders = [which(self.lead[t]) for t in range(h)]
        order = [played[t][s] for s in range(n) for t in range(h)]
        order += [c for c in range(78) if solver.BooleanValue(self.chien[c])]
        plays = [played[t][(leaders[t] + i) % n] for t in range(h) for i in range(n)]
        called = None if self.called is None else KINGS[which(self.called)]
        return witness_of(self.sheet, (leaders[0] - 1) % n, order, plays, called,
                          self._shown(solver, played))

    def _shown(self, solver, played: list[list[int]]) -> dict[int, tuple[int, ...]]:
        """Each poignée's cards, by the seat that shows it: its lowest trumps, or every
        trump and the Excuse (T8)."""
        shown = {}
        for size, pick in self.shows:
            seat = next(s for s, lit in pick.items() if solver.BooleanValue(lit))
            trumps = sorted(c for t in range(self.tricks) if (c := played[t][seat]) in TRUMPS)
            shown[seat] = tuple(trumps[:size]) if len(trumps) >= size else (*trumps, EXCUSE)
        return shown


def ways_of(sheet: Sheet) -> list[Way]:
    """The reckoning's ways that give the sheet (rules/tarot/sheet.py), but T12's slam,
    which the model leaves out. Fixing one is what lets the solver find a deal in seconds
    rather than not at all."""
    contract = "prise" if sheet.contract == "garde" else sheet.contract
    key = (sheet.bouts, sheet.made_by, sheet.petit_au_bout)
    least = {A: 0, D: 0}  # T8, T10: the tricks a poignée makes its camp win
    for camp, level in sheet.poignees:
        least[camp] = max(least[camp], least_tricks(sheet.players, contract, level, camp))
    found = [way for way in ways(sheet.players, contract, sheet.attackers, (least[A], least[D]))
             if way.key == key and way.half_points >> sheet.half_points & 1
             and way.excuse[0] != "slam"]

    def slack(way: Way) -> int:  # a sheet at the edge of a way's points is a hard one
        low = (way.half_points & -way.half_points).bit_length() - 1
        return min(sheet.half_points - low, way.half_points.bit_length() - 1 - sheet.half_points)

    return sorted(found, key=slack, reverse=True)


def deal_for(sheet: Sheet, seconds: tuple[float, ...] = (10.0, 60.0)
             ) -> Witness | None:
    """A deal for the sheet: the ways the reckoning gives it (the WAYS farthest from their
    edges) tried in turn for each time limit, or None."""
    for seed, limit in enumerate(seconds):
        for way in ways_of(sheet)[:WAYS]:
            witness = Play(sheet, way).solve(limit, seed)
            if witness is not None:
                return witness
    return None


def _shaped(sheet: Sheet) -> bool:
    return shaped_deal_for(sheet, tarot_found_deals.SHAPE_SEED,
                           tarot_found_deals.SHAPE_TRIES) is not None


def found_deal_for(sheet: Sheet, known: Witness | None = None) -> Witness | None:
    """A deal for a sheet the shapes missed: the one found before if it still plays to the
    sheet, else the shapes again, longer and from another seed, then the solver."""
    if known is not None and _plays_to(known, sheet):
        return known
    return shaped_deal_for(sheet, seed=7, tries=1500) or deal_for(sheet)


def _plays_to(witness: Witness, sheet: Sheet) -> bool:
    try:
        state = play(witness, sheet.players)
    except AssertionError:  # a move the rules now refuse
        return False
    return sheet_of_deal(state) == sheet._replace(poignees=tuple(sorted(sheet.poignees)))


def main() -> int:
    """Goes through every accepted sheet without a poignée, finds a deal for each one the
    shapes do not build, and for the draw of sheets with poignées, and writes them to
    tests/data/tarot_found_deals.json. Some half an hour on two cores; names the sheets
    left without a deal, if any."""
    sheets = [sheet for players in (3, 4, 5) for sheet in accepted_sheets(players)]
    with multiprocessing.Pool() as pool:
        shaped = pool.map(_shaped, sheets, chunksize=64)
        missed = [sheet for sheet, built in zip(sheets, shaped, strict=True) if not built]
        sought = missed + tarot_found_deals.poignee_sheets()
        known = tarot_found_deals.load()
        found = dict(zip(sought, pool.starmap(
            found_deal_for, [(sheet, known.get(sheet)) for sheet in sought], chunksize=1),
            strict=True))
    unfound = [sheet for sheet, witness in found.items() if witness is None]
    tarot_found_deals.save({s: w for s, w in found.items() if w is not None})
    print(f"{len(sheets)} sheets accepted without a poignée: {len(sheets) - len(missed)} "
          f"built by the shapes, the other {len(missed)} sought with the draw of "
          f"{len(sought) - len(missed)} with poignées: {len(found) - len(unfound)} found, "
          f"{len(unfound)} without a deal")
    for sheet in unfound:
        print("  no deal found:", sheet)
    return 1 if unfound else 0


if __name__ == "__main__":
    sys.exit(main())
