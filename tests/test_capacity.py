"""A worker runs at most CARDAVIA_AI_CONCURRENCY searches at once; past that,
ai-move answers 503 problem+json with Retry-After, in the request's language."""

from __future__ import annotations

import pytest

from service.app import TestingConfig, create_app
from service.capacity import AiBusy
from service.i18n import CATALOGUES

BODY = {"state": None, "level": "basic", "seed": 1}


@pytest.fixture(scope="module")
def app():
    return create_app(TestingConfig)


@pytest.fixture(scope="module")
def ai_state(app):
    return app.test_client().post("/v1/games/durak/deal", json={"seed": 1}).get_json()["state"]


def test_ai_move_is_answered_503_with_retry_after_while_every_slot_searches(app, ai_state):
    client = app.test_client()
    with app.extensions["cardavia.ai_slots"].slot():  # the worker's one search under way
        busy = client.post("/v1/games/durak/ai-move", json={**BODY, "state": ai_state})
    assert busy.status_code == 503
    assert busy.mimetype == "application/problem+json"
    assert int(busy.headers["Retry-After"]) >= 1
    problem = busy.get_json()
    assert (problem["type"], problem["status"]) == ("/problems/ai-busy", 503)
    # The slot is back once the search ends.
    assert client.post("/v1/games/durak/ai-move", json={**BODY, "state": ai_state}).status_code \
        == 200


def test_the_busy_problem_speaks_the_request_language(app, ai_state):
    with app.extensions["cardavia.ai_slots"].slot():
        busy = app.test_client().post("/v1/games/durak/ai-move", json={**BODY, "state": ai_state},
                                      headers={"Accept-Language": "uk"})
    assert busy.headers["Content-Language"] == "uk"
    assert busy.get_json()["title"] == CATALOGUES["uk"]["problem.ai-busy.title"]


def test_a_bad_request_is_still_a_422_when_the_ai_is_busy(app):
    # The slot is taken only for the search itself: validation answers first.
    with app.extensions["cardavia.ai_slots"].slot():
        bad = app.test_client().post("/v1/games/durak/ai-move", json={"state": {}})
    assert bad.status_code == 422


def test_other_endpoints_ignore_the_ai_slots(app, ai_state):
    with app.extensions["cardavia.ai_slots"].slot():
        client = app.test_client()
        assert client.get("/healthz").status_code == 200
        assert client.post("/v1/games/durak/legal-moves", json={"state": ai_state}).status_code \
            == 200


def test_the_limit_counts_concurrent_searches():
    app = create_app({"AI_CONCURRENCY": 2})
    slots = app.extensions["cardavia.ai_slots"]
    with slots.slot(), slots.slot(), pytest.raises(AiBusy), slots.slot():
        pass
    with slots.slot():  # released on the way out
        pass


@pytest.mark.parametrize("limit", ["0", "-1", "many"])
def test_a_limit_below_one_is_an_error_at_start(monkeypatch, limit):
    monkeypatch.setenv("CARDAVIA_AI_CONCURRENCY", limit)
    with pytest.raises(ValueError, match="CARDAVIA_AI_CONCURRENCY"):
        create_app()
