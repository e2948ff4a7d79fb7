"""Why a move is illegal: reason codes of API.md, each with its English message.

The message catalogue is keyed by code so that other languages can be added beside it.
"""

from __future__ import annotations

from typing import NamedTuple

MESSAGES: dict[str, str] = {
    "deal_over": "The deal is over; no move is possible.",
    "not_your_turn": "It is seat {to_act}'s turn, not seat {seat}'s.",
    "wrong_phase": "The action '{action}' is not possible in the {phase} phase.",
    "card_not_in_hand": "Seat {seat} does not hold {card}.",
    "cannot_beat": "{card} does not beat {attack}.",
    "rank_not_on_table": "No card of the rank of {card} is on the table.",
    "bout_limit_reached": "The bout already holds {limit} attack cards, its limit.",
    "cannot_pass_empty_table": "The attacker must lead a card; passing on an empty table "
    "is not allowed.",
    "bid_too_low": "A bid must be higher than {highest}.",
    "already_bid": "Seat {seat} has already bid.",
    "discard_forbidden_card": "{card} may not be discarded: Kings and bouts never go to "
    "the écart.",
    "discard_wrong_count": "The écart holds exactly {count} cards, not {given}.",
    "discard_trump_not_needed": "Trumps may go to the écart only to fill a shortfall of "
    "ordinary cards ({needed} needed, {given} given).",
    "not_taker": "Only the taker (seat {taker}) may do that.",
    "invalid_poignee": "That is not a valid poignée: {why}.",
    "poignee_already_declared": "Seat {seat} has already declared a poignée.",
    "poignee_too_late": "A poignée is declared only before the player's first card.",
    "must_follow_suit": "Seat {seat} holds the led suit and must follow it.",
    "must_trump": "Seat {seat} cannot follow suit and must play a trump.",
    "must_overtrump": "Seat {seat} holds a trump higher than {highest} and must play it.",
    "opening_must_be_trump_raja": "The deal opens with the trump Raja {card}, led alone.",
    "invalid_dukal": "That is not a Dukal: {why}.",
    "dukal_too_large": "A Dukal of {size} cards is larger than an opponent's hand "
    "({smallest} cards).",
    "dukal_on_opening": "A Dukal may not open the deal.",
    "discard_wrong_size": "The answer to this Dukal is exactly {count} cards, not {given}.",
    "must_follow_or_next_suit": "Seat {seat} is void in the led suit and must play a trump "
    "or a card of {suit}, the next suit in avatar order that it holds.",
    "not_on_lead": "Only the player on lead may lead a Dukal.",
    "repeated_card": "{card} is given more than once.",
}


class Reason(NamedTuple):
    """An illegal move's answer: a reason code, the rule that forbids it, its details."""

    code: str
    rule: str
    details: dict | None = None

    @property
    def message(self) -> str:
        return MESSAGES[self.code].format(**(self.details or {}))
