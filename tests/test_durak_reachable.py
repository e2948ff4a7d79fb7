"""Every Durak state the service accepts has a history (issue 40.6, "find the class"), for
every count of players and option: hypothesis damages states of seeded deals (a card moved
from one hand to another, a hand emptied into another, a hand's card swapped with the
discard's, another attacker or seat asked, a seat taken back from `out`), and every
damaged state the service accepts must have one.

The history is found, not assumed: the bout on the table is played backwards, move by
move, each step a state from which the rules' own forward move gives the later one
exactly, down to the bout's start; and that start must be one a deal leaves between
bouts, by what RULES.md says of it, checked here on its own:

- with the stock empty, every player in holds a card (one with none went out, D23);
- the discard pile splits into beaten pairs (D4, D11), a matching found by search;
- a state as dealt, nothing played, has D5's first attacker.

What comes before the bout's start is taken on those facts, not played: a deal's earlier
bouts leave few traces in a state (the discard, who is out), and those are what the three
check."""

from __future__ import annotations

import copy
import random

import orjson
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules.ai import complete
from rules.durak.cards import RANK_OF, SUIT_OF, SUITS
from rules.game import InvalidState, Move
from schemas.registry import GAMES

SCHEMAS = GAMES["durak"]
GAME = SCHEMAS.game
INDEX = GAME.deck.index
DERIVED = ("phase", "result", "defender", "to_act")
NODES = 4000  # states visited backwards at most: a bout holds at most 12 cards


def load(state: dict):
    """The state as the service reads it: the schema, then the rules' build."""
    return GAME.build(**SCHEMAS.requests["state"].load({"state": state})["state"])


def normal(state: dict) -> dict:
    """A state with its derived fields left out (with more than two players `to_act` is a
    fact of the state and stays) and its piles sorted, for comparing."""
    out = {k: v for k, v in state.items()
           if k not in DERIVED or (k == "to_act" and len(state["hands"]) > 2)}
    out["hands"] = [sorted(h, key=INDEX.__getitem__) for h in state["hands"]]
    out["discard"] = sorted(state["discard"], key=INDEX.__getitem__)
    if "known" in out:
        out["known"] = [sorted(k, key=INDEX.__getitem__) for k in state["known"]]
    return out


def key(state: dict) -> bytes:
    return orjson.dumps(normal(state), option=orjson.OPT_SORT_KEYS)


def forward(before: dict, move: dict) -> bytes | None:
    """The state the rules' move gives from `before`, when `before` is a state the rules
    read and the move is legal there."""
    try:
        state = load(before)
    except InvalidState:
        return None
    parsed = Move(move["seat"], move["action"], card=INDEX.get(move.get("card")))
    if GAME.verify(state, parsed) is not None:
        return None
    return key(SCHEMAS.dump_state(GAME.apply(state, parsed)))


def seats_in(state: dict) -> list[int]:
    out = {s for group in state.get("out") or [] for s in group}
    return [s for s in range(len(state["hands"])) if s not in out]


def bare(state: dict) -> dict:
    """A copy without the fields the rules derive (`to_act` is a fact with more than two
    players): an earlier state's must be derived afresh."""
    return {k: copy.deepcopy(v) for k, v in state.items()
            if k not in DERIVED or (k == "to_act" and len(state["hands"]) > 2)}


def with_card(state: dict, seat: int, card: str, known: bool) -> dict:
    before = bare(state)
    before["hands"][seat].append(card)
    if known:
        before["known"][seat].append(card)
    return before


def unlaid(state: dict):
    """(earlier state, move) for every way the last card laid may have come: an attack (or
    a pass-on) by any player in, or the defence of the last beaten card."""
    table = state["table"]
    if table and table[-1]["defense"] is None:
        yield from unattacked(state)
    beaten = [i for i, t in enumerate(table) if t["defense"] is not None]
    if beaten and all(t["defense"] is None for t in table[beaten[-1] + 1:]):
        yield from undefended(state, beaten[-1])


def knowns(state: dict) -> tuple[bool, ...]:
    return (False, True) if "known" in state else (False,)


def unattacked(state: dict):
    """The last attack card back in the hand of any player in that may have laid it."""
    table, players = state["table"], len(state["hands"])
    card = table[-1]["attack"]
    attackers = seats_in(state) if state.get("transfer") else [state["attacker"]]
    for seat in seats_in(state):
        for attacker in attackers:
            for known in knowns(state):
                before = with_card(state, seat, card, known)
                before["table"] = table[:-1]
                before["attacker"] = attacker
                if players > 2:
                    before["to_act"] = seat
                for action in ("attack", "transfer"):
                    yield before, {"seat": seat, "action": action, "card": card}


def undefended(state: dict, i: int):
    """The defence of the table's `i`th card back in the defender's hand."""
    table, players = state["table"], len(state["hands"])
    defender = GAME.defender(load(state)) if players > 2 else 1 - state["attacker"]
    for known in knowns(state):
        before = with_card(state, defender, table[i]["defense"], known)
        before["table"] = [*table[:i], {"attack": table[i]["attack"], "defense": None},
                           *table[i + 1:]]
        if players > 2:
            before["to_act"] = defender
        yield before, {"seat": defender, "action": "defend", "card": table[i]["defense"]}


def earlier(state: dict):
    """(earlier state, move) for every move that may have led to `state` in its bout."""
    yield from unlaid(state)
    players = len(state["hands"])
    if state["taking"]:
        before = {**bare(state), "taking": False}
        defender = GAME.defender(load(state)) if players > 2 else 1 - state["attacker"]
        if players > 2:
            before["to_act"] = defender
        yield before, {"seat": defender, "action": "take"}
    if players > 2 and state["table"]:
        for seat in seats_in(state):
            if seat != state["to_act"]:
                yield {**bare(state), "to_act": seat}, {"seat": seat, "action": "pass"}


def bout_start(state: dict) -> bool:
    """Between two bouts: nothing on the table, the attacker asked (or the deal over)."""
    asked = len(state["hands"]) == 2 or state["to_act"] in (state["attacker"], None)
    return not state["table"] and not state["taking"] and asked


def history(state: dict) -> list[dict] | None:
    """The moves from the start of the state's bout to it, each the rules' own, or None
    when the bout cannot be played back to a start that check_bout_start passes."""
    target = SCHEMAS.dump_state(load(state))
    todo: list[tuple[dict, list[dict]]] = [(target, [])]
    seen = {key(target)}
    while todo and len(seen) < NODES:
        after, moves = todo.pop()
        if bout_start(after) and not bout_start_problems(after):
            return moves
        for before, move in earlier(after):
            k = key(before)
            if k not in seen and forward(before, move) == key(after):
                seen.add(k)
                todo.append((before, [move, *moves]))
    return None


# -- what a deal leaves between bouts (RULES.md), checked here on its own -----------------


def beats(trump: str, low: str, high: str) -> bool:
    """D4: `high` beats `low`."""
    a, b = INDEX[low], INDEX[high]
    if SUIT_OF[a] == SUIT_OF[b]:
        return RANK_OF[b] > RANK_OF[a]
    return SUITS[SUIT_OF[b]] == trump


def beaten_pairs(trump: str, cards: list[str]) -> bool:
    """Whether the cards split into (attack, beater) pairs: a matching, by search."""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    return any((beats(trump, first, c) or beats(trump, c, first))
               and beaten_pairs(trump, rest[:i] + rest[i + 1:]) for i, c in enumerate(rest))


def bout_start_problems(state: dict) -> list[str]:
    problems = []
    over = SCHEMAS.dump_state(load(state))["phase"] == "over"
    if not state["stock"] and not over:
        problems += [f"seat {s} in with no card" for s in seats_in(state)
                     if not state["hands"][s]]
    if not beaten_pairs(state["trump"], state["discard"]):
        problems.append("the discard is not beaten pairs")
    if as_dealt(state):
        trumps = [(RANK_OF[INDEX[c]], s) for s, h in enumerate(state["hands"]) for c in h
                  if c[-1] == state["trump"]]
        if state["attacker"] != (min(trumps)[1] if trumps else 0):
            problems.append("as dealt, not D5's first attacker")
    return problems


def as_dealt(state: dict) -> bool:
    """Nothing played yet: every hand of six, the rest of the deck in the stock."""
    size = sum(map(len, state["hands"])) + len(state["stock"]) + len(state["discard"])
    return (not state["discard"] and not state.get("out")
            and all(len(h) == 6 for h in state["hands"])
            and len(state["stock"]) == size - 6 * len(state["hands"]))


# -- damaged states of seeded deals ---------------------------------------------------------


@st.composite
def dealt(draw):
    """A state of a seeded random deal of 2-6 players with drawn options, played some way,
    more often to its last bouts (the stock empty, players going out)."""
    players = draw(st.integers(2, 6))
    options: dict = {"players": players} if players > 2 else {}
    if draw(st.booleans()):
        options["transfer"] = True
    if players > 2 and draw(st.booleans()):
        options["throw_in"] = "neighbours"
    if draw(st.booleans()):
        options["known"] = True
    if players <= 4 and draw(st.integers(0, 3)) == 0:
        options["cards"] = 24
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    state = GAME.deal(rng, **options)
    moves = draw(st.integers(0, 400))
    for _ in range(moves):
        legal = GAME.legal_moves(state)
        if not legal:
            break
        state = GAME.apply(state, complete(rng.choice(legal), rng))
    return SCHEMAS.dump_state(state)


def moved_between_hands(draw, s: dict, kind: str, holding: list[int]) -> None:
    """A card (`card`) or a whole hand (`hand`) of one seat moved to another's hand."""
    players = len(s["hands"])
    i = draw(st.sampled_from(holding))
    j = draw(st.sampled_from([k for k in range(players) if k != i]))
    moved = s["hands"][i] if kind == "hand" else [draw(st.sampled_from(s["hands"][i]))]
    s["hands"][j] = s["hands"][j] + moved
    s["hands"][i] = [c for c in s["hands"][i] if c not in moved]
    if "known" in s:
        s["known"] = [[c for c in k if c not in moved] for k in s["known"]]


def swapped_with_discard(draw, s: dict, holding: list[int]) -> None:
    """A card of a hand exchanged with one of the discard pile."""
    i = draw(st.sampled_from(holding))
    a, b = draw(st.sampled_from(s["hands"][i])), draw(st.sampled_from(s["discard"]))
    s["hands"][i] = [b if c == a else c for c in s["hands"][i]]
    s["discard"] = [a if c == b else c for c in s["discard"]]
    if "known" in s:
        s["known"] = [[c for c in k if c != a] for k in s["known"]]


def taken_back(draw, s: dict) -> None:
    """A seat that went out is in again."""
    g = draw(st.sampled_from(range(len(s["out"]))))
    seat = draw(st.sampled_from(s["out"][g]))
    s["out"] = [[x for x in group if x != seat] for group in s["out"]]
    s["out"] = [group for group in s["out"] if group]


def another_seat_asked(draw, s: dict, kind: str) -> None:
    """Another attacker (and, between bouts, seat asked), or another seat to act."""
    players = len(s["hands"])
    if kind == "attacker":
        s["attacker"] = draw(st.sampled_from(range(players)))
        if players > 2 and not s["table"]:
            s["to_act"] = s["attacker"]
    elif players > 2:
        s["to_act"] = draw(st.sampled_from(range(players)))


@st.composite
def damaged(draw):
    state = draw(dealt())
    players = len(state["hands"])
    s = copy.deepcopy(state)
    kind = draw(st.sampled_from(["card", "hand", "discard", "attacker", "to_act", "back"]))
    holding = [i for i in range(players) if s["hands"][i]]
    if kind in ("card", "hand") and holding:
        moved_between_hands(draw, s, kind, holding)
    elif kind == "discard" and holding and s["discard"]:
        swapped_with_discard(draw, s, holding)
    elif kind in ("attacker", "to_act"):
        another_seat_asked(draw, s, kind)
    elif kind == "back" and s.get("out"):
        taken_back(draw, s)
    for derived in ("phase", "result", "defender"):
        s.pop(derived, None)
    return kind, s


@settings(derandomize=True, database=None, deadline=None, max_examples=600,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=damaged())
def test_every_durak_state_the_service_accepts_has_a_history(case):
    kind, state = case
    try:
        load(state)
    except InvalidState:
        event(f"{kind}: refused")
        return
    event(f"{kind}: accepted")
    assert history(state) is not None, (kind, state)


def test_the_history_search_finds_the_bouts_of_played_deals():
    """The search itself: every state of seeded deals of every count has its bout's
    history, and a state made unreachable by hand has none."""
    for players in range(2, 7):
        rng = random.Random(players)
        options = {"players": players, "transfer": players % 2 == 0, "known": players > 4}
        state = GAME.deal(rng, **options)
        while GAME.legal_moves(state):
            assert history(SCHEMAS.dump_state(state)) is not None
            state = GAME.apply(state, complete(rng.choice(GAME.legal_moves(state)), rng))
    assert not beaten_pairs("C", ["QS", "8H"]) and beaten_pairs("C", ["QS", "8C"])
