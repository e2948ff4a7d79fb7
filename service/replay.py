"""`POST /v1/games/{game}/replay`: a whole deal, or a run of moves, checked in one request
(API.md, "Additions: Game records and replay").

The body is parsed and the starting state built once; each move is then checked and played
with the rules' own functions, in process, so a move costs what `verify` and `play` cost and
no more. Only what is answered is dumped: with `include: final`, the last state alone.
"""

from __future__ import annotations

import contextlib

from schemas.records import replay_request
from schemas.registry import GAMES
from service import capacity, i18n
from service.api import dealt, game_for, json_response, signed, state_of
from service.body import body
from service.router import post

REQUESTS = {game_id: replay_request(schemas) for game_id, schemas in GAMES.items()}


@post("replay")
def replay(game_id: str):
    schemas = game_for(game_id)
    data = body(REQUESTS[game_id], game_id)
    if "deal" in data:
        state = dealt(schemas, data["deal"], at="deal.")[0]
    else:
        state = state_of(schemas, data["state"])
    every = data.get("include", "final") == "all"
    # Every state answered is the cost of a large session, whatever the body's size.
    with capacity.heavy_slot() if every else contextlib.nullcontext():
        return _played(schemas, state, data["moves"], every)


def _played(schemas, state, moves: list, every: bool):
    """The replay's answer: the moves played from `state` to the first illegal one."""
    game, dump_state = schemas.game, schemas.dump_state
    events: list[list[dict]] = []
    states: list[dict] = []
    for at, move in enumerate(moves):
        reason = game.verify(state, move)
        if reason is not None:
            # The first illegal move (a move after the deal's end is `deal_over`), and the
            # state it was proposed in.
            answer = {"legal": False, "played": at, "at": at, "move": schemas.dump_move(move),
                      "reason": {"code": reason.code, "rule": reason.rule,
                                 "message": i18n.reason_message(reason)},
                      "state": signed(dump_state(state))}
            if every:
                answer.update(events=events, states=states)
            return json_response(answer)
        if every:
            state, happened = game.transition(state, move)  # verified above
            events.append([schemas.dump_event(e) for e in happened])
            states.append(signed(dump_state(state)))
        else:
            state = game.apply(state, move)
    final = states[-1] if states else signed(dump_state(state))
    answer = {"legal": True, "played": len(moves), "state": final,
              "settlement": final["result"]}
    if every:
        answer.update(events=events, states=states)
    return json_response(answer)
