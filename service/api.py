"""The one blueprint: thin views that parse with a schema, call the rules, dump the answer."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import orjson
from flask import Blueprint, Response
from gunicorn.http.errors import ParseException
from marshmallow import ValidationError
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import get_content_length

from rules.ai.levels import choose
from rules.game import Game, IllegalMove, InvalidState
from schemas.common import error, flatten_errors
from schemas.game import GameSchemas, Post
from schemas.limits import MAX_DEPTH, MAX_VALUES, too_deep, too_many_values, unreadable
from schemas.registry import GAMES
from service import call, capacity, i18n
from service.problems import Answer, ProblemError

api = Blueprint("api", __name__)
MAX_BODY = 1024 * 1024  # API.md: 413 over 1 MiB
TOO_DEEP = f"Nested too deep: no request nests objects and lists more than {MAX_DEPTH} levels."
INFINITE = "Out of range: a number must be finite as a double (about ±1.8e308 at most)."
INCOMPLETE = ("The body could not be read to its end: the connection closed before all of it "
              "came, or its chunked encoding is malformed.")
CHUNKED = ("The body is chunked, and this server cannot tell where it ends: send it with a "
           "Content-Length.")
OPENAPI = Path(__file__).resolve().parent / "openapi.yaml"  # a symlink in the source tree
JSON = (("Content-Type", "application/json"),)
# The views of `POST /v1/games/<game>/<action>` by path, for service/lane.py: each with the
# game it answers for.
LANE: dict[str, tuple[Callable[[str], Answer], str]] = {}


def json_response(body, status: int = 200) -> Answer:
    return orjson.dumps(body), status, JSON


def game_post(action: str, blueprint: Blueprint = api):
    """Registers a view for `POST /v1/games/<game_id>/<action>`: in service/lane.py's table
    for each game's own path, and as `blueprint`'s rule for the rest (a game id in another
    case, a trailing slash, an unknown game's 404, another method's 405)."""
    def register(view):
        blueprint.add_url_rule(f"/v1/games/<game_id>/{action}", view_func=view,
                               methods=["POST"])
        for game_id in GAMES:
            LANE[f"/v1/games/{game_id}/{action}"] = (view, game_id)
        return view
    return register


@api.app_url_value_preprocessor
def any_case(endpoint: str | None, values: dict | None) -> None:
    """A game id in any case is the game (`/v1/games/Durak` is Durak), on every blueprint's
    routes; anything else stays as given, for the 404 to name it."""
    if values and isinstance(values.get("game_id"), str):
        lowered = values["game_id"].lower()
        if lowered in GAMES:
            values["game_id"] = lowered


def game_for(game_id: str) -> GameSchemas:
    schemas = GAMES.get(game_id)
    if schemas is None:
        raise ProblemError(404, "unknown-game", "Unknown game",
                           f"No game {game_id!r}; the games are {', '.join(GAMES)}.",
                           params={"game": repr(game_id), "games": ", ".join(GAMES)})
    return schemas


def raw_body(environ: dict) -> bytes:
    """The request's bytes; 413 beyond MAX_BODY, 400 when they cannot be read whole. Read
    from the WSGI input itself: Flask's MAX_CONTENT_LENGTH would put werkzeug's
    LimitedStream in between, whose Python read loop is a measurable share of a /move
    (bench/profile_move.py); the length read from the environ, as `request.content_length`
    would after building the request's headers object."""
    length = get_content_length(environ)
    if length is None and "wsgi.input_terminated" not in environ:
        if "HTTP_TRANSFER_ENCODING" in environ:  # a body this server cannot find the end of
            raise unfinished("chunked", CHUNKED)
        return b""  # no length, no chunks: no body
    if length is not None and length > MAX_BODY:
        raise RequestEntityTooLarge()
    raw = whole(environ["wsgi.input"], length)
    if len(raw) > MAX_BODY:  # a chunked body, whose length is known only once read
        raise RequestEntityTooLarge()
    return raw


def whole(stream, length: int | None) -> bytes:
    """The body from the WSGI input, `length` bytes (up to MAX_BODY + 1 without one), in as
    many reads as the server needs. A body that ends early is the client's doing, a 400
    and not a bug of ours: gunicorn hands a Content-Length body cut short over as it is,
    and raises on chunks cut short (its NoMoreData, an OSError) or ill-formed (its
    ParseExceptions)."""
    want = MAX_BODY + 1 if length is None else length
    try:
        raw = stream.read(want)
        # PEP 3333 lets a server's read return less than asked before the end: read on
        # until the length, or the end of a chunked body (gunicorn gives all at once).
        while len(raw) < want and (more := stream.read(want - len(raw))):
            raw += more
    except (OSError, ParseException):
        raise unfinished("incomplete", INCOMPLETE) from None
    if length is not None and len(raw) < length:
        raise unfinished("incomplete", INCOMPLETE)
    return raw


def unfinished(why: str, detail: str) -> ProblemError:
    """A body that is not whole is no JSON document: API.md's 400 for a body not JSON."""
    return ProblemError(400, "malformed-json", "Malformed JSON", detail,
                        detail_key=f"problem.malformed-json.detail.{why}")


def body(schema, game_id: str | None = None, empty_is_object: bool = False) -> dict:
    """The request body loaded with `schema`: 400 when it is not JSON, 422 when it breaks
    the schema, or names a game other than `game_id`. With `empty_is_object`, no bytes at
    all are taken as `{}`."""
    raw = raw_body(call.environ()) or (b"{}" if empty_is_object else b"")
    if too_many_values(raw):  # before parsing: see schemas/limits.py
        raise ProblemError(422, "invalid-body", "Invalid body", "1 field(s) break the schema.",
                           [error("", f"Too many values: no request holds more than "
                                      f"{MAX_VALUES:,}.")], params={"count": 1})
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        found = unreadable(raw, e)
        if found is not None:  # valid JSON that orjson cannot hold: the place is named
            where, kind = found
            raise ProblemError(422, "invalid-body", "Invalid body",
                               "1 field(s) break the schema.",
                               [error(where, TOO_DEEP if kind == "depth" else INFINITE)],
                               params={"count": 1}) from None
        raise ProblemError(400, "malformed-json", "Malformed JSON",
                           f"The body is not JSON: {e}.", params={"error": str(e)}) from None
    if not isinstance(data, dict):
        raise ProblemError(422, "invalid-body", "Invalid body", "The body must be a JSON object.",
                           [error("", "Must be a JSON object.")],
                           detail_key="problem.invalid-body.detail.object")
    # Before the signature and the schema, which recurse once per level.
    place = too_deep(raw, data)
    if place is not None:
        raise ProblemError(422, "invalid-body", "Invalid body", "1 field(s) break the schema.",
                           [error(place, TOO_DEEP)], params={"count": 1})
    another_game(data, game_id)
    signer = call.extension("cardavia.signer")
    if signer is not None and "state" in data:
        if not isinstance(data["state"], dict) or not signer.valid(data["state"]):
            raise ProblemError(422, "state_signature_invalid", "Invalid state signature",
                               "The state does not carry a valid signature of this service.",
                               [error("state.signature", "Missing, or does not match the state.")])
        data["state"] = {k: v for k, v in data["state"].items() if k != "signature"}
    try:
        return schema.load(data)
    except ValidationError as e:
        errors = flatten_errors(e.messages)
        raise ProblemError(422, "invalid-body", "Invalid body",
                           f"{len(errors)} field(s) break the schema.", errors,
                           params={"count": len(errors)}) from None


def another_game(data: dict, game_id: str | None) -> None:
    """A state (or a game record) of another game sent to this game's endpoint is one
    problem naming its `game`, not every field that game's schema would find at fault."""
    if game_id not in GAMES:
        return  # an unknown game is a 404, answered by the view
    state = data.get("state")
    for field, named in (("state.game", state.get("game") if isinstance(state, dict) else None),
                         ("game", data.get("game"))):
        if named is None or named == game_id:
            continue
        said = named if isinstance(named, str) else orjson.dumps(named).decode()
        if said in GAMES:
            what = "game record" if field == "game" else "state"
            message = (f"This is a {said} {what}, sent to {game_id}'s endpoint: send it to "
                       f"{path_of_game(said)}.")
        else:
            message = f"Must be {game_id!r} at this endpoint, not {said[:40]!r}."
        raise ProblemError(422, "invalid-body", "Invalid body", "1 field(s) break the schema.",
                           [error(field, message)], params={"count": 1})


def path_of_game(game_id: str) -> str:
    """The path called (`/v1/games/<game>/<action>`, under the service's mount point) with
    `game_id` for the game it named, in whatever case that was."""
    environ = call.environ()
    prefix, games, called = environ["PATH_INFO"].partition("/games/")
    _, slash, action = called.partition("/")
    return environ.get("SCRIPT_NAME", "") + prefix + games + game_id + slash + action


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
    asked = parse_qs(call.environ().get("QUERY_STRING", ""), keep_blank_values=True).get("cards")
    size = deck_size(schemas.game, asked[0] if asked else None)
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


@game_post("deal")
def deal(game_id: str):
    schemas = game_for(game_id)
    # API.md Additions: an empty body is {}.
    state, order = dealt(schemas, body(schemas.requests["deal"], game_id, empty_is_object=True))
    # API.md, "Game records": the deck's order, so that {"deck": …} deals this state again.
    return json_response({"state": signed(schemas.dump_state(state)),
                          "deck": [*map(schemas.game.all_cards.codes.__getitem__, order)]})


@game_post("legal-moves")
def legal_moves(game_id: str):
    schemas = game_for(game_id)
    state = state_of(schemas, body(schemas.requests["state"], game_id)["state"])
    game = schemas.game
    return json_response({
        "to_act": game.to_act(state),
        "moves": [schemas.dump_move(m) for m in game.legal_moves(state)],
    })


@game_post("move")
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


@game_post("ai-move")
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
    seed = data.get("seed")
    rng = seeded(seed)
    started = time.perf_counter()
    # The AI is given the seat's view, never the state: it cannot read a hidden card.
    view = game.observe(state, seat)
    # A search holds a slot for up to budget_ms (503 when the worker's are all taken);
    # random and basic answer in a millisecond or two and never wait behind one.
    with capacity.ai_slot() if level == "strong" else contextlib.nullcontext():
        chosen, played_level = choose(game, view, level, rng, data.get("budget_ms", 200))
    return json_response({
        "move": schemas.dump_move(chosen),
        "level": played_level,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 3),
    })


@game_post("view")
def seat_view(game_id: str):
    """What one seat may see of a state: the other hands and hidden piles as "?"."""
    schemas = game_for(game_id)
    data = body(schemas.requests["view"], game_id)
    state = state_of(schemas, data["state"])
    seat_at_table(schemas.game, state, data["seat"])
    return json_response({"view": schemas.dump_view(schemas.game.observe(state, data["seat"]))})


def game_own_post(post: Post):
    """The view of a game's own endpoint (`GameSchemas.posts`)."""
    def view(game_id: str | None = None):  # the lane passes every view its game
        return json_response(post.answer(body(post.request)))
    return view


for _game_id, _schemas in GAMES.items():
    for _name, _post in _schemas.posts.items():
        _path = f"/v1/games/{_game_id}/{_name}"
        _view = game_own_post(_post)
        api.add_url_rule(_path, f"{_game_id}_{_name}", _view, methods=["POST"])
        LANE[_path] = (_view, _game_id)
