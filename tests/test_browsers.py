"""CORS and the docs in a real browser: Debian's chromium, driven by Playwright,
calls the API from a page on another origin (CORS enforced by the browser itself), and
renders /docs with every request it makes answered by the service."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

from tests.support.servers import serving

pytestmark = pytest.mark.http

FETCH = """async ([url, body]) => {
  try {
    const r = await fetch(url, {method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "Accept-Language": "hu"}});
    return {status: r.status, id: r.headers.get("X-Request-ID"),
            lang: r.headers.get("Content-Language"), body: await r.json()};
  } catch (e) { return {error: String(e)}; }
}"""


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """The origin of a page elsewhere: a plain HTTP server of its own on loopback, as the
    service is (chromium lets a page reach loopback only from loopback)."""
    root = tmp_path_factory.mktemp("elsewhere")
    (root / "index.html").write_text("<!DOCTYPE html><title>elsewhere</title>")
    handler = functools.partial(QuietHandler, directory=str(root))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://localhost:{httpd.server_address[1]}"  # localhost: not the API's host
    finally:
        httpd.shutdown()
        httpd.server_close()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def page_at(browser, origin: str):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{origin}/")
    return context, page


def test_a_page_elsewhere_deals_and_reads_the_exposed_headers(browser, server, elsewhere):
    context, page = page_at(browser, elsewhere)
    try:
        # JSON with Content-Type: application/json and Accept-Language: a preflight first.
        got = page.evaluate(FETCH, [f"{server}/v1/games/durak/deal", {"seed": 1}])
        assert "error" not in got, got
        assert got["status"] == 200 and got["body"]["state"]["game"] == "durak"
        assert got["id"] and got["lang"] == "hu"  # exposed to the page
        problem = page.evaluate(FETCH, [f"{server}/v1/games/durak/deal", {"seed": "x"}])
        assert problem["status"] == 422 and problem["body"]["type"] == "/problems/invalid-body"
    finally:
        context.close()


def test_narrowed_origins_shut_out_other_pages(browser, elsewhere):
    with serving(CARDAVIA_CORS_ORIGINS=f"https://a.example, {elsewhere}") as allowed, \
            serving(CARDAVIA_CORS_ORIGINS="https://a.example") as narrowed:
        context, page = page_at(browser, elsewhere)
        try:
            got = page.evaluate(FETCH, [f"{allowed}/v1/games/durak/deal", {"seed": 1}])
            assert got.get("status") == 200, got
            refused = page.evaluate(FETCH, [f"{narrowed}/v1/games/durak/deal", {"seed": 1}])
            assert "error" in refused  # the browser withholds the answer from the page
        finally:
            context.close()


def test_docs_render_with_nothing_from_outside(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 1400})
    page = context.new_page()
    outside: list[str] = []
    errors: list[str] = []
    host = urlsplit(server).netloc

    def only_the_service(route):
        if urlsplit(route.request.url).netloc == host:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_service)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server}/docs")
        page.wait_for_selector(".opblock-summary", timeout=20_000)
        operations = page.locator(".opblock").count()
        assert operations >= 14  # every operation of openapi.yaml is listed
        assert page.locator(".info .title").inner_text().startswith("Cardavia")
        # An operation opened shows its parameters with their schemas (path-level ones
        # were shown as "any"), offers its examples and, tried out, answers for real.
        deal = page.locator("#operations-play-deal")
        deal.locator(".opblock-summary").click()
        deal.locator(".parameters").wait_for()
        assert deal.locator(".parameter__type").all_inner_texts() == ["string", "string"]
        body = deal.locator(".opblock-section-request-body")
        assert "Durak, reproducible (seed 1)" in body.locator(".examples-select").inner_text()
        body.locator(".examples-select select").select_option("durak")
        with page.expect_request("**/v1/games/durak/deal") as sent:
            deal.locator("button.execute").click()
        status = deal.locator(".live-responses-table tbody .response-col_status").first
        status.wait_for(timeout=20_000)
        assert status.inner_text().strip() == "200"
        # Tried as it opens, an operation asks in English; the other languages are offered.
        assert sent.value.headers["accept-language"] == "en"
        offered = deal.locator("tr[data-param-name='Accept-Language'] select").inner_text()
        assert all(name in offered for name in ("Hindi", "Hungarian", "Persian", "Ukrainian"))
        assert outside == [] and errors == []
    finally:
        context.close()
