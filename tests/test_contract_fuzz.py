"""Contract fuzzing: schemathesis drives every operation of openapi.yaml against a real
gunicorn, once unsigned and once signing states (CARDAVIA_STATE_KEY), and checks each answer
against the document: never a 5xx, a documented status code, the documented content type,
headers and body schema.

The run is reproducible and bounded: a fixed seed, derandomized generation, fuzzed examples
per operation beside the document's own examples and the coverage phase (the deterministic
boundary and negative cases schemathesis derives from each schema).

A schema-driven fuzzer almost never builds a valid state, and the inputs that once answered
500 were damaged valid states: the mutation fuzzer (tests/test_mutation_fuzz.py) damages
states of seeded deals instead.
"""

from __future__ import annotations

import random
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.config import SchemathesisConfig

from rules.ai import complete
from schemas.registry import GAMES
from service.signing import Signer
from tests.conftest import SIGNING_KEY

ROOT = Path(__file__).resolve().parent.parent

CONFIG = SchemathesisConfig.from_dict({
    "seed": 20261130,
    "generation": {"max-examples": 20, "deterministic": True},
    # ai-move and view take the same State as legal-moves and move, whose coverage cases
    # already walk every branch of it; their own few fields are fuzzed rather than
    # enumerated, which keeps this file within a minute on a busy machine. So does
    # replay, with the State and Moves of move (its own cases: tests/test_replay.py).
    "operations": [
        {"include-operation-id": op_id, "phases": {"coverage": {"enabled": False}}}
        for op_id in ("aiMove", "view", "replay")
    ],
})
schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml", config=CONFIG)
# Against the signing server every state schemathesis makes is refused for its signature,
# so the coverage phase's many states would test one answer: fuzzing alone, where the odd
# signatures (non-ASCII among them, once a 500) and values beside them come from.
SIGNED_CONFIG = SchemathesisConfig.from_dict({
    "seed": 20261201,
    "generation": {"max-examples": 15, "deterministic": True},
    "phases": {"coverage": {"enabled": False}},
})
signed_schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml", config=SIGNED_CONFIG)
SIGNER = Signer(SIGNING_KEY)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@schema.parametrize()
def test_every_operation_answers_as_documented(case, server):
    case.call_and_validate(base_url=server, checks=CHECKS)


@signed_schema.parametrize()
def test_every_operation_answers_as_documented_when_signing(case, signed_server):
    case.call_and_validate(base_url=signed_server, checks=CHECKS)


# Random bodies are almost never valid states, so the answers about valid states (a move's
# result and settlement, the AI's move, a view, the legal moves) are checked here, on
# states a seeded deal reaches, with the same schemathesis checks.
OPERATIONS = {name: schema[f"/v1/games/{{game}}/{name}"]["POST"]
              for name in ("legal-moves", "move", "ai-move", "view")}


@settings(derandomize=True, deadline=None, database=None, max_examples=200,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(game_id=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1),
       moves=st.integers(0, 120), name=st.sampled_from(sorted(OPERATIONS)),
       pick=st.integers(0, 2**16), level=st.sampled_from(["random", "basic", "strong"]))
def test_answers_about_valid_states_are_as_documented(server, signed_server, game_id, seed,
                                                      moves, name, pick, level):
    schemas = GAMES[game_id]
    game = schemas.game
    rng = random.Random(seed)
    state = first = game.deal(rng)
    for _ in range(moves):
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, complete(rng.choice(legal), rng))
    # One time in two to the signing server, with the state signed as it would have signed it.
    signing = seed % 2 == 1
    dumped = schemas.dump_state(state)
    body = {"state": SIGNER.sign(dumped) if signing else dumped}
    legal = game.legal_moves(state)
    if name == "move":
        # a legal move; one time in four the same move by the next seat (not its turn);
        # a move of the first trick once the deal is over
        candidates = legal or game.legal_moves(first)
        move = complete(candidates[pick % len(candidates)], rng)
        if pick % 4 == 0:
            move = move._replace(seat=(move.seat + 1) % game.players)
        body["move"] = schemas.dump_move(move)
    elif name == "ai-move":
        body.update(level=level, seed=pick, budget_ms=20)
    elif name == "view":
        body["seat"] = pick % game.players
    case = OPERATIONS[name].Case(path_parameters={"game": game_id}, body=body,
                                 media_type="application/json")
    response = case.call_and_validate(base_url=signed_server if signing else server,
                                      checks=CHECKS)
    if name == "move":
        event(f"move legal: {response.json().get('legal')}")
    # a valid state is answered 200, but where the AI has no move to make (a deal over)
    assert response.status_code == (422 if name == "ai-move" and not legal else 200), (
        response.text[:500])
