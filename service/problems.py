"""Every error as application/problem+json (RFC 9457); no input is answered 500."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

import orjson
from flask import Flask
from werkzeug.exceptions import HTTPException, SecurityError

from service import i18n

PROBLEM_TYPE = "application/problem+json"
# A problem's cost is bounded whatever the body: at most MAX_ERRORS errors, the
# rest counted in `errors_omitted`, and no field named longer than MAX_TEXT characters (a
# field's path is the client's keys). A message is the service's own sentence, said whole:
# where one quotes the client (a card code, a game), the quote is clipped where it is made.
MAX_ERRORS = 50
MAX_TEXT = 200
CLIENTS = ("field", "pointer")  # the texts of an error that the client's keys make
log = logging.getLogger("cardavia")


# An answer as a view of service/router.py returns it, and as an error handler gives it to
# Flask: the body, the status, the headers.
Answer = tuple[bytes, int, Sequence[tuple[str, str]]]


class ProblemError(Exception):
    """A problem to answer with: raised anywhere in a view, rendered here."""

    def __init__(self, status: int, slug: str, title: str, detail: str,
                 errors: list[dict] | None = None, detail_key: str | None = None,
                 params: dict | None = None, headers: list[tuple[str, str]] | None = None,
                 words: dict[str, str] | None = None):
        super().__init__(detail)
        self.status, self.slug, self.title, self.detail = status, slug, title, detail
        self.errors = errors
        # The catalogue entry (service/locales) the English detail was formatted from, when
        # it is not `problem.<slug>.detail`, and its placeholders: what other languages need;
        # `words`, the placeholders whose value each language has its own entry for.
        self.detail_key, self.params, self.words = detail_key, params, words
        self.headers = headers or []


def clipped(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"


def problem_response(status: int, slug: str, title: str, detail: str,
                     errors: list[dict] | None = None, headers=(),
                     omitted: int = 0) -> Answer:
    body = {"type": f"/problems/{slug}", "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = [{k: clipped(v) if k in CLIENTS else v for k, v in e.items()}
                          for e in errors]
    if omitted:
        body["errors_omitted"] = omitted
    return orjson.dumps(body), status, [("Content-Type", PROBLEM_TYPE), *headers]


def answer_for(e: Exception) -> Answer:
    """The problem document answering `e`, in the request's language: a ProblemError as it
    says, an HTTP error of werkzeug's by its code, anything else a 500 (a bug of ours, not
    the client's: logged, and answered without a stack trace)."""
    if isinstance(e, ProblemError):
        return _problem(e)
    if isinstance(e, HTTPException):
        return _http(e)
    log.exception("unhandled error", exc_info=e)
    title, detail = i18n.problem_text("problem.internal-error", "Internal Server Error",
                                      "The service failed to answer this request.")
    return problem_response(500, "internal-error", title, detail)


def _problem(e: ProblemError) -> Answer:
    title, detail = i18n.problem_text(f"problem.{e.slug}", e.title, e.detail,
                                      e.detail_key, e.params, e.words)
    errors, omitted = e.errors, 0
    if errors is not None and len(errors) > MAX_ERRORS:
        errors, omitted = errors[:MAX_ERRORS], len(errors) - MAX_ERRORS
        _, more = i18n.problem_text("problem.errors-omitted", "Errors left out",
                                    f"{omitted} more error(s) are left out.",
                                    params={"omitted": omitted})
        detail = f"{detail} {more}"
    return problem_response(e.status, e.slug, title, detail, errors, e.headers,
                            omitted=omitted)


UNTRUSTED_HOST = "This service does not answer for the request's Host."


def _http(e: HTTPException) -> Answer:
    code = e.code or 500
    slug = {404: "not-found", 405: "method-not-allowed", 413: "body-too-large",
            400: "malformed-json"}.get(code, "http-error")
    detail = {
        404: "No such resource.",
        413: "The request body is larger than 1 MiB.",
    }.get(code, e.description or e.name)
    detail_key = None
    if isinstance(e, SecurityError):  # a Host outside CARDAVIA_ALLOWED_HOSTS
        # werkzeug's description quotes the Host back; nothing the service answers does
        # (service/app.py's ALLOWED_HOSTS), so that a refusal carries no text of the sender's.
        slug, detail, detail_key = "http-error", UNTRUSTED_HOST, "http.400.detail.host"
    headers = []
    allowed = getattr(e, "valid_methods", None)  # werkzeug's MethodNotAllowed has them
    if code == 405 and allowed:
        headers.append(("Allow", allow(allowed)))
    title, detail = i18n.problem_text(f"http.{e.code}", e.name, detail, detail_key)
    return problem_response(e.code or 500, slug, title, detail, headers=headers)


def allow(methods: Iterable[str]) -> str:
    """An `Allow` header's value, its methods sorted: werkzeug gathers a path's methods in a
    set, whose order changes with each process's hash seed, and two servers (or one
    restarted) would otherwise answer the same path with different headers."""
    return ", ".join(sorted(methods))


def register(app: Flask) -> None:
    # A handler for Exception answers werkzeug's HTTP errors too (Flask's documented
    # lookup); a redirect of the router's is not one it is given.
    app.register_error_handler(Exception, answer_for)
