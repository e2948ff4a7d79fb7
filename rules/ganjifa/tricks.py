"""G6, G7: following a trick (the led suit, else a trump or the first suit held after the
led one), what a follower shows it lacks, and who wins a trick; every single-card play
as a table."""

from __future__ import annotations

from rules.cards import mask_of, move_chunks
from rules.game import Move
from rules.ganjifa.cards import (
    AFTER,
    DECK,
    PLAYERS,
    STRENGTH,
    SUIT_COUNT,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SIZE,
)

# Every single-card play, built once: listing plays only picks from tables. A suit is one
# 12-bit chunk, so SUIT_PLAYS[seat][suit][bits] lists the plays of one suit directly.
SUIT_PLAYS = tuple(move_chunks(len(DECK), lambda c, s=s: Move(s, "play", card=c))
                   for s in range(PLAYERS))
SHIFTS = tuple(SUIT_SIZE * s for s in range(SUIT_COUNT))
_NEXT_SEAT = (1, 2, 0)  # the seat after each: in `play`, cheaper than (seat + 1) % 3


def void_options(hand: int, led: int, trump: int) -> int:
    """G6: what a player void in the led suit may play: a trump, or a card of the first
    suit after the led one in avatar order of which the hand holds any [decided: the
    trump suit is not skipped in that search]."""
    allowed = hand & SUIT_MASK[trump]
    for s in AFTER[led]:
        m = hand & SUIT_MASK[s]
        if m:
            return allowed | m
    return allowed


def _shown_void(trump: int, led: int, played: int) -> int:
    """G6: the cards a follower who played a card of suit `played` on a trick led in `led`
    is seen to lack: none if it followed suit; else the led suit and, unless it trumped,
    every suit it passed over on its way to `played` (the trump suit among them)."""
    if played == led:
        return 0
    void = SUIT_MASK[led]
    if played != trump:
        for s in AFTER[led]:
            if s == played:
                break
            void |= SUIT_MASK[s]
    return void


# SHOWN_VOID[trump][led][played]: `_shown_void`, read at every completed trick.
SHOWN_VOID = tuple(tuple(tuple(_shown_void(t, led, p) for p in range(SUIT_COUNT))
                         for led in range(SUIT_COUNT)) for t in range(SUIT_COUNT))


def next_held_suit(hand: int, led: int) -> int | None:
    for s in AFTER[led]:
        if hand & SUIT_MASK[s]:
            return s
    return None


def follow_options(hand: int, led: int, trump: int) -> int:
    """G6: the cards of `hand` that may follow a trick led in suit `led`."""
    follow = hand & SUIT_MASK[led]
    return follow if follow else void_options(hand, led, trump)


def _beaters(trump: int, card: int) -> int:
    """G2, G7: the cards that beat `card` when it leads a trick or is winning it so far:
    higher cards of its suit, and any trump over a non-trump. That is all a trick needs,
    since the card winning so far is always of the led suit or a trump."""
    suit = SUIT_OF[card]
    higher = mask_of(c for c in range(SUIT_SIZE * suit, SUIT_SIZE * (suit + 1))
                     if STRENGTH[c] > STRENGTH[card])
    return higher if suit == trump else higher | SUIT_MASK[trump]


BEATERS = tuple(tuple(_beaters(t, c) for c in range(len(DECK))) for t in range(SUIT_COUNT))


def _voids_after(voids: tuple[int, ...], trump: int, leader: int, first: int,
                 second: int, third: int) -> tuple[int, ...]:
    """`voids` with what the two followers of a completed trick showed they lack (G6)."""
    shown = SHOWN_VOID[trump][SUIT_OF[first]]
    out = list(voids)
    out[(leader + 1) % PLAYERS] |= shown[SUIT_OF[second]]
    out[(leader + 2) % PLAYERS] |= shown[SUIT_OF[third]]
    return (out[0], out[1], out[2])


def trick_winner(trump: int, leader: int, cards) -> int:
    """G7: the seat that wins the complete trick `cards` (three, in play order from
    `leader`): the highest trump, else the highest card of the led suit. The card winning
    so far is always of the led suit or a trump, so BEATERS decides each step."""
    beaters = BEATERS[trump]
    first, second, third = cards
    if beaters[first] >> second & 1:
        best = 2 if beaters[second] >> third & 1 else 1
    else:
        best = 2 if beaters[first] >> third & 1 else 0
    return (leader + best) % PLAYERS
