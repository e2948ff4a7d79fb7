"""Two-player Durak, one deal: rules D1–D15 of RULES.md."""

from __future__ import annotations

from typing import NamedTuple

from rules.cards import Card, Deck, bit_list, lowest, mask_of, move_chunks
from rules.game import (
    UNSET,
    Game,
    InvalidState,
    Move,
    Problem,
    View,
    conservation_problems,
    derived_problems,
    placed,
)
from rules.reasons import Reason
from rules.texts import ENGLISH, card_name, english

SUITS = "SHDC"
RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")  # D1, low to high
# D1: the Atlasnye courts carry Cyrillic indices (Валет, Дама, Король, Туз).
LABELS = ("6", "7", "8", "9", "10", "В", "Д", "К", "Т")
HAND_SIZE = 6  # D2, D12
BOUT_LIMIT = 6  # D9

DECK = Deck(
    Card(RANKS[r] + s, s, RANKS[r], card_name(ENGLISH, "durak", s, RANKS[r]), LABELS[r])
    for s in SUITS
    for r in range(len(RANKS))
)
SUIT_OF = tuple(i // len(RANKS) for i in range(len(DECK)))
RANK_OF = tuple(i % len(RANKS) for i in range(len(DECK)))
SUIT_MASK = tuple(mask_of(range(s * 9, s * 9 + 9)) for s in range(4))
RANK_MASK = tuple(mask_of(range(r, len(DECK), 9)) for r in range(9))
# The rank mask of each card; index -1 (an unbeaten slot on the table) reads the trailing 0.
RANK_MASK_OF = (*(RANK_MASK[RANK_OF[c]] for c in range(len(DECK))), 0)
BIT = (*(1 << c for c in range(len(DECK))), 0)  # likewise: BIT[-1] == 0


def _beaters(trump: int, attack: int) -> int:
    """D4: the cards that beat `attack` when `trump` is the trump suit."""
    suit, rank = SUIT_OF[attack], RANK_OF[attack]
    higher = mask_of(suit * 9 + r for r in range(rank + 1, 9))
    return higher if suit == trump else higher | SUIT_MASK[trump]


BEATERS = tuple(tuple(_beaters(t, a) for a in range(len(DECK))) for t in range(4))

# Every possible move, built once: legal-move listing then only picks from tables.
ATTACKS = tuple(move_chunks(len(DECK), lambda c, s=s: Move(s, "attack", card=c)) for s in (0, 1))
DEFENCES = tuple(move_chunks(len(DECK), lambda c, s=s: Move(s, "defend", card=c)) for s in (0, 1))


TAKES = (Move(0, "take"), Move(1, "take"))
PASSES = (Move(0, "pass"), Move(1, "pass"))


class DurakState(NamedTuple):
    """The state convention of rules/game.py: the fields of API.md's JSON state."""

    trump: int  # suit index into SUITS
    hands: tuple[int, int]  # bitmasks
    stock: tuple[int, ...]  # drawing order; last is the turned-up card (D2)
    discard: int  # bitmask of the beaten-off cards, out of play (D11)
    attacker: int
    table: tuple[tuple[int, int], ...]  # (attack, defence or -1 while unbeaten)
    taking: bool  # the defender has declared take in this bout (D10)
    phase: str  # attack | defend | over
    to_act: int | None


# The hot paths build a state from a tuple at C speed: a NamedTuple's own constructor is a
# Python function, a measurable share of a random deal.
_new = tuple.__new__


def turn(hands: tuple[int, int], stock, attacker: int, table, taking: bool
         ) -> tuple[str, int | None]:
    """The phase and the seat to act, from the facts: what `deal_from` and `build` store
    and each move keeps up to date (the invariant test holds the two to each other)."""
    if not table:
        # D14: hands are checked only between bouts, once the stock is empty.
        if not stock and not (hands[0] and hands[1]):
            return "over", None
        return "attack", attacker
    if table[-1][1] < 0 and not taking:
        return "defend", 1 - attacker  # D7: the defender answers the unbeaten attack
    return "attack", attacker


def bout_limit(state: DurakState) -> int:
    """D9: at most 6 attacks, and no more than the defender held at the bout's start."""
    hands, attacker, table, taking = state.hands, state.attacker, state.table, state.taking
    defended = len(table) if not taking else sum(1 for _, d in table if d >= 0)
    return min(BOUT_LIMIT, hands[1 - attacker].bit_count() + defended)


def table_ranks(table: tuple[tuple[int, int], ...]) -> int:
    """The mask of every card whose rank lies on the table (D8)."""
    m = 0
    for a, d in table:
        m |= RANK_MASK_OF[a] | RANK_MASK_OF[d]
    return m


def _settlement(state: DurakState) -> dict:
    """D15: winner +1, durak −1; a draw 0 and 0."""
    hands = state.hands
    if not hands[0] and not hands[1]:
        return {"outcome": "draw", "durak": None, "scores": [0, 0]}
    durak = 0 if hands[0] else 1
    scores = [1, 1]
    scores[durak] = -1
    return {"outcome": "durak", "durak": durak, "scores": scores}


def _first_attacker(hands: tuple[int, int], trump: int) -> int:
    """D5: the holder of the lowest trump; seat 0 when neither hand holds one."""
    trumps = [hands[s] & SUIT_MASK[trump] for s in (0, 1)]
    if not trumps[0] and not trumps[1]:
        return 0
    if not trumps[1]:
        return 0
    if not trumps[0]:
        return 1
    return 0 if lowest(trumps[0]) < lowest(trumps[1]) else 1


# -- the checks of a state given as fields, one rule block each ---------------------------

Table = list[tuple[int, int | None]]


def pile_problems(hands: list[list[int]], stock: list[int], discard: list[int],
                  table: Table) -> list[Problem]:
    """D1: every card once across the piles; D11: the discard pile holds whole beaten-off
    bouts, an attack and its defence each, so an even number of cards."""
    def places() -> list[tuple[str, int]]:
        out = [*placed("hands.0", hands[0]), *placed("hands.1", hands[1]),
               *placed("stock", stock), *placed("discard", discard)]
        for i, (a, d) in enumerate(table):
            out.append((f"table.{i}.attack", a))
            if d is not None:
                out.append((f"table.{i}.defense", d))
        return out

    on_table = [c for pair in table for c in pair if c is not None]
    problems = conservation_problems(
        DECK, (hands[0], hands[1], stock, discard, on_table), places)
    if len(discard) % 2:
        problems.append(Problem("discard", "durak_discard_odd", {"count": len(discard)}))
    return problems


def trump_problems(trump: int, stock: list[int]) -> list[Problem]:
    """D2, D3: the trump is the suit of the turned-up card, the stock's last."""
    if stock and SUIT_OF[stock[-1]] != trump:
        return [Problem("trump", "durak_trump", {"card": DECK.codes[stock[-1]]})]
    return []


def table_problems(trump: int, table: Table, taking: bool) -> list[Problem]:
    """D4, D7, D8: each attack matches a rank on the table, each defence beats its attack,
    and only the last attack is unbeaten — or several, once the defender takes."""
    problems = []
    codes = DECK.codes
    ranks = 0
    unbeaten = 0
    for i, (a, d) in enumerate(table):
        if i and not ranks & RANK_MASK[RANK_OF[a]]:
            problems.append(Problem(f"table.{i}.attack", "durak_rank", {"card": codes[a]}))
        ranks |= RANK_MASK[RANK_OF[a]]
        if d is None:
            unbeaten += 1
            continue
        if unbeaten:
            problems.append(Problem(f"table.{i}.defense", "durak_defence_after_unbeaten"))
        ranks |= RANK_MASK[RANK_OF[d]]
        if not BEATERS[trump][a] >> d & 1:
            problems.append(Problem(f"table.{i}.defense", "durak_cannot_beat",
                                    {"card": codes[d], "attack": codes[a]}))
    if taking and not unbeaten:
        problems.append(Problem("taking", "durak_take_nothing"))
    if not taking and unbeaten > 1:
        problems.append(Problem("table", "durak_unbeaten"))
    return problems


def bout_problems(hands: list[list[int]], stock: list[int], attacker: int,
                  table: Table) -> list[Problem]:
    """D9: the bout limit; D12: while the stock lasts, both began the bout with six."""
    problems = []
    defender = 1 - attacker
    defended = sum(1 for _, d in table if d is not None)
    limit = min(BOUT_LIMIT, len(hands[defender]) + defended)
    if len(table) > limit:
        problems.append(Problem("table", "durak_bout_limit",
                                {"count": len(table), "limit": limit}))
    if stock:
        if len(hands[attacker]) + len(table) < HAND_SIZE:
            problems.append(Problem(f"hands.{attacker}", "durak_attacker_short"))
        if len(hands[defender]) + defended < HAND_SIZE:
            problems.append(Problem(f"hands.{defender}", "durak_defender_short"))
    return problems


class Durak(Game):
    id = "durak"
    name = english("game.durak.name")
    players = 2
    summary = english("game.durak.summary")
    deck = DECK
    deck_info = {
        "name": english("game.durak.deck.name"),
        "size": 36,
        "origin": english("game.durak.deck.origin"),
        "wikipedia": "https://en.wikipedia.org/wiki/Durak",
    }
    rules = tuple(f"D{i}" for i in range(1, 16))
    actions = ("attack", "defend", "take", "pass")

    # -- dealing -----------------------------------------------------------------

    def deal_from(self, order: list[int]) -> DurakState:
        """D2: six cards each, the 13th card turned up for trump and put under the stock."""
        hands = (mask_of(order[0:6]), mask_of(order[6:12]))
        turned = order[12]
        trump = SUIT_OF[turned]
        stock = (*order[13:], turned)
        attacker = _first_attacker(hands, trump)
        return DurakState(trump, hands, stock, 0, attacker, (), False, "attack", attacker)

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
    ) -> DurakState:
        """A state from its fields (cards as deck indices), or InvalidState with every
        problem found. Field paths match the JSON state of API.md."""
        t = SUITS.index(trump)
        problems = [*pile_problems(hands, stock, discard, table),
                    *trump_problems(t, stock),
                    *table_problems(t, table, taking),
                    *bout_problems(hands, stock, attacker, table)]
        if problems:
            raise InvalidState(problems)
        # Every card is known to lie once (pile_problems above), so a sum of bits is their
        # mask, added at C speed.
        bit = BIT.__getitem__
        masks = (sum(map(bit, hands[0])), sum(map(bit, hands[1])))
        pairs = tuple([(a, -1 if d is None else d) for a, d in table])
        state = DurakState(t, masks, tuple(stock), sum(map(bit, discard)), attacker, pairs,
                           bool(taking), *turn(masks, stock, attacker, pairs, taking))
        derived = derived_problems(self, state, phase, to_act, result)
        if derived:
            raise InvalidState(derived)
        return state

    # -- the moves -----------------------------------------------------------------

    def legal_moves(self, state: DurakState) -> list[Move]:
        # The hot path of every random deal and search: unpacked once, no helper calls, the
        # three 12-bit move tables of `_listed` read inline.
        trump, hands, _, _, attacker, table, taking, phase, seat = state
        if phase == "attack":
            if not table:
                hand = hands[attacker]
                t = ATTACKS[attacker]  # D6
                return [*t[0][hand & 0xFFF], *t[1][hand >> 12 & 0xFFF], *t[2][hand >> 24]]
        elif phase == "defend":
            assert seat is not None  # the defender answers
            m = hands[seat] & BEATERS[trump][table[-1][0]]
            t = DEFENCES[seat]
            return [*t[0][m & 0xFFF], *t[1][m >> 12 & 0xFFF], *t[2][m >> 24], TAKES[seat]]  # D7
        else:
            return []  # D14
        # D8, D9 as in bout_limit() and table_ranks(), inlined: this is the hottest line of
        # every random deal and search, where two function calls are a measurable share of a
        # deal. `verify` uses the functions, and the invariant test checks the two agree at
        # every step.
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

    def verify(self, state: DurakState, move: Move) -> Reason | None:
        trump, hands, _, _, _, table, taking, now, seat = state
        if now == "over":
            return Reason("deal_over", "D14")
        if move.seat != seat:
            if now == "defend":
                rule = "D8"  # one unbeaten attack at a time: the defender answers it first
            else:
                rule = "D10" if taking else "D6"  # after take the defender plays no more
            return Reason("not_your_turn", rule, {"seat": move.seat, "to_act": seat})
        action = move.action
        if (action in ("attack", "pass")) != (now == "attack"):
            return Reason("wrong_phase", "D7" if now == "defend" else "D8",
                          {"action": action, "phase": now})
        if action == "take":
            return None  # D7: taking is always allowed
        if action == "pass":
            return None if table else Reason("cannot_pass_empty_table", "D6")
        card = move.card
        assert card is not None  # the move's schema requires a card for attack and defend
        if not hands[move.seat] >> card & 1:
            return Reason("card_not_in_hand", "D1",
                          {"seat": move.seat, "card": DECK.codes[card]})
        if action == "defend":
            attack = table[-1][0]
            if not BEATERS[trump][attack] >> card & 1:
                return Reason("cannot_beat", "D4",
                              {"card": DECK.codes[card], "attack": DECK.codes[attack]})
            return None
        if not table:
            return None
        if not table_ranks(table) >> card & 1:
            return Reason("rank_not_on_table", "D8", {"card": DECK.codes[card]})
        limit = bout_limit(state)
        if len(table) >= limit:
            return Reason("bout_limit_reached", "D9", {"limit": limit})
        return None

    def apply(self, state: DurakState, move: Move) -> DurakState:
        # The hot path: no events are described. A legal move's card is in the hand, so XOR
        # takes it out.
        trump, (hand0, hand1), stock, discard, attacker, table, taking, _, _ = state
        action = move.action
        card = move.card
        if action == "attack":
            assert card is not None
            if move.seat:
                hand1 ^= BIT[card]
            else:
                hand0 ^= BIT[card]
            table = (*table, (card, -1))
            if taking:  # D10: the attacker adds cards for the defender to take
                return _new(DurakState, (trump, (hand0, hand1), stock, discard, attacker, table,
                                         True, "attack", attacker))
            return _new(DurakState, (trump, (hand0, hand1), stock, discard, attacker, table,
                                     False, "defend", 1 - attacker))
        if action == "defend":
            assert card is not None
            if move.seat:
                hand1 ^= BIT[card]
            else:
                hand0 ^= BIT[card]
            return _new(DurakState, (trump, (hand0, hand1), stock, discard, attacker,
                                     table[:-1] + ((table[-1][0], card),), False, "attack",
                                     attacker))
        if action == "take":
            return _new(DurakState, (trump, (hand0, hand1), stock, discard, attacker, table, True,
                                     "attack", attacker))
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
        if stock:
            # D12: the attacker of the bout draws up to six first, then the defender.
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
        if not stock and not (hand0 and hand1):  # D14: the stock is out, a hand is empty
            return _new(DurakState, (trump, (hand0, hand1), stock, discard, next_attacker, (),
                                     False, "over", None))
        return _new(DurakState, (trump, (hand0, hand1), stock, discard, next_attacker, (), False,
                                 "attack", next_attacker))

    def play(self, state: DurakState, move: Move) -> tuple[DurakState, list[dict]]:
        new = self.apply(state, move)
        return new, self.events(state, move, new)

    def events(self, state: DurakState, move: Move, new: DurakState) -> list[dict]:
        """What a move did, read off the states before and after it."""
        hands, attacker, table, taking = state.hands, state.attacker, state.table, state.taking
        seat, action = move.seat, move.action
        if action == "attack":
            return [{"type": "attacked", "seat": seat, "card": move.card}]
        if action == "defend":
            return [{"type": "defended", "seat": seat, "card": move.card,
                     "attack": table[-1][0]}]
        if action == "take":
            return [{"type": "take_declared", "seat": seat}]
        on_table = [c for pair in table for c in pair if c >= 0]
        defender = 1 - attacker
        kind = "bout_taken" if taking else "bout_beaten_off"
        events = [{"type": kind, "seat": defender, "cards": sorted(on_table)}]
        for s in (attacker, defender):
            drawn = new.hands[s].bit_count() - hands[s].bit_count()
            if s == defender and taking:
                drawn -= len(on_table)
            if drawn:
                events.append({"type": "cards_drawn", "seat": s, "count": drawn})
        if new.phase == "over":
            events.append({"type": "deal_over", "settlement": _settlement(new)})
        return events

    def settlement(self, state: DurakState) -> dict | None:
        return _settlement(state) if state.phase == "over" else None

    # -- what a seat sees ----------------------------------------------------------

    def observe(self, state: DurakState, seat: int) -> View:
        """The seat's hand, the table, the discard (every card in it was seen on the table)
        and the turned-up card; the other hand and the rest of the stock as counts.
        hidden = (hand 0, hand 1, stock)."""
        hands, stock = state.hands, state.stock
        other = 1 - seat
        public = state._replace(hands=(hands[0], 0) if seat == 0 else (0, hands[1]),
                                stock=stock[-1:])
        hidden = [0, 0, max(0, len(stock) - 1)]
        hidden[other] = hands[other].bit_count()
        return View(seat, public, tuple(hidden), state.phase, state.to_act)

    def sample(self, view: View, rng) -> DurakState:
        """The hidden cards shuffled into the other hand and the stock: the view reveals
        nothing more about them (the state keeps no record of the cards a player took)."""
        public = view.public
        hands, stock, discard = public.hands, public.stock, public.discard
        seen = hands[0] | hands[1] | discard
        for a, d in public.table:
            seen |= BIT[a] | BIT[d]
        for c in stock:
            seen |= BIT[c]
        pile = bit_list(DECK.full & ~seen)
        rng.shuffle(pile)
        other = 1 - view.seat
        n = view.hidden[other]
        drawn = mask_of(pile[:n])
        hands = (hands[0], drawn) if other == 1 else (drawn, hands[1])
        return public._replace(hands=hands, stock=(*pile[n:], *stock))


GAME = Durak()
