"""The mutation fuzzer, shared by tests/test_mutation_fuzz.py (bounded, a fixed seed, in
`make test`) and `python -m bench --only fuzz` (long).

A schema-driven fuzzer almost never builds a valid state, and the inputs that answered 500
were damaged valid states: so states of seeded deals of every game and every count of
players, played part-way, are damaged (fields deleted, duplicated, replaced; a card named
twice in one list; values wrapped in lists, huge numbers, wrong types, deep nesting, long
lists) or sent whole beside damaged request fields (seats at and beyond the state's count),
to every endpoint that takes a state, a seat or a score sheet, once unsigned and once to a
server that signs its states (a state damaged, then signed as the server would have
signed it, or signed, then damaged).

Every answer must be a 200 of the endpoint's media type or a 4xx problem document; and a
state the service accepts is one it reads whole: sent to `replay` with no moves, it is
answered unchanged (a card named twice in a list the rules read as a set was once dropped).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

import orjson
import requests

from rules.ai import complete
from rules.tarot import CONTRACTS, POIGNEE_VALUES
from schemas.registry import GAMES
from service.signing import Signer
from tests.support.abuse import card_lists, every_count, mid_deal_states, nested

STATE_ENDPOINTS = ("legal-moves", "move", "ai-move", "view", "replay", "render")
# Score sheets: a Tarot deal played elsewhere, and an evening's deals.
SHEET_ENDPOINTS = ("settlement", "session")
# render: a picture or text; session: JSON or CSV
ANSWER_TYPES = {"application/json", "image/svg+xml", "text/plain", "text/csv"}
RAW = "\u2063raw\u2063"  # stands for a value orjson cannot write (too deep), put in after
MAX_SEAT = max(GAMES[g].game.counts[-1] for g in GAMES) - 1


class Failure(NamedTuple):
    game: str
    players: int
    endpoint: str
    what: str
    status: int
    answer: str


def hostile_value(rng: random.Random, value, cards: list[str]):
    """A damaged stand-in for `value`."""
    return rng.choice([
        lambda: None, lambda: [value], lambda: [[value]], lambda: {"v": value},
        lambda: 1e308, lambda: -1e308, lambda: 2**64 - 1, lambda: -(2**63), lambda: -1,
        lambda: 0.5, lambda: True, lambda: "", lambda: "é" * 50, lambda: "6S" * 10_000,
        lambda: [], lambda: {}, lambda: [{}] * 300, lambda: [rng.choice(cards)] * 200,
        lambda: rng.choice(cards), lambda: [rng.choice(cards)], lambda: str(value),
        lambda: RAW,
    ])()


def paths_of(value, path=()):
    """Every path into a JSON value, its own included."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_of(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths_of(v, (*path, i))


def copied(value):
    return orjson.loads(orjson.dumps(value))


def mutate(rng: random.Random, value: dict, cards: list[str]) -> tuple[dict, str]:
    """A damaged copy of `value` (a state or a score sheet) and what was done to it."""
    value = copied(value)
    path = rng.choice([p for p in paths_of(value) if p])
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    kind = rng.choice(["delete", "duplicate", "replace", "replace", "replace", "add"])
    if kind == "delete":
        del parent[key]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif kind == "add" and isinstance(parent, list):
        parent.append(rng.choice(cards))
    elif kind == "add":
        parent[f"x{rng.randrange(9)}"] = rng.choice(cards)
    else:
        parent[key] = hostile_value(rng, parent[key], cards)
    return value, f"{kind} at {'.'.join(map(str, path))}"


def repeat_a_card(rng: random.Random, state: dict, cards: list[str]) -> tuple[dict, str]:
    """A copy of `state` with one card of one of its card lists named twice, the list's
    length kept: the lists chosen by their kind (hands, chien, a poignée…), so that each
    kind is as likely as the hands."""
    state = copied(state)
    kinds: dict[tuple, list[tuple]] = {}
    for path in card_lists(state, frozenset(cards)):
        kinds.setdefault(tuple(k if isinstance(k, str) else 0 for k in path), []).append(path)
    if not kinds:
        return mutate(rng, state, cards)
    path = rng.choice(rng.choice(sorted(kinds.values())))
    pile = state
    for key in path:
        pile = pile[key]
    i, j = rng.sample(range(len(pile)), 2)
    pile[j] = pile[i]
    return state, f"repeat at {'.'.join(map(str, path))}.{j}"


def varied_states(game_id: str, players: int, count: int, seed: int,
                  candidates: int = 160) -> list[dict]:
    """`count` mid-deal states of seeded deals, chosen among `candidates` so that every
    phase and every kind of card list the game's states hold (a shown chien, a poignée, a
    captured Dukal…) is there: random play alone seldom reaches some of them."""
    codes = frozenset(GAMES[game_id].game.deck.codes)
    groups: dict[tuple, list[dict]] = {}
    for state in mid_deal_states(game_id, candidates, seed=seed, players=players):
        kinds = sorted({tuple(k for k in path if isinstance(k, str))
                        for path in card_lists(state, codes)})
        groups.setdefault((state["phase"], *kinds), []).append(state)
    chosen: list[dict] = []
    queues = [groups[key] for key in sorted(groups)]
    while len(chosen) < count and any(queues):
        for queue in queues:
            if queue and len(chosen) < count:
                chosen.append(queue.pop(0))
    return chosen


def score_sheet(rng: random.Random) -> dict:
    """A valid score sheet (API.md, the Tarot settlement) of any count."""
    players = rng.choice([3, 4, 5])
    sheet: dict[str, Any] = {"players": players, "contract": rng.choice(CONTRACTS),
                             "taker": rng.randrange(players), "bouts": rng.randrange(4),
                             "points": rng.randrange(183) / 2}
    if players == 5:
        sheet["partner"] = rng.choice([None, rng.randrange(5)])
    if rng.random() < 0.3:
        sheet["poignees"] = [{"camp": rng.choice(["taker", "defense"]),
                              "level": rng.choice(list(POIGNEE_VALUES))}]
    if rng.random() < 0.2:
        sheet["petit_au_bout"] = rng.choice(["taker", "defense", None])
    if rng.random() < 0.1:
        sheet["chelem"] = {"announced": rng.random() < 0.5,
                           "made_by": rng.choice(["taker", "defense", None])}
    return sheet


def session_body(rng: random.Random) -> dict:
    """An evening's sheets (API.md, the Tarot session): names, deals, the first dealer."""
    players = rng.choice([3, 4, 5])
    deals: list[dict] = []
    for _ in range(rng.randrange(1, 5)):
        if rng.random() < 0.15:
            deals.append({"annulled": rng.choice(["all_pass", "petit_sec"])})
            continue
        sheet = score_sheet(rng)
        while sheet["players"] != players:
            sheet = score_sheet(rng)
        if rng.random() < 0.5:
            del sheet["players"]  # the session's count
        deals.append(sheet)
    return {"players": ["Ana", "Béla", "Chandra", "Dara", "Ezra"][:players], "deals": deals,
            "dealer": rng.randrange(players)}


def seat_choice(rng: random.Random, players: int):
    """Seats at the edges of the state's count and of the schemas' bound, and wrong types."""
    return rng.choice([0, players - 1, players, MAX_SEAT, MAX_SEAT + 1, -1, "0", None])


def legal_move(rng: random.Random, game_id: str, state: dict) -> dict | None:
    """One of the legal moves of a valid JSON state, as JSON, or None at the deal's end."""
    schemas = GAMES[game_id]
    built = schemas.game.build(**schemas.requests["state"].load({"state": state})["state"])
    moves = schemas.game.legal_moves(built)
    return schemas.dump_move(complete(rng.choice(moves), rng)) if moves else None


def request_body(rng: random.Random, endpoint: str, state: dict, cards: list[str],
                 players: int, legal: dict | None, fields_damaged: bool) -> dict:
    """A body for `endpoint` around `state`. With `fields_damaged`, its own fields are
    hostile (seats at and past the edges, random moves); else they are sound (a seat at
    the table, `legal`: a legal move of the state before it was damaged)."""
    def seat():
        return seat_choice(rng, players) if fields_damaged else rng.randrange(players)

    body: dict = {"state": state}
    move = {"seat": seat(), "action": rng.choice(
        ["attack", "defend", "take", "pass", "bid", "play", "dukal", "discard", "fly"]),
        "card": rng.choice([*cards, 1, None, ["6S"]])}
    if legal is not None and (not fields_damaged or rng.random() < 0.3):
        move = legal
    if endpoint == "move":
        body["move"] = move
    elif endpoint == "replay":
        body.update(moves=[move] * rng.choice([0, 0, 1, 3]),
                    include=rng.choice(["final", "all", "all", 0 if fields_damaged else "all"]))
    elif endpoint == "render":
        body.update(format=rng.choice(["svg", "text", 1 if fields_damaged else "text"]))
        if rng.random() < 0.7:
            body["seat"] = seat()
    elif endpoint == "ai-move":
        body.update(level=rng.choice(["random", "basic"]), budget_ms=rng.randrange(1, 20),
                    seed=rng.randrange(2**32))
        if fields_damaged and rng.random() < 0.6:
            body["seat"] = seat()
    elif endpoint == "view":
        body["seat"] = seat()
    return body


def encoded(rng: random.Random, body: dict) -> bytes:
    raw = orjson.dumps(body)
    levels = rng.choice([8, 255, 256, 965, 1100])
    return raw.replace(orjson.dumps(RAW), nested(levels))


def unsigned(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "signature"}


class Fuzzer:
    """Damaged requests to one server: `run(count)` sends `count` of them and returns what
    broke a rule of the answers; `seen` counts the statuses by endpoint."""

    def __init__(self, base: str, seed: int, signer: Signer | None = None,
                 states_per_count: int = 12):
        self.base, self.signer = base, signer
        self.rng = random.Random(seed)
        self.pairs = every_count()
        self.states = {(g, n): varied_states(g, n, states_per_count, seed=16 + n)
                       for g, n in self.pairs}
        self.seen: Counter[tuple[str, int]] = Counter()
        self.session = requests.Session()

    def close(self) -> None:
        self.session.close()

    def post(self, path: str, raw: bytes, headers: dict | None = None) -> requests.Response:
        return self.session.post(f"{self.base}{path}", data=raw, timeout=60,
                                 headers={"Content-Type": "application/json",
                                          **(headers or {})})

    def state_case(self, i: int) -> tuple[str, int, str, str, bytes, dict | None]:
        rng = self.rng
        game_id, players = self.pairs[i % len(self.pairs)]
        cards = list(GAMES[game_id].game.deck.codes)
        state = rng.choice(self.states[game_id, players])
        legal = legal_move(rng, game_id, state)
        damage = rng.random()
        signer = self.signer
        sign_first = signer is not None and rng.random() < 0.5
        if signer is not None and sign_first:
            state = signer.sign(dict(state))
        if damage < 0.45:
            what = "whole"  # the request's own fields damaged (a seat beyond the count…)
        elif damage < 0.7:
            state, what = repeat_a_card(rng, state, cards)
        else:
            whats = []
            for _ in range(rng.choice([1, 1, 2, 3])):
                state, w = mutate(rng, state, cards)
                whats.append(w)
            what = ", ".join(whats)
        if signer is not None and not sign_first:
            state = signer.sign(state)
        endpoint = STATE_ENDPOINTS[rng.randrange(len(STATE_ENDPOINTS))]
        body = request_body(rng, endpoint, state, cards, players, legal,
                            fields_damaged=what == "whole")
        return game_id, players, endpoint, what, encoded(rng, body), state

    def sheet_case(self) -> tuple[str, int, str, str, bytes, dict | None]:
        rng = self.rng
        endpoint = rng.choice(SHEET_ENDPOINTS)
        sheet = score_sheet(rng) if endpoint == "settlement" else session_body(rng)
        players = sheet["players"] if endpoint == "settlement" else len(sheet["players"])
        what = "whole"
        if rng.random() < 0.7:
            sheet, what = mutate(rng, sheet, ["simple", "taker", "garde", "all_pass"])
        return "tarot", players, endpoint, what, encoded(rng, sheet), None

    def run(self, count: int) -> list[Failure]:
        failures = []
        for i in range(count):
            headers = {}
            if i % 6 == 5:
                game_id, players, endpoint, what, raw, state = self.sheet_case()
                if endpoint == "session" and self.rng.random() < 0.3:
                    headers["Accept"] = "text/csv"
            else:
                game_id, players, endpoint, what, raw, state = self.state_case(i)
            r = self.post(f"/v1/games/{game_id}/{endpoint}", raw, headers)
            self.seen[endpoint, r.status_code] += 1
            kind = r.headers.get("Content-Type", "")
            ok = r.status_code == 200 and kind.split(";")[0] in ANSWER_TYPES or (
                400 <= r.status_code < 500 and kind == "application/problem+json")
            if not ok:
                failures.append(Failure(game_id, players, endpoint, what, r.status_code,
                                        r.text[:300]))
            elif r.status_code == 200 and state is not None:
                failures += self.read_whole(game_id, players, endpoint, what, state)
        return failures

    def read_whole(self, game_id: str, players: int, endpoint: str, what: str,
                   state: dict) -> list[Failure]:
        """A state an endpoint accepted is answered unchanged by `replay` with no moves."""
        r = self.post(f"/v1/games/{game_id}/replay",
                      orjson.dumps({"state": state, "moves": []}))
        if r.status_code != 200:
            return [Failure(game_id, players, endpoint, f"{what}; replay refused it",
                            r.status_code, r.text[:300])]
        # The fields sent (a derived one left out is answered, computed).
        answered = r.json()["state"]
        changed = sorted(k for k in unsigned(state) if answered.get(k) != state[k])
        if changed:
            return [Failure(game_id, players, endpoint, f"{what}; answered changed "
                            f"{', '.join(changed)}", r.status_code, "")]
        return []


def fuzz(base: str, seed: int, count: int, signer: Signer | None = None) -> tuple[
        list[Failure], Counter]:
    fuzzer = Fuzzer(base, seed, signer)
    try:
        return fuzzer.run(count), fuzzer.seen
    finally:
        fuzzer.close()


def cases_summary(seen: Counter) -> Iterator[str]:
    by_endpoint: dict[str, Counter] = {}
    for (endpoint, status), n in seen.items():
        by_endpoint.setdefault(endpoint, Counter())[status] = n
    for endpoint, statuses in sorted(by_endpoint.items()):
        yield f"{endpoint}: " + ", ".join(f"{s} ×{n}" for s, n in sorted(statuses.items()))
