"""The dealing of hidden cards that every sampled world goes through (rules/game.py):
Hall's condition decides exactly whether the cards fit their places."""

from __future__ import annotations

import random

from rules.worlds import hall_feasible


def fits(classes: dict[int, int], caps: list[int]) -> bool:
    """By brute force: some placement of every card within its allowed places fills none
    beyond its capacity."""
    cards = [sig for sig, n in classes.items() for _ in range(n)]

    def place(i: int, room: list[int]) -> bool:
        if i == len(cards):
            return True
        for p in range(len(room)):
            if cards[i] >> p & 1 and room[p]:
                room[p] -= 1
                if place(i + 1, room):
                    return True
                room[p] += 1
        return False

    return place(0, list(caps))


def test_hall_feasible_agrees_with_a_brute_force_placement():
    rng = random.Random(0)
    seen = {True: 0, False: 0}
    for _ in range(3000):
        k = rng.randint(1, 6)
        caps = [rng.choice([0, 0, 1, 2]) for _ in range(k)]
        classes: dict[int, int] = {}
        for _card in range(sum(caps)):
            sig = rng.randrange(1, 1 << k)
            classes[sig] = classes.get(sig, 0) + 1
        answer = hall_feasible(classes, caps)
        assert answer == fits(classes, caps), (classes, caps)
        seen[answer] += 1
    assert min(seen.values()) > 300, seen
