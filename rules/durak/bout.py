"""A bout, for every count and option: leading (D6), defending (D7), adding (D8, D19), the
bout limit (D9), taking (D10), the turn order (D20), passing on (D21) and the bout's end
(D10, D11, then D22–D24 and D18's next attacker).

These are the general functions. rules/durak/game.py plays the two-player 36-card deal
without options by a faster path of its own; the invariant test holds the two to each
other at every step."""

from __future__ import annotations

from rules.durak.cards import (
    BEATERS,
    BIT,
    PASSES,
    RANK_MASK_OF,
    TAKES,
    moves_of,
)
from rules.durak.end import went_out
from rules.durak.passing import transfer_cards, transfer_reason
from rules.durak.refill import refill, refill_order
from rules.durak.state import Bout, DurakState, Named, gone, new_state, next_in, round_of
from rules.game import IllegalMove, Move, missing
from rules.reasons import Reason

ACTIONS = ("attack", "defend", "take", "pass", "transfer")


def turn(hands: tuple[int, ...], stock, attacker: int, table, taking: bool
         ) -> tuple[str, int | None]:
    """The phase and the seat to act of a two-player state, from the facts (D6, D7, D14):
    what `deal_from` and `build` store and each move keeps up to date (the invariant test
    holds the two to each other). With more players the seat asked is a fact (D20)."""
    if not table:
        # D14: hands are checked only between bouts, once the stock is empty.
        if not stock and not (hands[0] and hands[1]):
            return "over", None
        return "attack", attacker
    if table[-1][1] < 0 and not taking:
        return "defend", 1 - attacker  # D7: the defender answers the unbeaten attack
    return "attack", attacker


def defended_count(table) -> int:
    n = 0
    for _, d in table:
        if d >= 0:
            n += 1
    return n


def bout_limit(state: Named) -> int:
    """D9: at most 6 attacks (D16: 5 in a first bout so chosen), and no more than the
    defender held at the bout's start (D21: on becoming the defender)."""
    defender = next_in(state.attacker, len(state.hands), gone(state.out))
    return min(state.setup.cap(state.discard),
               state.hands[defender].bit_count() + defended_count(state.table))


def table_ranks(table: tuple[tuple[int, int], ...]) -> int:
    """The mask of every card whose rank lies on the table (D8)."""
    m = 0
    for a, d in table:
        m |= RANK_MASK_OF[a] | RANK_MASK_OF[d]
    return m


def first_unbeaten(table) -> int:
    """D20: the unbeaten attack cards are beaten in the order they were laid."""
    for i, (_, d) in enumerate(table):
        if d < 0:
            return i
    return -1


def legal_moves(state: Named) -> list[Move]:
    trump, hands, _, _, _, table, _, phase, to_act = state[:9]
    if phase == "over" or to_act is None:
        return []  # D24
    seat: int = to_act
    if phase == "defend":
        attack = table[first_unbeaten(table)][0]
        moves = moves_of("defend", seat, hands[seat] & BEATERS[trump][attack])  # D4, D7
        moves.append(TAKES[seat])  # D7
        moves += moves_of("transfer", seat, transfer_cards(state, seat))  # D21
        return moves
    if not table:
        return moves_of("attack", seat, hands[seat])  # D6
    if len(table) < bout_limit(state):  # D8, D9, D19
        moves = moves_of("attack", seat, hands[seat] & table_ranks(table))
        moves.append(PASSES[seat])
        return moves
    return [PASSES[seat]]  # D13


def verify(state: Named, move: Move, codes: tuple[str, ...]) -> Reason | None:
    """None when `move` is legal, else why not. A move that is no Durak move at all (an
    unknown action, a card missing or out of the deck) raises ValueError."""
    trump, hands, _, _, _, table, taking, now, seat = state[:9]
    action, card = move.action, move.card
    if action not in ACTIONS:
        raise ValueError(f"no Durak action {action!r}")
    if action in ("attack", "defend", "transfer") and (
            not isinstance(card, int) or not 0 <= card < len(BEATERS[0])):
        raise ValueError(f"a Durak {action} needs a card of the deck, not {card!r}")
    if now == "over":
        return Reason("deal_over", "D14")
    two = len(hands) == 2
    if move.seat != seat:
        if not two:
            rule = "D20"
        elif now == "defend":
            rule = "D8"  # one unbeaten attack at a time: the defender answers it first
        else:
            rule = "D10" if taking else "D6"  # after take the defender plays no more
        return Reason("not_your_turn", rule, {"seat": move.seat, "to_act": seat})
    if (action in ("attack", "pass")) != (now == "attack"):
        return Reason("wrong_phase", "D7" if now == "defend" else "D8",
                      {"action": action, "phase": now})
    if action == "take":
        return None  # D7: taking is always allowed
    if action == "pass":
        return None if table else Reason("cannot_pass_empty_table", "D6")
    if card is None:  # checked above; this tells mypy
        raise missing(move, "card")
    if not hands[move.seat] >> card & 1:
        return Reason("card_not_in_hand", "D1", {"seat": move.seat, "card": codes[card]})
    if action == "defend":
        attack = table[first_unbeaten(table)][0]
        if not BEATERS[trump][attack] >> card & 1:
            return Reason("cannot_beat", "D4", {"card": codes[card], "attack": codes[attack]})
        return None
    if action == "transfer":
        why = transfer_reason(state, seat)
        if why is not None:
            return why
        if not table_ranks(table[:1]) >> card & 1:
            return Reason("transfer_wrong_rank", "D21",
                          {"card": codes[card], "attack": codes[table[0][0]]})
        return None
    if not table:
        return None
    if not table_ranks(table) >> card & 1:
        return Reason("rank_not_on_table", "D8", {"card": codes[card]})
    limit = bout_limit(state)
    if len(table) >= limit:
        return Reason("bout_limit_reached", "D9", {"limit": limit})
    return None


def apply(state: DurakState, move: Move) -> DurakState:
    """The next state. A move of the wrong seat or phase, or of a card not in the hand,
    raises IllegalMove (never a state holding a card twice); `verify` says whether the
    rest of a move is legal."""
    (trump, hands, stock, discard, attacker, table, taking, phase, to_act, setup, out,
     trump_card, known, history, passed_on) = state
    seat, action, card = move.seat, move.action, move.card
    if seat != to_act:
        raise IllegalMove(f"seat {seat} is not to act (seat {to_act} is)")
    players = len(hands)
    if action in ("attack", "defend", "transfer"):
        played = card if isinstance(card, int) and 0 <= card < len(BIT) - 1 else -1
        if not hands[seat] & BIT[played]:
            raise IllegalMove(f"seat {seat} does not hold card {card!r}")
        hands = (*hands[:seat], hands[seat] ^ BIT[played], *hands[seat + 1:])
        if known is not None and played in known[seat]:
            known = (*known[:seat], tuple(c for c in known[seat] if c != played),
                     *known[seat + 1:])
    else:
        played = -1
    if action == "attack" and phase == "attack":
        table = (*table, (played, -1))
        if taking:  # D10: added for the defender to take; D20: the round starts again
            to_act = attacker
        else:
            phase, to_act = "defend", next_in(attacker, players, gone(out))
    elif action == "defend" and phase == "defend":
        i = first_unbeaten(table)
        table = (*table[:i], (table[i][0], played), *table[i + 1:])
        if first_unbeaten(table) < 0:  # D20: the last unbeaten card beaten
            phase, to_act = "attack", attacker
    elif action == "transfer" and phase == "defend":
        table = (*table, (played, -1))  # D21: the defender becomes the attacker
        attacker, to_act = seat, next_in(seat, players, gone(out))
        if passed_on is not None:
            passed_on = (*passed_on, played)
    elif action == "take" and phase == "defend":
        # Reading ROUND_AFTER_TAKE (rules/durak/options.py): the round starts again.
        taking, phase, to_act = True, "attack", attacker
    elif action == "pass" and phase == "attack" and table:
        out_mask = gone(out)
        defender = next_in(attacker, players, out_mask)
        asked = round_of(attacker, defender, players, out_mask, setup.throw_in)
        i = asked.index(seat)
        if i + 1 == len(asked):  # D20: the whole round passed
            return end_bout(state)
        to_act = asked[i + 1]
    else:
        raise IllegalMove(f"no {action} now (phase {phase})")
    return new_state(DurakState, (trump, hands, stock, discard, attacker, table, taking, phase,
                                  to_act, setup, out, trump_card, known, history, passed_on))


def end_bout(state: DurakState) -> DurakState:
    """D10 or D11, then D22 refill, D23 going out, D24 the end, D18 the next attacker."""
    (trump, hands_, stock, discard, attacker, table, taking, _, _, setup, out, trump_card,
     known_, history, passed_on) = state
    players = len(hands_)
    hands = list(hands_)
    known = None if known_ is None else list(known_)
    out_mask = gone(out)
    defender = next_in(attacker, players, out_mask)
    on_table = 0
    for a, d in table:
        on_table |= BIT[a] | BIT[d]
    if taking:  # D10: the defender picks every card up, seen by everyone
        hands[defender] |= on_table
        if known is not None:
            # Reading KNOWN_ORDER (rules/durak/options.py): table order.
            known[defender] = (*known[defender], *(c for pair in table for c in pair if c >= 0))
    else:
        discard |= on_table  # D11
    if history is not None:
        history = (*history, Bout(attacker, defender, table, passed_on or (), taking))
        passed_on = ()
    if stock:
        stock = refill(hands, stock, refill_order(attacker, defender, players, out_mask), known)
    if not stock:
        gone_now = went_out(hands, out_mask)  # D23
        if gone_now:
            out = (*out, gone_now)
            for s in gone_now:
                out_mask |= 1 << s
    holding = players - out_mask.bit_count()
    if holding <= 1:  # D24; D18: the next attacker as if every player were in
        nxt = defender if not taking else (defender + 1) % players
        return new_state(DurakState, (trump, tuple(hands), stock, discard, nxt, (), False,
                                      "over", None, setup, out, trump_card,
                                      None if known is None else tuple(known), history,
                                      passed_on))
    if taking:  # D18
        nxt = next_in(defender, players, out_mask)
    else:
        nxt = defender if not out_mask >> defender & 1 else next_in(defender, players, out_mask)
    return new_state(DurakState, (trump, tuple(hands), stock, discard, nxt, (), False, "attack",
                                  nxt, setup, out, trump_card,
                                  None if known is None else tuple(known), history, passed_on))
