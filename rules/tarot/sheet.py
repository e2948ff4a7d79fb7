"""Which score sheets a real deal can produce (T5, T6, T8–T16, T19–T24).

A sheet says how many bouts and card points the attack camp ended with, who won the Petit
in the last trick and who took every trick. Not every combination can happen: each trick
holds one card a seat, the Monde (T21) always wins its trick, the Excuse stays with its
camp but for half a point (T11) or changes camp on the last trick (T12), the écart holds
no King and no bout (T5), the chien counts for one camp or the other (T6). `feasible`
works out, for a count of players, a contract and the attack camp's size, every (bouts,
half points, chelem made by, petit au bout won by) that some deal gives, by going through
every way the tricks, the bouts and the Excuse can fall; `sheet_problems` says what is
wrong with a sheet outside that set.

The reckoning lets the cards fall into the tricks in any way that keeps those rules (any
player may hold any hand), and one that following does not (T9): a defence that wins only
the last trick against a lone taker cannot have kept the Monde for it. So it never refuses
a sheet that a deal can produce, which the test playing seeded random deals through the
rules checks. The other way, every sheet it accepts without a poignée is one that a deal
gives: tests/support/tarot_deal_search.py builds or finds a deal for each, and the tests
play a sample of them and every deal only the solver found.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from rules.tarot.bidding import CHIEN_TAKEN
from rules.tarot.deal import COUNTS, MAX_PLAYERS

A, D = "taker", "defense"  # the attack camp and the defence, as a sheet names them
# T13 in half points, for the 75 cards that are not bouts: the pips and low trumps (1),
# Jacks (3), Knights (5), Queens (7), Kings (9); the Kings last.
NON_BOUTS = ((1, 59), (3, 4), (5, 4), (7, 4), (9, 4))
BOUT = 9  # T13: a bout is worth 4.5
TRUMPS_AND_EXCUSE = 22  # the cards a poignée may show (T8)
ALL_TRUMPS = 21  # T1


class SheetProblem(NamedTuple):
    field: str
    message: str


@cache
def pile_sums(cards: int, kings: int) -> int:
    """The half points `cards` non-bout cards can add up to, with at most `kings` Kings
    among them, as a bit mask (bit h: h half points possible)."""
    out = 0
    (_, low), (jv, jn), (cv, cn), (qv, qn), (kv, kn) = NON_BOUTS
    for k in range(min(kn, kings, cards) + 1):
        for q in range(min(qn, cards - k) + 1):
            for c in range(min(cn, cards - k - q) + 1):
                for j in range(min(jn, cards - k - q - c) + 1):
                    pips = cards - k - q - c - j
                    if pips <= low:
                        out |= 1 << (pips + j * jv + c * cv + q * qv + k * kv)
    return out


def _excuse_cases(chien_open: bool, sizes: dict[str, int]):
    """Where the Excuse can end: (kind, owner, winner of its trick). `chien` when it lies in
    a chien nobody takes (T6); `early` played before the last trick (T11); `last` played to
    the last trick (T12); `slam` led to the last trick by a camp that won every other one
    (T12's exception). A camp's own player wins the trick its Excuse is played to only if
    the camp has another player."""
    if chien_open:
        yield "chien", None, None
    for owner in (A, D):
        for winner in (A, D):
            if winner != owner or sizes[owner] >= 2:
                yield "early", owner, winner
                yield "last", owner, winner
        yield "slam", owner, owner


class Table(NamedTuple):
    """What a count of players and a contract fix for the reckoning (T5, T6, T19, T20)."""

    tricks: int  # one trick a card of a hand
    n: int  # cards a trick
    chien: int
    sizes: dict[str, int]  # players a camp
    chien_to: str  # whose the set-aside cards are at the end
    chien_open: bool  # garde sans, garde contre: the chien as dealt, where a bout may lie
    places: tuple[str, ...]  # where the Petit and the Monde may end

    @classmethod
    def of(cls, players: int, contract: str, attackers: int) -> Table:
        count = COUNTS[players]
        chien_open = contract not in CHIEN_TAKEN
        return cls(count.hand, players, count.chien, {A: attackers, D: players - attackers},
                   A if contract != "garde_contre" else D, chien_open,
                   ("chien", A, D) if chien_open else (A, D))


class Excuse(NamedTuple):
    """Where the Excuse ended and what it left: its camp, each camp's half points from it,
    and the trick cards that are bouts (the Excuse) in each camp's tricks."""

    camp: str
    halves: dict[str, int]
    slots: dict[str, int]
    in_chien: bool


class Way(NamedTuple):
    """One way a deal can fall, as the reckoning goes through them: the tricks the attack
    camp wins, the camp winning the last trick, where the Excuse ends (_excuse_cases),
    where the Petit and the Monde end (a camp's tricks or the chien), the sheet's (bouts,
    chelem made by, petit au bout won by), and the attack camp's half points possible, as a
    bit mask."""

    attack_tricks: int
    last: str
    excuse: tuple
    petit: str
    monde: str
    key: tuple
    half_points: int


def ways(players: int, contract: str, attackers: int, least: tuple[int, int] = (0, 0)):
    """Every Way for the attack camp of `attackers` players (1, or 2 with a five-player
    partner), when it wins at least least[0] tricks and the defence least[1] (poignées)."""
    table = Table.of(players, contract, attackers)
    for k in range(least[0], table.tricks + 1 - least[1]):
        won = {A: k, D: table.tricks - k}
        for last in (A, D):
            if won[last] == 0:
                continue
            for case in _excuse_cases(table.chien_open, table.sizes):
                excuse = _excuse(case, won, last, table)
                if excuse is not None:
                    yield from _bout_ways(table, won, last, case, excuse)


@cache
def feasible(players: int, contract: str, attackers: int,
             least: tuple[int, int] = (0, 0)) -> dict[tuple, int]:
    """{(bouts, chelem made by, petit au bout won by): half points possible, as a bit mask}
    over every Way (`ways`)."""
    out: dict[tuple, int] = {}
    for way in ways(players, contract, attackers, least):
        out[way.key] = out.get(way.key, 0) | way.half_points
    return out


def _excuse(case: tuple, won: dict[str, int], last: str, table: Table) -> Excuse | None:
    """Where the Excuse ends for one of _excuse_cases, when the tricks won allow it (T11,
    T12): None when they do not."""
    kind, owner, winner = case
    if kind == "chien":
        return Excuse(table.chien_to, {A: 0, D: 0, table.chien_to: BOUT}, {A: 0, D: 0}, True)
    early = won[winner] - (winner == last)
    if (kind == "early" and early == 0 or kind == "last" and winner != last
            or kind == "slam" and (won[owner] != table.tricks or last != owner)):
        return None
    slots = {A: 0, D: 0, winner: 1}
    if kind == "early" and winner != owner:  # T11: half a point to the trick's winners
        return Excuse(owner, {A: 0, D: 0, owner: BOUT - 1, winner: 1}, slots, False)
    if kind == "last" and winner == owner:  # T12: to the other camp
        camp = D if owner == A else A
        return Excuse(camp, {A: 0, D: 0, camp: BOUT}, slots, False)
    return Excuse(winner, {A: 0, D: 0, winner: BOUT}, slots, False)


def _bout_ways(table: Table, won: dict[str, int], last: str, case: tuple, excuse: Excuse):
    """Every Way the Petit and the Monde can end with this Excuse: the attack camp's
    bouts, chelem, petit au bout and the half points its cards can make."""
    k = won[A]
    made_by = A if k == table.tricks else D if k == 0 else None
    for petit in table.places:
        for monde in table.places:
            if not _bouts_can_lie(petit, monde, won, last, table):
                continue
            sums = _attack_sums(table, k, excuse, petit, monde)
            if sums is None:
                continue
            camp_of = {p: table.chien_to if p == "chien" else p for p in (petit, monde)}
            bouts = (camp_of[petit] == A) + (camp_of[monde] == A) + (excuse.camp == A)
            # T15: the last trick, or the one before when T12's exception closes a slam.
            for bonus in _petits(petit, last, won):
                yield Way(k, last, case, petit, monde, (bouts, made_by, bonus), sums)


def _bouts_can_lie(petit: str, monde: str, won: dict[str, int], last: str,
                   table: Table) -> bool:
    """Whether the Petit and the Monde can end in these places."""
    # The Monde wins its trick; a captured Petit was won: in a camp with tricks.
    if any(p != "chien" and won[p] == 0 for p in (petit, monde)):
        return False
    # T9, T21: a lone taker leads and wins tricks 2 to n − 1 while a defender keeps the
    # Monde to the last. A trump played before that defender there, or a suit it cannot
    # follow, makes it trump over (the Monde always can), and only defenders play after
    # it: so no trump is played in them, at most 2 × 5 in the first and last tricks and 6
    # in a chien, of the 21.
    return not (monde == D and won[D] == 1 and last == D and table.sizes[A] == 1)


def _attack_sums(table: Table, k: int, excuse: Excuse, petit: str, monde: str) -> int | None:
    """The half points the attack camp can end with, as a bit mask, when it won k tricks
    and the bouts lie where given: its bouts' points, and any sum of its other cards (the
    tricks' cards that are not bouts, and the set-aside cards where they count for it, no
    King among those the taker laid aside, T5). None when the cards cannot lie so."""
    placed = (petit, monde)
    a_slots = excuse.slots[A] + placed.count(A)
    d_slots = excuse.slots[D] + placed.count(D)
    in_chien = placed.count("chien") + excuse.in_chien
    a_cards = k * table.n - a_slots
    if a_cards < 0 or (table.tricks - k) * table.n - d_slots < 0 or in_chien > table.chien:
        return None
    kings = 4
    if table.chien_to == A:
        a_cards += table.chien - in_chien
        if not table.chien_open:
            kings = a_cards - table.chien  # T5: no King in the écart
    a_halves = excuse.halves[A] + BOUT * sum(
        (table.chien_to if p == "chien" else p) == A for p in placed)
    return pile_sums(a_cards, kings) << a_halves


def _petits(petit: str, petit_trick: str, won: dict[str, int]):
    """T15: who can win the petit au bout when the Petit is in `petit`'s tricks (or the
    chien): that camp if it won the last trick, or none if it won another trick too."""
    if petit == "chien":
        yield None
        return
    if petit == petit_trick:
        yield petit
    if won[petit] - (petit == petit_trick) >= 1:
        yield None


def _points(half: int) -> str:
    return f"{half // 2}" if half % 2 == 0 else f"{half / 2}"


def _nearest(mask: int, half: int) -> str:
    below = (mask & ((1 << half) - 1)).bit_length() - 1
    above_mask = mask >> (half + 1)
    above = half + 1 + (above_mask & -above_mask).bit_length() - 1 if above_mask else -1
    found = [_points(h) for h in (below, above) if h >= 0]
    return " or ".join(found)


def sheet_problems(players: int, contract: str, bouts: int, half_points: int,
                   petit_au_bout: str | None = None, poignees=(),
                   chelem_made_by: str | None = None, partner: int | None = None,
                   chelem_given: bool = True) -> list[SheetProblem]:
    """What makes a score sheet one that no deal produces, each problem naming its field:
    `points` that the bouts held cannot give, a `petit_au_bout` the camp cannot have won,
    a `chelem` made by a camp that did not take every trick (or not marked when the points
    say every trick was taken), `poignees` the table cannot show. Empty for a sheet that
    some deal produces. `poignees` holds (label, level) pairs, the label naming the camp
    that declared it (`{"declared_by": "taker"}`); `chelem_given` says whether the sheet
    has a chelem entry at all (which field a problem names)."""
    problems = []
    count = COUNTS[players]
    attackers = 2 if partner is not None else 1
    problems.extend(_poignee_problems(count.players, attackers, poignees))
    # T5: a prise and a garde set the same cards aside; one table serves both.
    table_contract = CHIEN_TAKEN[0] if contract in CHIEN_TAKEN else contract
    table = feasible(players, table_contract, attackers)
    mask = table.get((bouts, chelem_made_by, petit_au_bout), 0)
    if mask >> half_points & 1:
        return problems + _trump_problems(players, table_contract, attackers, poignees,
                                          (bouts, chelem_made_by, petit_au_bout), half_points)
    points, options = _points(half_points), ("taker", "defense", None)
    chelem_field = "chelem.made_by" if chelem_given else "chelem"
    said = f"With {bouts} bout{'s' * (bouts != 1)} and {points} points"
    for made in options:
        if table.get((bouts, made, petit_au_bout), 0) >> half_points & 1:
            who = {"taker": "the taker's camp took every trick: a chelem made by the taker",
                   "defense": "the defence took every trick: a chelem made by the defence",
                   None: "neither camp took every trick: no chelem made"}[made]
            problems.append(SheetProblem(chelem_field, f"{said}, {who}."))
            return problems
    for petit in options:
        if table.get((bouts, chelem_made_by, petit), 0) >> half_points & 1:
            what = "cannot have won the Petit in the last trick" if petit_au_bout else \
                "the Petit was in the last trick, which decides the petit au bout"
            whose = f"the {'defence' if petit_au_bout == 'defense' else 'taker'}'s camp " \
                if petit_au_bout else ""
            problems.append(SheetProblem("petit_au_bout", f"{said}, {whose}{what}."))
            return problems
    problems.append(_nothing_near(players, bouts, half_points, petit_au_bout, mask,
                                  chelem_field))
    return problems


def _nothing_near(players: int, bouts: int, half_points: int, petit_au_bout: str | None,
                  mask: int, chelem_field: str) -> SheetProblem:
    """No change of the chelem or the petit au bout alone makes the sheet possible: the
    points (and the nearest possible), else the petit au bout, else the chelem."""
    points = _points(half_points)
    if mask:
        why = ""
        if players == 4 and half_points % 2 and mask >> (half_points - 1) & 5 == 5:
            why = (" (with four players a deal ends on a half point only when the Excuse"
                   " changes camp in the last trick, T12)")
        return SheetProblem("points", f"No deal gives the attack camp {points} points "
                                      f"with {bouts} bout{'s' * (bouts != 1)} on this "
                                      f"sheet; the nearest possible: "
                                      f"{_nearest(mask, half_points)}{why}.")
    if petit_au_bout is not None:
        return SheetProblem("petit_au_bout", f"The {petit_au_bout} camp cannot win the "
                                             f"petit au bout with this sheet's bouts "
                                             f"and chelem.")
    return SheetProblem(chelem_field, f"No deal gives this chelem with {bouts} "
                                      f"bout{'s' * (bouts != 1)}.")


def least_tricks(players: int, contract: str, level: str, camp: str) -> int:
    """T8–T10, T21: the tricks a camp wins at least when one of its players shows a
    poignée. The player holds t trumps in play: the cards shown but the Excuse standing in
    for one, and for the taker in a prise or garde but the trumps forced into the écart
    (T5), which it may show too. Each of those trumps is played to its own trick, which
    the camp wins unless a higher trump of the other camp is played to it, one trump a
    trick, of the 21 − t others: at least 2t − 21 tricks. T12's exception gives the other
    camp the last trick only when it won every earlier one, which asks t − 1 trumps of it,
    more than it holds once t ≥ 12."""
    count = COUNTS[players]
    shown = {name: size for size, name in count.poignees.items()}[level]
    trumps = shown - 1
    if camp == A and contract in CHIEN_TAKEN:
        trumps -= count.chien
    return 2 * trumps - ALL_TRUMPS if trumps >= 12 else 0


def _gives(players: int, contract: str, attackers: int, least: tuple[int, int], key: tuple,
           half_points: int) -> bool:
    return bool(feasible(players, contract, attackers, least).get(key, 0) >> half_points & 1)


def _trump_problems(players: int, contract: str, attackers: int, poignees, key: tuple,
                    half_points: int) -> list[SheetProblem]:
    """A sheet that leaves a camp fewer tricks than its poignées make it win (least_tricks),
    naming the first poignée that alone refuses it, else the first that counts."""
    least = {A: 0, D: 0}
    counted = []
    for i, (label, level) in enumerate(poignees):
        camp = label.get("declared_by")
        fewest = least_tricks(players, contract, level, camp) if camp in least else 0
        if fewest:
            counted.append((i, level, camp, fewest))
            least[camp] = max(least[camp], fewest)
    if not counted or _gives(players, contract, attackers, (least[A], least[D]), key,
                             half_points):
        return []
    alone = [c for c in counted if not _gives(
        players, contract, attackers, (c[3], 0) if c[2] == A else (0, c[3]), key, half_points)]
    i, level, camp, fewest = (alone or counted)[0]
    who = "the taker's camp" if camp == A else "the defence"
    return [SheetProblem(f"poignees.{i}.level", f"A {level} poignée wins {who} {fewest} "
                                                f"tricks or more: a trump wins its trick "
                                                f"unless the other camp plays a higher one "
                                                f"(T8, T10). This sheet's points, bouts and "
                                                f"chelem leave it fewer.")]


def _poignee_problems(players: int, attackers: int, poignees) -> list[SheetProblem]:
    """T8, T21: each player declares at most once, so a camp at most as many poignées as it
    has players; every poignée shows its own trumps (the Excuse once), so together they
    show at most the 21 trumps and the Excuse."""
    levels = {level: size for size, level in COUNTS[players].poignees.items()}
    camps = {A: attackers, D: players - attackers}
    shown = 0
    declared = {A: 0, D: 0}
    for i, (label, level) in enumerate(poignees):
        camp = label.get("declared_by")
        if camp in declared:
            declared[camp] += 1
            if declared[camp] > camps[camp]:
                who = "the taker's camp" if camp == A else "the defence"
                return [SheetProblem(f"poignees.{i}.camp", f"More poignées than {who} has "
                                                      f"players ({camps[camp]}).")]
        shown += levels[level]
        if shown > TRUMPS_AND_EXCUSE:
            return [SheetProblem(f"poignees.{i}.level", f"With {players} players these poignées "
                                                   f"show {shown} cards; there are 21 trumps "
                                                   f"and the Excuse.")]
    return []


assert MAX_PLAYERS in COUNTS  # the counts this module reckons with are the deal's
