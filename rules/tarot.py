"""French Tarot for four players, one deal: rules T1–T17 of RULES.md.

Cards are deck indices: the four suits 0–55 (14 cards each, low to high, so that within a
suit a higher index is a higher card), the trumps T1–T21 at 56–76 (again in order), the
Excuse at 77. Card points are counted in half points (T13) so that every sum is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from rules.cards import Card, Deck, bit_list, mask_of, move_chunks
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
from rules.texts import ENGLISH, card_name, english, in_digits

SUITS = "SHDC"
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K")  # T1
# T1: the French pattern prints its courts as Valet, Cavalier, Dame, Roi.
LABELS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "D", "R")
# T13 in half points, by suit rank: every pip 1/2, J 3/2, C 5/2, Q 7/2, K 9/2.
RANK_HALF_POINTS = (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9)

PLAYERS = 4
HAND_SIZE = 18  # T2
CHIEN_SIZE = 6  # T2, T5
TRICKS = 18  # T9: one card per player per trick, 18 cards each
POIGNEE_SIZES = {10: "simple", 13: "double", 15: "triple"}  # T8
POIGNEE_VALUES = {"simple": 20, "double": 30, "triple": 40}  # T8
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")  # T4, lowest first
CHIEN_TAKEN = ("prise", "garde")  # T5: the contracts in which the taker takes the chien
BIDS = ("pass", *CONTRACTS)
BID_RANK = {b: i for i, b in enumerate(BIDS)}
MULTIPLIERS = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}  # T4
TARGETS = (56, 51, 41, 36)  # T14, by the number of bouts
CAMPS = ("defense", "taker")  # indexed by "is this the taker's camp"

FIRST_TRUMP = 56
PETIT = FIRST_TRUMP  # T1
MONDE = FIRST_TRUMP + 20  # T21
EXCUSE = 77
TRUMP_SUIT, EXCUSE_SUIT = 4, 5


def name_card(catalogue: dict[str, str], suit: str, rank: str) -> str:
    """A card's name in a catalogue's words: the trumps by number, the Excuse by name."""
    if suit == "T":
        return catalogue["tarot.trump"].format(n=in_digits(catalogue, rank))
    if suit == "EX":
        return catalogue["tarot.excuse"]
    return card_name(catalogue, "tarot", suit, rank)


def _card(i: int) -> Card:
    if i < FIRST_TRUMP:
        s, r = SUITS[i // 14], i % 14
        return Card(RANKS[r] + s, s, RANKS[r], name_card(ENGLISH, s, RANKS[r]), LABELS[r],
                    RANK_HALF_POINTS[r] / 2)
    if i < EXCUSE:
        n = i - FIRST_TRUMP + 1
        return Card(f"T{n}", "T", str(n), name_card(ENGLISH, "T", str(n)), str(n),
                    4.5 if n in (1, 21) else 0.5)
    # The Tarot Nouveau prints a star in the Excuse's corners.
    return Card("EX", "EX", "EX", name_card(ENGLISH, "EX", "EX"), "★", 4.5)


DECK = Deck(_card(i) for i in range(78))
SUIT_OF = tuple(i // 14 if i < FIRST_TRUMP else TRUMP_SUIT if i < EXCUSE else EXCUSE_SUIT
                for i in range(78))
HALF_POINTS = tuple(round((c.points or 0) * 2) for c in DECK.cards)
SUIT_MASK = tuple(mask_of(range(s * 14, s * 14 + 14)) for s in range(4))
TRUMPS = mask_of(range(FIRST_TRUMP, EXCUSE))
EXCUSE_BIT = 1 << EXCUSE
PETIT_BIT = 1 << PETIT
BOUTS = mask_of((PETIT, MONDE, EXCUSE))  # T1
KINGS = mask_of(s * 14 + 13 for s in range(4))
ORDINARY = mask_of(range(FIRST_TRUMP)) & ~KINGS  # T5: suit cards other than Kings
# ABOVE[t]: the trumps higher than trump t (T9, overtrumping).
ABOVE = tuple(TRUMPS & ~((2 << t) - 1) if t >= FIRST_TRUMP else TRUMPS for t in range(78))

# Every possible move, built once: listing then only picks from tables.
PLAY = tuple(tuple(Move(s, "play", card=c) for c in range(78)) for s in range(PLAYERS))
PLAYS = tuple(move_chunks(78, lambda c, s=s: PLAY[s][c]) for s in range(PLAYERS))
BID_MOVES = tuple(tuple(Move(s, "bid", contract=b) for b in BIDS) for s in range(PLAYERS))
# BID_CHOICES[seat][highest]: pass, then every contract above the highest bid (T4).
BID_CHOICES = tuple(
    tuple([BID_MOVES[s][0], *BID_MOVES[s][h + 1:]] for h in range(len(BIDS)))
    for s in range(PLAYERS))
CHELEM_MOVES = tuple((Move(s, "chelem", announce=False), Move(s, "chelem", announce=True))
                     for s in range(PLAYERS))

_new = tuple.__new__


def listed_plays(seat: int, mask: int) -> list[Move]:
    """The play moves of a 78-card mask: seven 12-bit table lookups, unrolled."""
    c = PLAYS[seat]
    return [*c[0][mask & 0xFFF], *c[1][mask >> 12 & 0xFFF], *c[2][mask >> 24 & 0xFFF],
            *c[3][mask >> 36 & 0xFFF], *c[4][mask >> 48 & 0xFFF], *c[5][mask >> 60 & 0xFFF],
            *c[6][mask >> 72]]


class TarotState(NamedTuple):
    dealer: int
    hands: tuple[int, ...]  # bitmasks, one a seat
    chien: int  # bitmask: the cards still set aside (T2, T6)
    chien_shown: int  # bitmask: the chien revealed in a prise or garde (T5)
    bids: tuple[str, ...]  # in speaking order from (dealer + 1) % 4
    taker: int | None  # derived from bids once all four have spoken
    contract: str | None
    ecart: int  # bitmask (T5)
    chelem: bool | None  # None until the taker decides (T7)
    poignees: tuple[tuple[int, int], ...]  # (seat, bitmask) in declaration order (T8)
    trick: tuple[int, ...]  # the trick in progress, in play order
    leader: int  # the seat that leads (or led) the trick in progress
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]  # (leader, cards, winner)
    phase: str  # bidding | discard | chelem | play | over
    to_act: int | None


# -- rule helpers shared by play, verify, build and the AI --------------------------------

def led_card(trick) -> int:
    """T9: the card that sets the suit to follow; an Excuse led hands that to the next card.
    -1 while no such card is on the table."""
    for c in trick:
        if c != EXCUSE:
            return c
    return -1


def top_trump(trick) -> int:
    top = -1
    for c in trick:
        if FIRST_TRUMP <= c < EXCUSE and c > top:
            top = c
    return top


def playable(hand: int, trick) -> int:
    """T9: the cards of `hand` that may go on `trick`."""
    if not trick:
        return hand
    led = trick[0]
    if led == EXCUSE:
        if len(trick) == 1:
            return hand
        led = trick[1]
    suit = SUIT_OF[led]
    excuse = hand & EXCUSE_BIT
    if suit != TRUMP_SUIT:
        follow = hand & SUIT_MASK[suit]
        if follow:
            return follow | excuse
    trumps = hand & TRUMPS
    if not trumps:
        return hand
    top = -1
    for c in trick:
        if FIRST_TRUMP <= c < EXCUSE and c > top:
            top = c
    if top >= 0:
        over = trumps & ABOVE[top]
        if over:
            return over | excuse
    return trumps | excuse


def follow_reason(seat: int, hand: int, trick, card: int) -> Reason | None:
    """T9 as a reason: why `card` may not go on `trick`, or None. Agrees with `playable`."""
    if card == EXCUSE:
        return None
    led = led_card(trick)
    if led < 0:
        return None
    suit = SUIT_OF[led]
    card_suit = SUIT_OF[card]
    if suit != TRUMP_SUIT:
        if card_suit == suit:
            return None
        if hand & SUIT_MASK[suit]:
            return Reason("must_follow_suit", "T9", {"seat": seat})
    trumps = hand & TRUMPS
    if not trumps:
        return None
    if card_suit != TRUMP_SUIT:
        # Trumps led are followed with trumps; a void suit is answered with one.
        return Reason("must_follow_suit" if suit == TRUMP_SUIT else "must_trump", "T9",
                      {"seat": seat})
    top = top_trump(trick)
    if top > card and trumps & ABOVE[top]:
        return Reason("must_overtrump", "T9", {"seat": seat, "highest": DECK.codes[top]})
    return None


def trick_winner(cards, leader: int, taker: int | None, earlier_winners) -> int:
    """T10: the seat that wins a complete trick; T12's exception on the 18th trick: a camp
    that won every earlier trick and leads the Excuse to the last one wins it."""
    if cards[0] == EXCUSE and len(earlier_winners) == TRICKS - 1:
        camp = leader == taker
        if all((w == taker) == camp for w in earlier_winners):
            return leader
    top = top_trump(cards)
    if top >= 0:
        best = top
    else:
        led = led_card(cards)
        suit = SUIT_OF[led]
        best = led
        for c in cards:
            if SUIT_OF[c] == suit and c > best:
                best = c
    return (leader + cards.index(best)) % PLAYERS


def _void_shown(before, card: int) -> int:
    """T9 read backwards: the cards a player cannot have held when playing `card` on the
    cards `before` it in the trick — the led suit it did not follow, the trumps it did not
    play, the trumps above the highest when it did not overtrump."""
    if card == EXCUSE:
        return 0
    led = led_card(before)
    if led < 0:
        return 0
    suit, card_suit = SUIT_OF[led], SUIT_OF[card]
    if suit == card_suit and suit != TRUMP_SUIT:
        return 0
    lacks = SUIT_MASK[suit] if suit != TRUMP_SUIT else 0
    if card_suit != TRUMP_SUIT:
        return lacks | TRUMPS
    top = top_trump(before)
    return lacks | (ABOVE[top] if top > card else 0)


def petit_sec(hand: int) -> bool:
    """T3: the Petit is the only trump and the Excuse is not held."""
    return hand & TRUMPS == PETIT_BIT and not hand & EXCUSE_BIT


def poignee_pool(state: TarotState, seat: int) -> int:
    """T8: the trumps a seat may show: its hand's, and for the taker the trumps it was forced
    to lay in the écart (public anyway)."""
    pool = state.hands[seat] & TRUMPS
    if seat == state.taker:
        pool |= state.ecart & TRUMPS
    return pool


def poignee_problem(cards, pool: int, excuse_held: bool) -> dict[str, Any] | None:
    """T8: why `cards` is not a poignée that a player with these trumps may show, as the
    values of a reason or a problem (`why` names the entry `why.<code>`); None if it is."""
    shown = mask_of(cards)
    if shown.bit_count() != len(cards):
        return {"why": "poignee.repeated"}
    if len(cards) not in POIGNEE_SIZES:
        return {"why": "poignee.size", "count": len(cards)}
    trumps = shown & ~EXCUSE_BIT
    if trumps & ~TRUMPS:
        return {"why": "poignee.not_trumps"}
    if trumps & ~pool:
        return {"why": "poignee.not_held"}
    if shown & EXCUSE_BIT:
        if not excuse_held:
            return {"why": "poignee.no_excuse"}
        if trumps != pool:
            return {"why": "poignee.excuse_early"}
    return None


def canonical_poignees(pool: int, excuse_held: bool) -> list[tuple[int, ...]]:
    """T8 [decided]: for each level the player can show, the lowest trumps ascending, with the
    Excuse last when it stands in for the missing one."""
    trumps = bit_list(pool)
    n = len(trumps)
    out = []
    for size in POIGNEE_SIZES:
        if n >= size:
            out.append(tuple(trumps[:size]))
        elif n == size - 1 and excuse_held:
            out.append((*trumps, EXCUSE))
    return out


def _repeated(cards) -> int:
    seen = set()
    for c in cards:
        if c in seen:
            return c
        seen.add(c)
    raise ValueError("no card repeated")


def _highest_bid(bids) -> tuple[int, int | None]:
    """T4: the rank of the highest bid so far and its index in speaking order."""
    best, at = 0, None
    for i, b in enumerate(bids):
        r = BID_RANK[b]
        if r > best:
            best, at = r, i
    return best, at


# -- settlement -------------------------------------------------------------------------

def score(contract: str, taker: int, bouts: int, half_points: int,
          petit_au_bout: str | None = None, poignees=(),
          chelem_announced: bool = False, chelem_made_by: str | None = None) -> dict:
    """T14–T17, the settlement of one deal from its score sheet: a pure function used both
    for a deal played here and for `POST /v1/games/tarot/settlement`.

    `half_points` is the taker's camp's card points doubled (T13 counts halves);
    `petit_au_bout` and `chelem_made_by` name a camp; `poignees` holds (label, level) where
    label is merged into the entry (`{"seat": 2}` or `{"declared_by": "defense"}`)."""
    multiplier = MULTIPLIERS[contract]
    target = TARGETS[bouts]
    made = half_points >= 2 * target
    # T14 (FFT): a leftover half point goes to the side that wins, so every figure is whole.
    counted = (half_points + 1) // 2 if made else half_points // 2
    base = (25 + abs(counted - target)) * multiplier
    if not made:
        base = -base
    per_defender = base
    winner = "taker" if made else "defense"

    bonus_petit = None
    if petit_au_bout is not None:  # T15
        value = 10 * multiplier
        bonus_petit = {"camp": petit_au_bout, "value": value}
        per_defender += value if petit_au_bout == "taker" else -value

    handfuls = []
    for label, level in poignees:  # T17.3: to the camp that won the contract, not multiplied
        value = POIGNEE_VALUES[level]
        handfuls.append({**label, "level": level, "value": value, "camp": winner})
        per_defender += value if made else -value

    chelem = None
    if chelem_announced or chelem_made_by is not None:  # T16, not multiplied
        if chelem_announced:
            # [decided] an announced chelem that the taker's camp does not make fails,
            # whoever else won tricks: 200 to the defenders, nothing more.
            camp, value = ("taker", 400) if chelem_made_by == "taker" else ("defense", 200)
        else:
            assert chelem_made_by is not None  # a chelem made unannounced
            camp, value = chelem_made_by, 200
        chelem = {"announced": bool(chelem_announced), "made_by": chelem_made_by,
                  "camp": camp, "value": value}
        per_defender += value if camp == "taker" else -value

    scores = [-per_defender] * PLAYERS
    scores[taker] = 3 * per_defender  # T17: the four scores sum to zero
    return {
        "taker": taker,
        "contract": contract,
        "multiplier": multiplier,
        "bouts": bouts,
        "target": target,
        "points": half_points // 2 if half_points % 2 == 0 else half_points / 2,
        "made": made,
        "base": base,
        "petit_au_bout": bonus_petit,
        "poignees": handfuls,
        "chelem": chelem,
        "per_defender": per_defender,
        "scores": scores,
    }


def camp_cards(state: TarotState) -> tuple[int, int, int]:
    """The taker's camp at the end of a played deal: (half points, bouts, cards as a mask)
    after T6, T11 and T12. The defence holds the rest of the 91 points."""
    taker = state.taker
    half = 0
    won = 0
    if state.contract == "garde_sans":
        won |= state.chien  # T6
    elif state.contract in ("prise", "garde"):
        won |= state.ecart  # T5
    for k, (leader, cards, winner) in enumerate(state.tricks):
        winner_is_taker = winner == taker
        for i, c in enumerate(cards):
            if c != EXCUSE:
                if winner_is_taker:
                    won |= 1 << c
                continue
            owner_is_taker = (leader + i) % PLAYERS == taker
            if k < TRICKS - 1:
                # T11: the Excuse stays with its owner's camp; half a point changes hands.
                if owner_is_taker:
                    won |= EXCUSE_BIT
                if owner_is_taker != winner_is_taker:
                    half += 1 if winner_is_taker else -1
            elif winner == (leader + i) % PLAYERS:
                # T12's exception: the Excuse never wins a trick, so it won by a chelem.
                if owner_is_taker:
                    won |= EXCUSE_BIT
            elif not owner_is_taker:
                won |= EXCUSE_BIT  # T12: on the last trick it changes camp
    for c in bit_list(won):
        half += HALF_POINTS[c]
    return half, (won & BOUTS).bit_count(), won


def settle(state: TarotState) -> dict:
    """The settlement of a finished deal (API.md, "Settlements")."""
    if state.taker is None:
        # T3: no score. Petit sec is found at the deal, before any bid; else all passed.
        return {"annulled": "all_pass" if state.bids else "petit_sec", "scores": [0] * PLAYERS}
    taker = state.taker
    half, bouts, _ = camp_cards(state)
    tricks = state.tricks
    # T15: the last trick decides, or the 17th when a chelem was completed with the Excuse.
    last = tricks[-1]
    if last[1][0] == EXCUSE and last[2] == last[0]:
        last = tricks[-2]
    petit = None
    if PETIT in last[1]:
        petit = CAMPS[last[2] == taker]
    winners = {w == taker for _, _, w in tricks}
    made_by = CAMPS[winners.pop()] if len(winners) == 1 else None  # T16
    poignees = [({"seat": seat}, POIGNEE_SIZES[mask.bit_count()])
                for seat, mask in state.poignees]
    assert state.contract is not None  # a taker has a contract
    return score(state.contract, taker, bouts, half, petit, poignees, bool(state.chelem),
                 made_by)


# -- the checks of a state given as fields, one rule block each ---------------------------
# A play is (seat, card); a completed trick (plays, winner); a poignée (seat, cards). Each
# check returns its problems.

Plays = list[tuple[int, int]]
Tricks = list[tuple[Plays, int]]


def pile_problems(hands: list[list[int]], chien: list[int], ecart: list[int], trick: Plays,
                  tricks: Tricks) -> list[Problem]:
    """T1: all 78 cards exactly once across the piles."""
    def places() -> list[tuple[str, int]]:
        out = [p for s in range(PLAYERS) for p in placed(f"hands.{s}", hands[s])]
        out += placed("chien", chien) + placed("ecart", ecart)
        out += [(f"trick.{j}.card", c) for j, (_, c) in enumerate(trick)]
        for k, (plays, _) in enumerate(tricks):
            out += [(f"tricks.{k}.cards.{j}.card", c) for j, (_, c) in enumerate(plays)]
        return out

    piles = [*hands, chien, ecart, [c for _, c in trick],
             *([c for _, c in plays] for plays, _ in tricks)]
    return conservation_problems(DECK, piles, places)


def bidding_problems(bids: list[str]) -> list[Problem]:
    """T4: one bid per seat, each contract above every earlier one."""
    problems = []
    if len(bids) > PLAYERS:
        problems.append(Problem("bids", "tarot_bid_count", {"count": len(bids)}))
    highest = 0
    for i, b in enumerate(bids[:PLAYERS]):
        rank = BID_RANK[b]
        if rank and rank <= highest:
            problems.append(Problem(f"bids.{i}", "tarot_bid_low",
                                    {"bid": b, "highest": BIDS[highest]}))
        highest = max(highest, rank)
    return problems


def auction(dealer: int, bids: tuple[str, ...]) -> tuple[int | None, str | None]:
    """T4: the taker and the contract once every seat has bid; None while bidding lasts or
    when all passed (T3)."""
    _, at = _highest_bid(bids)
    if len(bids) < PLAYERS or at is None:
        return None, None
    return (dealer + 1 + at) % PLAYERS, bids[at]


def first_leader(dealer: int, taker: int | None, chelem: bool | None) -> int:
    """T7: the seat after the dealer leads the first trick, the taker when it announced a
    chelem."""
    return taker if chelem and taker is not None else (dealer + 1) % PLAYERS


def trick_problems(leader: int, taker: int | None, trick: Plays, tricks: Tricks
                   ) -> list[Problem]:
    """T9: 18 tricks of one card from each seat; T2, T10: each played in turn from its
    leader, the last winner; T10, T12: each won by the seat the rules say."""
    problems = []
    winners: list[int] = []
    if len(tricks) > TRICKS:
        problems.append(Problem("tricks", "tarot_trick_count", {"count": len(tricks)}))
    for k, (plays, winner) in enumerate(tricks):
        path = f"tricks.{k}.cards"
        if len(plays) != PLAYERS:
            problems.append(Problem(path, "tarot_trick_size", {"count": len(plays)}))
        problems += turn_problems(path, plays, leader)
        if len(plays) == PLAYERS:
            right = trick_winner(tuple(c for _, c in plays), leader, taker, winners)
            if winner != right:
                problems.append(Problem(f"tricks.{k}.winner", "tarot_trick_winner",
                                        {"winner": right, "given": winner}))
        winners.append(winner)
        leader = winner
    if len(trick) >= PLAYERS:
        problems.append(Problem("trick", "tarot_trick_open_size", {"count": len(trick)}))
    if trick and len(tricks) >= TRICKS:
        problems.append(Problem("trick", "tarot_trick_after_last"))
    problems += turn_problems("trick", trick, leader)
    return problems


def turn_problems(path: str, plays: Plays, leader: int) -> list[Problem]:
    """T2, T10: each card of a trick in turn from the trick's leader."""
    return [Problem(f"{path}.{j}.seat", "tarot_play_turn",
                    {"seat": seat, "expected": (leader + j) % PLAYERS})
            for j, (seat, _) in enumerate(plays) if seat != (leader + j) % PLAYERS]


def stage_of(contract: str | None, chelem: bool | None, ecart: list[int]) -> str:
    """The stage of the deal that the piles must fit: bidding until there is a taker, then
    the discard (T5, in a prise or garde), the chelem decision (T7), the play."""
    if contract is None:
        return "bidding"
    if contract in CHIEN_TAKEN and not ecart:
        return "discard"
    return "chelem" if chelem is None else "play"


def chien_problems(contract: str | None, chien: list[int], chien_shown: list[int]
                   ) -> list[Problem]:
    """T2, T5, T6: the chien stays aside, unseen, until a prise or garde shows it."""
    taken = contract in CHIEN_TAKEN
    problems = []
    want = 0 if taken else CHIEN_SIZE
    if len(chien) != want:
        problems.append(Problem("chien", "tarot_chien_size",
                                {"expected": want, "count": len(chien)}))
    want = CHIEN_SIZE if taken else 0
    if len(chien_shown) != want:
        problems.append(Problem("chien_shown", "tarot_chien_shown_size",
                                {"expected": want, "count": len(chien_shown)}))
    return problems


def ecart_problems(contract: str | None, taker_cards: int, chien_shown: list[int],
                   ecart: list[int]) -> list[Problem]:
    """T5: in a prise or garde the shown chien went to the taker, who laid six cards that
    are no King nor bout, trumps only to fill a shortfall of ordinary cards; T6: no écart
    otherwise. `taker_cards`: the taker's hand, écart and plays, its 24 cards."""
    if contract not in CHIEN_TAKEN:
        return [Problem("ecart", "tarot_ecart_unexpected")] if ecart else []
    codes = DECK.codes
    problems = [Problem(f"chien_shown.{i}", "tarot_chien_lost", {"card": codes[c]})
                for i, c in enumerate(chien_shown) if not taker_cards >> c & 1]
    if len(ecart) not in (0, CHIEN_SIZE):
        problems.append(Problem("ecart", "tarot_ecart_size", {"count": len(ecart)}))
    problems += [Problem(f"ecart.{i}", "tarot_ecart_forbidden", {"card": codes[c]})
                 for i, c in enumerate(ecart) if (KINGS | BOUTS) >> c & 1]
    needed = max(0, CHIEN_SIZE - (taker_cards & ORDINARY).bit_count())
    given = (mask_of(ecart) & TRUMPS).bit_count()
    if given > needed:
        problems.append(Problem("ecart", "tarot_ecart_trumps",
                                {"given": given, "needed": needed}))
    return problems


def chelem_problems(stage: str, chelem: bool | None, poignees: list, trick: Plays,
                    tricks: Tricks) -> list[Problem]:
    """T7: the taker decides on a chelem after the discard (or the bidding, in a garde sans
    or contre), and play starts only then."""
    problems = []
    if chelem is not None and stage in ("bidding", "discard"):
        problems.append(Problem("chelem", "tarot_chelem_early"))
    if stage != "play":
        for field, value in (("poignees", poignees), ("trick", trick), ("tricks", tricks)):
            if value:
                problems.append(Problem(field, "tarot_play_early"))
    return problems


def hand_size_problems(stage: str, taker: int | None, hands: list[list[int]],
                       played_count: list[int]) -> list[Problem]:
    """T2, T5, T9: 18 cards less those played; the taker holds 24 while discarding."""
    problems = []
    for s in range(PLAYERS):
        want = HAND_SIZE - played_count[s]
        if stage == "discard" and s == taker:
            want += CHIEN_SIZE
        if len(hands[s]) != want:
            problems.append(Problem(f"hands.{s}", "tarot_hand_size", {
                "seat": s, "count": len(hands[s]), "expected": want, "stage": stage}))
    return problems


def poignee_problems(poignees: list[tuple[int, list[int]]], held: list[int],
                     ecart_trumps: int, taker: int | None, played_count: list[int],
                     first_trick: bool, to_act: int) -> list[Problem]:
    """T8: each poignée valid for what the seat held (its hand and plays, the taker's
    écart trumps too), once per seat, and only once the seat came to its first card."""
    problems = []
    declared = set()
    for i, (seat, cards) in enumerate(poignees):
        if seat in declared:
            problems.append(Problem(f"poignees.{i}.seat", "tarot_poignee_twice",
                                    {"seat": seat}))
        declared.add(seat)
        pool = held[seat] & TRUMPS | (ecart_trumps if seat == taker else 0)
        flaw = poignee_problem(cards, pool, bool(held[seat] & EXCUSE_BIT))
        if flaw:
            problems.append(Problem(f"poignees.{i}.cards", "tarot_poignee_invalid", flaw))
        if not played_count[seat] and not (first_trick and seat == to_act):
            problems.append(Problem(f"poignees.{i}.seat", "tarot_poignee_early",
                                    {"seat": seat}))
    return problems


def dealt_hands(held: list[int], taker: int | None, contract: str | None, ecart: int,
                chien_shown: int) -> list[int]:
    """Each seat's 18 dealt cards: what it holds and played, and for a taker who took the
    chien, its écart in and the chien out (T2, T5)."""
    dealt = list(held)
    if taker is not None and contract in CHIEN_TAKEN:
        dealt[taker] = (dealt[taker] | ecart) & ~chien_shown
    return dealt


def petit_sec_problems(dealt: list[int], annulled_here: bool) -> list[Problem]:
    """T3: a petit sec in a dealt hand annuls the deal before any bid: only a state with
    no bid yet may show one (it is then over)."""
    if annulled_here:
        return []
    return [Problem(f"hands.{s}", "tarot_petit_sec", {"seat": s})
            for s in range(PLAYERS) if petit_sec(dealt[s])]


def follow_problems(hands: tuple[int, ...], trick: Plays, tricks: Tricks) -> list[Problem]:
    """T9: every card replayed against the hand its seat held then."""
    holding = list(hands)
    plays = [(f"tricks.{k}.cards.{j}.card", j, s, c)
             for k, (cards, _) in enumerate(tricks) for j, (s, c) in enumerate(cards)]
    plays += [(f"trick.{j}.card", j, s, c) for j, (s, c) in enumerate(trick)]
    before = []
    for _, _, s, c in reversed(plays):
        holding[s] |= 1 << c
        before.append(holding[s])
    before.reverse()
    problems = []
    table: list[int] = []
    for (path, j, s, c), hand in zip(plays, before, strict=True):
        if j == 0:
            table = []
        reason = follow_reason(s, hand, table, c)
        if reason is not None:
            problems.append(Problem(path, "tarot_play_illegal", {
                "card": DECK.codes[c], "reason": reason.code, **(reason.details or {})}))
        table.append(c)
    return problems


def _played(trick: Plays, tricks: Tricks) -> tuple[list[int], list[int]]:
    """Each seat's played cards (a mask) and their count."""
    masks, counts = [0] * PLAYERS, [0] * PLAYERS
    for plays in (*(p for p, _ in tricks), trick):
        for seat, c in plays:
            masks[seat] |= 1 << c
            counts[seat] += 1
    return masks, counts


# -- the game ---------------------------------------------------------------------------

class Tarot(Game):
    id = "tarot"
    name = english("game.tarot.name")
    players = PLAYERS
    summary = english("game.tarot.summary")
    deck = DECK
    deck_info = {
        "name": english("game.tarot.deck.name"),
        "size": 78,
        "origin": english("game.tarot.deck.origin"),
        "wikipedia": "https://en.wikipedia.org/wiki/French_tarot",
    }
    rules = tuple(f"T{i}" for i in range(1, 18))
    actions = ("bid", "discard", "chelem", "poignee", "play")
    ai_module = "rules.ai.tarot"

    def card_name(self, catalogue: dict[str, str], suit: str, rank: str) -> str:
        return name_card(catalogue, suit, rank)

    # -- dealing -----------------------------------------------------------------

    def deal_from(self, order: list[int], dealer: int = 3) -> TarotState:
        """T2: 18 cards to each seat in turn from the top, the last 6 to the chien.
        T3 [decided]: a petit sec is found here, before any bid, and annuls the deal."""
        hands = tuple(mask_of(order[HAND_SIZE * s:HAND_SIZE * s + HAND_SIZE])
                      for s in range(PLAYERS))
        chien = mask_of(order[HAND_SIZE * PLAYERS:])
        first = (dealer + 1) % PLAYERS
        annulled = any(petit_sec(h) for h in hands)
        return TarotState(dealer, hands, chien, 0, (), None, None, 0, None, (), (), first, (),
                          "over" if annulled else "bidding", None if annulled else first)

    # -- reading a state -----------------------------------------------------------

    def build(
        self,
        dealer: int,
        hands: list[list[int]],
        chien: list[int],
        chien_shown: list[int],
        bids: list[str],
        ecart: list[int],
        chelem: bool | None,
        poignees: list[tuple[int, list[int]]],
        trick: list[tuple[int, int]],
        tricks: list[tuple[list[tuple[int, int]], int]],
        taker: int | None = UNSET,
        contract: str | None = UNSET,
        phase: str = UNSET,
        to_act: int | None = UNSET,
        result: dict | None = UNSET,
    ) -> TarotState:
        """A state from its fields (cards as deck indices; a play is (seat, card), a past
        trick (plays, winner), a poignée (seat, cards)), or InvalidState with every problem
        found. Field paths match the JSON state of API.md."""
        problems = pile_problems(hands, chien, ecart, trick, tricks)
        problems += bidding_problems(bids)
        spoken = tuple(bids[:PLAYERS])
        taker_, contract_ = auction(dealer, spoken)
        leader = first_leader(dealer, taker_, chelem)
        problems += trick_problems(leader, taker_, trick, tricks)
        leader = tricks[-1][1] if tricks else leader
        stage = stage_of(contract_, chelem, ecart)
        played, played_count = _played(trick, tricks)
        hand_masks = tuple(mask_of(h) for h in hands)
        held = [hand_masks[s] | played[s] for s in range(PLAYERS)]
        problems += chien_problems(contract_, chien, chien_shown)
        taker_cards = 0 if taker_ is None else held[taker_] | mask_of(ecart)
        problems += ecart_problems(contract_, taker_cards, chien_shown, ecart)
        problems += chelem_problems(stage, chelem, poignees, trick, tricks)
        problems += hand_size_problems(stage, taker_, hands, played_count)
        problems += poignee_problems(poignees, held, mask_of(ecart) & TRUMPS, taker_,
                                     played_count, not tricks, (leader + len(trick)) % PLAYERS)
        dealt = dealt_hands(held, taker_, contract_, mask_of(ecart), mask_of(chien_shown))
        problems += petit_sec_problems(dealt, annulled_here=not spoken)
        if not problems:  # the replay needs sound piles and plays
            problems = follow_problems(hand_masks, trick, tricks)
        if problems:
            raise InvalidState(problems)
        state = self._state(dealer, hand_masks, chien, chien_shown, spoken, taker_, contract_,
                            ecart, chelem, poignees, trick, tricks, leader,
                            not spoken and any(map(petit_sec, dealt)))
        derived = derived_problems(self, state, phase, to_act, result)
        if taker is not UNSET and taker != taker_:
            derived.append(Problem("taker", "tarot_taker", {"now": taker_, "given": taker}))
        if contract is not UNSET and contract != contract_:
            derived.append(Problem("contract", "tarot_contract",
                                   {"now": contract_, "given": contract}))
        if derived:
            raise InvalidState(derived)
        return state

    @staticmethod
    def _state(dealer: int, hands: tuple[int, ...], chien: list[int], chien_shown: list[int],
               bids: tuple[str, ...], taker: int | None, contract: str | None,
               ecart: list[int], chelem: bool | None, poignees: list, trick: Plays,
               tricks: Tricks, leader: int, annulled: bool) -> TarotState:
        """The state of fields `build` found sound, with its phase and seat to act."""
        stage = stage_of(contract, chelem, ecart)
        to_act: int | None = (leader + len(trick)) % PLAYERS
        if annulled or (len(bids) == PLAYERS and taker is None):
            phase, to_act = "over", None  # T3
        elif stage == "bidding":
            phase, to_act = "bidding", (dealer + 1 + len(bids)) % PLAYERS
        elif stage in ("discard", "chelem"):
            phase, to_act = stage, taker
        elif len(tricks) == TRICKS:
            phase, to_act = "over", None
        else:
            phase = "play"
        return TarotState(
            dealer, hands, mask_of(chien), mask_of(chien_shown), bids, taker, contract,
            mask_of(ecart), chelem, tuple((s, mask_of(c)) for s, c in poignees),
            tuple(c for _, c in trick), leader,
            tuple((plays[0][0], tuple(c for _, c in plays), w) for plays, w in tricks),
            phase, to_act)

    # -- the moves -----------------------------------------------------------------

    def to_act(self, state: TarotState) -> int | None:
        return state.to_act

    def legal_moves(self, state: TarotState) -> Sequence[Move | Template]:
        phase = state.phase
        seat = state.to_act
        if seat is None:
            return []  # the deal is over
        if phase == "play":
            moves = listed_plays(seat, playable(state.hands[seat], state.trick))
            if not state.tricks and all(s != seat for s, _ in state.poignees):
                # T8: before the seat's first card, one canonical poignée per level.
                moves += [Move(seat, "poignee", cards=cards) for cards in canonical_poignees(
                    poignee_pool(state, seat), bool(state.hands[seat] & EXCUSE_BIT))]
            return moves
        if phase == "bidding":
            return list(BID_CHOICES[seat][_highest_bid(state.bids)[0]])
        if phase == "discard":
            return [self.discard_template(state)]
        if phase == "chelem":
            return list(CHELEM_MOVES[seat])
        return []

    def discard_template(self, state: TarotState) -> Template:
        """T5: six cards, never a King or a bout; ordinary cards first, and trumps only to
        fill the shortfall — then every ordinary card goes, plus that many trumps."""
        taker = state.taker
        assert taker is not None  # the discard phase has a taker
        hand = state.hands[taker]
        ordinary = hand & ORDINARY
        if ordinary.bit_count() >= CHIEN_SIZE:
            return Template(taker, "discard", CHIEN_SIZE, (), tuple(bit_list(ordinary)))
        return Template(taker, "discard", CHIEN_SIZE, tuple(bit_list(ordinary)),
                        tuple(bit_list(hand & TRUMPS & ~BOUTS)))

    def verify(self, state: TarotState, move: Move) -> Reason | None:
        phase = state.phase
        if phase == "over":
            return Reason("deal_over", "T3" if state.taker is None else "T9")
        seat, action = move.seat, move.action
        if seat != state.to_act:
            if phase == "bidding":
                if (seat - state.dealer - 1) % PLAYERS < len(state.bids):
                    return Reason("already_bid", "T4", {"seat": seat})
                return Reason("not_your_turn", "T4", {"seat": seat, "to_act": state.to_act})
            if phase == "discard":
                return Reason("not_taker", "T5", {"taker": state.taker})
            if phase == "chelem":
                return Reason("not_taker", "T7", {"taker": state.taker})
            # Who leads: T7 for the first trick, T10 after; within a trick, turn order (T9).
            rule = "T9" if state.trick else "T10" if state.tricks else "T7"
            return Reason("not_your_turn", rule, {"seat": seat, "to_act": state.to_act})
        if action not in PHASE_ACTIONS[phase]:
            # What forbids it is the phase under way; a poignée belongs to the first card.
            return Reason("wrong_phase", "T8" if action == "poignee" else PHASE_RULES[phase],
                          {"action": action, "phase": phase})
        if action == "play":
            card = move.card
            assert card is not None  # the move's schema requires a card for play
            hand = state.hands[seat]
            if not hand >> card & 1:
                return Reason("card_not_in_hand", "T9", {"seat": seat, "card": DECK.codes[card]})
            return follow_reason(seat, hand, state.trick, card)
        if action == "bid":
            highest = _highest_bid(state.bids)[0]
            contract = move.contract
            assert contract is not None  # the move's schema requires a contract for bid
            if contract != "pass" and BID_RANK[contract] <= highest:
                return Reason("bid_too_low", "T4", {"contract": BIDS[highest]})
            return None
        if action == "poignee":
            return self._verify_poignee(state, seat, move.cards or ())
        if action == "discard":
            return self._verify_discard(state, seat, move.cards or ())
        return None  # T7: the taker may announce a chelem or decline

    def _verify_discard(self, state: TarotState, seat: int, cards) -> Reason | None:
        """T5, against the same facts as `discard_template`."""
        chosen = mask_of(cards)
        if chosen.bit_count() != len(cards):
            return Reason("repeated_card", "T5", {"card": DECK.codes[_repeated(cards)]})
        if len(cards) != CHIEN_SIZE:
            return Reason("discard_wrong_count", "T5", {"count": CHIEN_SIZE, "given": len(cards)})
        hand = state.hands[seat]
        for c in cards:
            if not hand >> c & 1:
                return Reason("card_not_in_hand", "T5", {"seat": seat, "card": DECK.codes[c]})
        for c in cards:
            if (KINGS | BOUTS) >> c & 1:
                return Reason("discard_forbidden_card", "T5", {"card": DECK.codes[c]})
        needed = max(0, CHIEN_SIZE - (hand & ORDINARY).bit_count())
        given = (chosen & TRUMPS).bit_count()
        if given > needed:
            return Reason("discard_trump_not_needed", "T5", {"needed": needed, "given": given})
        return None

    def _verify_poignee(self, state: TarotState, seat: int, cards) -> Reason | None:
        if state.tricks:
            return Reason("poignee_too_late", "T8")
        if any(s == seat for s, _ in state.poignees):
            return Reason("poignee_already_declared", "T8", {"seat": seat})
        if mask_of(cards).bit_count() != len(cards):
            return Reason("repeated_card", "T8", {"card": DECK.codes[_repeated(cards)]})
        flaw = poignee_problem(cards, poignee_pool(state, seat),
                               bool(state.hands[seat] & EXCUSE_BIT))
        return Reason("invalid_poignee", "T8", flaw) if flaw else None

    def play(self, state: TarotState, move: Move) -> tuple[TarotState, list[dict]]:
        action = move.action
        if action == "play":
            assert move.card is not None  # each action's fields, as its schema requires
            return self._play_card(state, move.seat, move.card)
        if action == "bid":
            assert move.contract is not None
            return self._bid(state, move.seat, move.contract)
        if action == "poignee":
            assert move.cards is not None
            cards = mask_of(move.cards)
            st = state._replace(poignees=(*state.poignees, (move.seat, cards)))
            return st, [{"type": "poignee", "seat": move.seat,
                         "level": POIGNEE_SIZES[len(move.cards)], "cards": bit_list(cards)}]
        if action == "discard":
            assert move.cards is not None
            return self._discard(state, move.seat, mask_of(move.cards))
        # T7: an announced chelem lets the taker lead the first trick.
        assert state.taker is not None  # the chelem phase has a taker
        leader = state.taker if move.announce else (state.dealer + 1) % PLAYERS
        st = state._replace(chelem=bool(move.announce), leader=leader, phase="play",
                            to_act=leader)
        return st, [{"type": "chelem", "seat": move.seat, "announce": bool(move.announce)}]

    def _play_card(self, st: TarotState, seat: int, card: int):
        (dealer, hands, chien, chien_shown, bids, taker, contract, ecart, chelem, poignees,
         trick, leader, tricks, _, _) = st
        held = list(hands)
        held[seat] &= ~(1 << card)
        hands = tuple(held)
        trick = (*trick, card)
        played = {"type": "played", "seat": seat, "card": card}
        if len(trick) < PLAYERS:
            return _new(TarotState, (
                dealer, hands, chien, chien_shown, bids, taker, contract, ecart, chelem,
                poignees, trick, leader, tricks, "play", (seat + 1) % PLAYERS)), [played]
        # T12's exception looks back over the earlier tricks only on the last one.
        earlier = [w for _, _, w in tricks] if len(tricks) == TRICKS - 1 else ()
        winner = trick_winner(trick, leader, taker, earlier)
        tricks = (*tricks, (leader, trick, winner))
        events = [played, {"type": "trick_won", "seat": winner, "cards": list(trick)}]
        over = len(tricks) == TRICKS
        new = _new(TarotState, (
            dealer, hands, chien, chien_shown, bids, taker, contract, ecart, chelem,
            poignees, (), winner, tricks, "over" if over else "play", None if over else winner))
        if over:
            events.append({"type": "deal_over", "settlement": settle(new)})
        return new, events

    def _bid(self, st: TarotState, seat: int, contract: str):
        bids = (*st.bids, contract)
        events = [{"type": "bid", "seat": seat, "contract": contract}]
        if len(bids) < PLAYERS:
            return st._replace(bids=bids, to_act=(seat + 1) % PLAYERS), events
        _, at = _highest_bid(bids)
        if at is None:  # T3: all four passed
            new = st._replace(bids=bids, phase="over", to_act=None)
            events.append({"type": "deal_over", "settlement": settle(new)})
            return new, events
        taker = (st.dealer + 1 + at) % PLAYERS
        contract = bids[at]
        events.append({"type": "taker", "seat": taker, "contract": contract})
        if contract in ("garde_sans", "garde_contre"):  # T6: the chien stays aside, unseen
            return st._replace(bids=bids, taker=taker, contract=contract, phase="chelem",
                               to_act=taker), events
        # T5: the chien is shown to all and joins the taker's hand.
        hands = list(st.hands)
        hands[taker] |= st.chien
        events.append({"type": "chien_shown", "seat": taker, "cards": bit_list(st.chien)})
        return st._replace(bids=bids, taker=taker, contract=contract, hands=tuple(hands),
                           chien=0, chien_shown=st.chien, phase="discard", to_act=taker), events

    def _discard(self, st: TarotState, seat: int, ecart: int):
        hands = list(st.hands)
        hands[seat] &= ~ecart
        events = [{"type": "ecart_laid", "seat": seat, "count": CHIEN_SIZE}]
        if ecart & TRUMPS:  # T5: discarded trumps are shown
            events.append({"type": "trumps_shown", "seat": seat, "cards": bit_list(ecart & TRUMPS)})
        return st._replace(hands=tuple(hands), ecart=ecart, phase="chelem"), events

    def settlement(self, state: TarotState) -> dict | None:
        return settle(state) if state.phase == "over" else None

    # -- what a seat sees ----------------------------------------------------------

    def observe(self, state: TarotState, seat: int) -> View:
        """The seat's hand, the bids, the shown chien, the poignées and the tricks; the
        écart for the taker, only its trumps for a defender (T5); the other hands, the
        chien while it is not shown (T6) and the rest of the écart as counts.
        hidden = (hand 0, hand 1, hand 2, hand 3, chien, écart)."""
        hands = [0] * PLAYERS
        hands[seat] = state.hands[seat]
        ecart = state.ecart if seat == state.taker else state.ecart & TRUMPS
        hidden = tuple(0 if s == seat else state.hands[s].bit_count() for s in range(PLAYERS))
        hidden += (state.chien.bit_count(), (state.ecart & ~ecart).bit_count())
        public = state._replace(hands=tuple(hands), chien=0, ecart=ecart)
        return View(seat, public, hidden, state.phase, state.to_act)

    def sample(self, view: View, rng) -> TarotState:
        """The hidden cards dealt among the other hands, the chien and the hidden écart:
        the shown chien stays with the taker (hand or écart, T5); the hidden écart holds
        ordinary cards only, and a taker who had to lay trumps kept no ordinary card (T5);
        poignée trumps stay with their seat, and a poignée shown with the Excuse leaves no
        other trump (T8); every void a play revealed holds (T9); no hand is a petit sec
        unless the deal was annulled for one (T3)."""
        public = view.public
        seat, hidden = view.seat, view.hidden
        taker = public.taker
        played = [0] * PLAYERS
        forbidden = [0] * PLAYERS
        seen = public.hands[seat] | public.ecart
        rounds = [(leader, cards) for leader, cards, _ in public.tricks]
        rounds.append((public.leader, public.trick))
        for leader, cards in rounds:
            for j, c in enumerate(cards):
                s = (leader + j) % PLAYERS
                seen |= 1 << c
                played[s] |= 1 << c
                forbidden[s] |= _void_shown(cards[:j], c)
        pile = bit_list(DECK.full & ~seen)
        allowed = [DECK.full] * (PLAYERS + 2)
        allowed[PLAYERS + 1] = ORDINARY  # T5: no King, bout or trump hides in the écart
        if public.chien_shown:
            for i in range(PLAYERS + 1):
                if i != taker:
                    allowed[i] &= ~public.chien_shown
        if public.ecart & TRUMPS and taker is not None:
            forbidden[taker] |= ORDINARY  # T5: trumps only once the ordinary cards ran out
        for s, shown in public.poignees:
            for i in range(PLAYERS + 2):
                if i != s:
                    allowed[i] &= ~shown
            if shown & EXCUSE_BIT:
                forbidden[s] |= TRUMPS & ~shown  # T8: every trump held was shown
        petit_sec_deal = view.phase == "over" and not public.bids
        if petit_sec_deal and not petit_sec(public.hands[seat]):
            # T3: the holder of the Petit holds it sec.
            holder = rng.choice([s for s in range(PLAYERS) if hidden[s]])
            for i in range(PLAYERS + 2):
                if i != holder:
                    allowed[i] &= ~PETIT_BIT
            forbidden[holder] |= (TRUMPS | EXCUSE_BIT) & ~PETIT_BIT
        for s in range(PLAYERS):
            allowed[s] &= ~forbidden[s]
        chien_taken = public.contract in ("prise", "garde")
        world = None
        for _attempt in range(200):
            dealt = deal_hidden(pile[:], list(hidden), allowed, rng)
            if dealt is None:
                break
            hands = list(public.hands)
            for s in range(PLAYERS):
                hands[s] |= dealt[s]
            world = public._replace(hands=tuple(hands), chien=dealt[PLAYERS],
                                    ecart=public.ecart | dealt[PLAYERS + 1])
            if not petit_sec_deal:
                sec = False
                for s in range(PLAYERS):
                    held = hands[s] | played[s]
                    if s == taker and chien_taken:
                        held = (held | public.ecart | dealt[PLAYERS + 1]) & ~public.chien_shown
                    sec = sec or petit_sec(held)
                if sec:
                    continue  # T3: the deal would have been annulled
            return world
        if world is not None:
            # So unlikely a view that 200 deals all gave someone a petit sec: play on in a
            # world that breaks only T3's dealing condition rather than fail the request.
            return world
        raise NoWorldFits("no deal of the hidden cards fits this view")


PHASE_ACTIONS = {"bidding": ("bid",), "discard": ("discard",), "chelem": ("chelem",),
                 "play": ("play", "poignee")}
PHASE_RULES = {"bidding": "T4", "discard": "T5", "chelem": "T7", "play": "T9"}

GAME = Tarot()
