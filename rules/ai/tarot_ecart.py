"""Basic's Tarot écart and declarations: discard to make voids (T5, T20), announce a chelem
only with a hand that can hardly lose a trick (T7), show the largest poignée (T8, T21); and
the écarts the strong level weighs beside basic's."""

from __future__ import annotations

from rules.cards import bit_list
from rules.game import Move
from rules.tarot import (
    EXCUSE_BIT,
    HALF_POINTS,
    KINGS,
    MONDE,
    ORDINARY,
    PETIT_BIT,
    SUIT_MASK,
    SUIT_OF,
    TRUMPS,
    TarotState,
    canonical_poignees,
    poignee_pool,
)


def discard(state: TarotState, seat: int) -> Move:
    """T5, T20: every ordinary card first when they are short, then the lowest trumps;
    otherwise the ordinary cards of the shortest suits without a King, dearest first, to
    make voids. The écart holds as many cards as the chien shown."""
    size = state.chien_shown.bit_count()
    hand = state.hands[seat]
    ordinary = bit_list(hand & ORDINARY)
    if len(ordinary) <= size:
        trumps = bit_list(hand & TRUMPS & ~(PETIT_BIT | 1 << MONDE))
        return Move(seat, "discard",
                    cards=tuple(sorted(ordinary + trumps[:size - len(ordinary)])))
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    guarded = [bool(hand & SUIT_MASK[s] & KINGS) for s in range(4)]
    called = state.called
    # A called card the taker holds is its own: keep it as it keeps a King.
    ordinary.sort(key=lambda c: (c == called, guarded[SUIT_OF[c]], lengths[SUIT_OF[c]],
                                 -HALF_POINTS[c]))
    return Move(seat, "discard", cards=tuple(sorted(ordinary[:size])))


def ecart_options(state: TarotState, seat: int) -> list[Move]:
    """T5, T20: écarts worth weighing beside basic's, for the search: the dearest cards
    (their points are the taker's for sure), and each suit, or pair of suits, without a
    King made void, the rest from the shortest suits, dearest first. None where the
    ordinary cards are short (every one goes, then the lowest trumps, as basic lays).
    Reads the taker's hand alone."""
    size = state.chien_shown.bit_count()
    hand = state.hands[seat]
    pool = [c for c in bit_list(hand & ORDINARY) if c != state.called]  # T5: no King
    if len(pool) <= size:
        return []
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    options = [tuple(sorted(sorted(pool, key=lambda c: (-HALF_POINTS[c], lengths[SUIT_OF[c]],
                                                        c))[:size]))]
    options += _voiding(hand, pool, size, lengths)
    out: list[Move] = []
    for cards in options:
        move = Move(seat, "discard", cards=cards)
        if move not in out:
            out.append(move)
    return out


def _voiding(hand: int, pool: list[int], size: int, lengths: list[int]
             ) -> list[tuple[int, ...]]:
    """The écarts that void each suit, or pair of suits, without a King whose cards fit,
    filled from the shortest suits, dearest first."""
    by_suit = [[c for c in pool if SUIT_OF[c] == s] for s in range(4)]

    def filled(first: list[int]) -> tuple[int, ...]:
        rest = sorted((c for c in pool if c not in first),
                      key=lambda c: (lengths[SUIT_OF[c]], -HALF_POINTS[c], c))
        return tuple(sorted([*first, *rest][:size]))

    out = []
    unguarded = [s for s in range(4) if by_suit[s] and not hand & SUIT_MASK[s] & KINGS]
    for i, a in enumerate(unguarded):
        for voided in ([a], *([a, b] for b in unguarded[i + 1:])):
            voids = [c for s in voided for c in by_suit[s]]
            if len(voids) <= size:
                out.append(filled(voids))
    return out


def announce(hand: int) -> bool:
    """T7: only a hand that can hardly lose a trick announces a chelem: the Monde, the
    Excuse, and trumps in five sixths of its cards."""
    return (6 * (hand & TRUMPS).bit_count() >= 5 * hand.bit_count()
            and bool(hand >> MONDE & 1) and bool(hand & EXCUSE_BIT))


def poignee(state: TarotState, seat: int) -> Move | None:
    """T8, T21: before the seat's first card, the largest poignée it can show; None when it
    has shown one or can show none."""
    if state.tricks or any(s == seat for s, _ in state.poignees):
        return None
    shown = canonical_poignees(poignee_pool(state, seat),
                               bool(state.hands[seat] & EXCUSE_BIT), len(state.hands))
    return Move(seat, "poignee", cards=shown[-1]) if shown else None
