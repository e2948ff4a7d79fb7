"""bench/oracle.py, the diagnostic of what hidden information costs two-player Durak's
strong level: its worlds are the true deal, or the true deal with the stock redrawn."""

from __future__ import annotations

import random

from bench import oracle
from bench.ai import seeded_deal
from rules.ai import search
from rules.durak.state import named


def test_the_hand_oracle_redraws_the_stock_and_keeps_the_rest():
    state = named(seeded_deal("durak", 3))
    redrawn = named(oracle.stock_redrawn(seeded_deal("durak", 3), random.Random(1)))
    assert redrawn.stock != state.stock and redrawn.stock[-1] == state.stock[-1]
    assert sorted(redrawn.stock) == sorted(state.stock)
    assert redrawn._replace(stock=state.stock) == state


def test_the_search_sees_the_truth_only_inside_and_a_deal_is_played(capsys):
    before = search.sample
    truth = [seeded_deal("durak", 5)]
    with oracle.worlds_from(truth, "all"):
        assert search.sample(None, None, random.Random(0), [0]) is truth[0]
    assert search.sample is before
    assert oracle.main(["--shown", "hand", "--deals", "1", "--first-seed", "7"]) == 0
    assert "seeds 7-7: " in capsys.readouterr().out
