"""What the generic invariant test needs to know of Dashavatara Ganjifa."""

from __future__ import annotations

import random

from rules.cards import bit_list
from rules.game import Move
from rules.ganjifa import (
    DECK,
    GAME,
    MANTRIS,
    PLAYERS,
    RAJAS,
    STRENGTH,
    SUIT_COUNT,
    SUIT_OF,
    SUIT_SIZE,
    GanjifaState,
    turn,
)
from tests.support.game import GameTests

CARDS = list(range(len(DECK)))
# The constant part: every card of the deck played by every seat.
EVERY_PLAY = [Move(s, "play", card=c) for s in range(PLAYERS) for c in CARDS]


def _dukal_shape(suit: int, start: int, length: int) -> tuple[int, ...]:
    """The Raja, the Mantri and pips start+1 … start+length of a suit, in index order."""
    base = SUIT_SIZE * suit
    return tuple(sorted((*range(base + start, base + start + length), MANTRIS[suit],
                         RAJAS[suit])))


def candidate_moves(state: GanjifaState, rng: random.Random) -> list[Move]:
    """Every play of every seat, plus Dukals and discards that are legal, nearly legal or
    plainly wrong. Card sets are in index order, as the listing gives them, so a legal
    candidate equals its listed move."""
    to_act = state.to_act
    seat = rng.randrange(PLAYERS) if to_act is None else to_act
    other = (seat + rng.randrange(1, PLAYERS)) % PLAYERS
    hand = bit_list(state.hands[seat])
    extra = []
    # G8: Dukal-shaped sets of a random suit and run, from the seat to act and another one.
    for who in (seat, seat, other):
        length = rng.randrange(3, 11)
        extra.append(Move(who, "dukal", cards=_dukal_shape(
            rng.randrange(SUIT_COUNT), rng.randrange(0, 11 - length), length)))
    # Dukals built from what the seat holds: often legal when it is on lead.
    for suit in range(SUIT_COUNT):
        held = state.hands[seat] >> (SUIT_SIZE * suit)
        if held >> 10 & 3 == 3:
            pips = [p for p in range(10) if held >> p & 1]
            if len(pips) >= 3:
                start = rng.choice(pips)
                length = rng.randrange(2, 8)
                extra.append(Move(seat, "dukal", cards=_dukal_shape(
                    suit, start, min(length, 10 - start))))
    # Not Dukals: a gap in the run, a court missing, mixed suits, a repeated card.
    suit = rng.randrange(SUIT_COUNT)
    base = SUIT_SIZE * suit
    extra.append(Move(seat, "dukal", cards=(base, base + 1, base + 3, MANTRIS[suit],
                                            RAJAS[suit])))
    extra.append(Move(seat, "dukal", cards=(base + 4, base + 5, base + 6, RAJAS[suit])))
    extra.append(Move(seat, "dukal", cards=tuple(sorted(rng.sample(CARDS, 5)))))
    if hand:
        extra.append(Move(seat, "dukal", cards=tuple(sorted(rng.sample(hand, min(5, len(hand)))))))
        extra.append(Move(seat, "dukal", cards=tuple(sorted((hand[0], *_dukal_shape(suit, 0, 3))))))
    # G8: discards of the right size, one too few or too many, from the right and the
    # wrong seat, with a card not held, with a card repeated.
    k = state.dukal.cards.bit_count() if state.dukal is not None else 5
    for size in (k, k, k - 1, k + 1):
        if 0 <= size <= len(hand):
            extra.append(Move(seat, "discard", cards=tuple(sorted(rng.sample(hand, size)))))
    extra.append(Move(other, "discard", cards=tuple(sorted(rng.sample(CARDS, k)))))
    if len(hand) >= k > 1:
        kept = rng.sample(hand, k - 1)
        extra.append(Move(seat, "discard", cards=tuple(sorted((*kept, kept[0])))))
        spare = [c for c in CARDS if not state.hands[seat] >> c & 1]
        extra.append(Move(seat, "discard", cards=tuple(sorted((*kept, rng.choice(spare))))))
    return EVERY_PLAY + extra


def check_state(state: GanjifaState) -> None:
    """G1: the 120 cards exactly once across hands, captured piles, the trick and a pending
    Dukal; G4, G7, G8: captures come in threes, and hands are equal at every lead; G6, G8,
    G9: the stored phase and seat to act are the ones the facts decide (`turn`, as `build`
    finds them), whatever transition set them."""
    assert (state.phase, state.to_act) == turn(state.hands, state.leader, state.trick,
                                               state.dukal), state
    seen = count = 0
    for pile in (*state.hands, *state.captured):
        seen |= pile
        count += pile.bit_count()
    for c in state.trick:
        seen |= 1 << c
        count += 1
    if state.dukal is not None:
        for pile in (state.dukal.cards, *state.dukal.discards):
            seen |= pile
            count += pile.bit_count()
    assert seen == DECK.full and count == 120
    assert all(c.bit_count() % 3 == 0 for c in state.captured)
    if not state.trick and state.dukal is None:
        assert len({h.bit_count() for h in state.hands}) == 1
    if state.tricks is not None:
        check_history(state)


def check_history(state: GanjifaState) -> None:
    """The deal's history: every captured card once, in the pile of the trick's winner
    (G7: the highest trump, else the highest of the led suit) or the Dukal's leader (G8);
    no hand holds a suit its seat showed it lacks (G6)."""
    won = [0, 0, 0]
    count = 0
    for leader, cards, winner in state.tricks:
        power = [(SUIT_OF[c] == state.trump, SUIT_OF[c] == SUIT_OF[cards[0]], STRENGTH[c])
                 for c in cards]
        assert winner == (leader + power.index(max(power))) % PLAYERS
        for c in cards:
            won[winner] |= 1 << c
            count += 1
    for d in state.dukals:
        for m in (d.cards, *d.discards):
            won[d.seat] |= m
            count += m.bit_count()
    assert tuple(won) == state.captured and count == sum(c.bit_count() for c in won)
    assert not any(state.hands[s] & state.voids[s] for s in range(PLAYERS))


def check_final(state: GanjifaState, settlement: dict) -> None:
    """G9: every hand empty, one point per captured card (120 in all), the highest score
    wins and a tie on it shares the win."""
    assert not any(state.hands) and not state.trick and state.dukal is None
    counts = [c.bit_count() for c in state.captured]
    assert sum(counts) == 120
    assert settlement["captured"] == counts and settlement["scores"] == counts
    assert settlement["winners"] == [s for s in range(PLAYERS) if counts[s] == max(counts)]
    assert GAME.legal_moves(state) == []


TESTS = GameTests(GAME, check_state, check_final, candidate_moves, deals=1000, http_deals=16,
                  deal_options=({}, {"period": "night"}), over_rule="G9", record_seed=4)
