"""Cardavia's benchmarks, run by `make bench` (`python -m bench`); see bench/README.md.

Every figure is reported beside a baseline measured in the same run, so the ratios mean
the same on any machine. Nothing here is a test: `make test` never runs it.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"
