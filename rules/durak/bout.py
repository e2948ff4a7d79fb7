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
    action, card = move.action, move.card
    if action not in ACTIONS:
        raise ValueError(f"no Durak action {action!r}")
    if action in CARD_ACTIONS and (not isinstance(card, int) or not 0 <= card < len(BEATERS[0])):
        raise ValueError(f"a Durak {action} needs a card of the deck, not {card!r}")
    why = turn_reason(state, move)
    if why is not None or action == "take":  # D7: taking is always allowed
        return why
    if action == "pass":
        return None if state.table else Reason("cannot_pass_empty_table", "D6")
    if card is None:  # checked above; this tells mypy
        raise missing(move, "card")
    if not state.hands[move.seat] >> card & 1:
        return Reason("card_not_in_hand", "D1", {"seat": move.seat, "card": codes[card]})
    return CARD_REASONS[action](state, move.seat, card, codes)


def turn_reason(state: Named, move: Move) -> Reason | None:
    """D14: the deal is over; D6-D8, D10, D20: another seat is to act, or the action is
    not one of the phase."""
    now, seat = state.phase, state.to_act
    if now == "over":
        return Reason("deal_over", "D14")
    if move.seat != seat:
        if len(state.hands) != 2:
            rule = "D20"
        elif now == "defend":
            rule = "D8"  # one unbeaten attack at a time: the defender answers it first
        else:
            rule = "D10" if state.taking else "D6"  # after take the defender plays no more
        return Reason("not_your_turn", rule, {"seat": move.seat, "to_act": seat})
    if (move.action in ("attack", "pass")) != (now == "attack"):
        return Reason("wrong_phase", "D7" if now == "defend" else "D8",
                      {"action": move.action, "phase": now})
    return None


def defence_reason(state: Named, seat: int, card: int, codes: tuple[str, ...]
                   ) -> Reason | None:
    """D4: the card beats the first unbeaten attack."""
    attack = state.table[first_unbeaten(state.table)][0]
    if not BEATERS[state.trump][attack] >> card & 1:
        return Reason("cannot_beat", "D4", {"card": codes[card], "attack": codes[attack]})
    return None


def passing_reason(state: Named, seat: int, card: int, codes: tuple[str, ...]
                   ) -> Reason | None:
    """D21: the attack may be passed on now, with a card of its rank."""
    why = transfer_reason(state, seat)
    if why is None and not table_ranks(state.table[:1]) >> card & 1:
        return Reason("transfer_wrong_rank", "D21",
                      {"card": codes[card], "attack": codes[state.table[0][0]]})
    return why


def attack_reason(state: Named, seat: int, card: int, codes: tuple[str, ...]
                  ) -> Reason | None:
    """D6: any card leads; D8: a card added matches a rank on the table; D9: the limit."""
    table = state.table
    if not table:
        return None
    if not table_ranks(table) >> card & 1:
        return Reason("rank_not_on_table", "D8", {"card": codes[card]})
    limit = bout_limit(state)
    if len(table) >= limit:
        return Reason("bout_limit_reached", "D9", {"limit": limit})
    return None


CARD_ACTIONS = ("attack", "defend", "transfer")
CARD_REASONS = {"attack": attack_reason, "defend": defence_reason, "transfer": passing_reason}


def apply(state: DurakState, move: Move) -> DurakState:
    """The next state. A move of the wrong seat or phase, or of a card not in the hand,
    raises IllegalMove (never a state holding a card twice); `verify` says whether the
    rest of a move is legal."""
    seat, action = move.seat, move.action
    if seat != state.to_act:
        raise IllegalMove(f"seat {seat} is not to act (seat {state.to_act} is)")
    played = -1
    if action in CARD_ACTIONS:
        state, played = laid(state, seat, move.card)
    step = STEPS.get((action, state.phase))
    if step is None or action == "pass" and not state.table:
        raise IllegalMove(f"no {action} now (phase {state.phase})")
    return step(state, seat, played)


def laid(state: DurakState, seat: int, card: object) -> tuple[DurakState, int]:
    """The state with `card` out of the seat's hand (and out of what is known of it)."""
    played = card if isinstance(card, int) and 0 <= card < len(BIT) - 1 else -1
    hands, known = state.hands, state.known
    if not hands[seat] & BIT[played]:
        raise IllegalMove(f"seat {seat} does not hold card {card!r}")
    hands = (*hands[:seat], hands[seat] ^ BIT[played], *hands[seat + 1:])
    if known is not None and played in known[seat]:
        known = (*known[:seat], tuple(c for c in known[seat] if c != played), *known[seat + 1:])
    return state._replace(hands=hands, known=known), played


def attacked(state: DurakState, seat: int, card: int) -> DurakState:
    table = (*state.table, (card, -1))
    if state.taking:  # D10: added for the defender to take; D20: the round starts again
        return state._replace(table=table, to_act=state.attacker)
    return state._replace(table=table, phase="defend", to_act=next_in(
        state.attacker, len(state.hands), gone(state.out)))


def defended(state: DurakState, seat: int, card: int) -> DurakState:
    i = first_unbeaten(state.table)
    table = (*state.table[:i], (state.table[i][0], card), *state.table[i + 1:])
    if first_unbeaten(table) < 0:  # D20: the last unbeaten card beaten
        return state._replace(table=table, phase="attack", to_act=state.attacker)
    return state._replace(table=table)


def transferred(state: DurakState, seat: int, card: int) -> DurakState:
    """D21: the defender becomes the attacker (and the card joins the bout's history of
    cards passed on, when the deal keeps one)."""
    return state._replace(table=(*state.table, (card, -1)), attacker=seat,
                          to_act=next_in(seat, len(state.hands), gone(state.out)),
                          passed_on=None if state.passed_on is None
                          else (*state.passed_on, card))


def took(state: DurakState, seat: int, card: int) -> DurakState:
    # Reading ROUND_AFTER_TAKE (rules/durak/options.py): the round starts again.
    return state._replace(taking=True, phase="attack", to_act=state.attacker)


def passed(state: DurakState, seat: int, card: int) -> DurakState:
    """D20: the next seat of the round is asked, or the bout ends once all have passed."""
    players, out_mask = len(state.hands), gone(state.out)
    defender = next_in(state.attacker, players, out_mask)
    asked = round_of(state.attacker, defender, players, out_mask, state.setup.throw_in)
    i = asked.index(seat)
    if i + 1 == len(asked):  # D20: the whole round passed
        return end_bout(state)
    return state._replace(to_act=asked[i + 1])


# Each action in the phase where it is played.
STEPS = {("attack", "attack"): attacked, ("defend", "defend"): defended,
         ("transfer", "defend"): transferred, ("take", "defend"): took,
         ("pass", "attack"): passed}


def end_bout(state: DurakState) -> DurakState:
    """D10 or D11, then D22 refill, D23 going out, D24 the end, D18 the next attacker."""
    players, out, stock = len(state.hands), state.out, state.stock
    out_mask = gone(out)
    defender = next_in(state.attacker, players, out_mask)
    hands, known, discard = table_cleared(state, defender)
    history, passed_on = state.history, state.passed_on
    if history is not None:
        history = (*history, Bout(state.attacker, defender, state.table, passed_on or (),
                                  state.taking))
        passed_on = ()
    if stock:
        stock = refill(hands, stock, refill_order(state.attacker, defender, players, out_mask),
                       known)
    if not stock:
        gone_now = went_out(hands, out_mask)  # D23
        if gone_now:
            out = (*out, gone_now)
            for s in gone_now:
                out_mask |= 1 << s
    nxt, over = next_attacker(defender, state.taking, players, out_mask)
    return new_state(DurakState, (state.trump, tuple(hands), stock, discard, nxt, (), False,
                                  "over" if over else "attack", None if over else nxt,
                                  state.setup, out, state.trump_card,
                                  None if known is None else tuple(known), history,
                                  passed_on))


def table_cleared(state: DurakState, defender: int
                  ) -> tuple[list[int], list[tuple[int, ...]] | None, int]:
    """The hands, what is known of them and the discard once the table is cleared: picked
    up by the defender who took (D10), seen by everyone, or beaten off (D11)."""
    hands = list(state.hands)
    known = None if state.known is None else list(state.known)
    discard, on_table = state.discard, 0
    for a, d in state.table:
        on_table |= BIT[a] | BIT[d]
    if not state.taking:
        return hands, known, discard | on_table  # D11
    hands[defender] |= on_table
    if known is not None:
        # Reading KNOWN_ORDER (rules/durak/options.py): table order.
        known[defender] = (*known[defender],
                           *(c for pair in state.table for c in pair if c >= 0))
    return hands, known, discard


def next_attacker(defender: int, taking: bool, players: int, out_mask: int
                  ) -> tuple[int, bool]:
    """D18: the next bout's attacker, and whether the deal is over (D24: a player or none
    left in), its attacker then as if every player were in."""
    if players - out_mask.bit_count() <= 1:
        return (defender + 1) % players if taking else defender, True
    if taking or out_mask >> defender & 1:
        return next_in(defender, players, out_mask), False
    return defender, False
