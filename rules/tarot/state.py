"""The state of a Tarot deal (the state convention of rules/game.py): the facts of API.md's
JSON state in its order, card sets as bitmasks, one hand a seat, so that the count of
players is the count of hands (T18)."""

from __future__ import annotations

from typing import NamedTuple

# A view's partner for a seat that cannot know it yet (T22): it is never a state's.
UNKNOWN = -1


class TarotState(NamedTuple):
    dealer: int
    hands: tuple[int, ...]  # bitmasks, one a seat
    chien: int  # bitmask: the cards still set aside (T2, T6)
    chien_shown: int  # bitmask: the chien revealed in a prise or garde (T5)
    bids: tuple[str, ...]  # in speaking order from (dealer + 1) % players
    taker: int | None  # derived from bids once every seat has spoken
    contract: str | None
    called: int | None  # T22, 5 players: the card the taker called, None until the call
    partner: int | None  # derived: the called card's holder beside the taker (T22)
    ecart: int  # bitmask (T5)
    chelem: bool | None  # None until the taker decides (T7)
    poignees: tuple[tuple[int, int], ...]  # (seat, bitmask) in declaration order (T8)
    trick: tuple[int, ...]  # the trick in progress, in play order
    leader: int  # the seat that leads (or led) the trick in progress
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]  # (leader, cards, winner)
    phase: str  # bidding | call | discard | chelem | play | over
    to_act: int | None


def attack(taker: int | None, partner: int | None) -> int:
    """T22, T24: the attack camp as a mask of seats: the taker and its partner, if any
    (a view's unknown partner counts as none)."""
    camp = 0 if taker is None else 1 << taker
    if partner is not None and partner >= 0:
        camp |= 1 << partner
    return camp
