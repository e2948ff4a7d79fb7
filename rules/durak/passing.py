"""D21: passing the attack on (*perevodnoy*)."""

from __future__ import annotations

from rules.durak.cards import RANK_MASK, RANK_OF
from rules.durak.state import Named, gone, next_in
from rules.reasons import Reason


def transfer_reason(state: Named, seat: int) -> Reason | None:
    """Why the defender `seat` may not pass the attack on now, whatever the card, or None
    when it may (with a card of the attack cards' rank, `transfer_cards`)."""
    hands, discard, table, setup, out = (state.hands, state.discard, state.table, state.setup,
                                         state.out)
    if not setup.transfer:
        return Reason("transfer_not_allowed", "D21", {"why": "transfer_off"})
    for _, d in table:
        if d >= 0:
            return Reason("transfer_not_allowed", "D21", {"why": "transfer_beaten"})
    count = len(table) + 1
    # Reading PASSING_OBEYS_BOUT_LIMIT (rules/durak/options.py): D9's cap bounds it too.
    cap = setup.cap(discard)
    if count > cap:
        return Reason("bout_limit_reached", "D9", {"limit": cap})
    new_defender = next_in(seat, len(hands), gone(out))
    held = hands[new_defender].bit_count()
    if held < count:
        return Reason("transfer_too_many", "D21",
                      {"seat": new_defender, "held": held, "count": count})
    return None


def transfer_cards(state: Named, seat: int) -> int:
    """D21: the cards the defender may pass the attack on with (a mask, maybe empty)."""
    if transfer_reason(state, seat) is not None:
        return 0
    return state.hands[seat] & RANK_MASK[RANK_OF[state.table[0][0]]]
