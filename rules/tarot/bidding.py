"""The auction (T4) and its all-pass annulment (T3)."""

from __future__ import annotations

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")  # T4, lowest first
CHIEN_TAKEN = ("prise", "garde")  # T5: the contracts in which the taker takes the chien
BIDS = ("pass", *CONTRACTS)
BID_RANK = {b: i for i, b in enumerate(BIDS)}
MULTIPLIERS = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}  # T4


def highest_bid(bids) -> tuple[int, int | None]:
    """T4: the rank of the highest bid so far and its index in speaking order."""
    best, at = 0, None
    for i, b in enumerate(bids):
        r = BID_RANK[b]
        if r > best:
            best, at = r, i
    return best, at


def auction(dealer: int, bids: tuple[str, ...], players: int) -> tuple[int | None, str | None]:
    """T4: the taker and the contract once every seat has bid; None while bidding lasts or
    when all passed (T3)."""
    _, at = highest_bid(bids)
    if len(bids) < players or at is None:
        return None, None
    return (dealer + 1 + at) % players, bids[at]
