"""The API's views: thin, they parse with a schema, call the rules, dump the answer."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import orjson
from flask import Blueprint, Response

from rules.ai.levels import choose
from rules.game import Game, IllegalMove, InvalidState
from schemas.common import DEFAULT_BUDGET_MS, error
from schemas.game import GameSchemas, Post
from schemas.registry import GAMES
from service import budget, call, i18n
from service.body import body
from service.problems import Answer, ProblemError
from service.router import View, post, unknown_game

api = Blueprint("api", __name__)  # the GETs of the API; its POSTs are service/router.py's
OPENAPI = Path(__file__).resolve().parent / "openapi.yaml"  # a symlink in the source tree
JSON = (("Content-Type", "application/json"),)


def json_response(body, status: int = 200) -> Answer:
    return orjson.dumps(body), status, JSON


@api.app_url_value_preprocessor
def any_case(endpoint: str | None, values: dict | None) -> None:
    """A game id in any case is the game (`/v1/games/Durak` is Durak), on every blueprint's
    routes (service/router.py reads its own paths so); anything else stays as given, for
    the 404 to name it."""
    if values and isinstance(values.get("game_id"), str):
        lowered = values["game_id"].lower()
        if lowered in GAMES:
            values["game_id"] = lowered


def game_for(game_id: str) -> GameSchemas:
    schemas = GAMES.get(game_id)
    if schemas is None:
        raise unknown_game(game_id)
    return schemas


def refuse_chosen_deal(request: dict, at: str = "") -> None:
    """With signed states, only random deals: a client that stacks the deck or picks the
    seed deals itself the hands it wants, and would get them signed, unless
    CARDAVIA_ALLOW_CHOSEN_DEALS says so. `at`: where the DealRequest sits in the body."""
    if call.extension("cardavia.signer") is None or call.extension("cardavia.chosen_deals"):
        return
    chosen = [name for name in ("deck", "seed") if name in request]
    if chosen:
        raise ProblemError(422, "chosen-deal-refused", "Chosen deal refused",
                           "This service signs its states: it deals at random only, so "
                           "neither a stacked deck nor a seed is accepted.",
                           [error(at + name, "Not accepted while states are signed.")
                            for name in chosen])


def signed(state: dict) -> dict:
    """The state as answered: with its signature when the service signs states."""
    signer = call.extension("cardavia.signer")
    return state if signer is None else signer.sign(state)


def state_of(schemas: GameSchemas, fields: dict):
    try:
        return schemas.game.build(**fields)
    except InvalidState as e:
        errors = [error(f"state.{p.field}" if p.field else "state", p.message)
                  for p in e.problems]
        raise ProblemError(422, "invalid-state", "Invalid state",
                           f"The state breaks the rules in {len(errors)} place(s).",
                           errors, params={"count": len(errors)}) from None


def seat_at_table(game: Game, state, seat: int | None, field: str = "seat") -> None:
    """A seat a request names is one of the state's, whose count (its hands) may be below
    the largest the schema bounds a seat by (T18): 422 naming the field, before a view or a
    picture of the seat reads a hand that is not there."""
    players = game.seats(state)
    if seat is not None and not 0 <= seat < players:
        message = f"Must be between 0 and {players - 1}."
        raise ProblemError(422, "invalid-body", "Invalid body", "1 field(s) break the schema.",
                           [error(field, message)], params={"count": 1})


@api.get("/healthz")
def healthz():
    return json_response({"status": "ok"})


@api.get("/openapi.yaml")
def openapi():
    return Response(OPENAPI.read_bytes(), mimetype="application/yaml")


@api.get("/v1/games")
def games():
    return json_response({"games": [i18n.game_info(s.info()) for s in GAMES.values()]})


@api.get("/v1/games/<game_id>")
def game_info(game_id: str):
    schemas = game_for(game_id)
    size = deck_size(schemas.game, call.query("cards"))
    return json_response({**i18n.game_info(schemas.info()),
                          "cards": i18n.cards(game_id, schemas.cards(size), size=size)})


def deck_size(game: Game, asked: str | None) -> int | None:
    """`?cards=N` of GameInfo: the size of one of the game's decks (Durak's D16: 24, 36 or
    52), for `cards` to list that deck; None, the default deck."""
    if asked is None:
        return None
    sizes = sorted(game.decks)
    if asked.isascii() and asked.isdigit() and int(asked) in game.decks:
        return int(asked)
    listed = ", ".join(map(str, sizes))
    raise ProblemError(422, "invalid-deck", "Invalid deck",
                       f"{game.name} has no deck of {asked[:20]} cards: {listed}.",
                       [error("cards", f"One of {listed}.")],
                       detail_key="problem.invalid-deck.detail.size",
                       params={"game": game.name, "given": asked[:20], "sizes": listed},
                       words={"game": f"game.{game.id}.name"})


def seeded(seed: int | None) -> random.Random:
    """The generator of a request's `seed` (a random one without): each seed its own.
    Python seeds a generator with a negative integer's absolute value, so `-1` would deal
    `1`'s hands; a negative seed is read as its 64-bit two's complement instead, a number
    past every non-negative seed (at most 2^63 - 1), and deals hands of its own."""
    if seed is None:
        return random.Random()
    return random.Random(seed if seed >= 0 else seed + 2**64)


def dealt(schemas: GameSchemas, request: dict, at: str = "") -> tuple[Any, list[int]]:
    """The deal of a loaded DealRequest, and the deck's order it dealt from (the stacked
    one, or the shuffle of the seed, or a random one). `at` prefixes the field paths of an
    invalid deck: where the DealRequest sits in the body."""
    refuse_chosen_deal(request, at)
    options = dict(request)
    order = options.pop("deck", None)
    rng = seeded(options.pop("seed", None))
    try:
        if order is None:
            # The same shuffle as `deal`'s, told to the client.
            order = schemas.game.shuffle(rng, **options)
        return schemas.game.deal(rng, order, **options), order
    except InvalidState as e:
        errors = [error(at + (p.field or "deck"), p.message) for p in e.problems]
        raise ProblemError(422, "invalid-deck", "Invalid deck",
                           "The stacked deck must hold every card exactly once.",
                           errors) from None


@post("deal")
def deal(game_id: str):
    schemas = game_for(game_id)
    # API.md Additions: an empty body is {}.
    state, order = dealt(schemas, body(schemas.requests["deal"], game_id, empty_is_object=True))
    # API.md, "Game records": the deck's order, so that {"deck": …} deals this state again.
    return json_response({"state": signed(schemas.dump_state(state)),
                          "deck": [*map(schemas.game.all_cards.codes.__getitem__, order)]})


@post("legal-moves")
def legal_moves(game_id: str):
    schemas = game_for(game_id)
    state = state_of(schemas, body(schemas.requests["state"], game_id)["state"])
    game = schemas.game
    return json_response({
        "to_act": game.to_act(state),
        "moves": [schemas.dump_move(m) for m in game.legal_moves(state)],
    })


@post("move")
def move(game_id: str):
    schemas = game_for(game_id)
    data = body(schemas.requests["move"], game_id)
    state = state_of(schemas, data["state"])
    game = schemas.game
    try:
        new, events = game.play(state, data["move"])
    except IllegalMove as illegal:
        reason = illegal.reason
        if reason is None:  # play always verifies: only an unchecked apply has none
            raise
        return json_response({"legal": False, "reason": {
            "code": reason.code, "rule": reason.rule, "message": i18n.reason_message(reason)}})
    dumped = schemas.dump_state(new)
    return json_response({
        "legal": True,
        "state": signed(dumped),
        "events": [schemas.dump_event(e) for e in events],
        "settlement": dumped["result"],  # the new state's settlement, computed once
    })


@post("ai-move")
def ai_move(game_id: str):
    schemas = game_for(game_id)
    data = body(schemas.requests["ai"], game_id)
    state = state_of(schemas, data["state"])
    game = schemas.game
    to_act = game.to_act(state)
    seat_at_table(game, state, data.get("seat"))
    seat = data.get("seat", to_act)
    if seat is None or not any(m.seat == seat for m in game.legal_moves(state)):
        who = "nobody is to act: the deal is over" if to_act is None else \
            f"seat {seat} has no legal move; seat {to_act} is to act"
        raise ProblemError(422, "no-legal-move", "No legal move", f"No AI move: {who}.",
                           [error("seat" if "seat" in data else "state", who)],
                           detail_key="problem.no-legal-move.detail."
                           + ("over" if to_act is None else "seat"),
                           params=None if to_act is None else {"seat": seat, "to_act": to_act})
    level = data.get("level", "strong")
    budget_ms = data.get("budget_ms", DEFAULT_BUDGET_MS)
    seed = data.get("seed")
    rng = seeded(seed)
    started = time.perf_counter()
    # The AI is given the seat's view, never the state: it cannot read a hidden card.
    view = game.observe(state, seat)
    # A search costs its client budget_ms of its share (429 past it) and holds a slot for
    # up to budget_ms (503 when the pool's are all taken); random and basic answer in a
    # millisecond or two, cost nothing and never wait behind one.
    with budget.searching(budget_ms) if level == "strong" else contextlib.nullcontext():
        chosen, played_level = choose(game, view, level, rng, budget_ms)
    return json_response({
        "move": schemas.dump_move(chosen),
        "level": played_level,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 3),
    })


@post("view")
def seat_view(game_id: str):
    """What one seat may see of a state: the other hands and hidden piles as "?"."""
    schemas = game_for(game_id)
    data = body(schemas.requests["view"], game_id)
    state = state_of(schemas, data["state"])
    seat_at_table(schemas.game, state, data["seat"])
    return json_response({"view": schemas.dump_view(schemas.game.observe(state, data["seat"]))})


def game_own_post(post_: Post) -> View:
    """The view of a game's own endpoint (`GameSchemas.posts`)."""
    def view(game_id: str) -> Answer:
        return json_response(post_.answer(body(post_.request)))
    return view


for _game_id, _schemas in GAMES.items():
    for _name, _post in _schemas.posts.items():
        post(_name, games=(_game_id,))(game_own_post(_post))
