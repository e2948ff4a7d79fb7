"""Pictures and text of a state (API.md, "Pictures and text of a state"), and each card's
picture: thin views over the pure drawing of render/."""

from __future__ import annotations

import copy
from urllib.parse import parse_qs

from flask import Blueprint, Response
from marshmallow import Schema, fields

from render import Words, render_svg, render_text
from render import cards as pictures
from render.registry import DRAWINGS
from rules.texts import catalogue
from schemas.common import BaseSchema, error, one_of
from schemas.registry import GAMES
from service import call, i18n
from service.api import game_for, seat_at_table, state_of
from service.body import body
from service.problems import Answer, ProblemError
from service.router import post

render = Blueprint("render", __name__)
FORMATS = ("svg", "text")
DRAW = {"svg": render_svg, "text": render_text}
MEDIA = {"svg": "image/svg+xml", "text": "text/plain; charset=utf-8"}
# A card's picture changes only with the service's version: a table page may keep it a day.
CARD_CACHE = {"Cache-Control": "public, max-age=86400"}


# Every convention of indices a game's drawing offers (Durak's): one request shape for all
# games, a game without the one named refusing it (`convention`).
CONVENTIONS = tuple(dict.fromkeys(c for d in DRAWINGS.values() for c in d.indices))


def _render_request(game_id: str) -> Schema:
    """`{"state", "seat"?, "format"?, "indices"?}`: the state and the seat exactly as /view
    loads them, the seat optional."""
    view = GAMES[game_id].requests["view"].schema
    seat = copy.copy(view.fields["seat"])
    seat.required = False
    shape = {
        "state": fields.Nested(view.fields["state"].nested, required=True),
        "seat": seat,
        "format": one_of(*FORMATS),
        "indices": one_of(*CONVENTIONS),  # the letters the reader's cards print
    }
    return BaseSchema.from_dict(shape, name="RenderRequest")()


REQUESTS = {game_id: _render_request(game_id) for game_id in GAMES}


RIGHT_TO_LEFT = frozenset({"fa"})
DIGITS = {"fa": "۰۱۲۳۴۵۶۷۸۹"}  # the digits a language writes, where not 0-9
# The decimal sign a language writes, where not a point (Tarot's half points: "40,5").
DECIMAL = {"fa": "٫", "fr": ",", "hu": ",", "ru": ",", "uk": ","}
# The game's terms as the table page says them (the catalogues' `table` part, which
# `cardavia` reads too): contracts, a pass, phases, a poignée's level. The pictures take
# them from there, so that a word is the same on the table, in the terminal and in a
# picture.
TERMS = ("contract.", "phase.", "poignee.")


def _picture_words(lang: str) -> dict[str, str]:
    table = catalogue(lang, "table")
    return {**i18n.CATALOGUES[lang], **{k: v for k, v in table.items() if k.startswith(TERMS)}}


CATALOGUES = {lang: _picture_words(lang) for lang in i18n.LANGUAGES}


def words(indices: str | None = None) -> Words:
    lang = i18n.language()
    return Words(CATALOGUES[lang], CATALOGUES[i18n.DEFAULT], lang in RIGHT_TO_LEFT,
                 DIGITS.get(lang), DECIMAL.get(lang, "."), indices)


@post("render")
def render_state(game_id: str) -> Answer:
    """The table as `seat` sees it (its View: hidden cards face down), or the whole state."""
    schemas = game_for(game_id)
    data = body(REQUESTS[game_id], game_id)
    state = state_of(schemas, data["state"])
    seat = data.get("seat")
    seat_at_table(schemas.game, state, seat)
    if seat is None:
        table = schemas.dump_state(state)
    else:
        table = schemas.dump_view(schemas.game.observe(state, seat))
    fmt = data.get("format", "svg")
    drawn = DRAW[fmt](game_id, table, seat, words(convention(game_id, data.get("indices"))))
    return drawn.encode(), 200, [("Content-Type", MEDIA[fmt])]


@render.get("/v1/games/<game_id>/cards/<name>.svg")
def card_picture(game_id: str, name: str):
    """One card's picture, the art of /render: `{code}.svg`, or `back.svg` face down."""
    game_for(game_id)  # an unknown game is a 404
    deck = DRAWINGS[game_id].cards
    lang = i18n.language()
    if name == "back":
        return Response(pictures.document(game_id, None, words()("render.back")),
                        content_type=MEDIA["svg"], headers=CARD_CACHE)
    index = deck.index.get(name)
    if index is None:
        raise ProblemError(404, "unknown-card", "Unknown card",
                           f"No card {name!r} in {game_id}; a card's picture is named by its "
                           "code, or back.svg.", params={"card": repr(name), "game": game_id})
    card = deck.cards[index]
    title = i18n.card_name(lang, game_id, card.suit, card.rank)
    asked = parse_qs(call.environ().get("QUERY_STRING", ""), keep_blank_values=True)
    indices = convention(game_id, asked.get("indices", [None])[0])
    return Response(pictures.document(game_id, name, title, indices),
                    content_type=MEDIA["svg"], headers=CARD_CACHE)


def convention(game_id: str, given: str | None) -> str | None:
    """The convention of indices a card's corners are drawn in: one of its game's, or None
    for the deck's own labels; another value is a 422 naming `indices`."""
    known = DRAWINGS[game_id].indices
    if given is None or given in known:
        return given
    message = (f"Must be one of: {', '.join(known)}." if known else
               f"{game_id} has no choice of indices.")
    raise ProblemError(422, "invalid-body", "Invalid body", "1 field(s) break the schema.",
                       [error("indices", message)], params={"count": 1})
