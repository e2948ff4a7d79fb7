"""A request's body, read one way by every view that takes one: its bytes read whole from the
WSGI input (413 past 1 MiB, 400 when they do not come whole), parsed as JSON within the
limits of schemas/limits.py, its state's signature checked, and loaded with the view's
schema; each refusal a problem document naming the field at fault."""

from __future__ import annotations

import orjson
from gunicorn.http.errors import ParseException
from marshmallow import ValidationError
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import get_content_length

from schemas.common import error, flatten_errors
from schemas.limits import MAX_DEPTH, MAX_VALUES, too_deep, too_many_values, unreadable
from schemas.registry import GAMES
from service import call
from service.problems import ProblemError

MAX_BODY = 1024 * 1024  # API.md: 413 over 1 MiB
INCOMPLETE = ("The body could not be read to its end: the connection closed before all of it "
              "came, or its chunked encoding is malformed.")
CHUNKED = ("The body is chunked, and this server cannot tell where it ends: send it with a "
           "Content-Length.")
TOO_DEEP = f"Nested too deep: no request nests objects and lists more than {MAX_DEPTH} levels."
INFINITE = "Out of range: a number must be finite as a double (about ±1.8e308 at most)."


def body(schema, game_id: str | None = None, empty_is_object: bool = False) -> dict:
    """The request body loaded with `schema`: 400 when it is not JSON, 422 when it breaks
    the schema, or names a game other than `game_id`. With `empty_is_object`, no bytes at
    all are taken as `{}`."""
    data = json_object(body_bytes() or (b"{}" if empty_is_object else b""))
    another_game(data, game_id)
    unsigned(data)
    try:
        return schema.load(data)
    except ValidationError as e:
        errors = flatten_errors(e.messages)
        raise ProblemError(422, "invalid-body", "Invalid body",
                           f"{len(errors)} field(s) break the schema.", errors,
                           params={"count": len(errors)}) from None


def json_object(raw: bytes) -> dict:
    """The body as a JSON object within schemas/limits.py's limits, each checked before
    the work it bounds: 400 when it is not JSON, 422 naming the place past a limit."""
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
    return data


def unsigned(data: dict) -> None:
    """When the service signs its states: the body's state checked against its signature
    (422 without a valid one), and the signature taken off before the schema reads it."""
    signer = call.extension("cardavia.signer")
    if signer is None or "state" not in data:
        return
    if not isinstance(data["state"], dict) or not signer.valid(data["state"]):
        raise ProblemError(422, "state_signature_invalid", "Invalid state signature",
                           "The state does not carry a valid signature of this service.",
                           [error("state.signature", "Missing, or does not match the state.")])
    data["state"] = {k: v for k, v in data["state"].items() if k != "signature"}


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


def body_bytes() -> bytes:
    """The request's bytes; 413 beyond MAX_BODY, 400 when they cannot be read whole. Read
    from the WSGI input itself: Flask's MAX_CONTENT_LENGTH would put werkzeug's
    LimitedStream in between, whose Python read loop is a measurable share of a /move
    (bench/profile_move.py)."""
    environ = call.environ()
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
