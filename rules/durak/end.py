"""D23 going out, D24 the end, D25 (D15) the settlement."""

from __future__ import annotations

from rules.durak.state import Named


def went_out(hands: list[int], out_mask: int) -> tuple[int, ...]:
    """D23: the players in whose hand is empty after the refill, once the stock is empty,
    in ascending seat order."""
    return tuple(s for s in range(len(hands)) if not out_mask >> s & 1 and not hands[s])


def two_player_out(hands: tuple[int, ...], over: bool) -> tuple[tuple[int, ...], ...]:
    """D25 with two players: whoever holds no card at the end went out in the last bout
    (with two players, one going out ends the deal), so the state need not say it."""
    if not over:
        return ()
    empty = tuple(s for s in range(len(hands)) if not hands[s])
    return (empty,) if empty else ()


def settlement(state: Named) -> dict | None:
    """D25: the durak −(players − 1), every other player +1; a draw 0 for everyone. With
    two players this is D15's settlement, in D15's shape (`result` adds `out`)."""
    if state.phase != "over":
        return None
    hands = state.hands
    players = len(hands)
    holding = [s for s in range(players) if hands[s]]
    if not holding:
        return {"outcome": "draw", "durak": None, "scores": [0] * players}
    durak = holding[0]
    scores = [1] * players
    scores[durak] = -(players - 1)
    return {"outcome": "durak", "durak": durak, "scores": scores}


def result(state: Named) -> dict | None:
    """The settlement as API.md gives it for every count: D25's, with `out` (D25) and
    `players`."""
    settled = settlement(state)
    if settled is None:
        return None
    hands = state.hands
    out = two_player_out(hands, True) if len(hands) == 2 else state.out
    return {"outcome": settled["outcome"], "durak": settled["durak"],
            "out": [list(group) for group in out], "players": len(hands),
            "scores": settled["scores"]}
