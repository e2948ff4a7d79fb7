"""A Ganjifa state and a pending Dukal, with the phase and seat to act its facts decide,
and the hands and piles a move changes."""

from __future__ import annotations

from typing import NamedTuple

from rules.ganjifa.cards import PLAYERS

_new = tuple.__new__  # a state or a Dukal from a ready tuple, without NamedTuple's __new__


class Dukal(NamedTuple):
    """A Dukal waiting for its discards (G8)."""

    seat: int
    cards: int  # bitmask, k cards
    discards: tuple[int, ...]  # bitmasks of k cards, in answer order from seat + 1


class GanjifaState(NamedTuple):
    trump: int  # suit index: RAM by day, KRI by night (G3)
    hands: tuple[int, ...]  # bitmasks, one a seat
    captured: tuple[int, ...]  # bitmasks, one a seat (G7, G8)
    leader: int  # leads, or led, the trick in progress; a pending Dukal's seat
    trick: tuple[int, ...]  # cards in play order from the leader, at most two
    dukal: Dukal | None
    # Derived from the fields above (`turn`), stored by the transition that decides them.
    phase: str  # play | dukal | over
    to_act: int | None  # None once the deal is over
    # The deal's history, when known (a dealt state, or one given with it): the completed
    # tricks as (leader, cards in play order, winner) and the captured Dukals, oldest
    # first; None when a client sent a state without them. `voids` are the cards each seat
    # has shown it lacks in those tricks (G6), which the AI's worlds respect.
    tricks: tuple[tuple[int, tuple[int, ...], int], ...] | None = None
    dukals: tuple[Dukal, ...] | None = None
    voids: tuple[int, ...] = (0, 0, 0)


def turn(hands: tuple[int, ...], leader: int, trick: tuple[int, ...], dukal: Dukal | None
         ) -> tuple[str, int | None]:
    """The phase and the seat to act that a state's facts decide: what `build` stores, and
    what every transition's own (cheaper) reckoning must agree with."""
    if dukal is not None:
        # G8 [decided]: the opponents answer in turn order from the leader's left.
        return "dukal", (dukal.seat + 1 + len(dukal.discards)) % PLAYERS
    if not (hands[0] | hands[1] | hands[2]):
        return "over", None  # G9
    return "play", (leader + len(trick)) % PLAYERS


def opening(state: GanjifaState) -> bool:
    """G5: nothing captured yet, so the opening trick is to be led or in progress."""
    c = state.captured
    return not (c[0] | c[1] | c[2])


def _without(hands: tuple[int, ...], seat: int, cards: int) -> tuple[int, ...]:
    if seat == 0:
        return (hands[0] & ~cards, hands[1], hands[2])
    if seat == 1:
        return (hands[0], hands[1] & ~cards, hands[2])
    return (hands[0], hands[1], hands[2] & ~cards)


def _adding(piles: tuple[int, ...], seat: int, cards: int) -> tuple[int, ...]:
    if seat == 0:
        return (piles[0] | cards, piles[1], piles[2])
    if seat == 1:
        return (piles[0], piles[1] | cards, piles[2])
    return (piles[0], piles[1], piles[2] | cards)
