"""The Game: the deal, reading a state, the moves, the settlement and the view."""

from __future__ import annotations

import random
from typing import Any

from rules.cards import Deck
from rules.durak import bout, checks, end, view
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
    SUITS,
    TAKES,
    deck_size_of,
    sorted_cards,
)
from rules.durak.deal import deal_from
from rules.durak.options import CLASSIC, COUNTS, PLAYERS, Setup, setup, setup_problems
from rules.durak.state import ClassicState, DurakState, State, gone, named, next_in
from rules.game import (
    UNSET,
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

    # -- dealing -----------------------------------------------------------------

    @staticmethod
    def setup_of(order: list[int] | None = None, players: int = PLAYERS,
                 cards: int | None = None, transfer: bool = False, throw_in: str = "all",
                 first_bout: int = BOUT_LIMIT, known: bool = False) -> Setup:
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
                     first_bout, bool(known))

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

    def build(
        self,
        trump: str,
        hands: list[list[int]],
        stock: list[int],
        discard: list[int],
        attacker: int,
        table: list[tuple[int, int | None]],
        taking: bool,
        phase: str = UNSET,
        to_act: int | None = UNSET,
        result: dict | None = UNSET,
        transfer: bool = False,
        throw_in: str = "all",
        first_bout: int = BOUT_LIMIT,
        trump_card: int | None = None,
        out: list[list[int]] | None = None,
        defender: int | None = UNSET,
        known: list[list[int]] | None = None,
    ) -> State:
        """A state from its fields (cards as indices), or InvalidState with every problem
        found. Field paths match the JSON state of API.md."""
        players = len(hands)
        problems: list[Problem] = []
        if players not in COUNTS:
            raise InvalidState([Problem("hands", "durak_players", {"players": players})])
        if not 0 <= attacker < players:
            raise InvalidState([Problem("attacker", "seat_range",
                                        {"seat": attacker, "players": players})])
        if out is not None and players == 2:
            problems.append(Problem("out", "durak_out_two"))
        t = SUITS.index(trump)
        size, found, masks, discard_mask = checks.pile_problems(hands, stock, discard, table)
        problems += found
        wrong_setup = setup_problems(players, size, throw_in, first_bout, "hands")
        if wrong_setup:  # the checks below read the deal's setup
            raise InvalidState(problems + wrong_setup)
        chosen = setup(players, size, bool(transfer), throw_in, first_bout, known is not None)
        out_lists = [list(g) for g in out] if out is not None else []
        out_mask = 0
        if players > 2:  # with two, going out ends the deal: the hands say who (D24)
            out_mask, found = checks.out_problems(hands, stock, table, attacker, out_lists)
            problems += found
        over_seat = players - out_mask.bit_count() <= 1 and not stock and not table
        the_defender = next_in(attacker, players, out_mask)
        problems += checks.trump_problems(t, stock, trump_card, chosen.whole_deck_dealt)
        problems += checks.table_problems(t, table, taking, chosen.transfer)
        problems += checks.discard_problems(t, discard)
        problems += checks.first_attacker_problems(masks, stock, discard, table, attacker, t,
                                                   size, out_lists)
        if not over_seat:
            problems += checks.bout_problems(hands, stock, discard, attacker, the_defender,
                                             table, chosen)
        # With two, the hands say the deal ended (D14): a hand emptied by the last bout.
        ended = over_seat or players == 2 and not stock and not table and not all(hands)
        if (players > 2 or chosen.transfer) and not ended:
            problems += checks.start_problems(t, hands, stock, discard, table, taking,
                                              attacker, the_defender, out_mask, chosen)
        if known is not None:
            problems += checks.known_problems(known, hands)
        if problems:
            raise InvalidState(problems)
        pairs = tuple([(a, -1 if d is None else d) for a, d in table])
        if players == 2:
            now, acting = bout.turn(masks, stock, attacker, pairs, taking)
            groups = end.two_player_out(masks, now == "over")
        else:
            groups = tuple(tuple(g) for g in out_lists)
            holding = players - out_mask.bit_count()
            if not pairs and not stock and holding <= 1:
                now, acting = "over", None
            elif bout.first_unbeaten(pairs) >= 0 and not taking:
                now, acting = "defend", the_defender
            else:
                now = "attack"
                acting = None if to_act is UNSET else to_act
                problems += checks.to_act_problems(acting, attacker, the_defender, players,
                                                   out_mask, throw_in, bool(pairs))
                if problems:
                    raise InvalidState(problems)
        state: State
        if chosen is CLASSIC:
            state = (t, masks, tuple(stock), discard_mask, attacker, pairs, bool(taking), now,
                     acting)
        else:
            state = DurakState(t, masks, tuple(stock), discard_mask, attacker,
                               pairs, bool(taking), now, acting, chosen, groups,
                               -1 if trump_card is None else trump_card,
                               None if known is None else tuple(tuple(k) for k in known))
        derived = derived_problems(self, state, phase, to_act)
        if result is not UNSET and result != end.result(named(state)):
            derived.append(Problem("result", "result"))
        if defender is not UNSET and defender != self.defender(state):
            derived.append(Problem("defender", "durak_defender",
                                   {"now": self.defender(state), "given": defender}))
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
        trump, (hand0, hand1), stock, discard, attacker, table, taking, _, to_act = state
        # By index: a NamedTuple's field by name costs a descriptor call.
        seat, action = move[0], move[1]
        if seat != to_act:
            raise IllegalMove(f"seat {seat} is not to act (seat {to_act} is)")
        if action == "attack" or action == "defend":
            card = move[2]
            try:
                b = CLASSIC_BIT[card]  # type: ignore[index]  # anything but a card raises
            except (KeyError, TypeError):
                b = 0
            if seat:
                if not hand1 & b:
                    raise IllegalMove(f"seat 1 does not hold card {card!r}")
                hand1 ^= b
            else:
                if not hand0 & b:
                    raise IllegalMove(f"seat 0 does not hold card {card!r}")
                hand0 ^= b
            if action == "attack":
                table = (*table, (card, -1))
                # D10: after take the attacker adds cards for the defender to take
                return (trump, (hand0, hand1), stock, discard, attacker, table, taking,
                        "attack" if taking else "defend", attacker if taking else 1 - attacker)
            if not table or table[-1][1] >= 0:
                raise IllegalMove("no attack to beat")
            return (trump, (hand0, hand1), stock, discard, attacker,
                    table[:-1] + ((table[-1][0], card),), False, "attack", attacker)
        if action == "take":
            return (trump, (hand0, hand1), stock, discard, attacker, table, True, "attack",
                    attacker)
        if action != "pass" or not table:
            raise IllegalMove(f"no {action} now")
        # D10, D11: the attacker passed and the bout ends.
        on_table = 0
        for a, d in table:
            on_table |= BIT[a] | BIT[d]
        if not taking:
            discard |= on_table
            next_attacker = 1 - attacker  # D11
        else:
            if attacker:
                hand0 |= on_table
            else:
                hand1 |= on_table
            next_attacker = attacker  # D10
        if stock:  # D12: the attacker of the bout draws up to six first, then the defender
            first, second = (hand1, hand0) if attacker else (hand0, hand1)
            drawn = HAND_SIZE - first.bit_count()
            if drawn > 0:
                for c in stock[:drawn]:
                    first |= BIT[c]
            else:
                drawn = 0
            need = HAND_SIZE - second.bit_count()
            if need > 0:
                for c in stock[drawn:drawn + need]:
                    second |= BIT[c]
                drawn += need
            stock = stock[drawn:]
            hand0, hand1 = (second, first) if attacker else (first, second)
        over = not stock and not (hand0 and hand1)  # D14: the stock is out, a hand is empty
        return (trump, (hand0, hand1), stock, discard, next_attacker, (), False,
                "over" if over else "attack", None if over else next_attacker)

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
        hands, table, taking = state.hands, state.table, state.taking
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
        on_table = [c for pair in table for c in pair if c >= 0]
        defender = next_in(state.attacker, len(hands), gone(state.out))
        kind = "bout_taken" if taking else "bout_beaten_off"
        events: list[dict] = [{"type": kind, "seat": defender, "cards": sorted(on_table)}]
        players = len(hands)
        order = [(state.attacker + k) % players for k in range(players)]
        for s in order:
            drawn = new.hands[s].bit_count() - hands[s].bit_count()
            if s == defender and taking:
                drawn -= len(on_table)
            if drawn:
                events.append({"type": "cards_drawn", "seat": s, "count": drawn})
        if len(new.out) > len(state.out) and players > 2:
            events.append({"type": "went_out", "seats": list(new.out[-1])})
        if new.phase == "over":
            events.append({"type": "deal_over", "settlement": end.result(new)})
        return events

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
