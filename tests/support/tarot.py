"""What the generic invariant test needs to know of French Tarot."""

from __future__ import annotations

import random

from rules.cards import bit_list
from rules.game import Move
from rules.tarot import (
    BIDS,
    BOUTS,
    DECK,
    EXCUSE,
    HALF_POINTS,
    KINGS,
    PLAYERS,
    TARGETS,
    TRUMPS,
    TarotState,
    canonical_poignees,
    petit_sec,
    poignee_pool,
)

CARDS = list(range(len(DECK)))
SUIT_CARDS = [c for c in CARDS if not (TRUMPS | 1 << EXCUSE) >> c & 1]
KING_LIST = bit_list(KINGS)
# The constant part: every bid, play and chelem decision of every seat.
EVERY_MOVE = (
    [Move(s, "bid", contract=b) for s in range(PLAYERS) for b in BIDS]
    + [Move(s, "chelem", announce=a) for s in range(PLAYERS) for a in (False, True)]
    + [Move(s, "play", card=c) for s in range(PLAYERS) for c in CARDS]
)


def candidate_moves(state: TarotState, rng: random.Random) -> list[Move]:
    """Every bid, play and chelem decision of every seat, plus discards and poignées that
    are legal, nearly legal or plainly wrong. A poignée candidate is never a valid subset
    other than the canonical one, which the listing would not show."""
    seat = rng.randrange(PLAYERS) if state.to_act is None else state.to_act
    other = (seat + rng.randrange(1, PLAYERS)) % PLAYERS
    hand = bit_list(state.hands[seat])
    extra = [Move(other, "discard", cards=tuple(rng.sample(CARDS, 6))),
             Move(seat, "poignee", cards=(*rng.sample(CARDS, 9), rng.choice(SUIT_CARDS))),
             Move(other, "poignee", cards=tuple(rng.sample(CARDS, 10)))]
    if state.phase == "discard":
        for _ in range(4):
            extra.append(Move(seat, "discard", cards=tuple(rng.sample(hand, 6))))
        extra.append(Move(seat, "discard", cards=tuple(rng.sample(hand, rng.choice((5, 7))))))
        extra.append(Move(seat, "discard", cards=(hand[0], *rng.sample(hand, 5))))
        kings = [c for c in hand if c in KING_LIST]
        if kings:
            extra.append(Move(seat, "discard", cards=(kings[0], *rng.sample(
                [c for c in hand if c != kings[0]], 5))))
    elif state.phase == "play":
        pool = poignee_pool(state, seat)
        trumps = bit_list(pool)
        excuse = bool(state.hands[seat] >> EXCUSE & 1)
        for shown in canonical_poignees(pool, excuse):
            extra.append(Move(seat, "poignee", cards=shown))
            extra.append(Move(seat, "poignee", cards=shown[:-1]))  # 9, 12 or 14 cards
            spare = [c for c in CARDS if c not in shown]
            extra.append(Move(seat, "poignee", cards=(*shown, rng.choice(spare))))
        for size in (10, 13, 15):
            if len(trumps) >= size:
                # T8: the Excuse may not stand in while a trump is held back.
                extra.append(Move(seat, "poignee", cards=(*trumps[:size - 1], EXCUSE)))
    return EVERY_MOVE + extra


def check_state(state: TarotState) -> None:
    """T1: the 78 cards exactly once across hands, chien, écart, the trick and the tricks."""
    seen = state.chien | state.ecart
    count = state.chien.bit_count() + state.ecart.bit_count()
    for h in state.hands:
        seen |= h
        count += h.bit_count()
    for c in state.trick:
        seen |= 1 << c
        count += 1
    for _, cards, _ in state.tricks:
        for c in cards:
            seen |= 1 << c
            count += 1
    assert seen == DECK.full and count == 78


def _camp_halves(state: TarotState) -> tuple[list[int], list[int]]:
    """Each camp's half points and bouts (index 1 = the taker's), counted camp by camp:
    a second reading of T6, T11, T12 beside the rules' own."""
    taker = state.taker
    halves, bouts = [0, 0], [0, 0]

    def gain(camp: int, card: int) -> None:
        halves[camp] += HALF_POINTS[card]
        bouts[camp] += BOUTS >> card & 1

    aside = state.ecart | state.chien
    aside_camp = 0 if state.contract == "garde_contre" else 1
    for c in bit_list(aside):
        gain(aside_camp, c)
    for k, (leader, cards, winner) in enumerate(state.tricks):
        won_by = int(winner == taker)
        for i, c in enumerate(cards):
            owner = (leader + i) % PLAYERS
            if c != EXCUSE:
                gain(won_by, c)
            elif k < 17:
                gain(int(owner == taker), c)
                if int(owner == taker) != won_by:
                    halves[won_by] += 1
                    halves[1 - won_by] -= 1
            elif owner == winner:
                gain(won_by, c)
            else:
                gain(1 - int(owner == taker), c)
    return halves, bouts


def check_final(state: TarotState, settlement: dict) -> None:
    """T3: an annulled deal scores nothing. T13–T17: the camps share 91 points, the target
    follows the bouts, the taker scores three times what each defender pays."""
    scores = settlement["scores"]
    assert len(scores) == 4 and sum(scores) == 0
    if "annulled" in settlement:
        assert scores == [0, 0, 0, 0]
        if settlement["annulled"] == "all_pass":
            assert state.bids == ("pass",) * 4
        else:
            assert settlement["annulled"] == "petit_sec" and state.bids == ()
            assert any(petit_sec(h) for h in state.hands)
        return
    assert len(state.tricks) == 18 and not state.trick and not any(state.hands)
    halves, bouts = _camp_halves(state)
    assert sum(halves) == 182 and sum(bouts) == 3  # T13: 91 points, three bouts
    assert settlement["points"] * 2 == halves[1]
    assert settlement["bouts"] == bouts[1] and settlement["target"] == TARGETS[bouts[1]]
    assert settlement["made"] == (halves[1] >= 2 * settlement["target"])
    d = settlement["per_defender"]
    taker = state.taker
    assert scores == [3 * d if s == taker else -d for s in range(PLAYERS)]
