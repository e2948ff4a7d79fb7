"""The HTML pages (the table, /docs, a problem's page) under a Content-Security-Policy that
runs only the service's own scripts and styles, unframeable, with nosniff and a
Referrer-Policy; and no answer that repeats the request's Host header, which the service
can be told to check (CARDAVIA_ALLOWED_HOSTS). In Chromium, the table deals and plays and
/docs lists and tries an operation with no CSP violation."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.support.servers import serving

pytestmark = pytest.mark.http

PAGES = ["/table/", "/docs", "/docs/", "/problems/invalid-state"]
HTML = {"Accept": "text/html"}
EVIL = "evil.example"


def directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.parametrize("path", PAGES)
def test_every_html_page_carries_the_security_headers(server, path):
    r = requests.get(f"{server}{path}", headers=HTML, timeout=10)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/html")
    policy = directives(r.headers["Content-Security-Policy"])
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'"]  # no inline script, no other site's
    assert policy["style-src"][0] == "'self'"
    assert all(v.startswith("'sha256-") for v in policy["style-src"][1:])
    assert policy["frame-ancestors"] == ["'none'"]
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"


def test_the_inline_styles_allowed_are_the_pages_own():
    """Each hash the policy allows is that of a style the pages hold: a problem page's, and
    the logo's in the pinned Swagger UI preset (a new bundle's would show as a violation in
    the browser test below)."""
    import flask_swagger_ui

    from service import edge
    from service.problem_pages import STYLE

    bundle = Path(flask_swagger_ui.__file__).parent / "dist" / "swagger-ui-standalone-preset.js"
    assert edge.SWAGGER_LOGO_STYLE in bundle.read_text()
    policy = directives(edge.CONTENT_SECURITY_POLICY)
    assert policy["style-src"][1:] == [edge.style_hash(STYLE),
                                       edge.style_hash(edge.SWAGGER_LOGO_STYLE)]


def test_json_answers_are_not_sniffed(server):
    r = requests.get(f"{server}/healthz", timeout=10)
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" not in r.headers


@pytest.mark.parametrize("path", ["/", "/table//index.html", "/table//x?a=1", "/docs",
                                  "/problems/invalid-state", "/openapi.yaml"])
def test_no_answer_repeats_the_host(server, path):
    r = requests.get(f"{server}{path}", headers={**HTML, "Host": EVIL}, timeout=10,
                     allow_redirects=False)
    assert r.status_code < 400, r.status_code
    assert EVIL not in r.text
    assert all(EVIL not in v for v in r.headers.values()), r.headers
    if r.is_redirect:
        assert r.headers["Location"].startswith("/") and \
            not r.headers["Location"].startswith("//")


def test_allowed_hosts_shut_out_the_others():
    with serving(CARDAVIA_ALLOWED_HOSTS="api.example.org, 127.0.0.1") as base:
        port = base.rsplit(":", 1)[1]
        assert requests.get(f"{base}/healthz", timeout=10).status_code == 200
        ok = requests.get(f"{base}/healthz", headers={"Host": f"api.example.org:{port}"},
                          timeout=10)
        assert ok.status_code == 200
        refused = requests.get(f"{base}/table//x", headers={"Host": EVIL}, timeout=10,
                               allow_redirects=False)
        assert refused.status_code == 400
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert "Location" not in refused.headers


# -- in a browser ----------------------------------------------------------------------------

WATCH = """() => {
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(
    `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
}"""


class Watched:
    """A page whose CSP violations (the event, and Chromium's console report) are kept."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1280, "height": 1000})
        self.page = self.context.new_page()
        self.page.add_init_script(f"({WATCH})()")
        self.console: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.console.append(m.text))
        self.page.on("pageerror", lambda e: self.console.append(str(e)))
        self.page.set_default_timeout(20_000)

    def violations(self) -> list[str]:
        seen = self.page.evaluate("() => window.__violations")
        return seen + [m for m in self.console if "Content Security Policy" in m]

    def close(self) -> None:
        self.context.close()


def test_the_table_plays_under_its_policy(browser, server):
    w = Watched(browser)
    try:
        w.page.goto(f"{server}/table?pace=0&seed=3")
        w.page.wait_for_selector("#table[aria-busy=false]", state="attached")
        # a card drawn, styled and playable: the scripts ran, the style sheet applied
        w.page.wait_for_selector("#hand .card")
        legal = w.page.locator("#hand .card.legal")
        if legal.count():
            legal.first.click(position={"x": 6, "y": 30})
            w.page.wait_for_selector("#table[aria-busy=false]", state="attached")
        assert w.page.evaluate("() => getComputedStyle(document.body).margin") != ""
        assert w.violations() == []
        assert w.console == []
    finally:
        w.close()


def test_docs_work_under_their_policy(browser, server):
    w = Watched(browser)
    try:
        w.page.goto(f"{server}/docs")
        w.page.wait_for_selector(".opblock-summary")
        deal = w.page.locator("#operations-play-deal")
        deal.locator(".opblock-summary").click()
        deal.locator("select").first.select_option("durak")
        deal.locator("button.execute").click()
        status = deal.locator(".live-responses-table tbody .response-col_status").first
        status.wait_for()
        assert status.inner_text().strip() == "200"
        assert w.violations() == []
    finally:
        w.close()


def test_a_problem_page_is_styled_under_its_policy(browser, server):
    w = Watched(browser)
    try:
        w.page.set_extra_http_headers(HTML)
        w.page.goto(f"{server}/problems/invalid-state")
        # the page's inline style applied (allowed by its hash): a narrow column
        width = w.page.evaluate("() => getComputedStyle(document.body).maxWidth")
        assert width != "none"
        assert w.violations() == []
    finally:
        w.close()


def test_a_policy_violation_is_seen(browser, server):
    """The watch itself: an inline script put into a page is blocked and reported."""
    w = Watched(browser)
    try:
        w.page.set_extra_http_headers(HTML)
        w.page.goto(f"{server}/problems/invalid-state")
        w.page.evaluate("""() => { const s = document.createElement("script");
            s.textContent = "window.__ran = 1"; document.body.append(s); }""")
        w.page.wait_for_function("() => window.__violations.length > 0")
        assert w.page.evaluate("() => window.__ran") is None
        assert any("script-src" in v for v in w.violations())
    finally:
        w.close()
