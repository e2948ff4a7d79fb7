"""Stacked Tarot deals and scripted play for the rule tests, written in card codes."""

from __future__ import annotations

from rules.cards import bit_list
from rules.game import Move
from rules.tarot import DECK, EXCUSE, GAME, TarotState, playable

IX = DECK.index


def cards(text: str) -> list[int]:
    return [IX[c] for c in text.split()]


def suit(s: str, low: str = "1", high: str = "K") -> str:
    """The codes of a run of one suit, e.g. suit("S", "1", "5") == "1S 2S 3S 4S 5S"."""
    ranks = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "C", "Q", "K"]
    return " ".join(r + s for r in ranks[ranks.index(low):ranks.index(high) + 1])


def trumps(low: int, high: int) -> str:
    return " ".join(f"T{n}" for n in range(low, high + 1))


def stacked(hands: list[str], chien: str = "") -> list[int]:
    """A whole deck order for T2's stacked deal. Each hand is given in full or in part; the
    cards not named fill the short hands round robin in deck order, then the chien."""
    named = [cards(h) for h in hands] + [cards(chien)]
    used = {c for pile in named for c in pile}
    assert len(used) == sum(len(p) for p in named), "a card is named twice"
    rest = [c for c in range(78) if c not in used]
    sizes = [18, 18, 18, 18]
    while any(len(named[s]) < sizes[s] for s in range(4)):
        for s in range(4):
            if len(named[s]) < sizes[s]:
                named[s].append(rest.pop(0))
    named[4] += rest
    assert len(named[4]) == 6
    return [c for pile in named for c in pile]


def deal(hands: list[str], chien: str = "", dealer: int = 3, annulled: bool = False
         ) -> TarotState:
    state = GAME.deal_from(stacked(hands, chien), dealer=dealer)
    assert (state.phase == "over") == annulled, "the fill made a petit sec (T3)"
    return state


def lowest_legal(state: TarotState) -> Move:
    legal = bit_list(playable(state.hands[state.to_act], state.trick))
    return Move(state.to_act, "play", card=next((c for c in legal if c != EXCUSE), legal[0]))


def reason(state: TarotState, move: Move) -> tuple[str, str] | None:
    r = GAME.verify(state, move)
    return (r.code, r.rule) if r else None


def step(state: TarotState, move: Move) -> TarotState:
    assert GAME.verify(state, move) is None, (move, GAME.verify(state, move))
    return GAME.play(state, move)[0]


def bid(state: TarotState, *contracts: str) -> TarotState:
    for c in contracts:
        state = step(state, Move(state.to_act, "bid", contract=c))
    return state


def discard(state: TarotState, codes: str) -> TarotState:
    return step(state, Move(state.taker, "discard", cards=tuple(sorted(cards(codes)))))


def chelem(state: TarotState, announce: bool = False) -> TarotState:
    return step(state, Move(state.taker, "chelem", announce=announce))


def play(state: TarotState, *codes: str) -> TarotState:
    for code in codes:
        state = step(state, Move(state.to_act, "play", card=IX[code]))
    return state


def play_move(state: TarotState, code: str) -> Move:
    return Move(state.to_act, "play", card=IX[code])


def finish(state: TarotState, script: dict[tuple[int, int], str] | None = None,
           keep: str = "") -> TarotState:
    """Plays the deal to its end: `script[(trick number from 0, seat)]` where given, else the
    lowest legal card, holding back the Excuse and the `keep` cards while anything else is
    legal."""
    script = script or {}
    held_back = {EXCUSE, *cards(keep)}
    while state.phase == "play":
        seat = state.to_act
        code = script.get((len(state.tricks), seat))
        if code is None:
            legal = bit_list(playable(state.hands[seat], state.trick))
            card = next((c for c in legal if c not in held_back), legal[0])
        else:
            card = IX[code]
        state = step(state, Move(seat, "play", card=card))
    return state
