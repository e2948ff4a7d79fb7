"""CORS on every answer, preflights and problems included, with the
request id and the language exposed; CARDAVIA_CORS_ORIGINS narrows the origins."""

from __future__ import annotations

import pytest
import requests

from service.app import TestingConfig, create_app
from service.cors import origins

PAGE = "https://table.example"
EXPOSED = {"x-request-id", "content-language", "retry-after"}


def exposed(headers) -> set[str]:
    return {h.strip().lower() for h in headers["Access-Control-Expose-Headers"].split(",")}


@pytest.mark.http
@pytest.mark.parametrize("method, path, body, status", [
    ("post", "/v1/games/durak/deal", {"seed": 1}, 200),
    ("get", "/v1/games", None, 200),
    ("post", "/v1/games/durak/deal", {"seed": "one"}, 422),
    ("get", "/v1/games/chess", None, 404),
    ("delete", "/v1/games/durak/deal", None, 405),
])
def test_every_answer_allows_any_origin_by_default(server, method, path, body, status):
    r = requests.request(method, server + path, json=body, headers={"Origin": PAGE},
                         timeout=10)
    assert r.status_code == status
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert exposed(r.headers) == EXPOSED
    assert r.headers["X-Request-ID"] and r.headers["Content-Language"] == "en"


@pytest.mark.http
@pytest.mark.parametrize("path", ["/v1/games/durak/move", "/v1/games/tarot/settlement"])
def test_preflight_allows_the_post_and_its_headers(server, path):
    r = requests.options(server + path, timeout=10, headers={
        "Origin": PAGE, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, accept-language, x-request-id"})
    assert r.status_code == 204 and not r.content
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert r.headers["X-Request-ID"]  # through the edge like every answer
    assert "POST" in r.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in r.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "accept-language", "x-request-id"} <= allowed
    assert int(r.headers["Access-Control-Max-Age"]) > 0


@pytest.mark.parametrize("setting, expected", [
    (None, None), ("", None), (" , ", None),
    ("https://a.example", {"https://a.example"}),
    (" https://a.example ,https://b.example:8443 ", {"https://a.example",
                                                     "https://b.example:8443"}),
])
def test_origins_setting_is_comma_separated_and_trimmed(setting, expected):
    assert origins(setting) == expected


def test_origins_setting_narrows_the_allowed_origins():
    class Narrow(TestingConfig):
        CORS_ORIGINS = "https://a.example, https://b.example"

    client = create_app(Narrow).test_client()
    for origin in ("https://a.example", "https://b.example"):
        r = client.get("/v1/games", headers={"Origin": origin})
        assert r.headers["Access-Control-Allow-Origin"] == origin
        assert "origin" in r.headers["Vary"].lower()  # a cache must key on it
        preflight = client.options("/v1/games/durak/move", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST"})
        assert preflight.headers["Access-Control-Allow-Origin"] == origin
    for stranger in ("https://evil.example", "https://a.example.evil"):
        r = client.get("/v1/games", headers={"Origin": stranger})
        assert r.status_code == 200  # answered, but a browser will not hand it to the page
        assert "Access-Control-Allow-Origin" not in r.headers
        assert "origin" in r.headers["Vary"].lower()
        preflight = client.options("/v1/games/durak/move", headers={
            "Origin": stranger, "Access-Control-Request-Method": "POST"})
        assert "Access-Control-Allow-Origin" not in preflight.headers
