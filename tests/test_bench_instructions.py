"""The instruction-count benchmark's harness (bench/instructions.py), not its figures:
callgrind's summary parsed from a captured stderr, the per-deal and ratio arithmetic, the
table's "-" for a side that failed, the child importing no schemas; and, only where
valgrind is installed, one tiny real count."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from bench import ROOT, instructions

STDERR = """\
==8428== Callgrind, a call-graph generating cache profiler
==8428== Copyright (C) 2002-2017, and GNU GPL'd, by Josef Weidendorfer et al.
==8428== Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info
==8428== Command: /work/main/.venv/bin/python bench/_deals_only.py . durak 50
==8428==
==8428== For interactive control, run 'callgrind_control -h'.
{"deals": 50, "moves": 5336}
==8428==
==8428== Events    : Ir
==8428== Collected : 1031316060
==8428==
==8428== I   refs:      1,031,316,060
"""


def test_parses_the_collected_line():
    assert instructions.parse_collected(STDERR) == 1_031_316_060


def test_no_summary_is_an_error():
    with pytest.raises(ValueError):
        instructions.parse_collected("==1== Command: python\nKilled\n")


def test_per_deal_cancels_the_start_up():
    assert instructions.per_deal(1_500, 500, 50) == 20.0
    with pytest.raises(ValueError):
        instructions.per_deal(1, 1, 0)


def test_ratio_and_rows():
    assert instructions.ratio(110.0, 100.0) == pytest.approx(1.1)
    assert instructions.ratio(None, 100.0) is None
    assert instructions.ratio(110.0, None) is None
    side = {"instructions": 3_000, "instructions_0_deals": 1_000, "moves": 100,
            "moves_per_deal": 2.0, "per_deal": 40.0}
    result = {"baseline": "5bc1e61", "baseline_commit": "5bc1e61", "rows": {
        "durak": instructions.combine(side, {**side, "per_deal": 50.0}),
        "tarot3": instructions.combine(side, None),
    }}
    headers, body = instructions.rows(result)
    assert headers == ["game", "instructions/deal now", "moves/deal", "at 5bc1e61",
                       "moves/deal at 5bc1e61", "now/baseline"]
    assert body == [["durak", "40", "2.0", "50", "2.0", "0.800"],
                    ["tarot3", "40", "2.0", "-", "-", "-"]]
    headers, body = instructions.rows({"baseline": None, "rows": {
        "durak": instructions.combine(side, None)}})
    assert headers == ["game", "instructions/deal now", "moves/deal"]
    assert body == [["durak", "40", "2.0"]]


def test_the_child_imports_only_the_rules():
    code = ("import runpy, sys; sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__'); "
            "print(sorted({m.split('.')[0] for m in sys.modules}))")
    # Run the child itself, then list the top-level packages it left imported.
    p = subprocess.run([sys.executable, "-c", code, str(instructions.CHILD), str(ROOT),
                        "durak", "2"], capture_output=True, text=True, check=True, cwd=ROOT)
    played, loaded = p.stdout.splitlines()
    assert json.loads(played)["deals"] == 2
    assert "schemas" not in loaded and "marshmallow" not in loaded and "rules" in loaded


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_a_tiny_real_count():
    row = instructions.measure_row(ROOT, "durak", 2, {})
    assert row["instructions"] > row["instructions_0_deals"] > 0
    assert row["per_deal"] > 0 and row["moves"] > 0
