"""bench/playouts.py, the compiled core's playouts per CPU second against the Python
search's on the same views."""

from __future__ import annotations

from bench import playouts


def test_both_searches_play_the_same_views_each_its_budgets_count(capsys):
    """The counts follow from each search's rate (the core's is the higher); how fast each
    runs them is bench's figure, not a test's."""
    r = playouts.measure("tarot3", deals=1, budget_ms=20)
    assert r["views"] == 1 and r["core_playouts"] > r["python_playouts"] > 0
    assert r["core_cpu_s"] > 0 and r["python_cpu_s"] > 0
    assert r["ratio"] == r["core_per_cpu_s"] / r["python_per_cpu_s"]
    assert playouts.main(["--deals", "1", "--budget", "5", "--games", "durak"]) == 0
    assert "durak" in capsys.readouterr().out
