"""README's Quickstart works as printed. Its ```sh blocks are run with
bash, in order and in one fresh directory, against a real gunicorn (the port substituted
for 8000); and README's endpoint table lists every route of the app."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.conftest import ROOT
from tests.test_openapi import app_operations

README = (ROOT / "README.md").read_text()


def section(heading: str) -> str:
    start = README.index(f"\n## {heading}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else None]


def quickstart_blocks() -> list[str]:
    return re.findall(r"\n```sh\n(.*?)\n```\n", section("Quickstart"), re.S)


@pytest.mark.http
def test_quickstart_runs_as_printed(server, tmp_path):
    port = server.rsplit(":", 1)[1]
    blocks = quickstart_blocks()
    assert len(blocks) >= 2 and all("localhost:8000" in b for b in blocks)
    outputs = []
    for block in blocks:
        run = subprocess.run(["bash", "-euo", "pipefail", "-c",
                              block.replace("localhost:8000", f"127.0.0.1:{port}")],
                             cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0 and not run.stderr, (block, run.stderr)
        outputs.append(run.stdout)
    dealt, played, looked_up = outputs[:3]
    listed = json.loads(dealt)  # the last command of the first block: the legal moves
    played_answer = json.loads(played)
    state = json.loads((tmp_path / "deal.json").read_text())["state"]
    move = json.loads((tmp_path / "move.json").read_text())["move"]
    # The move the README plays is one that legal-moves lists, and the service takes it.
    assert listed["to_act"] == state["to_act"] and move in listed["moves"]
    assert played_answer["legal"] is True and played_answer["settlement"] is None
    assert played_answer["state"]["table"] == [{"attack": move["card"], "defense": None}]
    # The same move by the other seat is refused, D6 looked up, a problem type fetched.
    assert '"legal": false' in looked_up and '"rule": "D6"' in looked_up
    assert "\nD6 Lead. " in looked_up and '"type": "/problems/invalid-state"' in looked_up


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
