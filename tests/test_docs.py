"""`/docs` through a real gunicorn; the page and every asset it refers to
(scripts, styles, icons, the OpenAPI document) are served by the service itself."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
import requests
import yaml

from service.i18n import LANGUAGES, negotiate
from tests.conftest import ROOT

CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css", ".png": "image/png",
                 ".yaml": "application/yaml"}


class Assets(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self._in_script = "src" not in attrs
        for name in ("src", "href"):
            if attrs.get(name):
                self.urls.append(attrs[name])

    def handle_endtag(self, tag):
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data):
        if self._in_script:
            self.inline.append(data)


@pytest.mark.http
def test_docs_page_and_every_asset_load_from_the_service(server):
    page = requests.get(f"{server}/docs", timeout=10)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    parser = Assets()
    parser.feed(page.text)
    # No inline script (a strict Content-Security-Policy would stop it): the configuration
    # is a script of its own.
    assert "".join(parser.inline).strip() == ""
    (configured,) = [u for u in parser.urls if u.endswith("/cardavia-docs.js")]
    script = requests.get(urljoin(page.url, configured), timeout=10).text
    assert re.search(r"validatorUrl: null\b", script)  # no outside validator badge
    urls = [*parser.urls, re.search(r'url: "([^"]+)"', script).group(1)]
    assert any(u.endswith(".js") for u in urls) and any(u.endswith(".css") for u in urls)
    for url in urls:
        absolute = urljoin(page.url, url)
        assert urlsplit(absolute).netloc == urlsplit(server).netloc, url  # nothing outside
        r = requests.get(absolute, timeout=10)
        assert r.status_code == 200, url
        suffix = url[url.rfind("."):]
        assert r.headers["Content-Type"].split(";")[0] == CONTENT_TYPES[suffix], url
        assert r.content
    spec = requests.get(urljoin(page.url, urls[-1]), timeout=10).text
    assert spec.startswith("openapi: 3.1")


@pytest.mark.http
def test_docs_serves_no_file_outside_its_package(server):
    for path in ("/docs/../pyproject.toml", "/docs/%2e%2e/service/app.py", "/docs/nope.js"):
        r = requests.get(server + path, timeout=10)
        assert r.status_code == 404
        assert r.headers["Content-Type"] == "application/problem+json"


def test_docs_try_it_out_defaults_to_english():
    """What "Try it out" sends unless told otherwise is English: Accept-Language's default
    and first example; every other language is among the examples to pick."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    parameter = spec["components"]["parameters"]["AcceptLanguage"]
    assert "example" not in parameter and parameter["schema"]["default"] == "en"
    examples = list(parameter["examples"].values())
    assert examples[0]["value"] == "en"
    picked = {negotiate(e["value"]) for e in examples}
    assert picked == set(LANGUAGES)
