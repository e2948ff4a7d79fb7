"""What the generic invariant test needs to know of French Tarot."""

from __future__ import annotations

import random

from rules.cards import bit_list
from rules.game import Move
from rules.tarot import (
    BIDS,
    BOUTS,
    COUNTS,
    DECK,
    EXCUSE,
    GAME,
    HALF_POINTS,
    KINGS,
    MAX_PLAYERS,
    TARGETS,
    TRUMPS,
    TarotState,
    attack,
    canonical_poignees,
    petit_sec,
    poignee_pool,
)
from tests.support.game import GameTests

CARDS = list(range(len(DECK)))
SUIT_CARDS = [c for c in CARDS if not (TRUMPS | 1 << EXCUSE) >> c & 1]
KING_LIST = bit_list(KINGS)
# The constant part: every bid, call, play and chelem decision of every seat of a count.
EVERY_MOVE = {n: (
    [Move(s, "bid", contract=b) for s in range(n) for b in BIDS]
    + [Move(s, "chelem", announce=a) for s in range(n) for a in (False, True)]
    + [Move(s, "play", card=c) for s in range(n) for c in CARDS]
    + ([Move(s, "call", card=c) for s in range(n) for c in SUIT_CARDS] if n == 5 else [])
) for n in range(3, MAX_PLAYERS + 1)}


def candidate_moves(state: TarotState, rng: random.Random) -> list[Move]:
    """Every bid, play and chelem decision of every seat, plus discards and poignées that
    are legal, nearly legal or plainly wrong. A poignée candidate is never a valid subset
    other than the canonical one, which the listing would not show."""
    players = len(state.hands)
    size = COUNTS[players].chien
    seat = rng.randrange(players) if state.to_act is None else state.to_act
    other = (seat + rng.randrange(1, players)) % players
    hand = bit_list(state.hands[seat])
    extra = [Move(other, "discard", cards=tuple(rng.sample(CARDS, size))),
             Move(seat, "poignee", cards=(*rng.sample(CARDS, 9), rng.choice(SUIT_CARDS))),
             Move(other, "poignee", cards=tuple(rng.sample(CARDS, 10)))]
    if state.phase == "discard":
        for _ in range(4):
            extra.append(Move(seat, "discard", cards=tuple(rng.sample(hand, size))))
        extra.append(Move(seat, "discard", cards=tuple(rng.sample(
            hand, rng.choice((size - 1, size + 1))))))
        extra.append(Move(seat, "discard", cards=(hand[0], *rng.sample(hand, size - 1))))
        kings = [c for c in hand if c in KING_LIST]
        if kings:
            extra.append(Move(seat, "discard", cards=(kings[0], *rng.sample(
                [c for c in hand if c != kings[0]], size - 1))))
    elif state.phase == "play":
        pool = poignee_pool(state, seat)
        trumps = bit_list(pool)
        excuse = bool(state.hands[seat] >> EXCUSE & 1)
        for shown in canonical_poignees(pool, excuse, players):
            extra.append(Move(seat, "poignee", cards=shown))
            extra.append(Move(seat, "poignee", cards=shown[:-1]))  # 9, 12 or 14 cards
            spare = [c for c in CARDS if c not in shown]
            extra.append(Move(seat, "poignee", cards=(*shown, rng.choice(spare))))
        for shown_size in COUNTS[players].poignees:
            if len(trumps) >= shown_size:
                # T8: the Excuse may not stand in while a trump is held back.
                extra.append(Move(seat, "poignee", cards=(*trumps[:shown_size - 1], EXCUSE)))
    return EVERY_MOVE[players] + extra


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
    camp = attack(state.taker, state.partner)
    players = len(state.hands)
    last = COUNTS[players].hand - 1
    halves, bouts = [0, 0], [0, 0]

    def gain(camp: int, card: int) -> None:
        halves[camp] += HALF_POINTS[card]
        bouts[camp] += BOUTS >> card & 1

    aside = state.ecart | state.chien
    aside_camp = 0 if state.contract == "garde_contre" else 1
    for c in bit_list(aside):
        gain(aside_camp, c)
    for k, (leader, cards, winner) in enumerate(state.tricks):
        won_by = camp >> winner & 1
        for i, c in enumerate(cards):
            owner = (leader + i) % players
            if c != EXCUSE:
                gain(won_by, c)
            elif k < last:
                gain(camp >> owner & 1, c)
                if camp >> owner & 1 != won_by:
                    halves[won_by] += 1
                    halves[1 - won_by] -= 1
            elif owner == winner:
                gain(won_by, c)
            else:
                gain(1 - (camp >> owner & 1), c)
    return halves, bouts


def check_final(state: TarotState, settlement: dict) -> None:
    """T3: an annulled deal scores nothing. T13–T17: the camps share 91 points, the target
    follows the bouts; T17, T24: the taker scores what the defenders pay, less a partner's
    share."""
    scores = settlement["scores"]
    players = len(state.hands)
    assert len(scores) == players and sum(scores) == 0
    if "annulled" in settlement:
        assert scores == [0] * players
        if settlement["annulled"] == "all_pass":
            assert state.bids == ("pass",) * players
        else:
            assert settlement["annulled"] == "petit_sec" and state.bids == ()
            assert any(petit_sec(h) for h in state.hands)
        return
    assert len(state.tricks) == COUNTS[players].hand and not state.trick
    assert not any(state.hands)
    halves, bouts = _camp_halves(state)
    assert sum(halves) == 182 and sum(bouts) == 3  # T13: 91 points, three bouts
    assert settlement["points"] * 2 == halves[1]
    assert settlement["bouts"] == bouts[1] and settlement["target"] == TARGETS[bouts[1]]
    assert settlement["made"] == (halves[1] >= 2 * settlement["target"])
    d = settlement["per_defender"]
    taker, partner = state.taker, state.partner
    defenders = players - 1 - (partner is not None)
    assert scores == [(defenders - (partner is not None)) * d if s == taker else
                      d if s == partner else -d for s in range(players)]


TESTS = GameTests(GAME, check_state, check_final, candidate_moves, deals=1000, http_deals=20,
                  deal_options=({}, {"dealer": 0}), over_rule="T9", record_seed=1)
