"""README works as printed for a newcomer: in a fresh clone, after `make serve` alone (no
`make test`), every ```sh block is run with bash, in order, in the clone (the port
substituted for 8000), and each does what the text around it says; `make serve` prints no
setuptools warning. And README's endpoint table lists every route of the app."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time

import pytest
import requests

from tests.conftest import ROOT, free_port
from tests.test_openapi import app_operations

README = (ROOT / "README.md").read_text()


def section(heading: str) -> str:
    start = README.index(f"\n## {heading}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else None]


def shell_blocks() -> list[str]:
    """Every ```sh block of README, in order, but the first: the two commands themselves."""
    first, *rest = re.findall(r"\n```sh\n(.*?)\n```\n", README, re.S)
    assert first.startswith("make serve")
    return rest


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory):
    """A fresh clone of the committed tree, served by `make serve` alone on a free port:
    (the clone, its base URL, what `make serve` printed while installing)."""
    clone = tmp_path_factory.mktemp("readme") / "cardavia"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    port = free_port()
    log_path = clone.parent / "serve.log"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CARDAVIA_", "VIRTUAL_ENV")) and k != "PYTHONPATH"}
    with open(log_path, "wb") as log:
        serve = subprocess.Popen(["make", "serve", f"PORT={port}"], cwd=clone, env=env,
                                 stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 900  # a fresh venv: every dependency installed
        while True:
            try:
                if requests.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert serve.poll() is None and time.monotonic() < deadline, \
                log_path.read_text()[-3000:]
            time.sleep(0.5)
        yield clone, base, log_path.read_text()
    finally:
        os.killpg(serve.pid, signal.SIGTERM)  # make and the gunicorn it started
        serve.wait(timeout=30)


@pytest.mark.http
def test_make_serve_installs_without_a_warning(fresh_clone):
    _, _, printed = fresh_clone
    assert "BuildBackendWarning" not in printed and "Traceback" not in printed, printed
    assert "Listening at: http://127.0.0.1:" in printed


@pytest.mark.http
def test_every_shell_block_runs_in_order_after_make_serve_alone(fresh_clone):
    clone, base, _ = fresh_clone
    assert not (clone / ".venv" / ".test-extras").exists()  # `make test` never ran
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDAVIA_")}
    env["CARDAVIA_URL"] = base
    blocks = shell_blocks()
    assert len(blocks) >= 7 and all("…" not in b for b in blocks)
    outputs = []
    for block in blocks:
        run = subprocess.run(["bash", "-euo", "pipefail", "-c",
                              block.replace("localhost:8000", base.removeprefix("http://"))],
                             cwd=clone, env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and not run.stderr, (block, run.stderr)
        outputs.append(run.stdout)
    dealt, played, looked_up = outputs[:3]
    listed = json.loads(dealt)  # the last command of the first block: the legal moves
    played_answer = json.loads(played)
    state = json.loads((clone / "deal.json").read_text())["state"]
    move = json.loads((clone / "move.json").read_text())["move"]
    # The move the README plays is one that legal-moves lists, and the service takes it.
    assert listed["to_act"] == state["to_act"] and move in listed["moves"]
    assert played_answer["legal"] is True and played_answer["settlement"] is None
    assert played_answer["state"]["table"] == [{"attack": move["card"], "defense": None}]
    # The same move by the other seat is refused, D6 looked up, a problem type fetched.
    assert '"legal": false' in looked_up and '"rule": "D6"' in looked_up
    assert "\nD6 Lead. " in looked_up and '"type": "/problems/invalid-state"' in looked_up
    said = dict(zip(blocks, outputs, strict=True))
    replayed = next(o for b, o in said.items() if "/replay" in b)
    assert replayed.split() == ["True", "1", str(1 - state["to_act"])]
    terminal = next(o for b, o in said.items() if "cardavia replay" in b)
    assert terminal.startswith("quickstart-record.json: 1 legal move(s); the deal is not over")
    assert '{"legal": true, "state": {"game": "durak"' in terminal
    # The render block prints the text README shows after it.
    drawn = next(o for b, o in said.items() if "/render" in b)
    shown = re.search(r"/render -d @render.json\n```\n```text\n(.*?)```", README, re.S)
    assert shown and drawn == shown.group(1)


def documented_operations() -> set[tuple[str, str]]:
    rows = re.findall(r"^\| (GET|POST) \| `([^`]+)` \|", section("Endpoints"), re.M)
    return set(rows)


def test_endpoint_table_lists_every_route():
    served = set()
    for method, path in app_operations():
        if path.startswith("/docs/"):  # the page, and its assets under /docs/…
            path = "/docs"
        served.add((method, path))
    assert documented_operations() == served


def test_the_rule_ids_readme_quotes_are_the_games_rules(client):
    """The intro's ranges of rule ids are each game's first and last rule; the flags of
    Durak's variants cite rules of D16–D25, the variants' rules."""
    games = client.get("/v1/games").get_json()["games"]
    ranges = ", ".join(f"{g['rules'][0]}–{g['rules'][-1]}" for g in games)
    assert f"(rule ids {ranges}, cited in" in README
    terminal = section("Game records, replay and the terminal")
    for cited in re.findall(r"\bD(\d+)\b", terminal[terminal.index("`deal durak` and"):]):
        assert 16 <= int(cited) <= 25, cited


def test_the_python_client_is_linked_and_match_names_known():
    """The client's own README is one link away; `match` takes `--known` as `deal` does."""
    assert "](clients/python/README.md)" in README
    assert "`--known`" in section("Matches between bots")
