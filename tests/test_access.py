"""X-Request-ID is accepted and echoed, or made up; access logs are JSON lines naming it."""

from __future__ import annotations

import json
import logging

import pytest

from service.app import TestingConfig, create_app


def test_a_sensible_request_id_is_echoed(client):
    r = client.get("/healthz", headers={"X-Request-ID": "abc-123.x:y_z"})
    assert r.headers["X-Request-ID"] == "abc-123.x:y_z"


@pytest.mark.parametrize("given", [None, "", "a" * 129, "bad id", "x\u00e9", "<script>"])
def test_a_missing_or_unsafe_request_id_is_replaced(client, given):
    headers = {} if given is None else {"X-Request-ID": given}
    r = client.get("/healthz", headers=headers)
    made = r.headers["X-Request-ID"]
    assert made != given and len(made) == 32 and made.isalnum()


def test_problems_carry_the_request_id_too(client):
    r = client.post("/v1/games/durak/move", data=b"{", headers={"X-Request-ID": "req-1"})
    assert r.status_code == 400 and r.headers["X-Request-ID"] == "req-1"


def test_access_log_is_one_json_line_per_request(caplog):
    app = create_app(type("Logged", (TestingConfig,), {"ACCESS_LOG": True}))
    logger = logging.getLogger("cardavia.access")
    logger.addHandler(caplog.handler)
    try:
        app.test_client().get("/v1/games", headers={"X-Request-ID": "trace-7"})
    finally:
        logger.removeHandler(caplog.handler)
    (record,) = [r for r in caplog.records if r.name == "cardavia.access"]
    line = json.loads(record.getMessage())
    assert line["request_id"] == "trace-7" and line["status"] == 200
    assert line["path"] == "/v1/games" and line["method"] == "GET" and line["ms"] >= 0


def test_no_stack_trace_reaches_a_client_when_the_service_fails():
    app = create_app(TestingConfig)

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    app.testing = False  # answer as production does, not re-raise
    r = app.test_client().get("/boom")
    assert r.status_code == 500 and r.content_type == "application/problem+json"
    assert "secret" not in r.get_data(as_text=True)
    assert "Traceback" not in r.get_data(as_text=True)
