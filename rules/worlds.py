"""Worlds: the hidden cards of a view dealt at random to the places where the view allows
them (Tarot's and Ganjifa's views draw the worlds their searches play out with it)."""

from __future__ import annotations

import random

from rules.cards import mask_of


def hall_feasible(classes: dict[int, int], caps: list[int]) -> bool:
    """Hall's condition for dealing cards into places: for every set P of places, the cards
    that may only go to places of P fit in P. `classes` maps a mask of allowed places to its
    number of cards; the total of the cards equals the total capacity."""
    # A full place adds no room to a set of places, only cards that fit nowhere else: the
    # sets holding every full place are the ones to check, 2^(open places) instead of 2^k.
    full = 0
    open_places = []
    for i, cap in enumerate(caps):
        if cap:
            open_places.append(i)
        else:
            full |= 1 << i
    for chosen in range((1 << len(open_places)) - 1):
        places = full
        for j, i in enumerate(open_places):
            if chosen >> j & 1:
                places |= 1 << i
        if not places:
            continue
        need = 0
        for allowed, n in classes.items():
            if n and not allowed & ~places:
                need += n
        if need:
            room = 0
            for i in open_places:
                if places >> i & 1:
                    room += caps[i]
            if need > room:
                return False
    return True


def _shuffled(pile: list[int], counts: list[int], rng: random.Random) -> list[int]:
    """The pile shuffled and dealt, counts[i] cards to place i in turn."""
    rng.shuffle(pile)
    masks, at = [], 0
    for n in counts:
        masks.append(mask_of(pile[at:at + n]))
        at += n
    return masks


def deal_hidden(cards: list[int], counts: list[int], allowed: list[int],
                rng: random.Random) -> list[int] | None:
    """Deal `cards` at random so that place i gets `counts[i]` cards, each within the mask
    `allowed[i]`: one mask per place, or None when no deal respects the constraints.

    The cards that fit the fewest places go first, each to a place drawn in proportion to
    the room left there, and a draw is kept only when the cards still to deal can all be
    placed (Hall's condition), so the deal never runs into a dead end."""
    classes = card_classes(cards, counts, allowed)
    if classes is None or len(cards) != sum(counts):
        return None
    masks = [0] * len(counts)
    if not classes:
        return masks
    only = next(iter(classes)) if len(classes) == 1 else 0
    if only and all(only >> i & 1 for i, n in enumerate(counts) if n):
        # No constraint that separates the cards, and each may go to every place that
        # takes cards: one shuffle.
        return _shuffled(classes[only], counts, rng)
    order = sorted(classes, key=lambda sig: (sig.bit_count(), sig))
    left = {sig: len(classes[sig]) for sig in order}
    caps = list(counts)
    if not hall_feasible(left, caps):
        return None
    for sig in order:
        pile = classes[sig]
        rng.shuffle(pile)
        places = [i for i in range(len(counts)) if sig >> i & 1]
        for c in pile:
            left[sig] -= 1
            masks[place_of(places, caps, left, sig == order[-1], rng)] |= 1 << c
    return masks


def card_classes(cards: list[int], counts: list[int], allowed: list[int]
                 ) -> dict[int, list[int]] | None:
    """The cards by the places each may go to (a bit a place that takes cards and allows
    it); None when a card fits no place."""
    classes: dict[int, list[int]] = {}
    for c in cards:
        sig = 0
        for i, n in enumerate(counts):
            if n and allowed[i] >> c & 1:
                sig |= 1 << i
        if not sig:
            return None
        classes.setdefault(sig, []).append(c)
    return classes


def place_of(places: list[int], caps: list[int], left: dict[int, int], last: bool,
             rng: random.Random) -> int:
    """A place for the next card among `places`, drawn in proportion to the room left
    there and kept only when the cards still to deal can all be placed (Hall's condition;
    the last class fits by then); its room is taken."""
    options = [i for i in places if caps[i]]
    while True:
        total = 0
        for i in options:
            total += caps[i]
        r = rng.randrange(total)
        for i in options:
            if r < caps[i]:
                break
            r -= caps[i]
        caps[i] -= 1
        if last or len(options) == 1 or hall_feasible(left, caps):
            return i
        caps[i] += 1
        options.remove(i)
