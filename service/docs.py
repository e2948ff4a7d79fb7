"""`GET /docs`: Swagger UI over `/openapi.yaml`, every asset served from the
flask-swagger-ui package itself, so the page works with no outside network access."""

from __future__ import annotations

from flask import Flask
from flask_swagger_ui import get_swaggerui_blueprint

DOCS = "/docs"
SPEC = "/openapi.yaml"


def register(app: Flask) -> None:
    app.register_blueprint(get_swaggerui_blueprint(DOCS, SPEC, config={
        "app_name": "Cardavia API",
        # Swagger UI would otherwise send the document to an outside validator for a badge.
        "validatorUrl": None,
        # Every operation's examples are there to try: open each one ready to send.
        "tryItOutEnabled": True,
        "displayOperationId": True,
        # flask-swagger-ui would otherwise write the request's Host into the page.
        "oauth2RedirectUrl": f"{DOCS}/oauth2-redirect.html",
    }))
