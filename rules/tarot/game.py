"""French Tarot's Game: the deal, the moves and their checks, for 3, 4 or 5 players (T18)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.cards import bit_list, mask_of, move_chunks
from rules.game import (
    Game,
    InvalidState,
    MalformedMove,
    Move,
    Template,
    View,
    derived_problems,
    missing,
)
from rules.reasons import Reason
from rules.tarot import checks, fields
from rules.tarot.bidding import BID_RANK, BIDS, CHIEN_TAKEN, auction, highest_bid
from rules.tarot.call import CALLING, callable_cards, partner_of
from rules.tarot.cards import DECK, EXCUSE_BIT, TRUMPS, name_card
from rules.tarot.checks import Plays, Tricks
from rules.tarot.deal import COUNTS, MAX_PLAYERS, PLAYERS, dealt, petit_sec
from rules.tarot.ecart import (
    discard_reason,
    discard_template,
    repeated,
)
from rules.tarot.fields import Fields
from rules.tarot.poignee import canonical_poignees, poignee_pool, poignee_problem
from rules.tarot.scoring import settle
from rules.tarot.state import TarotState
from rules.tarot.tricks import follow_reason, opening_reason, playable_now, trick_winner
from rules.tarot.view import observe, sample
from rules.texts import english

# Every possible move, built once for every seat of the largest table: listing then only
# picks from tables.
PLAY = tuple(tuple(Move(s, "play", card=c) for c in range(78)) for s in range(MAX_PLAYERS))
PLAYS = tuple(move_chunks(78, lambda c, s=s: PLAY[s][c]) for s in range(MAX_PLAYERS))
CALL = tuple(tuple(Move(s, "call", card=c) for c in range(78)) for s in range(MAX_PLAYERS))
BID_MOVES = tuple(tuple(Move(s, "bid", contract=b) for b in BIDS) for s in range(MAX_PLAYERS))
# BID_CHOICES[seat][highest]: pass, then every contract above the highest bid (T4).
BID_CHOICES = tuple(
    tuple([BID_MOVES[s][0], *BID_MOVES[s][h + 1:]] for h in range(len(BIDS)))
    for s in range(MAX_PLAYERS))
CHELEM_MOVES = tuple((Move(s, "chelem", announce=False), Move(s, "chelem", announce=True))
                     for s in range(MAX_PLAYERS))
PHASE_ACTIONS = {"bidding": ("bid",), "call": ("call",), "discard": ("discard",),
                 "chelem": ("chelem",), "play": ("play", "poignee")}
PHASE_RULES = {"bidding": "T4", "call": "T22", "discard": "T5", "chelem": "T7",
               "play": "T9"}

_new = tuple.__new__


def listed_plays(seat: int, mask: int) -> list[Move]:
    """The play moves of a 78-card mask: seven 12-bit table lookups, unrolled."""
    c = PLAYS[seat]
    return [*c[0][mask & 0xFFF], *c[1][mask >> 12 & 0xFFF], *c[2][mask >> 24 & 0xFFF],
            *c[3][mask >> 36 & 0xFFF], *c[4][mask >> 48 & 0xFFF], *c[5][mask >> 60 & 0xFFF],
            *c[6][mask >> 72]]


def play_reason(state: TarotState, seat: int, move: Move) -> Reason | None:
    """T9: a card of the hand; T22: the opening lead; T10-T12: following."""
    card = move.card
    if card is None:  # check_form has refused it; this tells mypy
        raise missing(move, "card")
    hand = state.hands[seat]
    if not hand >> card & 1:
        return Reason("card_not_in_hand", "T9", {"seat": seat, "card": DECK.codes[card]})
    if not state.tricks and not state.trick:
        return opening_reason(state.called, card)
    return follow_reason(seat, hand, state.trick, card)


def bid_reason(state: TarotState, seat: int, move: Move) -> Reason | None:
    """T4: pass, or a contract above the highest bid."""
    highest = highest_bid(state.bids)[0]
    contract = move.contract
    if contract != "pass" and contract not in BID_RANK:
        raise MalformedMove("contract", f"no contract {contract!r}")
    if contract != "pass" and BID_RANK[contract] <= highest:
        return Reason("bid_too_low", "T4", {"contract": BIDS[highest]})
    return None


def call_reason(state: TarotState, seat: int, move: Move) -> Reason | None:
    """T22: a card the taker may call."""
    card = move.card
    if card is None:
        raise missing(move, "card")
    if not callable_cards(state.hands[seat]) >> card & 1:
        return Reason("card_not_callable", "T22", {"card": DECK.codes[card]})
    return None


MOVE_REASONS = {"play": play_reason, "bid": bid_reason, "call": call_reason}


class Tarot(Game):
    id = "tarot"
    name = english("game.tarot.name")
    players = PLAYERS  # the default count (T18); a state's count is its number of hands
    counts = tuple(COUNTS)  # type: ignore[assignment]  # a fixed tuple for the property
    summary = english("game.tarot.summary")
    deck = DECK
    deck_info = {
        "name": english("game.tarot.deck.name"),
        "size": 78,
        "origin": english("game.tarot.deck.origin"),
        "wikipedia": "https://en.wikipedia.org/wiki/French_tarot",
    }
    # T1–T17 for every count, T18–T24 for the three- and five-player games (`counts`).
    rules = tuple(f"T{i}" for i in range(1, 25))
    won_by = "camp"  # T3, T17
    move_fields = {"bid": ("contract",), "call": ("card",), "discard": ("cards",),
                   "chelem": ("announce",), "poignee": ("cards",), "play": ("card",)}
    actions = tuple(move_fields)

    def card_name(self, catalogue: dict[str, str], suit: str, rank: str) -> str:
        return name_card(catalogue, suit, rank)

    # -- dealing -----------------------------------------------------------------

    def deal_from(self, order: list[int], dealer: int | None = None,
                  players: int = PLAYERS) -> TarotState:
        """T2, T19: the hands in turn from the top, the rest to the chien; T18: the dealer
        defaults to the last seat. T3 [decided]: a petit sec is found here, before any
        bid, and annuls the deal."""
        hands, chien = dealt(order, players)
        if dealer is None:
            dealer = players - 1
        first = (dealer + 1) % players
        annulled = any(petit_sec(h) for h in hands)
        return TarotState(dealer, hands, chien, 0, (), None, None, None, None, 0, None, (),
                          (), first, (), "over" if annulled else "bidding",
                          None if annulled else first)

    # -- reading a state -----------------------------------------------------------

    def build(self, *given: Any, **by_name: Any) -> TarotState:
        """A state from its fields (`fields.Fields`: cards as deck indices), or InvalidState
        with every problem found. Field paths match the JSON state of API.md."""
        f = Fields(*given, **by_name)
        r = fields.read(f)
        problems = fields.rule_problems(f, r)
        if problems:
            raise InvalidState(problems)
        state = self._state(f.dealer, r.hand_masks, f.chien, f.chien_shown, r.spoken, r.taker,
                            r.contract, r.called, r.partner, f.ecart, f.chelem, f.poignees,
                            f.trick, f.tricks, fields.leader_now(f, r),
                            not r.spoken and any(map(petit_sec, r.dealt)))
        derived = derived_problems(self, state, f.phase, f.to_act, f.result)
        derived += fields.given_problems(f, r)
        if derived:
            raise InvalidState(derived)
        return state

    @staticmethod
    def _state(dealer: int, hands: tuple[int, ...], chien: list[int], chien_shown: list[int],
               bids: tuple[str, ...], taker: int | None, contract: str | None,
               called: int | None, partner: int | None, ecart: list[int],
               chelem: bool | None, poignees: list, trick: Plays, tricks: Tricks, leader: int,
               annulled: bool) -> TarotState:
        """The state of fields `build` found sound, with its phase and seat to act."""
        n = len(hands)
        stage = checks.stage_of(contract, called, n, chelem, ecart)
        to_act: int | None = (leader + len(trick)) % n
        if annulled or (len(bids) == n and taker is None):
            phase, to_act = "over", None  # T3
        elif stage == "bidding":
            phase, to_act = "bidding", (dealer + 1 + len(bids)) % n
        elif stage in ("call", "discard", "chelem"):
            phase, to_act = stage, taker
        elif len(tricks) == COUNTS[n].hand:
            phase, to_act = "over", None
        else:
            phase = "play"
        return TarotState(
            dealer, hands, mask_of(chien), mask_of(chien_shown), bids, taker, contract,
            called, partner, mask_of(ecart), chelem,
            tuple((s, mask_of(c)) for s, c in poignees), tuple(c for _, c in trick), leader,
            tuple((plays[0][0], tuple(c for _, c in plays), w) for plays, w in tricks),
            phase, to_act)

    # -- the moves -----------------------------------------------------------------

    def legal_moves(self, state: TarotState) -> Sequence[Move | Template]:
        phase = state.phase
        seat = state.to_act
        if seat is None:
            return []  # the deal is over
        if phase == "play":
            moves = listed_plays(seat, playable_now(state, seat))
            if not state.tricks and all(s != seat for s, _ in state.poignees):
                # T8: before the seat's first card, one canonical poignée per level.
                moves += [Move(seat, "poignee", cards=cards) for cards in canonical_poignees(
                    poignee_pool(state, seat), bool(state.hands[seat] & EXCUSE_BIT),
                    len(state.hands))]
            return moves
        if phase == "bidding":
            return list(BID_CHOICES[seat][highest_bid(state.bids)[0]])
        if phase == "call":
            calls = CALL[seat]
            return [calls[c] for c in bit_list(callable_cards(state.hands[seat]))]
        if phase == "discard":
            return [self.discard_template(state)]
        if phase == "chelem":
            return list(CHELEM_MOVES[seat])
        return []

    def discard_template(self, state: TarotState) -> Template:
        """T5, T20: the écart's template for the taker's hand."""
        taker = state.taker
        if taker is None:
            raise ValueError("a Tarot state in phase discard with no taker")
        return discard_template(taker, state.hands[taker], COUNTS[len(state.hands)].chien)

    def verify(self, state: TarotState, move: Move) -> Reason | None:
        self.check_form(state, move)
        phase = state.phase
        if phase == "over":
            return Reason("deal_over", "T3" if state.taker is None else "T9")
        seat, action = move.seat, move.action
        if seat != state.to_act:
            return self._turn_reason(state, seat)
        if action not in PHASE_ACTIONS[phase]:
            # What forbids it is the phase under way; a poignée belongs to the first card.
            return Reason("wrong_phase", "T8" if action == "poignee" else PHASE_RULES[phase],
                          {"action": action, "phase": phase})
        if action == "poignee":
            return self._verify_poignee(state, seat, move.cards or ())
        if action == "discard":
            return discard_reason(seat, state.hands[seat], move.cards or (),
                                  COUNTS[len(state.hands)].chien)
        if action == "chelem":
            return None  # T7: the taker may announce a chelem or decline
        return MOVE_REASONS[action](state, seat, move)

    @staticmethod
    def _turn_reason(state: TarotState, seat: int) -> Reason:
        """Why `seat` may not move now: it is not its turn, by the phase's rule."""
        phase = state.phase
        if phase == "bidding":
            if (seat - state.dealer - 1) % len(state.hands) < len(state.bids):
                return Reason("already_bid", "T4", {"seat": seat})
            return Reason("not_your_turn", "T4", {"seat": seat, "to_act": state.to_act})
        if phase in ("call", "discard", "chelem"):
            return Reason("not_taker", PHASE_RULES[phase], {"taker": state.taker})
        # Who leads: T7 for the first trick, T10 after; within a trick, turn order (T9).
        rule = "T9" if state.trick else "T10" if state.tricks else "T7"
        return Reason("not_your_turn", rule, {"seat": seat, "to_act": state.to_act})

    def _verify_poignee(self, state: TarotState, seat: int, cards) -> Reason | None:
        if state.tricks:
            return Reason("poignee_too_late", "T8")
        if any(s == seat for s, _ in state.poignees):
            return Reason("poignee_already_declared", "T8", {"seat": seat})
        if mask_of(cards).bit_count() != len(cards):
            return Reason("repeated_card", "T8", {"card": DECK.codes[repeated(cards)]})
        players = len(state.hands)
        flaw = poignee_problem(cards, poignee_pool(state, seat),
                               bool(state.hands[seat] & EXCUSE_BIT), players)
        return Reason("invalid_poignee", "T8" if players == PLAYERS else "T21",
                      flaw) if flaw else None

    def transition(self, state: TarotState, move: Move) -> tuple[TarotState, list[dict]]:
        action = move.action
        # Each action's fields as check_form requires them: the tests tell mypy.
        if action == "play" or action == "call":
            card = move.card
            if card is None:
                raise missing(move, "card")
            if action == "play":
                return self._play_card(state, move.seat, card)
            return self._call(state, move.seat, card)
        if action == "bid":
            if move.contract is None:
                raise missing(move, "contract")
            return self._bid(state, move.seat, move.contract)
        if action == "poignee" or action == "discard":
            if move.cards is None:
                raise missing(move, "cards")
            cards = mask_of(move.cards)
            if action == "discard":
                return self._discard(state, move.seat, cards)
            level = COUNTS[len(state.hands)].poignees[len(move.cards)]
            st = state._replace(poignees=(*state.poignees, (move.seat, cards)))
            return st, [{"type": "poignee", "seat": move.seat, "level": level,
                         "cards": bit_list(cards)}]
        # T7: an announced chelem lets the taker lead the first trick.
        if state.taker is None:
            raise ValueError("a Tarot state in phase chelem with no taker")
        leader = state.taker if move.announce else (state.dealer + 1) % len(state.hands)
        st = state._replace(chelem=bool(move.announce), leader=leader, phase="play",
                            to_act=leader)
        return st, [{"type": "chelem", "seat": move.seat, "announce": bool(move.announce)}]

    def _play_card(self, st: TarotState, seat: int, card: int):
        (dealer, hands, chien, chien_shown, bids, taker, contract, called, partner, ecart,
         chelem, poignees, trick, leader, tricks, _, _) = st
        n = len(hands)
        held = list(hands)
        held[seat] &= ~(1 << card)
        hands = tuple(held)
        trick = (*trick, card)
        played = {"type": "played", "seat": seat, "card": card}
        if len(trick) < n:
            return _new(TarotState, (
                dealer, hands, chien, chien_shown, bids, taker, contract, called, partner,
                ecart, chelem, poignees, trick, leader, tricks, "play", (seat + 1) % n)), [played]
        last = COUNTS[n].hand
        # T12's exception looks back over the earlier tricks only on the last one.
        earlier = [w for _, _, w in tricks] if len(tricks) == last - 1 else ()
        winner = trick_winner(trick, leader, taker, earlier, partner, n)
        tricks = (*tricks, (leader, trick, winner))
        events = [played, {"type": "trick_won", "seat": winner, "cards": list(trick)}]
        over = len(tricks) == last
        new = _new(TarotState, (
            dealer, hands, chien, chien_shown, bids, taker, contract, called, partner, ecart,
            chelem, poignees, (), winner, tricks, "over" if over else "play",
            None if over else winner))
        if over:
            events.append({"type": "deal_over", "settlement": settle(new)})
        return new, events

    def _bid(self, st: TarotState, seat: int, contract: str):
        n = len(st.hands)
        bids = (*st.bids, contract)
        events = [{"type": "bid", "seat": seat, "contract": contract}]
        if len(bids) < n:
            return st._replace(bids=bids, to_act=(seat + 1) % n), events
        taker, contract_ = auction(st.dealer, bids, n)
        if taker is None:  # T3: all passed
            new = st._replace(bids=bids, phase="over", to_act=None)
            events.append({"type": "deal_over", "settlement": settle(new)})
            return new, events
        events.append({"type": "taker", "seat": taker, "contract": contract_})
        st = st._replace(bids=bids, taker=taker, contract=contract_, to_act=taker)
        if n == CALLING:  # T22: the call comes first
            return st._replace(phase="call"), events
        return self._after_call(st, events)

    def _call(self, st: TarotState, seat: int, card: int):
        """T22: the called card's holder is the partner, told to nobody."""
        st = st._replace(called=card, partner=partner_of(st.hands, seat, card))
        return self._after_call(st, [{"type": "called", "seat": seat, "card": card}])

    @staticmethod
    def _after_call(st: TarotState, events: list[dict]):
        """T5, T6: the chien shown and taken in a prise or garde, else the chelem decision."""
        taker = st.taker
        if taker is None:
            raise ValueError("a Tarot state past the bidding with no taker")
        if st.contract not in CHIEN_TAKEN:  # T6: the chien stays aside, unseen
            return st._replace(phase="chelem"), events
        hands = list(st.hands)
        hands[taker] |= st.chien
        events.append({"type": "chien_shown", "seat": taker, "cards": bit_list(st.chien)})
        return st._replace(hands=tuple(hands), chien=0, chien_shown=st.chien,
                           phase="discard"), events

    def _discard(self, st: TarotState, seat: int, ecart: int):
        hands = list(st.hands)
        hands[seat] &= ~ecart
        events = [{"type": "ecart_laid", "seat": seat, "count": ecart.bit_count()}]
        if ecart & TRUMPS:  # T5: discarded trumps are shown
            events.append({"type": "trumps_shown", "seat": seat, "cards": bit_list(ecart & TRUMPS)})
        return st._replace(hands=tuple(hands), ecart=ecart, phase="chelem"), events

    def settlement(self, state: TarotState) -> dict | None:
        return settle(state) if state.phase == "over" else None

    # -- what a seat sees ----------------------------------------------------------

    def observe(self, state: TarotState, seat: int) -> View:
        return observe(state, seat)

    def sample(self, view: View, rng) -> TarotState:
        return sample(view, rng)


GAME = Tarot()
