"""The mutation fuzzer (tests/support/fuzz.py) over a real gunicorn, unsigned and signing
states: damaged mid-deal states of every game and count, and damaged score sheets, to every
endpoint that takes a state, a seat or a score sheet. A fixed seed and a bounded count
here; `python -m bench --only fuzz` runs it long."""

from __future__ import annotations

import pytest

from service.signing import Signer
from tests.conftest import SIGNING_KEY
from tests.support.fuzz import SHEET_ENDPOINTS, STATE_ENDPOINTS, cases_summary, fuzz

COUNT = 450


@pytest.mark.parametrize("signing", [False, True], ids=["unsigned", "signed"])
def test_damaged_requests_never_answer_a_5xx_and_accepted_states_are_read_whole(
        server, signed_server, signing):
    failures, seen = fuzz(signed_server if signing else server, 20261202 + signing, COUNT,
                          Signer(SIGNING_KEY) if signing else None)
    assert failures == [], "\n".join(map(str, failures[:20]))
    # The run reached every endpoint, and answers of both kinds from each of those that
    # take a state.
    endpoints = {e for e, _ in seen}
    assert endpoints >= {*STATE_ENDPOINTS, *SHEET_ENDPOINTS}, list(cases_summary(seen))
    for endpoint in STATE_ENDPOINTS:
        assert seen[endpoint, 200] and seen[endpoint, 422], list(cases_summary(seen))
