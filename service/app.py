"""The application factory: `gunicorn "service.app:create_app()"`."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from flask import Flask, Request, Response
from werkzeug.routing import RequestRedirect

from rules.ai import native
from service import budget, capacity, docs, problems, replay, session
from service.api import api
from service.cors import Cors, origins
from service.edge import Edge
from service.problem_pages import problem_pages
from service.render_api import render as render_blueprint
from service.router import TABLE, Router, check_disjoint
from service.rulebook import rulebook
from service.signing import Signer
from service.table import table

# Modules whose views join service/router.py's table as they are imported (as
# service/api.py's and service/render_api.py's do, imported for their blueprints).
ROUTED = (replay, session)


class Config:
    TESTING = False
    ACCESS_LOG = bool(os.environ.get("CARDAVIA_ACCESS_LOG"))
    STATE_KEY = os.environ.get("CARDAVIA_STATE_KEY")
    STATE_OLD_KEYS = os.environ.get("CARDAVIA_STATE_OLD_KEYS")
    # With a key set, a stacked (`deck`) or seeded (`seed`) deal would let a client deal
    # itself the hands it wants and have them signed: refused unless this says "1".
    ALLOW_CHOSEN_DEALS = os.environ.get("CARDAVIA_ALLOW_CHOSEN_DEALS")
    CORS_ORIGINS = os.environ.get("CARDAVIA_CORS_ORIGINS")
    # The Host names this service answers for, comma-separated (`api.example.org,
    # .example.org` for a domain and its subdomains); unset: any; set but naming no host:
    # an error at start (allowed_hosts). Nothing the service answers repeats the Host, so
    # this shuts out only requests meant for another site.
    ALLOWED_HOSTS = os.environ.get("CARDAVIA_ALLOWED_HOSTS")


class TestingConfig(Config):
    TESTING = True
    # A test asks searches at the machine's pace, not a table's: no budget per client
    # (service/budget.py) unless the test sets one.
    AI_CLIENT_BUDGET_MS = 0


class Service(Flask):
    def raise_routing_exception(self, request: Request):
        """werkzeug's redirects (`/table//x` to `/table/x`) name a whole URL whose host is
        the request's Host header: the path alone, so that no header sends a client, or
        writes a link, to a host the request named."""
        redirect = request.routing_exception
        if isinstance(redirect, RequestRedirect):
            parts = urlsplit(redirect.new_url)
            path = "/" + parts.path.lstrip("/")  # two slashes would name a host
            raise RequestRedirect(path + (f"?{parts.query}" if parts.query else "")) from None
        return super().raise_routing_exception(request)

    def make_default_options_response(self) -> Response:
        """Flask's answer to OPTIONS, with the same `Allow` as a 405 of the path."""
        answer = super().make_default_options_response()
        answer.headers["Allow"] = problems.allow(answer.allow)
        return answer


def create_app(config: type[Config] | dict | None = None) -> Flask:
    app = Service(__name__, static_folder=None)  # an API: no static files to serve
    app.config.from_object(Config)
    if isinstance(config, dict):
        app.config.update(config)
    elif config is not None:
        app.config.from_object(config)
    app.url_map.strict_slashes = False
    app.extensions["cardavia.signer"] = Signer.from_config(
        app.config["STATE_KEY"], app.config["STATE_OLD_KEYS"])
    app.extensions["cardavia.chosen_deals"] = chosen_deals_allowed(
        app.config["ALLOW_CHOSEN_DEALS"])
    app.register_blueprint(api)
    app.register_blueprint(render_blueprint)
    app.register_blueprint(table)
    problems.register(app)
    capacity.register(app)
    budget.register(app)
    docs.register(app)
    app.register_blueprint(problem_pages)
    app.register_blueprint(rulebook)
    check_disjoint(app.url_map, TABLE)
    heavy = app.extensions["cardavia.heavy"] = capacity.Heavy(capacity.heavy_limit(app.config))
    app.wsgi_app = Router(app.wsgi_app, heavy.views(TABLE),
                          allowed_hosts(app.config["ALLOWED_HOSTS"]),
                          Cors(origins(app.config["CORS_ORIGINS"])))
    app.wsgi_app = Edge(app.wsgi_app, app.extensions, app.config["ACCESS_LOG"])
    if native.MISSING is not None:  # the strong level still answers, searching in Python
        app.logger.warning(native.MISSING)
    return app


def chosen_deals_allowed(setting: str | bool | None) -> bool:
    """CARDAVIA_ALLOW_CHOSEN_DEALS: unset or "0" is no, "1" yes; anything else is an error
    at start, so that a typo cannot leave an operator believing what is not so."""
    if isinstance(setting, bool):
        return setting
    if setting is None or setting.strip() in ("", "0"):
        return False
    if setting.strip() == "1":
        return True
    raise ValueError(f"CARDAVIA_ALLOW_CHOSEN_DEALS must be 0 or 1, not {setting!r}.")


def allowed_hosts(setting: str | list | None) -> list[str] | None:
    """CARDAVIA_ALLOWED_HOSTS as service/router.py judges a Host by: None (any host) when
    unset; lower case, as the router lowers a request's Host. Empty items are skipped, but a setting
    that names no host at all ("", " , ") is an error at start, as a blank signing key is:
    read as unset, it would let in any host while the operator believes it narrows them."""
    if setting is None:
        return None
    listed = setting.split(",") if isinstance(setting, str) else setting
    hosts = [h.strip().lower() for h in listed if h.strip()]
    if not hosts:
        raise ValueError("CARDAVIA_ALLOWED_HOSTS is set but names no host: list the hosts "
                         "separated by commas (\"api.example.org, .example.org\"), or unset "
                         "it to answer any host.")
    return hosts
