"""The poignée (handful): T8, its levels by count of players (T21)."""

from __future__ import annotations

from typing import Any

from rules.cards import bit_list, mask_of
from rules.tarot.cards import EXCUSE, EXCUSE_BIT, TRUMPS
from rules.tarot.deal import COUNTS, PLAYERS

POIGNEE_VALUES = {"simple": 20, "double": 30, "triple": 40}  # T8, T21


def poignee_pool(state, seat: int) -> int:
    """T8: the trumps a seat may show: its hand's, and for the taker the trumps it was forced
    to lay in the écart (public anyway)."""
    pool = state.hands[seat] & TRUMPS
    if seat == state.taker:
        pool |= state.ecart & TRUMPS
    return pool


def poignee_problem(cards, pool: int, excuse_held: bool, players: int = PLAYERS
                    ) -> dict[str, Any] | None:
    """T8, T21: why `cards` is not a poignée that a player with these trumps may show, as
    the values of a reason or a problem (`why` names the entry `why.<code>`); None if it
    is."""
    shown = mask_of(cards)
    if shown.bit_count() != len(cards):
        return {"why": "poignee.repeated"}
    if len(cards) not in COUNTS[players].poignees:
        if players == PLAYERS:
            return {"why": "poignee.size", "count": len(cards)}
        sizes = list(COUNTS[players].poignees)
        return {"why": "poignee.size_of_count", "count": len(cards), "players": players,
                "sizes": sizes}
    trumps = shown & ~EXCUSE_BIT
    if trumps & ~TRUMPS:
        return {"why": "poignee.not_trumps"}
    if trumps & ~pool:
        return {"why": "poignee.not_held"}
    if shown & EXCUSE_BIT:
        if not excuse_held:
            return {"why": "poignee.no_excuse"}
        if trumps != pool:
            return {"why": "poignee.excuse_early"}
    return None


def canonical_poignees(pool: int, excuse_held: bool, players: int = PLAYERS
                       ) -> list[tuple[int, ...]]:
    """T8 [decided]: for each level the player can show, the lowest trumps ascending, with the
    Excuse last when it stands in for the missing one."""
    trumps = bit_list(pool)
    n = len(trumps)
    out = []
    for size in COUNTS[players].poignees:
        if n >= size:
            out.append(tuple(trumps[:size]))
        elif n == size - 1 and excuse_held:
            out.append((*trumps, EXCUSE))
    return out
