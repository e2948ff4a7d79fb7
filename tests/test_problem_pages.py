"""Every problem `type` the service can emit answers a page saying what
it means and how to mend the request (JSON, or HTML for a client that prefers it), in
every language; and `deal` takes an empty body as `{}`."""

from __future__ import annotations

import ast
import http.client
import json
import re
from html import escape
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests

from service.i18n import DEFAULT, LANGUAGES
from service.problem_pages import PROBLEMS, TEXTS
from tests.openapi_check import spec

SERVICE = Path(__file__).resolve().parent.parent / "service"
NGINX = SERVICE.parent / "deploy" / "nginx" / "nginx.conf"
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def emitted_slugs() -> set[str]:
    """Every slug in service/: the second argument of each ProblemError(...),
    problem_response(...) and a ProblemError subclass's super().__init__(...), and each
    `slug = {status: slug, ...}.get(code, default)`; and the problems the production
    stack's nginx answers itself (deploy/nginx/nginx.conf)."""
    found: list[ast.expr] = []
    for path in SERVICE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            found += slugs_raised(node) + slugs_tabled(node)
    proxied = set(re.findall(r'"type":"/problems/([\w-]+)"', NGINX.read_text()))
    assert proxied, "nginx.conf answers no problem of its own: the pattern is stale"
    return proxied | {e.value for e in found
                      if isinstance(e, ast.Constant) and isinstance(e.value, str)}


def slugs_raised(node: ast.AST) -> list[ast.expr]:
    """The slug of a ProblemError(...), a problem_response(...) or a super().__init__(...)
    of a ProblemError of its own (AiBusy): its second argument."""
    if not isinstance(node, ast.Call) or len(node.args) < 2:
        return []
    name = getattr(node.func, "id", getattr(node.func, "attr", None))
    raised = name in ("ProblemError", "problem_response") or (
        name == "__init__" and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Call)
        and getattr(node.func.value.func, "id", None) == "super")
    return [node.args[1]] if raised else []


def slugs_tabled(node: ast.AST) -> list[ast.expr]:
    """The slugs of `slug = {status: slug, ...}.get(code, default)`."""
    if not isinstance(node, ast.Assign) or not any(
            getattr(t, "id", None) == "slug" for t in node.targets):
        return []
    table = node.value
    if isinstance(table, ast.Call) and isinstance(table.func, ast.Attribute) and \
            isinstance(table.func.value, ast.Dict):
        return [*table.func.value.values, *table.args[1:]]
    return []


def test_every_emitted_slug_has_a_page_and_no_page_is_for_nothing():
    slugs = emitted_slugs()
    assert {"unknown-game", "not-found", "http-error", "invalid-body"} <= slugs
    assert slugs == set(PROBLEMS)


def test_openapi_names_every_page_and_only_those():
    """`GET /problems/{slug}` serves a page for every slug, and openapi.yaml's `slug`
    parameter lists exactly those, so that a client generated from it may fetch them."""
    assert set(spec()["components"]["schemas"]["ProblemSlug"]["enum"]) == set(PROBLEMS)


def test_every_language_has_every_page_and_only_those():
    for lang in LANGUAGES:
        assert set(TEXTS[lang]) == set(PROBLEMS), lang
        for slug, texts in TEXTS[lang].items():
            expected = {"meaning", "fix"} | ({"title"} if PROBLEMS[slug][1] is None else set())
            assert set(texts) == expected, (lang, slug)
            if lang != DEFAULT:
                assert texts["meaning"] != TEXTS[DEFAULT][slug]["meaning"], (lang, slug)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_problem_page_json_in_each_language(client, lang):
    for slug, (status, _) in PROBLEMS.items():
        r = client.get(f"/problems/{slug}", headers={"Accept-Language": lang})
        assert r.status_code == 200 and r.mimetype == "application/json"
        assert r.headers["Content-Language"] == lang
        assert "Accept" in r.headers["Vary"]
        page = r.get_json()
        assert page["type"] == f"/problems/{slug}"
        assert page.get("status") == status
        assert page["title"] and page["meaning"] and page["fix"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_problem_page_html_for_a_browser(client, lang):
    for slug in PROBLEMS:
        r = client.get(f"/problems/{slug}", headers={"Accept-Language": lang,
                                                     "Accept": BROWSER})
        assert r.status_code == 200 and r.mimetype == "text/html"
        page = client.get(f"/problems/{slug}", headers={"Accept-Language": lang}).get_json()
        text = r.get_data(as_text=True)
        assert f'<html lang="{lang}" dir="{"rtl" if lang == "fa" else "ltr"}">' in text
        assert f"<h1>{escape(page['title'])}</h1>" in text
        assert escape(page["fix"]) in text


def test_unknown_problem_page_is_a_404_problem(client):
    r = client.get("/problems/no-such-problem")
    assert r.status_code == 404 and r.mimetype == "application/problem+json"


@pytest.mark.http
@pytest.mark.parametrize("method, path, body", [
    ("get", "/v1/games/chess", None),
    ("get", "/v1/nothing", None),
    ("delete", "/v1/games/durak/deal", None),
    ("post", "/v1/games/durak/deal", b"{not json"),
    ("post", "/v1/games/durak/deal", b'{"seed": "one"}'),
    ("post", "/v1/games/durak/move", b'{"state": {"game": "durak"}, "move": {}}'),
    ("post", "/v1/games/durak/deal", b'{"deck": ["6S"]}'),
    ("post", "/v1/games/durak/deal", b"x" * (1024 * 1024 + 1)),
])
def test_the_type_of_a_problem_answered_over_http_can_be_fetched(server, method, path, body):
    r = requests.request(method, server + path, data=body, timeout=10,
                         headers={"Content-Type": "application/json"})
    assert r.headers["Content-Type"] == "application/problem+json"
    problem = r.json()
    page = requests.get(server + problem["type"], timeout=10)
    assert page.status_code == 200
    assert page.json()["status"] == problem["status"] == r.status_code
    assert page.json()["title"] == problem["title"]


@pytest.mark.http
def test_deal_takes_an_empty_body_as_an_empty_object(server):
    """API.md Additions: no bytes, Content-Length 0 or none at all, is `{}`."""
    netloc = urlsplit(server).netloc
    for headers in ({"Content-Length": "0"}, {}, {"Content-Type": "application/json",
                                                  "Content-Length": "0"}):
        conn = http.client.HTTPConnection(netloc, timeout=10)
        conn.putrequest("POST", "/v1/games/durak/deal")
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders()
        r = conn.getresponse()
        assert r.status == 200, (headers, r.read())
        assert len(json.loads(r.read())["state"]["hands"]) == 2
        conn.close()
    # Only an empty body: whitespace is not JSON, and other endpoints need their fields.
    assert requests.post(f"{server}/v1/games/durak/deal", data=b" ", timeout=10) \
        .status_code == 400
    assert requests.post(f"{server}/v1/games/durak/legal-moves", timeout=10) \
        .status_code == 400
