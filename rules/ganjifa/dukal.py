"""G8: the Dukal, a run of three or more pips of one suit led with its Raja and Mantri:
every Dukal a hand may lead, and why a set of cards is not one."""

from __future__ import annotations

from rules.cards import bit_list, lowest
from rules.game import Move
from rules.ganjifa.cards import (
    MANTRIS,
    PIP_BITS,
    PIPS,
    PLAYERS,
    RAJAS,
    SUIT_COUNT,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SIZE,
    SUITS,
)


def _runs(pips: int) -> tuple[int, ...]:
    """G8: every unbroken run of three or more pips inside a 10-bit pip mask."""
    out = []
    for start in range(PIPS):
        for end in range(start + 3, PIPS + 1):
            run = ((1 << (end - start)) - 1) << start
            if pips & run != run:
                break
            out.append(run)
    return tuple(out)


RUNS = tuple(_runs(p) for p in range(1 << PIPS))


# G8: every Dukal move, DUKALS[seat][suit][run], built at import (36 runs a suit: a
# thousand moves), so that workers forked after it share them and no cache fills.
DUKALS = tuple(tuple({run: Move(seat, "dukal", cards=tuple(bit_list(
    run << SUIT_SIZE * suit | 1 << MANTRIS[suit] | 1 << RAJAS[suit])))
    for run in set().union(*RUNS)} for suit in range(SUIT_COUNT)) for seat in range(PLAYERS))


def dukal_moves(seat: int, suit: int, pips: int) -> tuple[Move, ...]:
    """G8: every Dukal of `suit` that a hand holding the Raja, the Mantri and these pips
    may lead."""
    dukals = DUKALS[seat][suit]
    return tuple(dukals[run] for run in RUNS[pips])


def dukal_flaw(cards: int) -> dict[str, str] | None:
    """Why a set of cards (a mask) is not a Dukal (G8), as the values of a reason or a
    problem (`why` names the entry `why.<code>`), or None when it is one."""
    if not cards:
        return {"why": "dukal.empty"}
    suit = SUIT_OF[lowest(cards)]
    if cards & ~SUIT_MASK[suit]:
        return {"why": "dukal.suits"}
    if not cards >> RAJAS[suit] & 1:
        return {"why": "dukal.no_raja", "avatar": SUITS[suit]}
    if not cards >> MANTRIS[suit] & 1:
        return {"why": "dukal.no_mantri", "avatar": SUITS[suit]}
    pips = cards >> (SUIT_SIZE * suit) & PIP_BITS
    if pips.bit_count() < 3:
        return {"why": "dukal.short"}
    run = pips >> ((pips & -pips).bit_length() - 1)
    if run & (run + 1):
        return {"why": "dukal.gap"}
    return None
