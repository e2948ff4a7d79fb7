"""A plain French Tarot heuristic for 3, 4 and 5 players: bid from hand strength scaled to
the hand's size, call a King it lacks (T22), discard to make voids, show the largest poignée,
and play to win tricks cheaply, feed points to a seat of its camp that is winning and throw
the cheapest card otherwise. It reads only what its seat may see: its own hand (and, as
taker, its own écart), the bids, the call, the shown chien, the poignées and the tricks
played.

With five players the camps are not all known (T22): the partner is the holder of the
called card, which only the partner knows until the card is played (the taker knows it is
alone when the card is in its own hand or écart, everyone when it lies in the shown chien).
Until then a seat that cannot tell another's camp treats it as an opponent: it feeds points
only to a seat it knows is with it, and otherwise plays to win the trick itself. The taker
looks for its partner by leading a low card of the called suit (after the first trick, T23),
so that the called card can win it; the partner shows itself by playing the called card as
soon as it can win a trick or is led to."""

from __future__ import annotations

import math
import random

from rules.ai.settings import Explain, Settings
from rules.ai.tarot_playout import HIGH_TRUMP, play_tricks
from rules.cards import bit_list
from rules.game import Move, NoWorldFits, View
from rules.tarot import (
    BID_RANK,
    BIDS,
    COUNTS,
    EXCUSE,
    EXCUSE_BIT,
    GAME,
    HALF_POINTS,
    KINGS,
    MONDE,
    ORDINARY,
    PETIT,
    PETIT_BIT,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_SUIT,
    TRUMPS,
    TarotState,
    attack,
    callable_cards,
    canonical_poignees,
    led_card,
    opening_bar,
    partner_known,
    playable_now,
    poignee_pool,
    settle,
    top_trump,
)
from rules.tarot.view import sample as view_sample

# Hand strength at which each contract is worth bidding (T4), checked highest first, for an
# 18-card hand (T2); other hand sizes (T19) scale them. Over random four-player deals the
# strength's median is about 28 and its 90th percentile about 42.
BID_THRESHOLDS = (("garde_contre", 63), ("garde_sans", 55), ("garde", 46), ("prise", 38))
FOUR_PLAYER_HAND = 18
KING_CARDS = frozenset(bit_list(KINGS))


def strength(hand: int) -> int:
    """A rough count of tricks and points: trumps and bouts first, then Kings and long suits."""
    trumps = hand & TRUMPS
    n = trumps.bit_count()
    score = 2 * n + (trumps >> HIGH_TRUMP).bit_count()
    if hand >> MONDE & 1:
        score += 10
    if hand & EXCUSE_BIT:
        score += 8
    if hand & PETIT_BIT:
        score += 8 if n >= 6 else 4 if n >= 4 else 1  # a short Petit is easily caught
    for s in range(4):
        suit = hand & SUIT_MASK[s]
        length = suit.bit_count()
        score += 6 * bool(suit & KINGS) + 3 * bool(suit >> (s * 14 + 12) & 1)
        score += 2 * bool(suit >> (s * 14 + 11) & 1)
        if length >= 5:
            score += 2 * (length - 4)
        elif length == 0 and n >= 5:
            score += 4
    return score


def _bid(state: TarotState, seat: int) -> Move:
    """T4, by the strength of the hand against thresholds scaled to its size (T19): the
    strength counts cards, so a 24-card hand needs more of it and a 15-card hand less."""
    return Move(seat, "bid", contract=basic_bid(state.hands[seat], state.bids))


def basic_bid(hand: int, bids) -> str:
    """Basic's bid with `hand` after `bids` (T4, T19)."""
    highest = max((BID_RANK[b] for b in bids), default=0)
    s = strength(hand) * FOUR_PLAYER_HAND / hand.bit_count()
    for contract, threshold in BID_THRESHOLDS:
        if s >= threshold and BID_RANK[contract] > highest:
            return contract
    return BIDS[0]


def bid_misfit(hand: int, bids, bid: str) -> float:
    """How far the strength of `hand` lies from the band in which basic bids `bid` after
    `bids`: 0 when basic would bid it, else the distance to the nearest strength at which
    it would (T4, T19)."""
    highest = max((BID_RANK[b] for b in bids), default=0)
    s = strength(hand) * FOUR_PLAYER_HAND / hand.bit_count()
    # The contracts basic may still bid, lowest first, with their thresholds.
    open_ = [(c, t) for c, t in reversed(BID_THRESHOLDS) if BID_RANK[c] > highest]
    if bid == BIDS[0]:
        low, high = -math.inf, open_[0][1] if open_ else math.inf
    else:
        i = next((i for i, (c, _) in enumerate(open_) if c == bid), None)
        if i is None:
            return 0.0  # a bid basic never makes there: nothing to read from it
        low = open_[i][1]
        high = open_[i + 1][1] if i + 1 < len(open_) else math.inf
    return low - s if s < low else s - high + 1 if s >= high else 0.0


def _call(state: TarotState, seat: int) -> Move:
    """T22: a callable card the hand lacks, of the highest rank the list allows, in the suit
    where the hand is longest and richest (so that the partner's card guards the taker's
    honours there); with every callable card in hand, the cheapest, and the taker plays
    alone."""
    hand = state.hands[seat]
    options = bit_list(callable_cards(hand))
    lacking = [c for c in options if not hand >> c & 1]
    if not lacking:
        return Move(seat, "call", card=min(options, key=lambda c: (HALF_POINTS[c], c)))
    top = max(c % 14 for c in lacking)

    def suit_weight(c: int) -> tuple[int, int, int]:
        suit = hand & SUIT_MASK[SUIT_OF[c]]
        return (suit.bit_count(), sum(HALF_POINTS[x] for x in bit_list(suit)), -c)

    return Move(seat, "call", card=max((c for c in lacking if c % 14 == top), key=suit_weight))


def _discard(state: TarotState, seat: int) -> Move:
    """T5, T20: every ordinary card first when they are short, then the lowest trumps;
    otherwise the ordinary cards of the shortest suits without a King, dearest first, to
    make voids. The écart holds as many cards as the chien shown."""
    size = state.chien_shown.bit_count()
    hand = state.hands[seat]
    ordinary = bit_list(hand & ORDINARY)
    if len(ordinary) <= size:
        trumps = bit_list(hand & TRUMPS & ~(PETIT_BIT | 1 << MONDE))
        return Move(seat, "discard",
                    cards=tuple(sorted(ordinary + trumps[:size - len(ordinary)])))
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    guarded = [bool(hand & SUIT_MASK[s] & KINGS) for s in range(4)]
    called = state.called
    # A called card the taker holds is its own: keep it as it keeps a King.
    ordinary.sort(key=lambda c: (c == called, guarded[SUIT_OF[c]], lengths[SUIT_OF[c]],
                                 -HALF_POINTS[c]))
    return Move(seat, "discard", cards=tuple(sorted(ordinary[:size])))


def ecart_options(state: TarotState, seat: int) -> list[Move]:
    """T5, T20: écarts worth weighing beside basic's, for the search: the dearest cards
    (their points are the taker's for sure), and each suit, or pair of suits, without a
    King made void, the rest from the shortest suits, dearest first. None where the
    ordinary cards are short (every one goes, then the lowest trumps, as basic lays).
    Reads the taker's hand alone."""
    size = state.chien_shown.bit_count()
    hand = state.hands[seat]
    called = state.called
    pool = [c for c in bit_list(hand & ORDINARY) if c != called]  # T5: no King
    if len(pool) <= size:
        return []
    by_suit = [[c for c in pool if SUIT_OF[c] == s] for s in range(4)]
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]

    def filled(first: list[int]) -> tuple[int, ...]:
        rest = sorted((c for c in pool if c not in first),
                      key=lambda c: (lengths[SUIT_OF[c]], -HALF_POINTS[c], c))
        return tuple(sorted([*first, *rest][:size]))

    options = [tuple(sorted(sorted(pool, key=lambda c: (-HALF_POINTS[c], lengths[SUIT_OF[c]],
                                                        c))[:size]))]
    unguarded = [s for s in range(4) if by_suit[s] and not hand & SUIT_MASK[s] & KINGS]
    for i, a in enumerate(unguarded):
        for voided in ([a], *([a, b] for b in unguarded[i + 1:])):
            voids = [c for s in voided for c in by_suit[s]]
            if len(voids) <= size:
                options.append(filled(voids))
    out: list[Move] = []
    for cards in options:
        move = Move(seat, "discard", cards=cards)
        if move not in out:
            out.append(move)
    return out


def _announce(hand: int) -> bool:
    """T7: only a hand that can hardly lose a trick announces a chelem: the Monde, the
    Excuse, and trumps in five sixths of its cards."""
    return (6 * (hand & TRUMPS).bit_count() >= 5 * hand.bit_count()
            and bool(hand >> MONDE & 1) and bool(hand & EXCUSE_BIT))


# -- the camps as a seat knows them (T22) ---------------------------------------------

def allies(state: TarotState, seat: int) -> int:
    """The seats `seat` knows play in its camp, itself included, as a mask of seats: the
    attack camp or the defence (T22), or, for a seat that cannot tell the partner yet,
    itself alone."""
    taker = state.taker
    if taker is None:
        return 1 << seat
    if not partner_known(state, seat):
        return 1 << seat
    camp = attack(taker, state.partner)
    if camp >> seat & 1:
        return camp
    return ((1 << len(state.hands)) - 1) & ~camp


# -- the play -------------------------------------------------------------------------

def _best(trick, leader: int, players: int) -> tuple[int, int]:
    """T10 on a trick in progress: the card winning so far and its seat."""
    top = top_trump(trick)
    if top >= 0:
        return top, (leader + trick.index(top)) % players
    led = led_card(trick)
    if led < 0:
        return -1, -1
    best = led
    for c in trick:
        if SUIT_OF[c] == SUIT_OF[led] and c > best:
            best = c
    return best, (leader + trick.index(best)) % players


def _beats(card: int, best: int) -> bool:
    if card == EXCUSE:
        return False
    if SUIT_OF[card] == TRUMP_SUIT:
        return SUIT_OF[best] != TRUMP_SUIT or card > best
    return SUIT_OF[card] == SUIT_OF[best] and card > best


def _play(state: TarotState, seat: int, rng: random.Random) -> Move:
    hand = state.hands[seat]
    cards = bit_list(playable_now(state, seat))
    if len(cards) == 1:
        return Move(seat, "play", card=cards[0])
    players = len(state.hands)
    late = len(state.tricks) >= COUNTS[players].hand - 3
    if EXCUSE in cards and late:
        return Move(seat, "play", card=EXCUSE)  # T12: kept to the last trick, it is lost
    others = [c for c in cards if c != EXCUSE] or cards
    camp = allies(state, seat)
    trick = state.trick
    called = state.called
    if not trick:
        return Move(seat, "play", card=_lead(state, seat, hand, others))
    best, best_seat = _best(trick, state.leader, players)
    last = len(trick) == players - 1
    if called in cards and best >= 0 and _beats(called, best):
        return Move(seat, "play", card=called)  # the partner wins and shows itself (T22)
    if best >= 0 and camp >> best_seat & 1:
        # The trick is ours: feed it points when it is safe, else play cheap.
        safe = last or best >= HIGH_TRUMP or (SUIT_OF[best] != TRUMP_SUIT and best in KING_CARDS)
        if safe:
            plain = [c for c in others if SUIT_OF[c] != TRUMP_SUIT or c == PETIT and last]
            if plain:
                return Move(seat, "play", card=max(plain, key=lambda c: (HALF_POINTS[c], c)))
        return Move(seat, "play", card=min(others, key=_cost))
    winners = [c for c in others if best < 0 or _beats(c, best)]
    if winners:
        if not last:
            winners = [c for c in winners if c != PETIT] or winners  # a Petit risks capture
        return Move(seat, "play", card=min(winners, key=lambda c: (c != PETIT or not last, c)))
    if EXCUSE in cards and min(HALF_POINTS[c] for c in others) >= 3:
        return Move(seat, "play", card=EXCUSE)  # T11: cheaper than giving away a court card
    return Move(seat, "play", card=min(others, key=_cost))


def _cost(card: int) -> tuple[int, int]:
    """What a card is worth keeping: points, and the Petit dearest of all."""
    return (20 if card == PETIT else HALF_POINTS[card], card)


def _lead(state: TarotState, seat: int, hand: int, cards: list[int]) -> int:
    kings = [c for c in cards if c in KING_CARDS]
    if kings:
        return kings[0]
    called = state.called
    if called is not None and seat == state.taker and not partner_known(state, seat):
        # Look for the partner: a low card of the called suit lets the called card win.
        suit = [c for c in cards if SUIT_OF[c] == SUIT_OF[called]]
        if suit:
            return min(suit)
    trumps = [c for c in cards if SUIT_OF[c] == TRUMP_SUIT]
    long_trumps = len(trumps) * FOUR_PLAYER_HAND >= 8 * COUNTS[len(state.hands)].hand
    if seat == state.taker and long_trumps and trumps[-1] >= HIGH_TRUMP:
        return trumps[-1]  # draw the defenders' trumps from the top
    plain = [c for c in cards if SUIT_OF[c] != TRUMP_SUIT]
    if not plain:
        return min(cards, key=_cost)
    lengths = [(hand & SUIT_MASK[s]).bit_count() for s in range(4)]
    return min(plain, key=lambda c: (-lengths[SUIT_OF[c]], c))


def basic_move(state: TarotState, seat: int, rng: random.Random) -> Move:
    phase = state.phase
    if phase == "bidding":
        return _bid(state, seat)
    if phase == "call":
        return _call(state, seat)
    if phase == "discard":
        return _discard(state, seat)
    if phase == "chelem":
        return Move(seat, "chelem", announce=_announce(state.hands[seat]))
    if not state.tricks and all(s != seat for s, _ in state.poignees):
        shown = canonical_poignees(poignee_pool(state, seat),
                                   bool(state.hands[seat] & EXCUSE_BIT), len(state.hands))
        if shown:
            return Move(seat, "poignee", cards=shown[-1])  # T8, T21: the largest it can show
    return _play(state, seat, rng)


# Past any score a deal can give a seat (T17, T24: a garde contre with a chelem, a poignée
# and the Petit at the end, taken alone against four defenders, is about ±4,000).
SCORE_SPAN = 4000


def value(settlement: dict, seat: int) -> float:
    """T17, T24: the seat's score mapped linearly onto [0, 1], so that the search ranks the
    candidates by their mean score, what a seat plays for over a session. (A squashed score
    made a taker's big win and a small one look alike.)"""
    return min(1.0, max(0.0, 0.5 + settlement["scores"][seat] / (2 * SCORE_SPAN)))


# -- what the bidding says of the hands (T4) ------------------------------------------

def hands_at_bidding(world: TarotState) -> list[int]:
    """Each seat's hand when it bid, in a whole deal: its hand now and the cards it played;
    for a taker who took the chien (T5), without the chien and with its écart."""
    n = len(world.hands)
    held = list(world.hands)
    for leader, cards, _ in world.tricks:
        for j, c in enumerate(cards):
            held[(leader + j) % n] |= 1 << c
    for j, c in enumerate(world.trick):
        held[(world.leader + j) % n] |= 1 << c
    taker = world.taker
    if taker is not None and world.chien_shown:
        held[taker] = (held[taker] | world.ecart) & ~world.chien_shown
    return held


def bids_misfit(world: TarotState, seat: int) -> float:
    """How far the other seats' hands in `world` lie from hands with which basic would have
    bid as they did (`bid_misfit`, summed): 0 when basic explains every bid."""
    n = len(world.hands)
    held = hands_at_bidding(world)
    total = 0.0
    for i, bid in enumerate(world.bids):
        s = (world.dealer + 1 + i) % n
        if s != seat:
            total += bid_misfit(held[s], world.bids[:i], bid)
    return total


def sample(game, view: View, rng: random.Random, tries: int) -> tuple[TarotState, int]:
    """A world of the view (`Game.sample`) whose hands explain the other seats' bids as
    basic would have made them: of up to `tries` draws the first that does, else the one
    that comes nearest (`bids_misfit`); and the draws made. A pass says the hand was no
    taker's, a garde that it was strong: the search models every seat as basic, so the
    deals in which basic would not have bid so are the ones it need not weigh. It reads
    the seat's view only: the other hands are the world's sample."""
    best, nearest = None, math.inf
    for i in range(1, tries + 1):
        world = read_sample(view, rng)
        misfit = bids_misfit(world, view.seat)
        if misfit < nearest:
            best, nearest = world, misfit
            if not misfit:
                return world, i
    assert best is not None
    return best, tries


def others_bid(view: View) -> bool:
    """Whether another seat has bid: what `sample` explains."""
    public = view.public
    n = len(public.hands)
    return any((public.dealer + 1 + i) % n != view.seat for i in range(len(public.bids)))


# -- what the play says of the hands (T9–T12, T22) -------------------------------------

def play_read(view: View) -> list[int]:
    """The cards each other seat cannot hold now, had it played every card so far as basic
    plays (`_play`), one mask a seat: the search models every seat as basic, so the worlds
    in which basic would have played otherwise are the ones it need not weigh. Reads only
    the tricks, which every seat sees. What it reads, by the play:
    - a lead of a plain card other than a King: no King it could lead (basic cashes its
      Kings first), and no lower card of that suit (basic leads the lowest of a suit);
    - a lead of a trump by a defender: no plain card it could lead, no cheaper trump;
    - the Excuse kept back in the last three tricks (T12: basic plays it there);
    - the called card not played on a trick it would have won (T22: its holder shows it);
    - against an opponent's winning card: a card that does not win, no card that would
      have (basic wins when it can) and none cheaper that it could play; a card that wins,
      no cheaper winner it could play (the Petit aside before the last card)."""
    public = view.public
    n = len(public.hands)
    taker, called = public.taker, public.called
    lacks = [0] * n
    if taker is None:
        return lacks
    late_from = COUNTS[n].hand - 3
    shown = called is None or bool(public.chien_shown >> called & 1)
    rounds = [(leader, cards) for leader, cards, _ in public.tricks]
    rounds.append((public.leader, public.trick))
    for t, (leader, cards) in enumerate(rounds):
        for j, card in enumerate(cards):
            s = (leader + j) % n
            if s != view.seat:
                if t >= late_from and card != EXCUSE:
                    lacks[s] |= EXCUSE_BIT
                before = list(cards[:j])
                if not before:
                    lacks[s] |= _lead_read(card, s, taker, called if t == 0 else None)
                else:
                    camp = attack(taker, public.partner) if shown else None
                    lacks[s] |= _follow_read(before, card, s, leader, n, taker, called,
                                             camp, j == n - 1)
            shown = shown or card == called
    return lacks


def _lead_read(card: int, seat: int, taker: int, bar_called: int | None) -> int:
    """What basic's `_lead` of `card` says its leader lacks; `bar_called` the called card
    on the deal's first trick, whose suit T23 bars but for the card itself."""
    if card == EXCUSE:
        return 0
    barred = opening_bar(bar_called)
    if SUIT_OF[card] == TRUMP_SUIT:
        if seat == taker:
            return 0  # the taker may draw trumps with plain cards in hand
        # A defender with no plain card leads its cheapest trump.
        return (KINGS | ORDINARY) & ~barred | TRUMPS & ((1 << card) - 1) & ~PETIT_BIT
    suit = SUIT_MASK[SUIT_OF[card]]
    if card in KING_CARDS:
        return KINGS & ((1 << card) - 1) & ~barred  # the first King it holds goes first
    return (KINGS & ~barred) | (suit & ((1 << card) - 1))


def _follow_read(before: list[int], card: int, seat: int, leader: int, n: int, taker: int,
                 called: int | None, camp: int | None, last: bool) -> int:
    """What basic's answer `card` to the trick `before` says the seat lacks; `camp` the
    attack camp where every seat knows it (T22), None before the called card shows."""
    best, best_seat = _best(before, leader, n)
    if best < 0 or card in (EXCUSE, called):
        return 0  # the called card goes on whatever it wins (T22), cheaper or not
    lacks = 0
    if called is not None and card != called and _beats(called, best):
        lacks |= 1 << called  # its holder would have won with it (T22)
    if camp is not None:
        if (camp >> seat & 1) == (camp >> best_seat & 1):
            return lacks  # an ally's trick: basic feeds it or plays cheap
    elif best_seat == taker:
        return lacks  # the seat may be the partner, who would feed the taker
    plain = SUIT_OF[best] != TRUMP_SUIT
    if _beats(card, best):
        # The cheapest winner goes (the Petit spared before the last card).
        if SUIT_OF[card] != TRUMP_SUIT:
            cheaper = SUIT_MASK[SUIT_OF[card]] & ((1 << card) - 1) & ~((2 << best) - 1)
        else:
            cheaper = TRUMPS & ((1 << card) - 1)
            if not plain:
                cheaper &= ~((2 << best) - 1)
            if not last:
                cheaper &= ~PETIT_BIT
        return lacks | cheaper
    led = led_card(before)
    if SUIT_OF[card] == SUIT_OF[led] != TRUMP_SUIT:
        # It followed and did not win: nothing above an opponent's card of the suit, and
        # nothing below its own.
        suit = SUIT_MASK[SUIT_OF[card]]
        if plain:
            lacks |= suit & ~((2 << best) - 1)
        return lacks | (suit & ((1 << card) - 1))
    if SUIT_OF[card] == TRUMP_SUIT:
        return lacks | (TRUMPS & ((1 << card) - 1) & ~PETIT_BIT)  # its cheapest trump
    return lacks


def read_sample(view: View, rng: random.Random) -> TarotState:
    """A world of the view whose hands hold none of the cards `play_read` rules out; the
    view's own world (`Game.sample`) where no deal fits that reading, as when a seat did
    not play as basic does."""
    try:
        return view_sample(view, rng, _lacks(view))
    except NoWorldFits:
        return GAME.sample(view, rng)


# The last view read and its reading, one item replaced whole so that a thread of another
# search never pairs one view with another's reading: a search reads one view.
_read: list[tuple] = [(None, [])]


def _lacks(view: View) -> list[int]:
    last = _read[0]
    if last[0] is view:
        return last[1]
    lacks = play_read(view)
    _read[0] = (view, lacks)
    return lacks


_NO_RNG = random.Random(0)  # basic's Tarot moves read no rng; `basic_move` wants one


def play_out(state: TarotState) -> TarotState:
    """Basic's exact play for every seat to the end of the deal: through the rules up to
    the end of the first trick (the auction, the call, the écart, the chelem, the
    poignées), then on bitmasks (rules/ai/tarot_playout.py)."""
    apply, to_act = GAME.apply, GAME.to_act
    while (seat := to_act(state)) is not None and (state.phase != "play" or not state.tricks):
        state = apply(state, basic_move(state, seat, _NO_RNG))
    return state if seat is None else play_tricks(state)


def playout(state: TarotState, seat: int) -> float:
    """The playouts' policy: basic's exact play (no random moves: the sampled worlds
    already differ), scored by the rules; the seat's value."""
    return value(settle(play_out(state)), seat)


# The playouts per millisecond of budget by the count of players (T18), as a factor on the
# four players' rate, so that each count's strong move takes about the same CPU: three
# players sample a world fastest, five slowest (more hidden places to deal to),
# bench/README.md.
RATE_SCALE = {3: 1.3, 4: 1.0, 5: 0.75}
# The bid (T4) gets half as many playouts again: it sets the deal's stake and comes once a
# deal, so its dearer search moves the CPU per move little but the score more
# (bench/README.md).
BID_SCALE = 1.5


def rate_scale(view: View) -> float:
    scale = RATE_SCALE[len(view.public.hands)]
    return scale * BID_SCALE if view.phase == "bidding" else scale


# A playout from a late move is shorter but not by its cards alone: sampling a world (the
# more voids shown, the dearer) and settling cost about 40 cards' worth, which keeps late
# moves within the deadline. Reading the bids (`sample`) draws up to 4 worlds for one and
# costs the search 2.4 times the CPU a playout would; but one such world serves every
# candidate still in, so the rate is set for the budget's CPU as measured, not as that cost
# model predicts (bench/README.md).
SETTINGS = Settings(basic=basic_move, value=value, rate=0.8, fixed_cost=40, epsilon=0.0,
                    playout=playout, rate_scale=rate_scale, propose=ecart_options,
                    draw=lambda game, view, rng: read_sample(view, rng),
                    explain=Explain(tries=4, cost=2.4, sample=sample, applies=others_bid))
