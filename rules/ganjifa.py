"""Dashavatara Ganjifa for three players, one deal, with Dukal captures: rules G1–G9 of
RULES.md.

Points G1–G9 leave open, decided here (each is cited where it applies):
- G6: the "first suit after the led suit of which they hold any" is searched in avatar
  order from the led suit, wrapping, and the trump suit is not skipped: when the trump
  suit is that first held suit, the void player's only choice is a trump.
- G8: "a run of consecutive pip numbers" is one unbroken run (3, 4, 5, 6), not two runs
  (3, 4, 5 and 8, 9, 10) and never wrapping from 10 to 1; any run of three or more held
  pips may be led, so a player holding 3…7 may lead 3–5, 4–6, 5–7, 3–6, 4–7 or 3–7.
- G8: "may not exceed any opponent's hand" allows a Dukal of exactly an opponent's hand
  size (that opponent then discards every card). G4 deals equal hands and every trick and
  every Dukal takes as many cards from each hand, so at each lead all hands are equal and
  the limit can never bind in a state `build` accepts; `verify` still enforces it.
- G8: "each opponent in turn order" means the seat after the leader answers first, then
  the next one; the second answer sees the first one's discards (they are public, like
  every captured card).
- G8: after a Dukal the leader captures the 3k cards and `leader` stays that seat, with
  an empty trick; the leader may lead another Dukal at once.
- G5: the opening is the first lead of the deal, recognised by nothing being captured yet;
  the trump Raja is then the only legal lead, and the other two follow it under G6.
- G1: RULES.md names no emblem for Krishna and Balarama; the traditional suit signs used
  here are the discus (chakra) and the plough.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.cards import Card, Deck, bit_list, lowest, mask_of, move_chunks
from rules.game import (
    UNSET,
    Game,
    InvalidState,
    Move,
    NoWorldFits,
    Problem,
    Template,
    View,
    conservation_problems,
    deal_hidden,
    derived_problems,
    placed,
)
from rules.reasons import Reason
from rules.texts import ENGLISH, english, in_digits

# G1: the ten suits in avatar order. The avatars' names and the suits' emblems are the
# catalogues' `ganjifa.avatar.<suit>` and `ganjifa.emblem.<suit>`; [decided] G1 names no
# emblem for Krishna and Balarama: the discus (chakra) and the plough (hala).
SUITS = ("MAT", "KUR", "VAR", "NAR", "VAM", "PAR", "RAM", "KRI", "BAL", "KAL")
SUIT_COUNT = len(SUITS)
AVATAR_NAMES = tuple(ENGLISH[f"ganjifa.avatar.{code}"] for code in SUITS)
EMBLEMS = tuple(ENGLISH[f"ganjifa.emblem.{code}"] for code in SUITS)
AVATARS = tuple(zip(SUITS, AVATAR_NAMES, EMBLEMS, strict=True))  # (code, avatar, emblem)
# A card's index is 12 * suit + rank index, ranks in this order; a suit fills one 12-bit
# chunk of a hand mask, so a move_chunks chunk is exactly one suit.
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "M", "R")
RANK_LABELS = (*RANKS[:10], "Mantri", "Raja")
SUIT_SIZE = len(RANKS)
PIPS = 10
MANTRI, RAJA = 10, 11  # rank indices
HAND_SIZE = 40  # G4
PLAYERS = 3
PERIODS = {"day": SUITS.index("RAM"), "night": SUITS.index("KRI")}  # G3
PERIOD_OF = {trump: period for period, trump in PERIODS.items()}


def _strength(suit: int, rank: int) -> int:
    """G2: 11 for the Raja, 10 for the Mantri, then the pips: in the first five suits
    1 is high and 10 low, in the last five 10 is high and 1 low."""
    if rank >= MANTRI:
        return rank
    return PIPS - 1 - rank if suit < 5 else rank


# G2: each suit group's ranks from high to low, as data for the game-info endpoint.
RANK_ORDER = {
    "first": ("R", "M", *RANKS[:10]),
    "last": ("R", "M", *reversed(RANKS[:10])),
}

def name_card(catalogue: dict[str, str], suit: str, rank: str) -> str:
    """A card's name in a catalogue's words: its pip number or court, of its avatar."""
    local_rank = catalogue.get(f"ganjifa.rank.{rank}") or in_digits(catalogue, rank)
    return catalogue["ganjifa.card"].format(rank=local_rank,
                                            suit=catalogue[f"ganjifa.avatar.{suit}"])


DECK = Deck(
    Card(
        RANKS[r] + SUITS[s],
        SUITS[s],
        RANKS[r],
        name_card(ENGLISH, SUITS[s], RANKS[r]),
        RANK_LABELS[r],
    )
    for s in range(SUIT_COUNT)
    for r in range(SUIT_SIZE)
)
SUIT_OF = tuple(i // SUIT_SIZE for i in range(len(DECK)))
RANK_OF = tuple(i % SUIT_SIZE for i in range(len(DECK)))
STRENGTH = tuple(_strength(SUIT_OF[i], RANK_OF[i]) for i in range(len(DECK)))
SUIT_MASK = tuple(((1 << SUIT_SIZE) - 1) << (SUIT_SIZE * s) for s in range(SUIT_COUNT))
RAJAS = tuple(SUIT_SIZE * s + RAJA for s in range(SUIT_COUNT))
MANTRIS = tuple(SUIT_SIZE * s + MANTRI for s in range(SUIT_COUNT))
MANTRI_BITS = mask_of(MANTRIS)
PIP_BITS = (1 << PIPS) - 1
# G6: the suits after each suit in avatar order, wrapping from Kalki to Matsya.
AFTER = tuple(tuple((s + i) % SUIT_COUNT for i in range(1, SUIT_COUNT)) for s in
              range(SUIT_COUNT))


def _runs(pips: int) -> tuple[int, ...]:
    """G8: every unbroken run of three or more pips inside a 10-bit pip mask."""
    out = []
    for start in range(PIPS):
        for end in range(start + 3, PIPS + 1):
            run = ((1 << (end - start)) - 1) << start
            if pips & run != run:
                break
            out.append(run)
    return tuple(out)


RUNS = tuple(_runs(p) for p in range(1 << PIPS))

# Every single-card play, built once: listing plays only picks from tables. A suit is one
# 12-bit chunk, so SUIT_PLAYS[seat][suit][bits] lists the plays of one suit directly.
SUIT_PLAYS = tuple(move_chunks(len(DECK), lambda c, s=s: Move(s, "play", card=c))
                   for s in range(PLAYERS))
SHIFTS = tuple(SUIT_SIZE * s for s in range(SUIT_COUNT))
_NEXT_SEAT = (1, 2, 0)  # the seat after each: in `play`, cheaper than (seat + 1) % 3
_new = tuple.__new__  # a state or a Dukal from a ready tuple, without NamedTuple's __new__
# G8: every Dukal move, DUKALS[seat][suit][run], built at import (36 runs a suit: a
# thousand moves), so that workers forked after it share them and no cache fills (issue 16).
DUKALS = tuple(tuple({run: Move(seat, "dukal", cards=tuple(bit_list(
    run << SUIT_SIZE * suit | 1 << MANTRIS[suit] | 1 << RAJAS[suit])))
    for run in set().union(*RUNS)} for suit in range(SUIT_COUNT)) for seat in range(PLAYERS))


def dukal_moves(seat: int, suit: int, pips: int) -> tuple[Move, ...]:
    """G8: every Dukal of `suit` that a hand holding the Raja, the Mantri and these pips
    may lead."""
    dukals = DUKALS[seat][suit]
    return tuple(dukals[run] for run in RUNS[pips])


def dukal_flaw(cards: int) -> dict[str, str] | None:
    """Why a set of cards (a mask) is not a Dukal (G8), as the values of a reason or a
    problem (`why` names the entry `why.<code>`), or None when it is one."""
    if not cards:
        return {"why": "dukal.empty"}
    suit = SUIT_OF[lowest(cards)]
    if cards & ~SUIT_MASK[suit]:
        return {"why": "dukal.suits"}
    if not cards >> RAJAS[suit] & 1:
        return {"why": "dukal.no_raja", "avatar": SUITS[suit]}
    if not cards >> MANTRIS[suit] & 1:
        return {"why": "dukal.no_mantri", "avatar": SUITS[suit]}
    pips = cards >> (SUIT_SIZE * suit) & PIP_BITS
    if pips.bit_count() < 3:
        return {"why": "dukal.short"}
    run = pips >> ((pips & -pips).bit_length() - 1)
    if run & (run + 1):
        return {"why": "dukal.gap"}
    return None


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


def _settlement(state: GanjifaState) -> dict:
    return settlement_of([c.bit_count() for c in state.captured])


def settlement_of(counts: list[int]) -> dict:
    """G9 from the cards each seat captured: one point per card; every seat on the highest
    score wins. Two seats may share it; all three never do, since captures come in threes
    (G7, G8) and 40 is not a multiple of three."""
    best = max(counts)
    return {"captured": counts, "scores": list(counts),
            "winners": [s for s in range(PLAYERS) if counts[s] == best]}


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


# -- the checks of a state given as fields, one rule block each ---------------------------
# A play is (seat, card); a Dukal {"seat", "cards", "discards": [(seat, cards)]}; a
# completed trick ([3 plays], winner). Each check returns its problems.

Plays = list[tuple[int, int]]


def revoke_problem(path: str, seat: int, held: int, led: int, card: int, trump: int
                   ) -> Problem | None:
    """G6: `seat`, holding `held` beside `card`, could not follow a trick led in suit `led`
    with `card`; None if it could."""
    if SUIT_OF[card] == led:
        return None
    values = {"seat": seat, "suit": SUITS[led], "card": DECK.codes[card]}
    if held & SUIT_MASK[led]:
        return Problem(path, "ganjifa_revoke_follow", values)
    if not void_options(held | 1 << card, led, trump) >> card & 1:
        return Problem(path, "ganjifa_revoke_next_suit", values)
    return None


def dukal_problems(path: str, seat: int, cards: list[int],
                   discards: list[tuple[int, list[int]]]) -> list[Problem]:
    """G8 for the Dukal at `path`, led by `seat`, and its answers so far: a Dukal, answered
    in turn order from the leader's left, each answer exactly k cards."""
    problems = []
    k = len(cards)
    flaw = dukal_flaw(mask_of(cards))
    if flaw:
        problems.append(Problem(f"{path}.cards", "ganjifa_not_dukal", flaw))
    for j, (answer, given) in enumerate(discards):
        expected = (seat + 1 + j) % PLAYERS
        if answer != expected:
            problems.append(Problem(f"{path}.discards.{j}.seat", "ganjifa_answer_turn", {
                "answer": j, "seat": seat, "expected": expected, "given": answer}))
        if len(given) != k:
            problems.append(Problem(f"{path}.discards.{j}.cards", "ganjifa_answer_size",
                                    {"count": k, "given": len(given)}))
    return problems


def pile_problems(hands: list[list[int]], captured: list[list[int]], trick: Plays,
                  dukal: dict | None) -> list[Problem]:
    """G1: every card once across the piles; G7, G8: captures come in threes."""
    def places() -> list[tuple[str, int]]:
        out = []
        for s in range(PLAYERS):
            out += placed(f"hands.{s}", hands[s])
        for s in range(PLAYERS):
            out += placed(f"captured.{s}", captured[s])
        out += [(f"trick.{i}.card", c) for i, (_, c) in enumerate(trick)]
        if dukal is not None:
            out += placed("dukal.cards", dukal["cards"])
            for j, (_, cards) in enumerate(dukal["discards"]):
                out += placed(f"dukal.discards.{j}.cards", cards)
        return out

    piles = [*hands, *captured, [c for _, c in trick]]
    if dukal is not None:
        piles += [dukal["cards"], *(cards for _, cards in dukal["discards"])]
    problems = conservation_problems(DECK, piles, places)
    for s in range(PLAYERS):
        if len(captured[s]) % 3:
            problems.append(Problem(f"captured.{s}", "ganjifa_captured_threes",
                                    {"count": len(captured[s])}))
    return problems


def lead_problems(trump: int, masks: list[int], captured: list[list[int]], leader: int,
                  trick: Plays, dukal: dict | None) -> list[Problem]:
    """G5: the holder of the trump Raja opens with it, and no Dukal opens; G7, G8: after
    the opening, the leader has won a trick or a Dukal."""
    problems = []
    codes = DECK.codes
    raja = RAJAS[trump]
    if any(captured):
        if not captured[leader]:
            problems.append(Problem("leader", "ganjifa_leader_captured_nothing",
                                    {"seat": leader}))
        return problems
    if dukal is not None:
        problems.append(Problem("dukal", "ganjifa_dukal_opening"))
    elif trick:
        if trick[0][1] != raja:
            problems.append(Problem("trick.0.card", "ganjifa_opening_raja",
                                    {"raja": codes[raja], "card": codes[trick[0][1]]}))
    else:
        holder = next((s for s in range(PLAYERS) if masks[s] >> raja & 1), None)
        if holder is not None and holder != leader:
            problems.append(Problem("leader", "ganjifa_opener", {
                "holder": holder, "raja": codes[raja], "seat": leader}))
    return problems


def trick_problems(trump: int, masks: list[int], leader: int, trick: Plays,
                   dukal: dict | None) -> list[Problem]:
    """G6: the trick in progress played in turn and followed as the hands allow; G7: two
    cards at most; G8: none while a Dukal waits."""
    problems = []
    if len(trick) >= PLAYERS:
        problems.append(Problem("trick", "ganjifa_trick_full"))
    if trick and dukal is not None:
        problems.append(Problem("trick", "ganjifa_trick_during_dukal"))
    for i, (seat, card) in enumerate(trick):
        expected = (leader + i) % PLAYERS
        if seat != expected:
            problems.append(Problem(f"trick.{i}.seat", "ganjifa_play_turn", {
                "play": i, "leader": leader, "expected": expected, "seat": seat}))
        elif i:
            revoke = revoke_problem(f"trick.{i}.card", seat, masks[seat],
                                    SUIT_OF[trick[0][1]], card, trump)
            if revoke:
                problems.append(revoke)
    return problems


def _given_since_lead(leader: int, trick: Plays, dukal: dict | None
                      ) -> tuple[list[int], int | None]:
    """The cards each hand has given since the current lead, and the seat to answer."""
    given = [0, 0, 0]
    if dukal is not None:
        d, k, discards = dukal["seat"], len(dukal["cards"]), dukal["discards"]
        given[d] = k
        for j in range(len(discards)):
            given[(d + 1 + j) % PLAYERS] = k
        if len(discards) < PLAYERS - 1:
            return given, (d + 1 + len(discards)) % PLAYERS
        return given, None
    if len(trick) >= PLAYERS:
        return given, None
    for i in range(len(trick)):
        given[(leader + i) % PLAYERS] = 1
    return given, (leader + len(trick)) % PLAYERS


def pending_dukal_problems(hands: list[list[int]], leader: int, dukal: dict | None
                           ) -> list[Problem]:
    """G8: the Dukal waiting for its answers is the leader's, a Dukal, no larger than an
    opponent's hand, and answered by one opponent at most."""
    if dukal is None:
        return []
    d, cards, discards = dukal["seat"], dukal["cards"], dukal["discards"]
    problems = []
    if d != leader:
        problems.append(Problem("dukal.seat", "ganjifa_dukal_seat", {"leader": leader}))
    problems += dukal_problems("dukal", d, cards, discards)
    if len(discards) >= PLAYERS - 1:
        problems.append(Problem("dukal.discards", "ganjifa_dukal_answered"))
    given, _ = _given_since_lead(leader, [], dukal)
    for s in range(PLAYERS):
        held = len(hands[s]) + given[s]
        if s != d and len(cards) > held:
            problems.append(Problem("dukal.cards", "ganjifa_dukal_larger",
                                    {"count": len(cards), "seat": s, "held": held}))
    return problems


def hand_size_problems(hands: list[list[int]], leader: int, trick: Plays,
                       dukal: dict | None) -> list[Problem]:
    """G4: equal hands at every lead; a trick takes one card, a Dukal k from each hand."""
    given, answering = _given_since_lead(leader, trick, dukal)
    if answering is None:
        return []
    fresh = len(hands[answering]) + given[answering]
    return [Problem(f"hands.{s}", "ganjifa_hand_size", {
                "seat": s, "count": len(hands[s]), "expected": fresh - given[s]})
            for s in range(PLAYERS) if len(hands[s]) != fresh - given[s]]


# -- the deal's history --------------------------------------------------------------------

Played = tuple[int, tuple[int, ...], int]  # (leader, cards in play order, winner)


def history_tricks(trump: int, tricks: list[tuple[Plays, int]], leader: int
                   ) -> tuple[list[Problem], list[Played]]:
    """The completed tricks: three plays in turn order (G6), the first led with the trump
    Raja (G5), each led by the last one's winner and won as G7 says; and the leader now is
    the last winner."""
    problems = []
    codes = DECK.codes
    played: list[Played] = []
    for i, (plays, winner) in enumerate(tricks):
        path = f"tricks.{i}"
        first = plays[0][0]
        if i == 0 and plays[0][1] != RAJAS[trump]:
            problems.append(Problem(f"{path}.cards.0.card", "ganjifa_opening_raja", {
                "raja": codes[RAJAS[trump]], "card": codes[plays[0][1]]}))
        if played and first != played[-1][2]:
            problems.append(Problem(f"{path}.cards.0.seat", "ganjifa_history_leader", {
                "winner": played[-1][2], "previous": i - 1, "trick": i, "seat": first}))
        for j, (seat, _) in enumerate(plays):
            if seat != (first + j) % PLAYERS:
                problems.append(Problem(f"{path}.cards.{j}.seat", "ganjifa_play_turn", {
                    "play": j, "leader": first, "expected": (first + j) % PLAYERS,
                    "seat": seat}))
        cards = (plays[0][1], plays[1][1], plays[2][1])
        best = trick_winner(trump, first, cards)
        if winner != best:
            problems.append(Problem(f"{path}.winner", "ganjifa_trick_winner",
                                    {"winner": best, "given": winner}))
        played.append((first, cards, best))
    if played and leader != played[-1][2]:
        problems.append(Problem("leader", "ganjifa_last_winner_leads",
                                {"winner": played[-1][2], "seat": leader}))
    return problems, played


def history_dukals(dukals: list[dict], played: list[Played]
                   ) -> tuple[list[Problem], list[Dukal]]:
    """The captured Dukals: each a Dukal (G8) led by a seat that had won a trick, so that it
    led (G5, G8), and answered by both opponents."""
    problems = []
    leaders = {w for _, _, w in played}
    captures = []
    for i, entry in enumerate(dukals):
        path = f"dukals.{i}"
        seat, cards, discards = entry["seat"], entry["cards"], entry["discards"]
        if seat not in leaders:
            problems.append(Problem(f"{path}.seat", "ganjifa_dukal_leader_won_nothing",
                                    {"seat": seat}))
        problems += dukal_problems(path, seat, cards, discards)
        if len(discards) != PLAYERS - 1:
            problems.append(Problem(f"{path}.discards", "ganjifa_dukal_unanswered"))
        captures.append(Dukal(seat, mask_of(cards),
                              tuple(mask_of(given) for _, given in discards)))
    return problems, captures


def history_pile_problems(captured: list[list[int]], played: list[Played],
                          dukals: list[dict]) -> list[Problem]:
    """G1, G7, G8: the tricks and Dukals are exactly the captured cards, each once and in
    its winner's pile."""
    won = [0, 0, 0]
    count = 0
    for _, (a, b, c), winner in played:
        won[winner] |= 1 << a | 1 << b | 1 << c
        count += 3
    for entry in dukals:
        for cards in (entry["cards"], *(given for _, given in entry["discards"])):
            won[entry["seat"]] |= mask_of(cards)
            count += len(cards)
    problems = []
    for s in range(PLAYERS):
        pile = mask_of(captured[s])
        if pile != won[s]:
            problems.append(Problem(f"captured.{s}", "ganjifa_captured_pile", {
                "seat": s, "extra": (pile & ~won[s]).bit_count(),
                "missing": (won[s] & ~pile).bit_count()}))
    if count != (won[0] | won[1] | won[2]).bit_count():
        problems.append(Problem("tricks", "ganjifa_history_twice"))
    return problems


def history_revokes(trump: int, masks: list[int], trick: Plays, dukal: dict | None,
                    played: list[Played], captures: list[Dukal]) -> list[Problem]:
    """G6 backwards: a follower who did not follow suit must not hold the led suit later,
    nor a suit it had to play before the one it played. What a seat held at a trick is
    known in part: its hand now and what it played in later tricks, the trick in progress
    and the pending Dukal; and a captured Dukal's cards, at every trick up to its leader's
    first won one, since only a leader leads a Dukal (G8). A revoke is reported only when
    certain."""
    later = list(masks)
    for seat, card in trick:
        later[seat] |= 1 << card
    if dukal is not None:
        later[dukal["seat"]] |= mask_of(dukal["cards"])
        for seat, given in dukal["discards"]:
            later[seat] |= mask_of(given)
    first_win: dict[int, int] = {}
    for i, (_, _, winner) in enumerate(played):
        first_win.setdefault(winner, i)
    early = sorted(((first_win[d.seat], (d.seat + j) % PLAYERS, m)
                    for d in captures if d.seat in first_win
                    for j, m in enumerate((d.cards, *d.discards))), reverse=True)
    problems = []
    for i in range(len(played) - 1, -1, -1):
        while early and early[0][0] >= i:
            _, seat, mask = early.pop(0)
            later[seat] |= mask
        first, cards, _ = played[i]
        led = SUIT_OF[cards[0]]
        for j in (1, 2):
            seat = (first + j) % PLAYERS
            revoke = revoke_problem(f"tricks.{i}.cards.{j}.card", seat, later[seat], led,
                                    cards[j], trump)
            if revoke:
                problems.append(revoke)
        for j in range(PLAYERS):
            later[(first + j) % PLAYERS] |= 1 << cards[j]
    return problems


def history_of(trump: int, masks: list[int], captured: list[list[int]], leader: int,
               trick: Plays, dukal: dict | None, tricks: list | None, dukals: list | None
               ) -> tuple[list[Problem], tuple]:
    """The deal's history given with a state, checked against the rules and the state: its
    problems, and (tricks, dukals, voids) for GanjifaState."""
    if tricks is None or dukals is None:
        given, absent = ("tricks", "dukals") if dukals is None else ("dukals", "tricks")
        return [Problem(absent, "ganjifa_history_half", {"given": given, "absent": absent})], \
            (None, None, (0, 0, 0))
    problems, played = history_tricks(trump, tricks, leader)
    found, captures = history_dukals(dukals, played)
    problems += found
    problems += history_pile_problems(captured, played, dukals)
    problems += history_revokes(trump, masks, trick, dukal, played, captures)
    voids: tuple[int, ...] = (0, 0, 0)
    for first, (a, b, c), _ in played:
        voids = _voids_after(voids, trump, first, a, b, c)
    return problems, (tuple(played), tuple(captures), voids)


class Ganjifa(Game):
    id = "ganjifa"
    name = english("game.ganjifa.name")
    players = PLAYERS
    summary = english("game.ganjifa.summary")
    deck = DECK
    deck_info = {
        "name": english("game.ganjifa.deck.name"),
        "size": 120,
        "origin": english("game.ganjifa.deck.origin"),
        "wikipedia": "https://en.wikipedia.org/wiki/Ganjifa",
    }
    rules = tuple(f"G{i}" for i in range(1, 10))
    actions = ("play", "dukal", "discard")

    def card_name(self, catalogue: dict[str, str], suit: str, rank: str) -> str:
        return name_card(catalogue, suit, rank)

    # -- dealing -----------------------------------------------------------------

    def deal_from(self, order: list[int], period: str = "day") -> GanjifaState:
        """G3: the period fixes the trump; G4: hand s = cards 40s+1 … 40s+40; G5: the
        holder of the trump Raja leads."""
        trump = PERIODS[period]
        hands = (mask_of(order[0:40]), mask_of(order[40:80]), mask_of(order[80:120]))
        raja = 1 << RAJAS[trump]
        leader = next(s for s in range(PLAYERS) if hands[s] & raja)
        return GanjifaState(trump, hands, (0, 0, 0), leader, (), None, "play", leader, (), ())

    # -- reading a state -----------------------------------------------------------

    def build(
        self,
        period: str,
        hands: list[list[int]],
        captured: list[list[int]],
        leader: int,
        trick: list[tuple[int, int]],
        dukal: dict | None,
        tricks: list[tuple[list[tuple[int, int]], int]] | None = None,
        dukals: list[dict] | None = None,
        phase: str = UNSET,
        to_act: int | None = UNSET,
        result: dict | None = UNSET,
    ) -> GanjifaState:
        """A state from its fields (cards as deck indices; `trick` as (seat, card) pairs;
        `dukal` as {"seat", "cards", "discards": [(seat, cards)]}; the optional history as
        `tricks`, ([(seat, card)], winner) each, and `dukals`, like `dukal`), or
        InvalidState with every problem found. Field paths match the JSON state of API.md."""
        trump = PERIODS.get(period)
        problems = pile_problems(hands, captured, trick, dukal)
        if trump is None:
            problems.append(Problem("period", "ganjifa_period"))
            trump = PERIODS["day"]
        masks = [mask_of(h) for h in hands]
        problems += lead_problems(trump, masks, captured, leader, trick, dukal)
        problems += trick_problems(trump, masks, leader, trick, dukal)
        problems += pending_dukal_problems(hands, leader, dukal)
        problems += hand_size_problems(hands, leader, trick, dukal)
        history: tuple = (None, None, (0, 0, 0))
        if tricks is not None or dukals is not None:
            found, history = history_of(trump, masks, captured, leader, trick, dukal, tricks,
                                        dukals)
            problems += found
        if problems:
            raise InvalidState(problems)
        held = (masks[0], masks[1], masks[2])
        cards = tuple(c for _, c in trick)
        pending = None if dukal is None else Dukal(
            dukal["seat"], mask_of(dukal["cards"]),
            tuple(mask_of(given) for _, given in dukal["discards"]))
        state = GanjifaState(
            trump, held, (mask_of(captured[0]), mask_of(captured[1]), mask_of(captured[2])),
            leader, cards, pending, *turn(held, leader, cards, pending), *history)
        derived = derived_problems(self, state, phase, to_act, result)
        if derived:
            raise InvalidState(derived)
        return state

    # -- the moves -----------------------------------------------------------------

    def legal_moves(self, state: GanjifaState) -> list[Move | Template]:
        trump, hands, captured, leader, trick, dukal, _, seat, _, _, _ = state
        if seat is None:
            return []  # G9
        if dukal is not None:
            # G8: any k cards of the answering seat's hand, with no duty to follow suit.
            return [Template(seat, "discard", dukal.cards.bit_count(), (),
                             tuple(bit_list(hands[seat])))]
        if trick:
            hand = hands[seat]
            led = SUIT_OF[trick[0]]
            plays = SUIT_PLAYS[seat]
            follow = hand & SUIT_MASK[led]
            if follow:  # G6: follow suit
                return list(plays[led][follow >> SHIFTS[led]])
            # G6: void — a trump, or the first held suit after the led one (wrapping)
            moves = list(plays[trump][hand >> SHIFTS[trump] & 0xFFF])
            for s in AFTER[led]:
                bits = hand >> SHIFTS[s] & 0xFFF
                if bits:
                    if s != trump:
                        moves += plays[s][bits]
                    return moves
            return moves
        hand = hands[leader]
        if not (captured[0] | captured[1] | captured[2]):
            return [Move(leader, "play", card=RAJAS[trump])]  # G5: the trump Raja, alone
        c = SUIT_PLAYS[leader]
        moves = [*c[0][hand & 0xFFF], *c[1][hand >> 12 & 0xFFF], *c[2][hand >> 24 & 0xFFF],
                 *c[3][hand >> 36 & 0xFFF], *c[4][hand >> 48 & 0xFFF],
                 *c[5][hand >> 60 & 0xFFF], *c[6][hand >> 72 & 0xFFF],
                 *c[7][hand >> 84 & 0xFFF], *c[8][hand >> 96 & 0xFFF], *c[9][hand >> 108]]
        both = hand & hand >> 1 & MANTRI_BITS  # suits whose Mantri and Raja are held
        if both:
            limit = min(hands[(leader + 1) % 3].bit_count(), hands[(leader + 2) % 3].bit_count())
            while both:
                low = both & -both
                both ^= low
                suit = low.bit_length() // SUIT_SIZE
                for m in dukal_moves(leader, suit, hand >> (SUIT_SIZE * suit) & PIP_BITS):
                    if len(m.cards or ()) <= limit:  # G8
                        moves.append(m)
        return moves

    def verify(self, state: GanjifaState, move: Move) -> Reason | None:
        trump, hands, captured, leader, trick, dukal, _, to_act, _, _, _ = state
        seat, action = move.seat, move.action
        codes = DECK.codes
        if dukal is not None:
            if seat != to_act:
                return Reason("not_your_turn", "G8", {"seat": seat, "to_act": to_act})
            if action != "discard":
                return Reason("wrong_phase", "G8", {"action": action, "phase": "dukal"})
            cards = move.cards or ()
            mask = 0
            for c in cards:
                if mask >> c & 1:
                    return Reason("repeated_card", "G8", {"card": codes[c]})
                mask |= 1 << c
            k = dukal.cards.bit_count()
            if len(cards) != k:
                return Reason("discard_wrong_size", "G8", {"count": k, "given": len(cards)})
            missing = mask & ~hands[seat]
            if missing:
                return Reason("card_not_in_hand", "G8",
                              {"seat": seat, "card": codes[lowest(missing)]})
            return None
        if to_act is None:
            return Reason("deal_over", "G9")
        opening = not (captured[0] | captured[1] | captured[2])
        if seat != to_act:
            # Following goes in turn (G6); the lead is the opener's (G5) or the last
            # winner's (G7).
            rule = "G6" if trick else "G5" if opening else "G7"
            return Reason("not_your_turn", rule, {"seat": seat, "to_act": to_act})
        if action == "discard":
            return Reason("wrong_phase", "G8", {"action": action, "phase": "play"})
        hand = hands[seat]
        if action == "dukal":
            if trick:
                return Reason("not_on_lead", "G8")
            if opening:
                return Reason("dukal_on_opening", "G5")
            return self._dukal_reason(hands, seat, move.cards or ())
        if action != "play":
            return Reason("wrong_phase", "G6", {"action": action, "phase": "play"})
        card = move.card
        if card is None or not hand >> card & 1:
            return Reason("card_not_in_hand", "G6",
                          {"seat": seat, "card": "?" if card is None else codes[card]})
        if not trick:
            if opening and card != RAJAS[trump]:
                return Reason("opening_must_be_trump_raja", "G5", {"card": codes[RAJAS[trump]]})
            return None
        led = SUIT_OF[trick[0]]
        if SUIT_OF[card] == led:
            return None
        if hand & SUIT_MASK[led]:
            return Reason("must_follow_suit", "G6", {"seat": seat})
        if not void_options(hand, led, trump) >> card & 1:
            nxt = next_held_suit(hand, led)
            assert nxt is not None  # the card played is of a suit after the led one
            return Reason("must_follow_or_next_suit", "G6",
                          {"seat": seat, "suit": SUITS[nxt]})
        return None

    @staticmethod
    def _dukal_reason(hands: tuple[int, ...], seat: int,
                      cards: tuple[int, ...]) -> Reason | None:
        codes = DECK.codes
        mask = 0
        for c in cards:
            if mask >> c & 1:
                return Reason("repeated_card", "G8", {"card": codes[c]})
            mask |= 1 << c
        missing = mask & ~hands[seat]
        if missing:
            return Reason("card_not_in_hand", "G8", {"seat": seat, "card": codes[lowest(missing)]})
        flaw = dukal_flaw(mask)
        if flaw:
            return Reason("invalid_dukal", "G8", flaw)
        smallest = min(hands[(seat + 1) % 3].bit_count(), hands[(seat + 2) % 3].bit_count())
        if len(cards) > smallest:
            return Reason("dukal_too_large", "G8", {"size": len(cards), "smallest": smallest})
        return None

    def play(self, state: GanjifaState, move: Move) -> tuple[GanjifaState, list[dict]]:
        trump, hands, captured, leader, trick, dukal, _, _, tricks, dukals, voids = state
        seat, action, card = move[0], move[1], move[2]
        if action == "play":
            assert card is not None  # each action's fields, as its schema requires
            h0, h1, h2 = hands
            if seat == 0:
                h0 &= ~(1 << card)
            elif seat == 1:
                h1 &= ~(1 << card)
            else:
                h2 &= ~(1 << card)
            hands = (h0, h1, h2)
            event = {"type": "card_played", "seat": seat, "card": card}
            if len(trick) < 2:  # PLAYERS - 1: the next seat plays to the trick (G6)
                return _new(GanjifaState, (trump, hands, captured, leader, (*trick, card), None,
                                           "play", _NEXT_SEAT[seat], tricks, dukals,
                                           voids)), [event]
            first, second = trick
            winner = trick_winner(trump, leader, (first, second, card))
            captured = _adding(captured, winner, 1 << first | 1 << second | 1 << card)
            if tricks is not None:
                tricks = (*tricks, (leader, (first, second, card), winner))
                voids = _voids_after(voids, trump, leader, first, second, card)
            events = [event, {"type": "trick_won", "seat": winner, "cards": [first, second, card]}]
            if h0 | h1 | h2:  # G7: the winner leads the next trick
                return _new(GanjifaState, (trump, hands, captured, winner, (), None, "play",
                                           winner, tricks, dukals, voids)), events
            new = _new(GanjifaState, (trump, hands, captured, winner, (), None, "over", None,
                                      tricks, dukals, voids))  # G9
            events.append({"type": "deal_over", "settlement": _settlement(new)})
            return new, events
        assert move.cards is not None
        if action == "dukal":
            cards = mask_of(move.cards)
            # G8: the seat after the leader answers first.
            return (GanjifaState(trump, _without(hands, seat, cards), captured, leader, (),
                                 Dukal(seat, cards, ()), "dukal", (seat + 1) % PLAYERS, tricks,
                                 dukals, voids),
                    [{"type": "dukal_led", "seat": seat, "cards": bit_list(cards)}])
        else:
            assert dukal is not None  # a discard answers the pending Dukal
            cards = mask_of(move.cards)
            hands = _without(hands, seat, cards)
            event = {"type": "dukal_answered", "seat": seat, "cards": bit_list(cards)}
            discards = (*dukal.discards, cards)
            if len(discards) < PLAYERS - 1:  # G8: the next opponent answers
                return (GanjifaState(trump, hands, captured, leader, (),
                                     Dukal(dukal.seat, dukal.cards, discards), "dukal",
                                     (seat + 1) % PLAYERS, tricks, dukals, voids), [event])
            # G8: the leader captures all 3k cards and leads again.
            won = dukal.cards | discards[0] | discards[1]
            captured = _adding(captured, dukal.seat, won)
            if dukals is not None:
                dukals = (*dukals, Dukal(dukal.seat, dukal.cards, discards))
            events = [event, {"type": "dukal_captured", "seat": dukal.seat,
                              "cards": bit_list(won)}]
            if hands[0] | hands[1] | hands[2]:  # G8: the leader leads again
                return GanjifaState(trump, hands, captured, dukal.seat, (), None, "play",
                                    dukal.seat, tricks, dukals, voids), events
            new = GanjifaState(trump, hands, captured, dukal.seat, (), None, "over", None,
                               tricks, dukals, voids)  # G9
        events.append({"type": "deal_over", "settlement": _settlement(new)})
        return new, events

    def settlement(self, state: GanjifaState) -> dict | None:
        if state.phase != "over":
            return None
        return _settlement(state)

    # -- what a seat sees ----------------------------------------------------------

    def observe(self, state: GanjifaState, seat: int) -> View:
        """The seat's hand and everything played: the captured piles, the trick, a pending
        Dukal and its answers; the other two hands as counts. hidden = (hand 0, 1, 2)."""
        hands = [0] * PLAYERS
        hands[seat] = state.hands[seat]
        hidden = tuple(0 if s == seat else state.hands[s].bit_count() for s in range(PLAYERS))
        public = state._replace(hands=tuple(hands))
        return View(seat, public, hidden, state.phase, state.to_act)

    def sample(self, view: View, rng) -> GanjifaState:
        """The unseen cards dealt between the other two hands: a follower who did not
        follow the led suit lacks it, and lacks every suit it skipped on the way to the one
        it played unless it trumped (G6), in the trick in progress and in the completed
        tricks when the state gives them; before the opening lead the trump Raja is the
        leader's (G5)."""
        public = view.public
        seen = public.hands[0] | public.hands[1] | public.hands[2]
        seen |= public.captured[0] | public.captured[1] | public.captured[2]
        voids = public.voids
        allowed = [DECK.full & ~voids[0], DECK.full & ~voids[1], DECK.full & ~voids[2]]
        trick, trump = public.trick, public.trump
        for i, c in enumerate(trick):
            seen |= 1 << c
            if i:
                s = (public.leader + i) % PLAYERS
                allowed[s] &= ~SHOWN_VOID[trump][SUIT_OF[trick[0]]][SUIT_OF[c]]
        dukal = public.dukal
        if dukal is not None:
            seen |= dukal.cards
            for m in dukal.discards:
                seen |= m
        raja = 1 << RAJAS[trump]
        if opening(public) and not trick and dukal is None and not seen & raja:
            for s in range(PLAYERS):
                if s != public.leader:
                    allowed[s] &= ~raja  # G5: the holder of the trump Raja leads
        unseen = DECK.full & ~seen
        hidden = view.hidden
        first, second = (s for s in range(PLAYERS) if s != view.seat)
        # Two hands share the unseen cards: a card that only one of them may hold is that
        # one's, and the others go to the first hand as a uniform draw of the room left
        # there, the rest to the second: a uniform deal among those that fit the view.
        only = unseen & ~allowed[second]
        free = unseen & allowed[second] & allowed[first]
        room = hidden[first] - only.bit_count()
        if (hidden[view.seat] or unseen & ~allowed[first] & ~allowed[second]
                or room < 0 or room > free.bit_count()
                or hidden[first] + hidden[second] != unseen.bit_count()):
            dealt = deal_hidden(bit_list(unseen), list(hidden), allowed, rng)
            if dealt is None:
                raise NoWorldFits("no deal of the hidden cards fits this view")
            hands = tuple(public.hands[s] | dealt[s] for s in range(PLAYERS))
            return public._replace(hands=hands)
        pool = bit_list(free)
        if 2 * room <= len(pool):
            mine = only | mask_of(rng.sample(pool, room))
        else:
            mine = only | free & ~mask_of(rng.sample(pool, len(pool) - room))
        dealt = list(public.hands)
        dealt[first] |= mine
        dealt[second] |= unseen & ~mine
        return public._replace(hands=tuple(dealt))


GAME = Ganjifa()
