"""`GET /docs`: Swagger UI over `/openapi.yaml`. The page and its configuration are static
files of ours (service/static/docs: no inline script, so a strict Content-Security-Policy
lets it run); Swagger UI's own scripts, styles and icons are served from the
flask-swagger-ui package itself, so the page works with no outside network access."""

from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Flask, send_from_directory

OURS = Path(__file__).resolve().parent / "static" / "docs"
SWAGGER_UI = Path(flask_swagger_ui.__file__).resolve().parent / "dist"

docs = Blueprint("docs", __name__)


@docs.get("/docs/")  # also /docs: the app's routes ignore a trailing slash
def page():
    return send_from_directory(OURS, "index.html")


@docs.get("/docs/<path:path>")
def asset(path: str):
    # send_from_directory refuses any path that leaves its folder: ../ is a 404.
    if (OURS / path).is_file():
        return send_from_directory(OURS, path)
    return send_from_directory(SWAGGER_UI, path)


def register(app: Flask) -> None:
    app.register_blueprint(docs)
