"""The replay benchmark's harness (bench/replay.py), not its figures: its bodies are the same
moves on both sides, and one small run against a real gunicorn answers every one legal.
Nothing here is timed."""

from __future__ import annotations

import orjson
import pytest

from bench import replay


def body(request: bytes) -> dict:
    return orjson.loads(request.partition(b"\r\n\r\n")[2])


@pytest.mark.parametrize("game_id", ["durak", "tarot", "ganjifa"])
def test_both_sides_send_the_same_moves(client, game_id):
    replays, moves, count = replay.bodies(game_id, 2)
    assert len(replays) == 2 and len(moves) == count
    assert [m for r in replays for m in body(r)["moves"]] == [body(m)["move"] for m in moves]
    first = body(replays[0])
    dealt = client.post(f"/v1/games/{game_id}/deal", json=first["deal"]).json["state"]
    assert body(moves[0])["state"] == dealt


@pytest.mark.http
def test_a_small_run_answers_every_request_legal():
    result = replay.run(deals=1, rounds=1, games=["durak"])
    durak = result["games"]["durak"]
    assert durak["moves"] > 0 and durak["ratio"] > 0 and durak["target"] == 20.0
    headers, rows = replay.rows(result)
    assert len(rows) == 1 and len(rows[0]) == len(headers)
