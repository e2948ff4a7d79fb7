"""A state read from its fields (`Tarot.build`): the fields as the state schema loads them,
what the auction and the plays say of them, and every rule block's checks."""

from __future__ import annotations

from typing import Any, NamedTuple

from rules.cards import mask_of
from rules.game import UNSET, InvalidState, Problem
from rules.tarot import checks
from rules.tarot.bidding import CHIEN_TAKEN, auction
from rules.tarot.call import CALLING, partner_of
from rules.tarot.cards import TRUMPS
from rules.tarot.checks import Plays, Tricks
from rules.tarot.deal import COUNTS, Count
from rules.tarot.ecart import chien_problems, ecart_problems


class Fields(NamedTuple):
    """A state's fields as API.md's JSON state names them: cards as deck indices, a play as
    (seat, card), a past trick as (plays, winner), a poignée as (seat, cards); the derived
    ones UNSET when not given, checked when given. The count of players is the count of
    hands (T18)."""

    dealer: int
    hands: list[list[int]]
    chien: list[int]
    chien_shown: list[int]
    bids: list[str]
    ecart: list[int]
    chelem: bool | None
    poignees: list[tuple[int, list[int]]]
    trick: Plays
    tricks: Tricks
    taker: Any = UNSET
    contract: Any = UNSET
    called: Any = UNSET
    partner: Any = UNSET
    phase: Any = UNSET
    to_act: Any = UNSET
    result: Any = UNSET


class Reading(NamedTuple):
    """What the auction, the call and the plays say, read once for every check."""

    sizes: Count  # the deal's sizes for its count of players (T18)
    called: int | None  # the called card (T22), None with no call
    spoken: tuple[str, ...]  # the bids, one a seat at most
    taker: int | None
    contract: str | None
    stage: str  # how far the deal has come (checks.stage_of)
    played: list[int]  # each seat's cards played, a mask a seat
    played_count: list[int]
    hand_masks: tuple[int, ...]
    held: list[int]  # each seat's hand with its cards played
    dealt: list[int]  # each seat's hand as dealt
    partner: int | None
    leader: int  # the seat that led the deal's first trick


def read(f: Fields) -> Reading:
    """The auction, the call and the plays; InvalidState at once when a seat is past the
    table, or the called card of a five-player deal is missing, which no other check can
    read past."""
    n = len(f.hands)
    problems = checks.seat_problems(n, f.dealer, f.trick, f.tricks, f.poignees)
    if f.called is UNSET and n == CALLING:
        problems.append(Problem("called", "tarot_called_missing"))
    if problems:
        raise InvalidState(problems)
    called = None if f.called is UNSET else f.called
    spoken = tuple(f.bids[:n])
    taker, contract = auction(f.dealer, spoken, n)
    stage = checks.stage_of(contract, called, n, f.chelem, f.ecart)
    played, played_count = checks.played(f.trick, f.tricks, n)
    hand_masks = checks.mask_list(f.hands)
    held = [hand_masks[s] | played[s] for s in range(n)]
    dealt = checks.dealt_hands(held, taker, contract in CHIEN_TAKEN and stage != "call",
                               mask_of(f.ecart), mask_of(f.chien_shown))
    partner = None if taker is None or called is None else partner_of(dealt, taker, called)
    return Reading(COUNTS[n], called, spoken, taker, contract, stage, played, played_count,
                   hand_masks, held, dealt, partner,
                   checks.first_leader(f.dealer, taker, f.chelem, n))


def rule_problems(f: Fields, r: Reading) -> list[Problem]:
    """The piles (T1, T18), the auction (T4), the tricks (T9-T12), the call (T22), the chien
    and the écart (T5, T20), the chelem (T7), the hands' sizes, the poignées (T8) and the
    petit sec (T3)."""
    n = len(f.hands)
    problems = checks.pile_problems(f.hands, f.chien, f.ecart, f.trick, f.tricks)
    problems += checks.bidding_problems(f.bids, n)
    problems += checks.trick_problems(r.leader, r.taker, r.partner, f.trick, f.tricks, n)
    problems += checks.call_problems(n, r.stage, r.called,
                                     0 if r.taker is None else r.dealt[r.taker])
    # The chien stays aside until the call is made (T22).
    shown_contract = r.contract if r.stage != "call" else None
    problems += chien_problems(shown_contract, f.chien, f.chien_shown, r.sizes.chien)
    taker_cards = 0 if r.taker is None else r.held[r.taker] | mask_of(f.ecart)
    problems += ecart_problems(shown_contract, taker_cards, f.chien_shown, f.ecart,
                               r.sizes.chien)
    problems += checks.chelem_problems(r.stage, f.chelem, f.poignees, f.trick, f.tricks)
    problems += checks.hand_size_problems(r.stage, r.taker, f.hands, r.played_count, r.sizes)
    problems += checks.poignee_problems(f.poignees, r.held, mask_of(f.ecart) & TRUMPS, r.taker,
                                        r.played_count, not f.tricks,
                                        (leader_now(f, r) + len(f.trick)) % n)
    problems += checks.petit_sec_problems(r.dealt, annulled_here=not r.spoken)
    if not problems:  # the replay needs sound piles and plays
        problems = checks.follow_problems(r.hand_masks, f.trick, f.tricks, r.called)
    return problems


def leader_now(f: Fields, r: Reading) -> int:
    """The seat that led the trick under way: the last trick's winner, or the first
    leader."""
    return f.tricks[-1][1] if f.tricks else r.leader


def given_problems(f: Fields, r: Reading) -> list[Problem]:
    """The derived `taker`, `contract` and `partner`, when given, agree with the state."""
    # Each code written out, so that the catalogues' check finds it (tests/test_languages).
    problems = []
    if f.taker is not UNSET and f.taker != r.taker:
        problems.append(Problem("taker", "tarot_taker", {"now": r.taker, "given": f.taker}))
    if f.contract is not UNSET and f.contract != r.contract:
        problems.append(Problem("contract", "tarot_contract",
                                {"now": r.contract, "given": f.contract}))
    if f.partner is not UNSET and f.partner != r.partner:
        problems.append(Problem("partner", "tarot_partner",
                                {"now": r.partner, "given": f.partner}))
    return problems
