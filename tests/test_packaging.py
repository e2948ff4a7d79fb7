"""The built wheel holds everything the service needs. It is installed
into a fresh virtual environment outside the source tree, gunicorn serves it from there
(cwd outside the tree too) and a Durak deal is played to its end over HTTP."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import requests

from tests.conftest import ROOT
from tests.support.servers import free_port, running

pytestmark = pytest.mark.http


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A copy of the tree's packages: setuptools builds in place, and a build/ left in the
    source tree from an earlier run would slip stale files into the wheel."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "setup.py", "README.md", "openapi.yaml"):
        shutil.copy(ROOT / name, source / name)
    for package in package_dirs():
        shutil.copytree(package, source / package.name, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return source


def pip(*args: str, cwd: Path) -> str:
    """pip run quietly as `make serve` runs it: what it prints (setuptools' warnings come
    through on stderr)."""
    run = subprocess.run([sys.executable, "-m", "pip", *args, "--quiet"], cwd=cwd,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout + run.stderr


@pytest.fixture(scope="module")
def wheel(source, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    printed = pip("wheel", "--no-deps", "-w", str(out), str(source), cwd=out)
    assert "Warning" not in printed, printed
    (built,) = out.glob("cardavia-*.whl")
    return built


def test_editable_install_prints_no_warning(source, tmp_path):
    """`make serve`'s install is the first thing a new user reads: every data folder is a
    declared package and the editable install a plain .pth, so setuptools has nothing to
    warn about (it once printed a BuildBackendWarning per data folder)."""
    printed = pip("install", "--no-deps", "--prefix", str(tmp_path / "prefix"), "-e",
                  str(source), cwd=tmp_path)
    assert printed == ""
    (pth,) = (tmp_path / "prefix").rglob("__editable__.cardavia-*.pth")
    assert pth.read_text().split() == [str(source)]


def package_dirs() -> list[Path]:
    return [p.parent for p in ROOT.glob("*/__init__.py")
            if p.parent.name not in ("tests", "bench", "contract")]


def shipped_files() -> list[str]:
    """Every file of every package of the tree (tests, benchmarks and the contract's build
    aside): its modules and the data beside them."""
    return [str(f.relative_to(ROOT)) for package in package_dirs() for f in package.rglob("*")
            if f.is_file() and "__pycache__" not in f.parts]


def test_wheel_holds_every_package_and_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    files = shipped_files()
    assert "rules/ai/__init__.py" in files and "rules/durak/locales/hu.json" in files
    assert sorted(set(files) - names) == []
    # The symlink to the one openapi.yaml is resolved into a copy at build.
    assert zipfile.ZipFile(wheel).read("service/openapi.yaml") == \
        (ROOT / "openapi.yaml").read_bytes()


def test_installed_wheel_serves_a_deal(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)],
                   check=True, cwd=tmp_path)
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CARDAVIA_") and k != "PYTHONPATH"}
    command = [str(venv / "bin" / "gunicorn"), "--bind", f"127.0.0.1:{port}", "--workers", "1",
               "service.app:create_app()"]
    with running(command, tmp_path, env, port) as base:
        where = subprocess.run(
            [str(python), "-c", "import service; print(service.__file__)"],
            cwd=tmp_path, env=env, check=True, capture_output=True, text=True).stdout
        assert where.startswith(str(venv))  # served from the wheel, not the source tree
        core = subprocess.run(
            [str(python), "-c", "from rules.ai.native import CORE; print(CORE.__file__)"],
            cwd=tmp_path, env=env, check=True, capture_output=True, text=True).stdout
        assert core.startswith(str(venv))  # the wheel holds the compiled core, built
        assert requests.get(f"{base}/openapi.yaml", timeout=10).content == \
            (ROOT / "openapi.yaml").read_bytes()
        hu = requests.get(f"{base}/v1/games/durak", headers={"Accept-Language": "hu"},
                          timeout=10)
        assert hu.headers["Content-Language"] == "hu"  # the locales are there
        play_durak_to_its_end(base)


def play_durak_to_its_end(base: str) -> None:
    session = requests.Session()
    state = session.post(f"{base}/v1/games/durak/deal", json={"seed": 3},
                         timeout=10).json()["state"]
    for _ in range(1000):
        # The AI (rules.ai) picks every move: the installed package has it.
        ai = session.post(f"{base}/v1/games/durak/ai-move",
                          json={"state": state, "level": "basic", "seed": 1}, timeout=10)
        if ai.status_code == 422:
            break
        r = session.post(f"{base}/v1/games/durak/move",
                         json={"state": state, "move": ai.json()["move"]}, timeout=10)
        assert r.json()["legal"] is True, r.text
        state = r.json()["state"]
        if r.json()["settlement"] is not None:
            break
    assert state["phase"] == "over" and state["result"] is not None
