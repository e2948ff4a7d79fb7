"""The Game of Dashavatara Ganjifa: dealing, a state read from its fields, the moves of
each phase (play, a Dukal's answers), the settlement and what a seat sees."""

from __future__ import annotations

import random

from rules.cards import bit_list, lowest, mask_of
from rules.game import (
    UNSET,
    Game,
    InvalidState,
    Move,
    Problem,
    Template,
    View,
    derived_problems,
    missing,
)
from rules.ganjifa.cards import (
    AFTER,
    DECK,
    MANTRI_BITS,
    PERIODS,
    PIP_BITS,
    PLAYERS,
    RAJAS,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SIZE,
    SUITS,
    name_card,
)
from rules.ganjifa.checks import (
    hand_size_problems,
    lead_problems,
    pending_dukal_problems,
    pile_problems,
    trick_problems,
)
from rules.ganjifa.dukal import dukal_flaw, dukal_moves
from rules.ganjifa.history import history_of
from rules.ganjifa.scoring import _settlement
from rules.ganjifa.state import Dukal, GanjifaState, _adding, _new, _without, turn
from rules.ganjifa.tricks import (
    _NEXT_SEAT,
    SHIFTS,
    SUIT_PLAYS,
    _voids_after,
    next_held_suit,
    trick_winner,
    void_options,
)
from rules.ganjifa.view import observe, sample
from rules.reasons import Reason
from rules.texts import english


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
    won_by = "winners"  # G9
    move_fields = {"play": ("card",), "dukal": ("cards",), "discard": ("cards",)}
    actions = tuple(move_fields)

    def card_name(self, catalogue: dict[str, str], suit: str, rank: str) -> str:
        return name_card(catalogue, suit, rank)

    def score_bounds(self, players: int) -> tuple[int, int]:
        return 0, len(self.deck)  # G9: a point a captured card

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
        self.check_form(state, move)
        if state.dukal is not None:
            return self._answer_reason(state, move)
        return self._play_reason(state, move)

    @staticmethod
    def _answer_reason(state: GanjifaState, move: Move) -> Reason | None:
        """G8, the dukal phase: the seat to act discards as many cards as the Dukal has."""
        dukal, to_act, seat = state.dukal, state.to_act, move.seat
        if dukal is None:  # the dukal phase has its Dukal
            raise ValueError("a Ganjifa state in phase dukal with no Dukal")
        if seat != to_act:
            return Reason("not_your_turn", "G8", {"seat": seat, "to_act": to_act})
        if move.action != "discard":
            return Reason("wrong_phase", "G8", {"action": move.action, "phase": "dukal"})
        codes = DECK.codes
        cards = move.cards or ()
        mask = 0
        for c in cards:
            if mask >> c & 1:
                return Reason("repeated_card", "G8", {"card": codes[c]})
            mask |= 1 << c
        k = dukal.cards.bit_count()
        if len(cards) != k:
            return Reason("discard_wrong_size", "G8", {"count": k, "given": len(cards)})
        absent = mask & ~state.hands[seat]
        if absent:
            return Reason("card_not_in_hand", "G8",
                          {"seat": seat, "card": codes[lowest(absent)]})
        return None

    def _play_reason(self, state: GanjifaState, move: Move) -> Reason | None:
        """The play phase: a lead (G5, G7) or a Dukal led (G8), then the follows (G6)."""
        hands, captured, trick, to_act = state.hands, state.captured, state.trick, state.to_act
        seat, action = move.seat, move.action
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
        if action == "dukal":
            if trick:
                return Reason("not_on_lead", "G8")
            if opening:
                return Reason("dukal_on_opening", "G5")
            return self._dukal_reason(hands, seat, move.cards or ())
        card = move.card
        if card is None:
            raise missing(move, "card")
        return self._card_reason(state, seat, card, opening)

    @staticmethod
    def _card_reason(state: GanjifaState, seat: int, card: int, opening: bool
                     ) -> Reason | None:
        """G5, G6: a card led or played to the trick."""
        trump, trick, hand = state.trump, state.trick, state.hands[seat]
        codes = DECK.codes
        if not hand >> card & 1:
            return Reason("card_not_in_hand", "G6", {"seat": seat, "card": codes[card]})
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
            if nxt is None:  # the card played is of a suit after the led one
                raise ValueError("a Ganjifa card of no suit after the led one")
            return Reason("must_follow_or_next_suit", "G6", {"seat": seat, "suit": SUITS[nxt]})
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
        absent = mask & ~hands[seat]
        if absent:
            return Reason("card_not_in_hand", "G8", {"seat": seat, "card": codes[lowest(absent)]})
        flaw = dukal_flaw(mask)
        if flaw:
            return Reason("invalid_dukal", "G8", flaw)
        smallest = min(hands[(seat + 1) % 3].bit_count(), hands[(seat + 2) % 3].bit_count())
        if len(cards) > smallest:
            return Reason("dukal_too_large", "G8", {"size": len(cards), "smallest": smallest})
        return None

    def transition(self, state: GanjifaState, move: Move) -> tuple[GanjifaState, list[dict]]:
        trump, hands, captured, leader, trick, dukal, _, _, tricks, dukals, voids = state
        seat, action, card = move[0], move[1], move[2]
        if action == "play":
            if card is None:  # check_form has refused it; this tells mypy
                raise missing(move, "card")
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
        if move.cards is None:
            raise missing(move, "cards")
        cards = mask_of(move.cards)
        if action == "dukal":
            return self._dukal_led(state, seat, cards)
        return self._dukal_answered(state, seat, cards)

    @staticmethod
    def _dukal_led(state: GanjifaState, seat: int, cards: int
                   ) -> tuple[GanjifaState, list[dict]]:
        """G8: the Dukal leaves the leader's hand; the seat after the leader answers
        first."""
        return (state._replace(hands=_without(state.hands, seat, cards), trick=(),
                               dukal=Dukal(seat, cards, ()), phase="dukal",
                               to_act=(seat + 1) % PLAYERS),
                [{"type": "dukal_led", "seat": seat, "cards": bit_list(cards)}])

    @staticmethod
    def _dukal_answered(state: GanjifaState, seat: int, cards: int
                        ) -> tuple[GanjifaState, list[dict]]:
        """G8: an opponent's discards; after the last one the leader captures all 3k cards
        and leads again, or the deal is over (G9)."""
        dukal = state.dukal
        if dukal is None:
            raise ValueError("a Ganjifa discard with no Dukal to answer")
        hands = _without(state.hands, seat, cards)
        event = {"type": "dukal_answered", "seat": seat, "cards": bit_list(cards)}
        discards = (*dukal.discards, cards)
        if len(discards) < PLAYERS - 1:  # G8: the next opponent answers
            return (state._replace(hands=hands, dukal=Dukal(dukal.seat, dukal.cards, discards),
                                   to_act=(seat + 1) % PLAYERS), [event])
        won = dukal.cards | discards[0] | discards[1]
        captured = _adding(state.captured, dukal.seat, won)
        dukals = state.dukals
        if dukals is not None:
            dukals = (*dukals, Dukal(dukal.seat, dukal.cards, discards))
        events = [event, {"type": "dukal_captured", "seat": dukal.seat, "cards": bit_list(won)}]
        over = not (hands[0] | hands[1] | hands[2])
        new = state._replace(hands=hands, captured=captured, leader=dukal.seat, trick=(),
                             dukal=None, phase="over" if over else "play",
                             to_act=None if over else dukal.seat, dukals=dukals)
        if over:  # G9
            events.append({"type": "deal_over", "settlement": _settlement(new)})
        return new, events

    def settlement(self, state: GanjifaState) -> dict | None:
        if state.phase != "over":
            return None
        return _settlement(state)

    # -- what a seat sees ----------------------------------------------------------

    def observe(self, state: GanjifaState, seat: int) -> View:
        return observe(state, seat)

    def sample(self, view: View, rng: random.Random) -> GanjifaState:
        return sample(view, rng)

GAME = Ganjifa()
