"""README works as printed for a newcomer: in a fresh clone, after `make serve` alone (no
`make test`), every ```sh block is run with bash, in order, in the clone (the port
substituted for 8000), and each does what the text around it says; `make serve` prints no
setuptools warning. It fits on a screen and leads to the documents it moved its long
sections to (docs/): every link of README, docs/ and the client's README resolves, heading
anchors included, and every command README names exists. docs/api.md's endpoint table
lists every route of the app."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import time

import pytest
import requests
from cardavia_client import cli
from cardavia_client.cli.games import Game

from tests.conftest import ROOT, free_port
from tests.test_openapi import app_operations

README = (ROOT / "README.md").read_text()
API = (ROOT / "docs" / "api.md").read_text()
# The documents a reader reaches from README, README among them.
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             ROOT / "clients" / "python" / "README.md"]


def section(heading: str, text: str = README) -> str:
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else None]


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
    rows = re.findall(r"^\| (GET|POST) \| `([^`]+)` \|", section("Endpoints", API), re.M)
    return set(rows)


def test_endpoint_table_lists_every_route():
    served = set()
    for method, path in app_operations():
        if path.startswith("/docs/"):  # the page, and its assets under /docs/…
            path = "/docs"
        served.add((method, path))
    assert documented_operations() == served


def test_the_rule_ids_readme_quotes_are_the_games_rules(client):
    """The intro's ranges of rule ids are each game's first and last rule; Durak's deal
    options cite rules of D16–D25, the variants' rules."""
    games = client.get("/v1/games").get_json()["games"]
    ranges = ", ".join(f"{g['rules'][0]}–{g['rules'][-1]}" for g in games)
    assert f"(rule ids {ranges}, cited in" in README
    options = re.findall(r"^\| `\w+` \| .* \|\s*(D\d+)?\s*\|$", section("The games at a glance"),
                         re.M)
    assert len(options) == 7
    for cited in filter(None, options):
        assert 16 <= int(cited[1:]) <= 25, cited


def test_the_python_client_is_linked_and_match_names_known():
    """The client's own README is one link away; `match` takes `--known` as `deal` does."""
    assert "](clients/python/README.md)" in README
    assert "`--known`" in section("Bots and matches")


def test_readme_fits_on_a_screen_and_opens_with_the_two_commands():
    """A newcomer reads the two commands first, each with what it takes, and the rest in
    well under 250 lines; the long sections live in docs/."""
    assert len(README.splitlines()) < 250
    first = re.search(r"```sh\n(.*?)\n```", README, re.S)
    assert first is not None
    commands = [line.split("#")[0].strip() for line in first.group(1).splitlines()]
    assert commands == ["make serve", "make test"]
    assert re.search(r"make serve .*: about \d+ minutes? from a fresh clone", first.group(1))
    assert "about 9 minutes on 2 cores" in first.group(1)
    for moved in ("robustness", "deploy", "api", "development"):
        assert f"](docs/{moved}.md)" in README


def test_readme_leads_to_the_table_and_the_score_keeper_in_its_first_lines():
    """Issue 41: a Tarot evening's score keeper is found where a newcomer starts reading,
    beside the table, before the API."""
    opening = "\n".join(README.splitlines()[:15])
    assert "http://127.0.0.1:8000/table" in opening
    assert "http://127.0.0.1:8000/scores" in opening
    assert "## The score keeper" in README


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces to
    hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves(document):
    """Every relative link leads to a file of the tree, and its #anchor to a heading."""
    text = document.read_text()
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert local or document.name != "README.md" or document.parent != ROOT
    for link in local:
        path, _, fragment = link.partition("#")
        target = (document.parent / path).resolve() if path else document
        assert target.is_file() and target.is_relative_to(ROOT), (document.name, link)
        if fragment:
            headings = re.findall(r"^#+ (.+)$", target.read_text(), re.M)
            assert fragment in {anchor(h) for h in headings}, (document.name, link)


def test_every_command_readme_names_exists(client):
    """`make X` is a target of the Makefile; each row of the command table names a
    subcommand of `cardavia` and flags it takes; `cardavia X` in the text, a subcommand."""
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M))
    made = set(re.findall(r"(?:^|`)make ([a-z][\w-]*)", README, re.M))
    assert made and made <= targets, made - targets
    games = {g["id"]: Game.of(g) for g in client.get("/v1/games").get_json()["games"]}
    commands = next(a for a in cli.parser(games)._actions
                    if isinstance(a, argparse._SubParsersAction)).choices
    rows = re.findall(r"^\| (`[a-z]+ .*?) \| (.*) \|$", section("The command line"), re.M)
    tabled = set()
    for said, what in rows:
        named = {c.split()[0] for c in re.findall(r"`([^`]+)`", said)}
        flags = re.findall(r"`(--[a-z-]+)", said + " " + what)
        for name in named:
            assert name in commands, name
            assert set(flags) <= set(commands[name]._option_string_actions), (name, flags)
        tabled |= named
    assert tabled == set(commands)
    assert set(re.findall(r"cardavia ([a-z]+)", README)) <= set(commands)
