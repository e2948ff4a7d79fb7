"""bench/playouts.py, the compiled core's playouts per CPU second against the Python
search's on the same views."""

from __future__ import annotations

from bench import playouts


def test_both_searches_play_the_same_views_and_the_core_runs_more(capsys):
    r = playouts.measure("tarot3", deals=1, budget_ms=20)
    assert r["views"] == 1 and r["core_playouts"] > r["python_playouts"] > 0
    assert r["ratio"] == r["core_per_cpu_s"] / r["python_per_cpu_s"] > 1
    assert playouts.main(["--deals", "1", "--budget", "5", "--games", "durak"]) == 0
    assert "durak" in capsys.readouterr().out
