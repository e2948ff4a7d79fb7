"""bench/same_moves.py, the refactor's check that the AI plays move for move as at another
revision: it runs against a revision, and it reports a move that differs."""

from __future__ import annotations

from bench import same_moves


def test_the_same_tree_plays_the_same_moves(capsys):
    assert same_moves.main(["HEAD", "--games", "durak", "--deals", "1", "--playouts", "4"]) == 0
    assert "durak: 1 deals" in capsys.readouterr().out


def test_a_move_that_differs_is_named():
    played = [{"moves": ["(0, 'attack', 3)", "(1, 'take')"], "settlement": {"scores": [1, -1]}}]
    other = [{"moves": ["(0, 'attack', 4)", "(1, 'take')"], "settlement": {"scores": [1, -1]}}]
    (line,) = same_moves.compare({"durak": played}, {"durak": other})
    assert "DIFFER" in line and "from move 0" in line
    (line,) = same_moves.compare({"durak": played}, {"durak": played})
    assert line.endswith("the same")
    ended = [{**played[0], "settlement": {"scores": [-1, 1]}}]
    (line,) = same_moves.compare({"durak": played}, {"durak": ended})
    assert "another end" in line
