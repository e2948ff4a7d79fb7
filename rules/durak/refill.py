"""D22: the refill after a bout; D10, D11: where the table's cards go."""

from __future__ import annotations

from rules.durak.cards import BIT, HAND_SIZE


def refill_order(attacker: int, defender: int, players: int, out_mask: int) -> list[int]:
    """D22 [decided]: the bout's attacker first, then the other players in, in seat order
    after the attacker, the defender last."""
    order = [attacker]
    for k in range(1, players):
        s = (attacker + k) % players
        if s != defender and s != attacker and not out_mask >> s & 1:
            order.append(s)
    if defender != attacker:
        order.append(defender)
    return order


def refill(hands: list[int], stock: tuple[int, ...], order: list[int],
           known: list[tuple[int, ...]] | None) -> tuple[int, ...]:
    """D12, D22: each seat of `order` draws up to six cards while the stock lasts; the
    stock left. Whoever draws the turned-up card, the stock's last, is seen to hold it (D2),
    so it joins that seat's `known` list."""
    at = 0
    for s in order:
        need = HAND_SIZE - hands[s].bit_count()
        if need <= 0:
            continue
        drawn = stock[at:at + need]
        for c in drawn:
            hands[s] |= BIT[c]
        at += len(drawn)
        if known is not None and drawn and at == len(stock):
            known[s] = (*known[s], stock[-1])
        if at == len(stock):
            break
    return stock[at:]
