"""The table, a page that plays every game against the AI, and the score keeper, a page
that keeps Tarot evenings: clients of the public API. Static files only: each page keeps
its state and calls /v1 like any client."""

from __future__ import annotations

from pathlib import Path

import orjson
from flask import Blueprint, Response, redirect, send_from_directory
from werkzeug.exceptions import NotFound

from rules.texts import catalogue
from service import i18n

STATIC = Path(__file__).resolve().parent / "static" / "table"

table = Blueprint("table", __name__)


@table.get("/")
def home():
    return redirect("/table/", code=302)


@table.get("/table/")  # also /table: the app's routes ignore a trailing slash
def page():
    return send_from_directory(STATIC, "index.html")


@table.get("/scores")  # also /scores/
def scores():
    """The score keeper: Tarot evenings kept in the browser, settled by the session
    endpoint."""
    return send_from_directory(STATIC, "scores.html")


# The page's words, one flat map a language: the `table` part of the common catalogue and
# of every game's (rules/texts.py).
WORDS = {lang: orjson.dumps(catalogue(lang, "table")) for lang in i18n.LANGUAGES}


@table.get("/table/locales/<lang>.json")
def words(lang: str):
    if lang not in WORDS:
        raise NotFound()
    return Response(WORDS[lang], mimetype="application/json")


@table.get("/table/<path:name>")
def asset(name: str):
    # send_from_directory refuses any path that leaves STATIC, so ../ gets a 404.
    return send_from_directory(STATIC, name)
