"""The compiled search core (rules/ai/core/*.c, built as the extension `rules.ai._core` when
the package installs): each game's playouts, exact endgames and world draws, tens of times
faster than Python, where the strong level spends its budget. The Python rules stay the
authority (tests/test_core_*.py hold the core to them move by move).

Where the core could not be built (no C compiler at install time), `CORE` is None and
`MISSING` says so; the strong level then searches with the Python playouts, slower and so
weaker at the same budget, and the service logs that sentence once at start."""

from __future__ import annotations

import importlib
from types import ModuleType


def _load() -> tuple[ModuleType | None, str | None]:
    try:
        return importlib.import_module("rules.ai._core"), None
    except ImportError as e:  # built without a compiler, or a stale build
        return None, (f"the compiled search core is not built ({e}); the strong AI searches "
                      "in Python, slower and weaker at the same budget: reinstall with gcc "
                      "and the Python headers present (pip install -e .)")


CORE, MISSING = _load()
