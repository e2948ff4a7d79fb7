"""The HTTP baseline: a bare Flask app that parses a JSON body and answers it unchanged.

It parses and serialises with orjson, as the service does, so the ratio move/echo measures
what the service adds over Flask, gunicorn and JSON. One route; the path is free, so the
very same request bytes can be sent to it and to the service.
"""

from __future__ import annotations

import orjson
from flask import Flask, Response, request


def create_app() -> Flask:
    app = Flask(__name__)

    @app.post("/<path:_path>")
    def echo(_path: str) -> Response:
        return Response(orjson.dumps(orjson.loads(request.get_data(cache=False))),
                        mimetype="application/json")

    return app
