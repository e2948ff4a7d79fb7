"""`club` (Tarot): a rule-based player written from what French club guides publish, not
from this project's levels, so that the strong level meets a Tarot player nobody here
designed or tuned.

- **The bid** (T4): Noël Chavey's barème (*Le jeu de tarot*, Hatier 1986, as Tarot clubs
  reprint it): the 21 10, the Excuse 8, the Petit 0/5/7/9 as the fifth, sixth or a longer
  trump; 2 a trump (the bouts included) from five trumps up; 2 more a major trump (16 to 21)
  and 1 more a major in a run; 10 a King with its Queen (the marriage), 6 a King alone, 3 a
  Queen alone, 2 a Knight, 1 a Jack; 5, 7, 9 a long suit of 5, 6, 7+ cards; for a contract
  above the garde, 6 a void and 3 a singleton. Under 40 pass, 40–55 prise, 56–70 garde,
  71–80 garde sans, over 80 garde contre; a higher bid already made, pass. The barème counts
  a four-player hand of 18 cards: other hands (T19) are counted as 18 / their size.
- **The call** (T22): the King of a suit in which it holds the Queen (the marriage is then
  the camp's), else of its longest suit; a lower court the same way once it holds every King.
- **The écart** (T5): never a King or a trump unless the rules force one; a short suit
  without its King emptied to make a void (a cut), then the unprotected honours, then the
  smallest cards.
- **The play** (T9–T12): the taker draws trumps while it holds more than the others may,
  else cashes its Kings and plays its long suit; a defender leads the suit the taker has
  shown void in (making it cut), else cashes a King, else leads its longest suit low. Second
  hand: a trick its camp holds, with nobody of the other camp left to play, is loaded with
  points ("charger"); a trick the other camp holds is won with the cheapest card that wins,
  else given the least points (the Excuse, rather than a Queen or a King). The Petit is
  played only when its camp keeps the trick or it is forced; the Excuse never waits for the
  last trick (T12). A poignée is shown by the taker only; no chelem is announced.

It reads only its view, as a player would: `move(game, view, rng)`."""

from __future__ import annotations

import random

from rules.cards import bit_list
from rules.game import Move, Template, View
from rules.tarot import (
    BID_RANK,
    BIDS,
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    HALF_POINTS,
    KINGS,
    MONDE,
    PETIT,
    PETIT_BIT,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_SUIT,
    TRUMPS,
    UNKNOWN,
    callable_cards,
    led_card,
    playable_now,
    top_trump,
    void_shown,
)

QUEEN, KNIGHT, JACK, KING = 12, 11, 10, 13  # ranks within a suit of 14 (T1)
MAJOR = FIRST_TRUMP + 15  # the 16 of trumps
BAREME_HAND = 18  # the barème's hand: four players (T2)
TRUMP_CARDS = frozenset(range(FIRST_TRUMP, EXCUSE))
# (lowest points, contract), highest first.
THRESHOLDS = ((81, "garde_contre"), (71, "garde_sans"), (56, "garde"), (40, "prise"))


def chavey(hand: int) -> int:
    """Chavey's points for `hand`, before the distribution counted above a garde."""
    trumps = hand & (TRUMPS | EXCUSE_BIT)
    n = trumps.bit_count()
    points = 10 * (hand >> MONDE & 1) + 8 * (hand >> EXCUSE & 1)
    if hand & PETIT_BIT:
        points += 0 if n < 5 else 5 if n == 5 else 7 if n == 6 else 9
    if n > 4:
        points += 2 * n
    majors = [t for t in range(MAJOR, MONDE + 1) if hand >> t & 1]
    points += 2 * len(majors)
    points += sum(1 for t in majors if hand >> (t - 1) & 1 and t - 1 >= MAJOR
                  or hand >> (t + 1) & 1 and t + 1 <= MONDE)
    return points + sum(suit_points(hand, s) for s in range(4))


def suit_points(hand: int, s: int) -> int:
    """Chavey's points for the hand's suit `s`: its honours and its length."""
    base = s * 14
    suit = hand & SUIT_MASK[s]
    king, queen = suit >> (base + KING) & 1, suit >> (base + QUEEN) & 1
    points = 10 if king and queen else 6 if king else 3 if queen else 0
    points += 2 * (suit >> (base + KNIGHT) & 1) + (suit >> (base + JACK) & 1)
    length = suit.bit_count()
    return points + (9 if length >= 7 else 7 if length == 6 else 5 if length == 5 else 0)


def distribution(hand: int) -> int:
    """The barème's extra for a contract above the garde: a void 6, a singleton 3."""
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    return sum(6 if n == 0 else 3 if n == 1 else 0 for n in lengths)


def club_bid(hand: int, bids) -> str:
    scale = BAREME_HAND / hand.bit_count()
    points = chavey(hand) * scale
    if points >= 56:
        points += distribution(hand) * scale
    highest = max((BID_RANK[b] for b in bids), default=0)
    for lowest, contract in THRESHOLDS:
        if points >= lowest:
            return contract if BID_RANK[contract] > highest else BIDS[0]
    return BIDS[0]


def club_call(hand: int) -> int:
    """T22: the callable card whose suit holds its next court down, else the longest."""
    def weight(c: int) -> tuple[int, int]:
        suit = hand & SUIT_MASK[SUIT_OF[c]]
        return (suit >> (c - 1) & 1, suit.bit_count())
    return max(bit_list(callable_cards(hand)), key=weight)


def club_ecart(template: Template, hand: int) -> tuple[int, ...]:
    """T5: the forced cards, then voids made of short suits without their King, then the
    honours of suits without their King, then the smallest cards under a King."""
    chosen = list(template.must_include)
    room = template.count - len(chosen)
    pool = set(template.choose_from)
    if pool & TRUMP_CARDS:  # a shortfall of plain cards: the lowest trumps fill it
        return (*chosen, *sorted(pool)[:room])
    plain = [s for s in range(4) if not hand & KINGS & SUIT_MASK[s]]
    for s in sorted(plain, key=lambda s: (hand & SUIT_MASK[s]).bit_count()):
        suit = [c for c in pool if SUIT_OF[c] == s]
        if suit and len(suit) <= room:
            chosen += suit
            room -= len(suit)
            pool -= set(suit)
    # Honours that no King guards would fall to a higher card: saved in the écart first.
    # Under a King, the smallest cards go and the honours stay with it.
    rest = sorted(pool, key=lambda c: (0, -HALF_POINTS[c], c) if SUIT_OF[c] in plain
                  else (1, HALF_POINTS[c], c))
    return (*chosen, *rest[:room])


def allies(public, seat: int) -> int:
    """The seats of the seat's camp as far as it knows (T22): an unknown partner leaves a
    defender counting every seat but the taker."""
    taker, partner = public.taker, public.partner
    n = len(public.hands)
    if seat in (taker, partner):
        return (1 << taker) | (1 << partner if partner is not None and partner >= 0 else 0)
    camp = (1 << n) - 1 & ~(1 << taker)
    if partner is not None and partner != UNKNOWN:
        camp &= ~(1 << partner)
    return camp


def shown_voids(public) -> list[int]:
    """Each seat's cards it has shown it cannot hold (T9 read backwards)."""
    n = len(public.hands)
    lacks = [0] * n
    plays = [(leader, cards) for leader, cards, _ in public.tricks]
    plays.append((public.leader, public.trick))
    for leader, cards in plays:
        for j, c in enumerate(cards):
            lacks[(leader + j) % n] |= void_shown(cards[:j], c)
    return lacks


def winning(trick) -> int:
    """The index in `trick` of the card that holds it now (T10)."""
    top = top_trump(trick)
    if top >= 0:
        return trick.index(top)
    led = led_card(trick)
    if led < 0:
        return 0
    best = max(c for c in trick if SUIT_OF[c] == SUIT_OF[led])
    return trick.index(best)


def beats(card: int, best: int) -> bool:
    if card == EXCUSE:
        return False
    if SUIT_OF[card] == TRUMP_SUIT:
        return SUIT_OF[best] != TRUMP_SUIT or card > best
    return SUIT_OF[card] == SUIT_OF[best] and card > best


def points(c: int) -> int:
    return HALF_POINTS[c]


def club_lead(public, seat: int, hand: int, cards: list[int]) -> int:
    plain = [c for c in cards if c < FIRST_TRUMP]
    trumps = [c for c in cards if c in TRUMP_CARDS]
    if not plain:
        return min((c for c in trumps if c != PETIT), default=cards[0])
    if seat == public.taker:
        return taker_lead(public, hand, plain, trumps)
    lacks = shown_voids(public)[public.taker]
    cut = [c for c in plain if lacks & SUIT_MASK[SUIT_OF[c]] and not lacks & TRUMPS]
    if cut:
        return min(cut, key=points)  # the taker must cut
    return king_or_long_suit(hand, plain)


def taker_lead(public, hand: int, plain: list[int], trumps: list[int]) -> int:
    """The taker looks for the called card, draws the trumps still out while it holds
    more, then leads a King or its longest suit."""
    called = public.called
    if called is not None and public.partner == UNKNOWN:
        looking = [c for c in plain if SUIT_OF[c] == SUIT_OF[called]]
        if looking:
            return min(looking)  # T22: the called card may win it
    gone = sum(1 for _, cs, _ in public.tricks for c in cs if c in TRUMP_CARDS)
    out = 21 - len(trumps) - gone - (public.ecart & TRUMPS).bit_count()
    if len(trumps) > out > 0:
        return min((c for c in trumps if c != PETIT), default=trumps[0])
    return king_or_long_suit(hand, plain)


def king_or_long_suit(hand: int, plain: list[int]) -> int:
    """A King, else the lowest card of the longest suit it may lead (T23 bars the called
    suit from the first lead)."""
    kings = [c for c in plain if c % 14 == KING]
    if kings:
        return kings[0]
    lengths = {SUIT_OF[c]: (hand & SUIT_MASK[SUIT_OF[c]]).bit_count() for c in plain}
    longest = max(lengths, key=lambda s: (lengths[s], s))
    return min(c for c in plain if SUIT_OF[c] == longest)


def club_follow(public, seat: int, cards: list[int]) -> int:
    n = len(public.hands)
    trick, leader = public.trick, public.leader
    camp = allies(public, seat)
    best_i = winning(trick)
    ours = camp >> ((leader + best_i) % n) & 1
    others_after = any(not camp >> (leader + j) % n & 1 for j in range(len(trick) + 1, n))
    if EXCUSE in cards and bin(public.hands[seat]).count("1") == 2:
        return EXCUSE  # T12: never kept for the last trick (the last but one)
    real = [c for c in cards if c != EXCUSE] or cards
    if ours and not others_after:
        return camp_keeps(real)
    if ours:
        safe = [c for c in real if c != PETIT] or real
        return min(safe, key=lambda c: (points(c), c))
    return take_or_throw(real, EXCUSE in cards, trick[best_i], others_after)


def take_or_throw(real: list[int], excuse: bool, best: int, others_after: bool) -> int:
    """The other camp holds the trick: the cheapest card that takes it (the Petit when no
    other camp's seat plays after), else the cheapest card, or the Excuse rather than a
    Queen or a King."""
    winners = [c for c in real if beats(c, best)]
    if winners:
        if not others_after and PETIT in winners:
            return PETIT
        safe = [c for c in winners if c != PETIT] or winners
        return min(safe, key=lambda c: (c in TRUMP_CARDS, c))
    cheapest = min((c for c in real if c != PETIT), key=points, default=real[0])
    if excuse and points(cheapest) >= 7:
        return EXCUSE  # a Queen or a King would go to the other camp
    return cheapest


def camp_keeps(real: list[int]) -> int:
    """The camp keeps the trick: the Petit is saved, or points go on it."""
    if PETIT in real:
        return PETIT
    if all(c in TRUMP_CARDS for c in real):
        return min(real)  # forced to trump: the trick is the camp's already
    return max(real, key=lambda c: (points(c), -c))


def club_tarot(game, view: View, rng: random.Random) -> Move:
    public, seat = view.public, view.seat
    hand = public.hands[seat]
    phase = view.phase
    if phase == "bidding":
        return Move(seat, "bid", contract=club_bid(hand, public.bids))
    if phase == "call":
        return Move(seat, "call", card=club_call(hand))
    if phase == "discard":
        template = game.discard_template(public)
        return Move(seat, "discard", cards=club_ecart(template, hand))
    if phase == "chelem":
        return Move(seat, "chelem", announce=False)
    if seat == public.taker and not public.tricks:
        shows = [m for m in game.legal_moves(public) if m.action == "poignee"]
        if shows:
            return max(shows, key=lambda m: len(m.cards or ()))
    cards = bit_list(playable_now(public, seat))
    if led_card(public.trick) < 0:  # T9: after an Excuse led, the next card leads
        return Move(seat, "play", card=club_lead(public, seat, hand, cards))
    return Move(seat, "play", card=club_follow(public, seat, cards))
