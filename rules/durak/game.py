"""The Game: the deal, reading a state, the moves, the settlement and the view."""

from __future__ import annotations

import random
from typing import Any

from rules.cards import Deck
from rules.durak import bout, end, fields, view
from rules.durak.cards import (
    ALL,
    ATTACKS,
    BEATERS,
    BIT,
    BOUT_LIMIT,
    DECK,
    DECKS,
    DEFENCES,
    HAND_SIZE,
    PASSES,
    RANK_MASK_OF,
    TAKES,
    deck_size_of,
    sorted_cards,
)
from rules.durak.deal import deal_from
from rules.durak.fields import Fields
from rules.durak.options import CLASSIC, COUNTS, PLAYERS, Setup, setup, setup_problems
from rules.durak.state import ClassicState, State, gone, named, next_in
from rules.game import (
    Game,
    IllegalMove,
    InvalidState,
    Move,
    Problem,
    View,
    derived_problems,
)
from rules.reasons import Reason
from rules.texts import english

# A card of the 36-card deck to its bit, for `apply`'s check that the hand holds it. A
# dict, not a tuple: an index outside the deck (a negative one above all) must fail, not
# alias another card.
CLASSIC_BIT = {c: 1 << c for c in range(36)}


def deck_problems(order: list[int], size: int) -> list[Problem]:
    """D1, D16: a stacked deck that is not the deck of `size` cards once: each card given
    twice, at its second place, then the cards missing."""
    seen: dict[int, int] = {}
    problems = []
    for i, c in enumerate(order):
        if c in seen:
            problems.append(Problem(f"deck.{i}", "card_twice",
                                    {"card": ALL.codes[c], "also": f"deck.{seen[c]}"}))
        else:
            seen[c] = i
    missing = [ALL.codes[c] for c in range(len(ALL)) if DECKS[size] >> c & 1 and c not in seen]
    if missing:
        problems.append(Problem("deck", "cards_missing", {"count": len(missing),
                                                          "cards": missing}))
    extra = [ALL.codes[c] for c in seen if not DECKS[size] >> c & 1]
    if extra:
        problems.append(Problem("deck", "durak_deck_cards", {"count": size, "cards": extra}))
    return problems


def card_laid(state: tuple, seat: int, action: str, card: Any) -> tuple:
    """A card attacked or defended with in the default deal (`Durak.apply`'s hot path)."""
    trump, (hand0, hand1), stock, discard, attacker, table, taking, _, _ = state
    try:
        b = CLASSIC_BIT[card]  # anything but a card of the deck raises
    except (KeyError, TypeError):
        b = 0
    if seat:
        if not hand1 & b:
            raise IllegalMove(f"seat 1 does not hold card {card!r}")
        hands = (hand0, hand1 ^ b)
    else:
        if not hand0 & b:
            raise IllegalMove(f"seat 0 does not hold card {card!r}")
        hands = (hand0 ^ b, hand1)
    if action == "attack":
        # D10: after take the attacker adds cards for the defender to take
        return (trump, hands, stock, discard, attacker, (*table, (card, -1)), taking,
                "attack" if taking else "defend", attacker if taking else 1 - attacker)
    if not table or table[-1][1] >= 0:
        raise IllegalMove("no attack to beat")
    return (trump, hands, stock, discard, attacker, table[:-1] + ((table[-1][0], card),),
            False, "attack", attacker)


def bout_over(state: tuple) -> tuple:
    """D10, D11: the attacker passed and the bout ends in the default deal: the table goes
    to the discard pile or to the defender who took, the hands are refilled (D12), and
    the deal may end (D14)."""
    trump, (hand0, hand1), stock, discard, attacker, table, taking, _, _ = state
    on_table = 0
    for a, d in table:
        on_table |= BIT[a] | BIT[d]
    if not taking:
        discard |= on_table
        next_attacker = 1 - attacker  # D11
    elif attacker:
        hand0 |= on_table
        next_attacker = attacker  # D10
    else:
        hand1 |= on_table
        next_attacker = attacker
    if stock:  # D12: the attacker of the bout draws up to six first, then the defender
        if attacker:
            hand1, hand0, stock = refilled(hand1, hand0, stock)
        else:
            hand0, hand1, stock = refilled(hand0, hand1, stock)
    over = not stock and not (hand0 and hand1)  # D14: the stock is out, a hand is empty
    return (trump, (hand0, hand1), stock, discard, next_attacker, (), False,
            "over" if over else "attack", None if over else next_attacker)


def refilled(first: int, second: int, stock: tuple[int, ...]) -> tuple[int, int, tuple]:
    """D12: `first` draws up to six from the stock, then `second`; what is left of it."""
    drawn = max(0, HAND_SIZE - first.bit_count())
    for c in stock[:drawn]:
        first |= BIT[c]
    need = max(0, HAND_SIZE - second.bit_count())
    for c in stock[drawn:drawn + need]:
        second |= BIT[c]
    return first, second, stock[drawn + need:]


def bout_events(state: Any, new: Any) -> list[dict]:
    """What the end of a bout did (named states before and after it): the table taken or
    beaten off (D10, D11), the cards each seat drew (D12), who went out (D23), and the
    deal's end."""
    hands, table, players = state.hands, state.table, len(state.hands)
    on_table = [c for pair in table for c in pair if c >= 0]
    defender = next_in(state.attacker, players, gone(state.out))
    kind = "bout_taken" if state.taking else "bout_beaten_off"
    events: list[dict] = [{"type": kind, "seat": defender, "cards": sorted(on_table)}]
    for s in [(state.attacker + k) % players for k in range(players)]:
        drawn = new.hands[s].bit_count() - hands[s].bit_count()
        if s == defender and state.taking:
            drawn -= len(on_table)
        if drawn:
            events.append({"type": "cards_drawn", "seat": s, "count": drawn})
    if len(new.out) > len(state.out) and players > 2:
        events.append({"type": "went_out", "seats": list(new.out[-1])})
    if new.phase == "over":
        events.append({"type": "deal_over", "settlement": end.result(new)})
    return events


# D16: each deck's cards in suit and rank order (the 36-card deck's is its index order).
DECK_LISTS = {size: tuple(sorted_cards(mask)) for size, mask in DECKS.items()}


class Durak(Game):
    id = "durak"
    name = english("game.durak.name")
    players = PLAYERS
    summary = english("game.durak.summary")
    deck = DECK
    deck_info = {
        "name": english("game.durak.deck.name"),
        "size": 36,
        "origin": english("game.durak.deck.origin"),
        "wikipedia": "https://en.wikipedia.org/wiki/Durak",
    }
    rules = tuple(f"D{i}" for i in range(1, 26))
    move_fields = {a: ("card",) if a in ("attack", "defend", "transfer") else ()
                   for a in bout.ACTIONS}
    actions = bout.ACTIONS

    @property
    def all_cards(self) -> Deck:
        """D16: the cards of all three decks, one numbering (rules/durak/cards.py)."""
        return ALL

    @property
    def decks(self) -> dict[int, tuple[int, ...]]:
        return DECK_LISTS

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(COUNTS)

    def score_bounds(self, players: int) -> tuple[int, int]:
        return -(players - 1), 1  # D25: the durak, and every other player

    # -- dealing -----------------------------------------------------------------

    @staticmethod
    def setup_of(order: list[int] | None = None, players: int = PLAYERS,
                 cards: int | None = None, transfer: bool = False, throw_in: str = "all",
                 first_bout: int = BOUT_LIMIT, known: bool = False, history: bool = False
                 ) -> Setup:
        """D16: the deal's setup from the deal's options; InvalidState naming each option
        at fault. With a stacked `order`, its cards say the deck, and `cards` must agree."""
        if order is not None:
            size = len(order)
            mask = 0
            for c in order:
                mask |= 1 << c
            if size not in DECKS or mask != DECKS[size]:
                # The deck it was meant to be: the one named, else the smallest that holds
                # every card given (D16).
                meant = cards if cards in DECKS else deck_size_of(mask)
                raise InvalidState(deck_problems(order, meant))
            if cards is not None and cards != size:
                raise InvalidState([Problem("cards", "durak_deck_disagrees",
                                            {"cards": cards, "count": size})])
            cards = size
        found = setup_problems(players, 36 if cards is None else cards, throw_in, first_bout)
        if found:
            raise InvalidState(found)
        return setup(players, 36 if cards is None else cards, bool(transfer), throw_in,
                     first_bout, bool(known), bool(history))

    def deal(self, rng: random.Random, order: list[int] | None = None, **options: Any
             ) -> State:
        if not options and order is None:
            return deal_from(self.shuffle(rng), CLASSIC)
        chosen = self.setup_of(order, **options)
        return deal_from(self.shuffle(rng, **options) if order is None else order, chosen)

    def shuffle(self, rng: random.Random, cards: int | None = None, **options: Any
                ) -> list[int]:
        """The whole deck of `cards` (D16) in a random order, first = top."""
        if cards is None or cards == 36:
            return super().shuffle(rng)
        if cards not in DECKS:
            raise InvalidState([Problem("cards", "durak_deck", {"cards": cards})])
        deck = [c for c in range(52) if DECKS.get(cards, 0) >> c & 1]
        keys = [rng.random() for _ in deck]
        return [deck[i] for i in sorted(range(len(deck)), key=keys.__getitem__)]

    def deal_from(self, order: list[int], chosen: Setup = CLASSIC) -> State:
        """D2, D17: six cards each, the next card turned up for trump and put under the
        stock, or shown when the hands take the whole deck."""
        return deal_from(order, chosen)

    # -- reading a state -----------------------------------------------------------

    def build(self, *given: Any, **by_name: Any) -> State:
        """A state from its fields (`fields.Fields`, cards as indices), or InvalidState with
        every problem found. Field paths match the JSON state of API.md."""
        f = Fields(*given, **by_name)
        reading, problems = fields.read(f)
        problems += fields.rule_problems(f, reading)
        if problems:
            raise InvalidState(problems)
        state = fields.made(f, reading)
        derived = derived_problems(self, state, f.phase, f.to_act)
        derived += fields.result_problems(f, state, self.defender)
        if derived:
            raise InvalidState(derived)
        return state

    # -- the moves -----------------------------------------------------------------

    def legal_moves(self, state: State) -> list[Move]:
        # The hot path of every random deal and search: the two-player 36-card deal without
        # options (CLASSIC) unpacked once, no helper calls, the three 12-bit move tables read
        # inline; every other deal by bout.legal_moves.
        if state.__class__ is not tuple:
            if state.__class__ is not ClassicState:
                return bout.legal_moves(state)  # type: ignore[arg-type]  # a DurakState
            state = tuple(state)
        trump, hands, _, _, attacker, table, taking, phase, _ = state
        if phase == "attack":
            if not table:
                hand = hands[attacker]
                t = ATTACKS[attacker]  # D6
                return [*t[0][hand & 0xFFF], *t[1][hand >> 12 & 0xFFF], *t[2][hand >> 24]]
        elif phase == "defend":
            defender = 1 - attacker
            m = hands[defender] & BEATERS[trump][table[-1][0]]
            t = DEFENCES[defender]
            return [*t[0][m & 0xFFF], *t[1][m >> 12 & 0xFFF], *t[2][m >> 24],
                    TAKES[defender]]  # D7
        else:
            return []  # D14
        # D8, D9 as in bout.bout_limit() and bout.table_ranks(), inlined: this is the hottest
        # line of every random deal and search, where two function calls are a measurable
        # share of a deal. The invariant test checks the two agree at every step.
        n = len(table)
        if taking:
            defended = 0
            for _, d in table:
                if d >= 0:
                    defended += 1
        else:
            defended = n
        if n < BOUT_LIMIT and n < hands[1 - attacker].bit_count() + defended:
            ranks = 0
            for a, d in table:
                ranks |= RANK_MASK_OF[a] | RANK_MASK_OF[d]
            m = hands[attacker] & ranks
            t = ATTACKS[attacker]
            return [*t[0][m & 0xFFF], *t[1][m >> 12 & 0xFFF], *t[2][m >> 24], PASSES[attacker]]
        return [PASSES[attacker]]  # D13

    def verify(self, state: State, move: Move) -> Reason | None:
        state = named(state)
        self.check_form(state, move)
        return bout.verify(state, move, ALL.codes)

    def apply(self, state: State, move: Move) -> State:
        # The hot path of the default deal (CLASSIC): no events are described. The seat and
        # the card are checked (a card not in the hand would be put in by XOR); the rest of
        # a move's legality is `verify`'s.
        if state.__class__ is not tuple:
            return self.apply_named(state, move)
        # By index: a NamedTuple's field by name costs a descriptor call.
        seat, action = move[0], move[1]
        if seat != state[8]:
            raise IllegalMove(f"seat {seat} is not to act (seat {state[8]} is)")
        if action == "attack" or action == "defend":
            return card_laid(state, seat, action, move[2])
        if action == "take":  # D10
            trump, hands, stock, discard, attacker, table, _, _, _ = state
            return (trump, hands, stock, discard, attacker, table, True, "attack", attacker)
        if action != "pass" or not state[5]:
            raise IllegalMove(f"no {action} now")
        return bout_over(state)

    def apply_named(self, state: State, move: Move) -> State:
        """`apply` of a state given with its fields' names: a ClassicState as the default
        deal's plain tuple, any other deal's by the general rules."""
        if state.__class__ is ClassicState:
            return self.apply(tuple(state), move)
        return bout.apply(state, move)  # type: ignore[arg-type]  # a DurakState

    def transition(self, state: State, move: Move) -> tuple[State, list[dict]]:
        new = self.apply(state, move)
        return new, self.events(state, move, new)

    def events(self, state: State, move: Move, new: State) -> list[dict]:
        """What a move did, read off the states before and after it."""
        state, new = named(state), named(new)
        table = state.table
        seat, action = move.seat, move.action
        if action == "attack":
            return [{"type": "attacked", "seat": seat, "card": move.card}]
        if action == "defend":
            return [{"type": "defended", "seat": seat, "card": move.card,
                     "attack": table[bout.first_unbeaten(table)][0]}]
        if action == "transfer":
            return [{"type": "transferred", "seat": seat, "card": move.card,
                     "defender": self.defender(new)}]
        if action == "take":
            return [{"type": "take_declared", "seat": seat}]
        if new.table:  # D20: the next in the round is asked
            return [{"type": "passed", "seat": seat, "next": new.to_act}]
        return bout_events(state, new)

    def settlement(self, state: State) -> dict | None:
        """D25, as API.md gives it for every count: with two players D15's settlement with
        `out` and `players` added."""
        return end.result(named(state))

    def result(self, state: State) -> dict | None:
        return end.result(named(state))

    def defender(self, state: State) -> int | None:
        state = named(state)
        return None if state.phase == "over" else next_in(
            state.attacker, len(state.hands), gone(state.out))

    def to_act(self, state: State) -> int | None:
        return state[8]  # the plain tuple's and both named states' to_act

    def seats(self, state: State) -> int:
        return len(state[1])

    def hand(self, state: State, seat: int) -> int:
        return state[1][seat]

    def derived(self, state: State) -> tuple[str, int | None, dict | None]:
        state = named(state)
        return state.phase, state.to_act, end.result(state)

    # -- what a seat sees ----------------------------------------------------------

    def observe(self, state: State, seat: int) -> View:
        return view.observe(named(state), seat)

    def sample(self, v: View, rng: random.Random) -> State:
        return view.sample(v, rng)

    def view_settlement(self, v: View) -> dict | None:
        """The settlement as the wire gives it (`result`), as the seat learns it."""
        if v.phase != "over":
            return None
        return end.result(named(self.sample(v, random.Random(0))))


GAME = Durak()
