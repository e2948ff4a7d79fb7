"""Shared fixtures: the Flask test client for unit tests, a real gunicorn for HTTP tests,
Debian's chromium for browser tests."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from service.app import TestingConfig, create_app
from tests.support.browser import ARGS, CHROMIUM, install_packages
from tests.support.servers import free_port, serving, serving_to, wait_until_healthy

__all__ = ["LOGGED_HOSTS", "ROOT", "SIGNING_KEY", "free_port", "wait_until_healthy"]

ROOT = Path(__file__).resolve().parent.parent

# No property test fails on the machine's load: a case's time is never a failure. Each
# @settings inherits this unless it names a deadline (hypothesis's 200 ms default failed
# test_negotiation_agrees_with_werkzeug at load 6: issue 40.9's class, a test that depends
# on the run).
settings.register_profile("cardavia", deadline=None)
settings.load_profile("cardavia")

# What a test asks for that starts a real server or browser: it is an HTTP test (marker
# `http`), whether or not its module says so.
SERVING = {"server", "signed_server", "logged_server", "browser"}
# The modules, and the tests of other modules, that play thousands of deals or examples
# (the compiled core held to the rules, the searches, the property tests and fuzzers, the
# bench harnesses, random deals of every count and option) or start Python afresh: `slow`,
# left out of `make check` and run by `make test`. A module by its name, a test as
# "module::test".
SLOW = {"test_ai", "test_ai_tarot35", "test_ai_tarot_search", "test_bench_ai",
        "test_bench_instructions", "test_bench_oracle", "test_bench_reference",
        "test_bench_reference_durak", "test_bench_replay", "test_bench_same_moves",
        "test_bench_tarot_bids", "test_contract_fuzz", "test_core_durak",
        "test_core_ganjifa", "test_core_tarot", "test_durak_endgame", "test_fair_ai",
        "test_invariants", "test_mutation_fuzz", "test_properties", "test_rules_input",
        "test_durak_counts::test_D16_to_D25_random_deals_keep_every_invariant",
        "test_openapi::test_whole_deals_conform", "test_openapi::test_durak_whole_deals_conform",
        "test_fast_schema::test_every_place_of_every_request_with_every_junk",
        "test_router::test_the_allow_header_is_the_same_whatever_the_hash_seed",
        "test_durak_reachable::test_the_history_search_finds_the_bouts_of_played_deals",
        "test_ganjifa_history::"
        "test_what_basic_play_of_the_history_implies_never_excludes_a_card_basic_holds"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if SERVING & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.http)
        found = getattr(item, "module", None)
        module = found.__name__.rsplit(".", 1)[-1] if found is not None else ""
        name = getattr(item, "originalname", item.name)
        if module in SLOW or f"{module}::{name}" in SLOW:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def client():
    return create_app(TestingConfig).test_client()


@pytest.fixture(scope="session")
def server():
    """A real gunicorn on a free loopback port; yields its base URL."""
    with serving() as base:
        yield base


SIGNING_KEY = "test-signing-key"


@pytest.fixture(scope="session")
def signed_server():
    """A real gunicorn signing states with SIGNING_KEY; yields its base URL."""
    with serving(CARDAVIA_STATE_KEY=SIGNING_KEY) as base:
        yield base


LOGGED_HOSTS = "Api.Example.org, 127.0.0.1"


@pytest.fixture(scope="session")
def logged_server() -> Iterator[tuple[str, Callable[[], str]]]:
    """A real gunicorn with its access log on and CARDAVIA_ALLOWED_HOSTS set to LOGGED_HOSTS:
    its base URL, and a function reading what it has logged so far."""
    with tempfile.TemporaryFile() as log, \
            serving_to(log, CARDAVIA_ACCESS_LOG="1", CARDAVIA_ALLOWED_HOSTS=LOGGED_HOSTS) as base:
        def read() -> str:
            log.seek(0)
            return log.read().decode(errors="replace")
        yield base, read


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium through Playwright, installed where missing (tests/support/browser.py);
    one a test module, so each module's pages start from a fresh browser."""
    from playwright.sync_api import sync_playwright

    install_packages()
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()
