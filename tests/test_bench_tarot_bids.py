"""bench/tarot_bids.py, the paired check of a change to the strong Tarot bid (T4): a deal
replayed with the tested seat's own bid forced is bench/ai.py's deal, and a tree paired
with itself changes no bid."""

from __future__ import annotations

from bench import ai, tarot_bids


def test_T4_a_deal_replayed_with_its_own_bid_is_the_bench_deal():
    for seed in (200000, 200001):
        played = ai.play_deal("tarot5", seed, "strong", "basic", 5)
        row = ai.tarot_figures([played])["diff_mean"]
        found = tarot_bids.bids(tarot_bids.ROOT, "tarot5", seed, 1, 5)
        assert tarot_bids.play_with_bid("tarot5", seed, found[seed][0], 5) == row


def test_T4_the_same_tree_changes_no_bid(capsys):
    assert tarot_bids.main(["HEAD", "--game", "tarot", "--deals", "2", "--budget", "5"]) == 0
    out = capsys.readouterr().out
    assert "0 bids changed" in out and "+0.0" in out
