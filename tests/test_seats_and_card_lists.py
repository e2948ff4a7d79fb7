"""A seat beyond the state's count, and a card named twice in one list of a state: both are
422s naming the field, at every endpoint and for every game and count of players.

A seat is bounded by the schemas at the largest count a game deals for; the state's own
count is known only once it is read (T18), and a picture or a view of a seat that is not at
the table reads a hand that is not there. A list the rules keep as a set (Tarot's shown
chien, T5) would drop a repeat instead of refusing it, and the answer's state would then
differ from the one sent.
"""

from __future__ import annotations

import pytest
import requests

from rules.game import InvalidState
from schemas.registry import GAMES
from tests.support.abuse import card_lists, every_count, mid_deal_states, with_a_repeat

COUNTS = every_count()
STATES = {(game_id, n): mid_deal_states(game_id, 12, seed=30 + n, players=n)
          for game_id, n in COUNTS}


def ids(pairs):
    return [f"{game_id}-{n}" for game_id, n in pairs]


def built(game_id: str, state: dict):
    """The rules' state of a JSON state, as the service reads it (schema, then build)."""
    schemas = GAMES[game_id]
    return schemas.game.build(**schemas.requests["state"].load({"state": state})["state"])


@pytest.mark.parametrize(("game_id", "players"), COUNTS, ids=ids(COUNTS))
def test_every_card_list_of_every_state_refuses_a_repeat(game_id, players):
    codes = frozenset(GAMES[game_id].game.deck.codes)
    lists = set()
    for state in STATES[game_id, players]:
        built(game_id, state)  # the state itself is sound
        for path in card_lists(state, codes):
            lists.add(tuple(k if isinstance(k, str) else "#" for k in path))
            # Refused, wherever the rules see it first (a Dukal's repeat breaks its history)
            with pytest.raises(InvalidState):
                built(game_id, with_a_repeat(state, path))
    # The states reach a hand, at least, of two cards or more: the test walks lists.
    assert ("hands", "#") in lists


def test_T5_a_shown_chien_naming_a_card_twice_is_refused(server):
    """A prise's shown chien with one card twice: a 422 at that place, where the repeat was
    once dropped and the state answered without it."""
    shown = [(n, s) for n in (3, 4, 5) for s in STATES["tarot", n]
             if len(s["chien_shown"]) >= 2]
    assert shown
    for _, state in shown[:4]:
        bad = with_a_repeat(state, ("chien_shown",))
        for endpoint, extra in [("legal-moves", {}), ("view", {"seat": 0}),
                                ("replay", {"moves": []}), ("render", {"format": "text"})]:
            r = requests.post(f"{server}/v1/games/tarot/{endpoint}",
                              json={"state": bad, **extra}, timeout=30)
            assert r.status_code == 422, (endpoint, r.text[:300])
            assert r.headers["Content-Type"] == "application/problem+json"
            assert "state.chien_shown.1" in [e["field"] for e in r.json()["errors"]]


SEATED = [("view", True), ("render", False), ("ai-move", False)]


@pytest.mark.parametrize(("game_id", "players"), COUNTS, ids=ids(COUNTS))
def test_T18_every_endpoint_taking_a_seat_refuses_one_beyond_the_count(server, game_id,
                                                                       players):
    state = next(s for s in STATES[game_id, players] if s["phase"] != "over")
    seat_high = max(GAMES[g].game.counts[-1] for g in GAMES)
    with requests.Session() as session:
        for endpoint, _ in SEATED:
            for seat in (players, seat_high - 1):
                if seat < players:
                    continue
                body = {"state": state, "seat": seat}
                if endpoint == "ai-move":
                    body.update(level="random", budget_ms=5)
                r = session.post(f"{server}/v1/games/{game_id}/{endpoint}", json=body,
                                 timeout=30)
                assert r.status_code == 422, (endpoint, seat, r.status_code, r.text[:300])
                assert r.headers["Content-Type"] == "application/problem+json"
                assert "seat" in [e["field"] for e in r.json()["errors"]], r.text[:300]
        # and the last seat at the table is answered
        for endpoint, _ in SEATED[:2]:
            r = session.post(f"{server}/v1/games/{game_id}/{endpoint}",
                             json={"state": state, "seat": players - 1}, timeout=30)
            assert r.status_code == 200, (endpoint, r.text[:300])
