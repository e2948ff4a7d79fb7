"""A real browser for the tests: Debian's chromium, driven by Playwright through its
`executable_path` with ARGS, installed with apt-get where it is missing (CI runs as root on
a fresh machine)."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
# Each Debian package with a path that shows it is there: the browser, and a Devanagari
# font so that a Hindi page is drawn in letters, not boxes.
PACKAGES = {"chromium": CHROMIUM, "fonts-lohit-deva": "/usr/share/fonts/truetype/lohit-devanagari"}


def install_packages() -> None:
    """Brings what is missing with apt-get. Each pytest-xdist worker may get here; a lock
    lets one install while the other waits."""
    with open(Path(tempfile.gettempdir()) / "cardavia-chromium.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        missing = [name for name, path in PACKAGES.items() if not Path(path).exists()]
        if not missing:
            return
        if shutil.which("apt-get") is None:
            pytest.fail(f"{', '.join(missing)} missing and there is no apt-get to install it")
        env = {"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=True, env=env)
