"""The AI benchmark's harness (bench/ai.py), not its figures: one fast deal per game and
the statistics it shares with `cardavia match` (cardavia_client/stats.py) on known
values. Nothing here is timed."""

from __future__ import annotations

import math

import pytest
from cardavia_client import stats

from bench import ai


def test_wilson_known_values():
    lo, hi = stats.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = stats.wilson(0, 10)  # upper bound z²/(n + z²)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = stats.wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1)
    assert stats.wilson(3, 0) is None


def test_mean_ci():
    mean, (lo, hi) = stats.mean_ci([1.0, 2.0, 3.0, 4.0])
    half = 3.182 * math.sqrt(5 / 3) / 2  # t(3) · sd / √n
    assert mean == 2.5 and lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    assert stats.t95(200) == stats.Z95 and stats.t95(35) == stats.T95[30]


@pytest.mark.parametrize("game_id", ai.GAME_IDS)
def test_one_deal_per_game(game_id):
    seed = 1
    deal = ai.play_deal(game_id, seed, "basic", "random", 200)
    players = len(deal["scores"])
    assert deal["seat"] == seed % players and deal["moves"] > 0
    assert deal["strong"] == {"wall_ms": [], "cpu_ms": [], "playouts": [], "forced": 0}
    figures = ai.FIGURES[game_id]([deal])
    assert figures["deals"] == 1
    if ai.registry_id(game_id) == "durak":  # every count and option
        assert figures["wins"] + figures["losses"] + figures["draws"] == 1
    elif ai.registry_id(game_id) == "tarot":
        # T17, T24: the scores sum to zero, so the others' mean is -mine / (players - 1).
        assert sum(deal["scores"]) == 0
        assert players == {"tarot3": 3, "tarot": 4, "tarot5": 5}[game_id]
        assert figures["diff_mean"] == pytest.approx(
            players / (players - 1) * deal["scores"][deal["seat"]])
    else:
        assert deal["winners"] and 0 <= figures["win_share"] <= 1
    # The same seed plays the same deal.
    assert ai.play_deal(game_id, seed, "basic", "random", 200) == {
        **deal, "cpu_s": pytest.approx(deal["cpu_s"], abs=10)}


def test_outside_durak_players_sit_only_at_the_deals_they_are_written_for():
    assert ai.plays("durak", "mcts") and ai.plays("durak", "expert")
    assert not ai.plays("durak3", "mcts") and not ai.plays("durak4t", "expert")
    assert ai.plays("durak3", "greedy") and ai.plays("durak3", "basic")
    deal = ai.play_deal("durak", 3, "basic", "expert", 200)
    assert ai.durak_figures([deal])["deals"] == 1


def test_strong_timings_shape():
    deal = ai.play_deal("durak", 0, "strong", "basic", 5)
    strong = deal["strong"]
    assert len(strong["wall_ms"]) == len(strong["cpu_ms"]) == len(strong["playouts"]) > 0
    figures = ai.timing_figures([deal], 5)
    assert figures["searched_moves"] == len(strong["playouts"])
    assert figures["playouts"] == sum(strong["playouts"])
