"""Property tests (hypothesis): random move sequences keep every invariant, and random
damage to a valid state is refused with a 422 that points at the damaged field, never a 500.

Hypothesis chooses the game, the deal's seed, how far the deal is played and what is done;
the rules themselves play the moves, so every state damaged here was valid beforehand."""

from __future__ import annotations

import copy
import random
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules.ai import complete
from rules.game import Template
from schemas.registry import GAMES
from service.body import TOO_DEEP
from tests.support import round_trip
from tests.support.games import TESTS

GAME_IDS = sorted(GAMES)
SEED = st.integers(0, 2**32 - 1)


def bounded(max_examples: int) -> settings:
    return settings(derandomize=True, deadline=None, database=None, max_examples=max_examples,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# A deal ends within these many moves in every game (Ganjifa: 120 plays and a few Dukals).
MAX_MOVES = 400


# ---------------------------------------------------------------------------------------
# (a) random move sequences


@bounded(300)
@given(game_id=st.sampled_from(GAME_IDS), seed=SEED,
       picks=st.binary(min_size=MAX_MOVES // 2, max_size=MAX_MOVES))
def test_random_move_sequences_keep_every_invariant(game_id, seed, picks):
    """Hypothesis picks the deal and each move (a byte, taken as an index into the legal
    moves); should its picks run out first, the deal is played to its end with the seeded
    rng, so every example also checks the final state and its settlement."""
    schemas = GAMES[game_id]
    game = schemas.game
    helper = TESTS[game_id]
    rng = random.Random(seed)
    state = game.deal(rng)
    for step in range(MAX_MOVES + 1):
        helper.check_state(state)
        legal = game.legal_moves(state)
        if not legal:
            break
        to_act = game.to_act(state)
        assert to_act is not None
        assert all(m.seat == to_act for m in legal if not isinstance(m, Template))
        pick = picks[step] if step < len(picks) else rng.randrange(256)
        move = complete(legal[pick % len(legal)], rng)
        assert game.verify(state, move) is None, (step, move)
        if step % 17 == 0:
            assert round_trip(schemas, state) == state
        state, events = game.play(state, move)
        assert isinstance(events, list)
    else:
        raise AssertionError(f"the deal of {game_id} did not end in {MAX_MOVES} moves")
    event(f"{game_id}: {min(step, len(picks))} moves picked")
    assert game.to_act(state) is None
    settlement = game.settlement(state)
    assert settlement is not None
    helper.check_final(state, settlement)
    assert round_trip(schemas, state) == state


# ---------------------------------------------------------------------------------------
# (b) random damage to valid states

# Keys whose value is a seat, in every game's state.
SEAT_KEYS = frozenset({"attacker", "to_act", "dealer", "leader", "taker", "seat", "winner"})
# Derived fields may be left out of a state (API.md, "States"); every other key is required.
OPTIONAL_KEYS = frozenset({"phase", "to_act", "result", "taker", "contract"})


# Each game's piles as (the path's start, its length, its last key or None): the places of
# one card each, which hold the whole deck once between them (D1, T1, G1). Tarot's
# chien_shown and poignées only record cards shown.
PILE_PLACES = {
    "durak": ((("hands",), 3, None), (("stock",), 2, None), (("discard",), 2, None),
              (("table",), 3, None)),
    "tarot": ((("hands",), 3, None), (("chien",), 2, None), (("ecart",), 2, None),
              (("trick",), 3, "card"), (("tricks",), 5, "card")),
    "ganjifa": ((("hands",), 3, None), (("captured",), 3, None), (("trick",), 3, "card"),
                (("dukal", "cards"), 3, None), (("dukal", "discards"), 5, None)),
}


def is_pile_place(game_id: str, path: tuple) -> bool:
    """Whether `path` is one card's place in a pile (PILE_PLACES)."""
    return any(path[:len(start)] == start and len(path) == n and last in (None, path[-1])
               for start, n, last in PILE_PLACES[game_id])


def walk(value, path=()):
    """Every (path, value) inside a JSON value, containers before their content."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, (*path, i))


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def put(doc, path, value):
    get(doc, path[:-1])[path[-1]] = value


def field(path) -> str:
    return ".".join(map(str, ("state", *path)))


def wrong_type(value):
    """A JSON value of another type than `value` (and never a valid null)."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return "1"
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"0": value}
    if isinstance(value, dict):
        return [value]
    return [1]  # in place of a null


@st.composite
def dealt_state(draw):
    """A valid state of a game, `moves` random legal moves into a seeded deal."""
    game_id = draw(st.sampled_from(GAME_IDS))
    schemas = GAMES[game_id]
    game = schemas.game
    rng = random.Random(draw(SEED))
    state = game.deal(rng)
    for _ in range(draw(st.integers(0, 150))):
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, complete(rng.choice(legal), rng))
    return game_id, schemas.dump_state(state)


@st.composite
def damaged_state(draw):
    """(game id, damaged state, kind, what the 422 must point at)."""
    game_id, state = draw(dealt_state())
    found = found_in(game_id, state)
    kinds = ["delete", "wrong_type", "unknown_card", "seat_out_of_range"]
    if len(found.piles) >= 2:
        kinds += ["duplicate", "swap", "remove"]
    kind = draw(st.sampled_from(kinds))
    damaged = copy.deepcopy(state)
    return game_id, damaged, kind, DAMAGES[kind](draw, found, damaged)


def found_in(game_id: str, state: dict) -> Found:
    codes = GAMES[game_id].game.deck.index
    places = [(p, v) for p, v in walk(state) if p]
    cards = [p for p, v in places if isinstance(v, str) and v in codes]
    return Found(
        game_id, state, places, piles=[p for p in cards if is_pile_place(game_id, p)],
        card_places=cards,
        seats=[p for p, v in places if isinstance(p[-1], str) and p[-1] in SEAT_KEYS],
        keys=[p for p, v in places if isinstance(p[-1], str) and p[0] != "result"])


class Found(NamedTuple):
    """A dealt state and the places in it that a damage may take."""

    game_id: str
    state: dict
    places: list
    piles: list
    card_places: list
    seats: list
    keys: list


def deleted(draw, found: Found, damaged: dict) -> dict:
    path = draw(st.sampled_from(found.keys))
    del get(damaged, path[:-1])[path[-1]]
    return {"path": path, "optional": len(path) == 1 and path[0] in OPTIONAL_KEYS}


def wrong_typed(draw, found: Found, damaged: dict) -> dict:
    path, value = draw(st.sampled_from(found.places))
    put(damaged, path, wrong_type(value))
    return {"path": path}


def unknown_card(draw, found: Found, damaged: dict) -> dict:
    path = draw(st.sampled_from(found.card_places))
    put(damaged, path, draw(st.sampled_from(
        ["ZZ", "", "1X", "RRAM" if found.game_id != "ganjifa" else "AS",
         get(found.state, path).lower()])))
    return {"path": path}


def seat_out_of_range(draw, found: Found, damaged: dict) -> dict:
    path = draw(st.sampled_from(found.seats))
    players = GAMES[found.game_id].game.players
    put(damaged, path, draw(st.sampled_from([players, players + 1, -1, 99])))
    return {"path": path}


def two_piles(draw, found: Found) -> tuple[tuple, tuple]:
    a = draw(st.sampled_from(found.piles))
    return a, draw(st.sampled_from([p for p in found.piles if p != a]))


def duplicated(draw, found: Found, damaged: dict) -> dict:
    """The card at a overwrites the one at b: a twice, b's missing."""
    a, b = two_piles(draw, found)
    put(damaged, b, get(found.state, a))
    return {"places": (a, b), "missing": get(found.state, b)}


def swapped(draw, found: Found, damaged: dict) -> dict:
    a, b = two_piles(draw, found)
    put(damaged, a, get(found.state, b))
    put(damaged, b, get(found.state, a))
    return {"places": (a, b)}


def removed(draw, found: Found, damaged: dict) -> dict:
    """A card taken out of a plain list pile (not out of a trick's entry)."""
    path = draw(st.sampled_from([p for p in found.piles if isinstance(p[-1], int)]))
    del get(damaged, path[:-1])[path[-1]]
    return {"path": path, "missing": get(found.state, path)}


DAMAGES = {"delete": deleted, "wrong_type": wrong_typed, "unknown_card": unknown_card,
           "seat_out_of_range": seat_out_of_range, "duplicate": duplicated, "swap": swapped,
           "remove": removed}


def resolves(body, dotted: str) -> bool:
    """Whether an error's field names a place that is in the body sent."""
    doc = body
    for part in dotted.split("."):
        # an object's key may be digits too (wrong_type puts {"0": a list} for a list)
        key = int(part) if part.isdigit() and isinstance(doc, list) else part
        try:
            doc = doc[key]
        except (KeyError, IndexError, TypeError):
            return False
    return True


def is_too_deep(errors) -> bool:
    return [e["message"] for e in errors] == [TOO_DEEP]


def check_answer(state, kind, target, response):
    assert response.status_code != 500
    body = response.get_json()
    if kind == "delete" and target["optional"]:
        # a derived field left out is no damage: the state stays valid
        assert response.status_code == 200, body
        return
    if kind == "swap" and response.status_code == 200:
        # two cards exchanged between piles may make another valid state
        return
    assert response.status_code == 422, body
    assert response.content_type == "application/problem+json"
    assert body["status"] == 422 and body["type"] and body["title"]
    errors = body["errors"]
    assert errors and all(e["field"] == "state" or e["field"].startswith("state.")
                          for e in errors), errors
    assert all(e["pointer"] == "/" + e["field"].replace(".", "/") for e in errors), errors
    fields_ = {e["field"] for e in errors}
    # every error names a place of the state sent, but the field that was deleted
    deleted = field(target["path"]) if kind == "delete" else None
    assert all(resolves(state, e["field"]) for e in errors if e["field"] != deleted), errors
    if kind in ("delete", "wrong_type", "unknown_card", "seat_out_of_range"):
        path = target["path"]
        # a field inside `result` is checked as a whole: the derived result disagrees
        expected = field(path[:1]) if path[0] == "result" else field(path)
        if kind == "wrong_type" and is_too_deep(errors):
            # An object wrapped in a list at the deepest level (a Ganjifa Dukal's discard)
            # is one level too deep: refused before any schema, at the container inside it.
            assert all(f.startswith(expected + ".") for f in fields_), (path, errors)
            return
        assert expected in fields_, (kind, path, errors)
    elif kind == "duplicate":
        a, b = target["places"]
        assert {field(a), field(b)} & fields_, (kind, a, b, errors)
        assert any(e["field"] == "state" and target["missing"] in e["message"]
                   for e in errors), (kind, target, errors)
    elif kind == "remove":
        assert any(e["field"] == "state" and target["missing"] in e["message"]
                   for e in errors), (kind, target, errors)
    else:
        # swap refused: a card exchanged between two piles can contradict the rules
        # anywhere its new holder's play is on record (a trick where that seat did not
        # follow suit, a bout it could not have defended), so any field of the state may be
        # the one at fault: that it is a place of the state sent is checked above.
        pass


@bounded(1500)
@given(case=damaged_state(), endpoint=st.sampled_from(["legal-moves", "view"]))
def test_damaged_states_are_refused_at_the_damaged_field(client, case, endpoint):
    game_id, state, kind, target = case
    body = {"state": state} if endpoint == "legal-moves" else {"state": state, "seat": 0}
    response = client.post(f"/v1/games/{game_id}/{endpoint}", json=body)
    event(f"{game_id} {kind}: {response.status_code}")
    check_answer(body, kind, target, response)


# ---------------------------------------------------------------------------------------
# (c) every place of a state, damaged in turn: what (b) draws by chance, here in full


def shape(path: tuple) -> tuple:
    """A place with its list indices left out: `dukals.#.discards.#.cards.#`."""
    return tuple("#" if isinstance(p, int) else p for p in path)


def covering_states(game_id: str, seeds: range = range(30)) -> list[dict]:
    """States of seeded random deals that hold between them every shape of place that any
    state of those deals holds (a Ganjifa Dukal with its discards, a Tarot trick…),
    chosen greedily, the richest first. A captured Dukal is rare (seeds 10 and 26 of the
    first 30 play one): hypothesis, in (b), damages one only by chance."""
    schemas = GAMES[game_id]
    game = schemas.game
    seen: list[tuple[set, dict]] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.deal(rng)
        while True:
            dumped = schemas.dump_state(state)
            seen.append(({shape(p) for p, _ in walk(dumped)}, dumped))
            legal = game.legal_moves(state)
            if not legal:
                break
            state = game.apply(state, complete(rng.choice(legal), rng))
    wanted = set().union(*(shapes for shapes, _ in seen))
    chosen = []
    while wanted:
        shapes, dumped = max(seen, key=lambda s: len(s[0] & wanted))
        chosen.append(dumped)
        wanted -= shapes
    return chosen


def one_place_a_shape(game_id: str) -> list[tuple[dict, tuple]]:
    """(state, place) for each shape of place in covering_states, its first place."""
    out, seen = [], set()
    for state in covering_states(game_id):
        for path, _ in walk(state):
            if path and shape(path) not in seen:
                seen.add(shape(path))
                out.append((state, path))
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_place_damaged_is_refused_there(client, game_id):
    """A place of each shape, deleted (a key) and given a value of another type, in turn:
    no shape of damage that (b) draws is left to the draw."""
    for state, path in one_place_a_shape(game_id):
        cases = [("wrong_type", wrong_type(get(state, path)))]
        if isinstance(path[-1], str) and path[0] != "result":
            cases.append(("delete", None))
        for kind, new in cases:
            damaged = copy.deepcopy(state)
            if kind == "delete":
                del get(damaged, path[:-1])[path[-1]]
            else:
                put(damaged, path, new)
            optional = len(path) == 1 and path[0] in OPTIONAL_KEYS
            body = {"state": damaged}
            response = client.post(f"/v1/games/{game_id}/legal-moves", json=body)
            check_answer(body, kind, {"path": path, "optional": optional}, response)
