"""`GET /problems/<slug>`: a problem's `type` can be fetched (API.md "Additions"). The page
says what the problem means and how to mend the request, as JSON by default or as HTML
for a client that prefers it (a browser following the link), in the negotiated language.

The texts are the `problems` part of `service/locales/<lang>.json`, `{slug: {"meaning",
"fix"}}` (rules/texts.py); a
page's title is the problem document's own title, from the main catalogues.
"""

from __future__ import annotations

from html import escape

import orjson
from flask import Blueprint, Response
from werkzeug.exceptions import NotFound

from rules.texts import catalogue
from service import call, i18n

TEXTS: dict[str, dict[str, dict[str, str]]] = {
    lang: catalogue(lang, "problems") for lang in i18n.LANGUAGES}
# Every slug the service emits (service/*.py) or its proxy answers: its status (None where it
# varies), and the catalogue key of its title (None: the page's own).
PROBLEMS: dict[str, tuple[int | None, str | None]] = {
    "malformed-json": (400, "problem.malformed-json.title"),
    "invalid-body": (422, "problem.invalid-body.title"),
    "invalid-state": (422, "problem.invalid-state.title"),
    "invalid-deck": (422, "problem.invalid-deck.title"),
    "no-legal-move": (422, "problem.no-legal-move.title"),
    "state_signature_invalid": (422, "problem.state_signature_invalid.title"),
    "chosen-deal-refused": (422, "problem.chosen-deal-refused.title"),
    "unknown-game": (404, "problem.unknown-game.title"),
    "unknown-card": (404, "problem.unknown-card.title"),
    "not-found": (404, "http.404.title"),
    "method-not-allowed": (405, "http.405.title"),
    "body-too-large": (413, "http.413.title"),
    "http-error": (None, None),
    "internal-error": (500, "problem.internal-error.title"),
    "ai-busy": (503, "problem.ai-busy.title"),
    "ai-budget-spent": (429, "problem.ai-budget-spent.title"),
    # Answered by the production stack's nginx itself (deploy/nginx/nginx.conf).
    "request-too-large": (None, None),  # 414 for the request line, 431 for a header
    "unavailable": (503, None),
    "too-many-requests": (429, None),
}
RIGHT_TO_LEFT = frozenset({"fa"})
# The page's one style sheet, inline; the Content-Security-Policy allows it by its hash
# (service/edge.py), and no other inline style or script.
STYLE = ("body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em;"
         "line-height:1.5}code{background:#eee;padding:0 .2em}")

problem_pages = Blueprint("problem_pages", __name__)


def describe(slug: str, lang: str) -> dict | None:
    """The page of `slug` in `lang`, or None when `lang` lacks part of it."""
    status, title_key = PROBLEMS[slug]
    texts = TEXTS[lang].get(slug)
    title = i18n.CATALOGUES[lang].get(title_key) if title_key else (texts or {}).get("title")
    if texts is None or title is None or "meaning" not in texts or "fix" not in texts:
        return None
    page = {"type": f"/problems/{slug}", "title": title, "status": status,
            "meaning": texts["meaning"], "fix": texts["fix"]}
    if status is None:
        del page["status"]
    return page


def html_page(page: dict, lang: str) -> str:
    direction = "rtl" if lang in RIGHT_TO_LEFT else "ltr"
    # Codes and paths read left to right inside a right-to-left page too.
    status = f'<p><code dir="ltr">{page["status"]}</code> · ' if "status" in page else "<p>"
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}" dir="{direction}">\n<head>\n'
        f'<meta charset="utf-8">\n<title>{escape(page["title"])}</title>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{escape(page['title'])}</h1>\n"
        f'{status}<code dir="ltr">{escape(page["type"])}</code></p>\n'
        f"<p>{escape(page['meaning'])}</p>\n<p>{escape(page['fix'])}</p>\n"
        '<p><a dir="ltr" href="/docs">/docs</a> · '
        '<a dir="ltr" href="/openapi.yaml">/openapi.yaml</a></p>\n'
        "</body>\n</html>\n")


@problem_pages.get("/problems/<slug>")
def problem_page(slug: str):
    if slug not in PROBLEMS:
        raise NotFound()
    lang = i18n.language()
    page = describe(slug, lang)
    if page is None:
        # Said in English rather than not at all; Content-Language says so (service/edge.py).
        i18n.fell_back()
        lang = i18n.DEFAULT
        page = describe(slug, lang)
        if page is None:  # every English page is complete: tests/test_problem_pages.py
            raise NotFound()
    html = call.preferred(["application/json", "text/html"]) == "text/html"
    if html:
        response = Response(html_page(page, lang), mimetype="text/html")
    else:
        response = Response(orjson.dumps(page), mimetype="application/json")
    response.vary.add("Accept")
    return response
