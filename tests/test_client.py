"""The Python client (clients/python, `cardavia_client`) against a real gunicorn: one method
per endpoint, typed results, an illegal move as a result, a problem as an exception carrying
its document, a timeout on every request and one Session reused.

The client is its own distribution; `make`'s install rule installs it into the project venv
(`pip install -e clients/python`)."""

from __future__ import annotations

import socket
import threading

import pytest
import requests
from cardavia_client import (
    AiMove,
    CardaviaError,
    Client,
    Deal,
    LegalMoves,
    MoveResult,
    ProblemError,
    Reason,
    ReplayResult,
    Rule,
    TimeoutError,
    UnexpectedAnswerError,
    UnreachableError,
)

from tests.conftest import free_port
from tests.openapi_check import spec
from tests.support.records import record

pytestmark = pytest.mark.http


class Counting(Client):
    """A client that records the timeout and session of every request it sends."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sent: list[tuple[object, object]] = []
        request = self.session.request

        def counted(method, url, **kw):
            self.sent.append((self.session, kw.get("timeout")))
            return request(method, url, **kw)

        self.session.request = counted  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def py_client(server):
    with Counting(server) as c:
        yield c


def test_games_and_a_game_with_its_cards(py_client):
    games = py_client.games()
    assert [g["id"] for g in games] == ["durak", "tarot", "ganjifa"]
    durak = py_client.game("durak")
    assert durak["players"] == 2 and len(durak["cards"]) == 36
    # D16: the 52-card deck's listing, its Twos first in each suit.
    assert [c["code"] for c in py_client.game("durak", cards=52)["cards"][:2]] == ["2S", "3S"]
    with pytest.raises(ProblemError) as refused:
        py_client.game("durak", cards=40)
    assert refused.value.type == "/problems/invalid-deck"


@pytest.mark.parametrize("game", ["durak", "tarot", "ganjifa"])
def test_deal_and_its_deck_deal_the_same_state(py_client, game):
    dealt = py_client.deal(game, seed=4)
    assert isinstance(dealt, Deal) and dealt.state["game"] == game
    assert py_client.deal(game, deck=dealt.deck) == dealt
    assert py_client.deal(game, seed=4) == dealt


def test_options_of_a_game_go_with_the_deal(py_client):
    assert py_client.deal("tarot", seed=1, dealer=0).state["dealer"] == 0
    assert py_client.deal("ganjifa", seed=1, period="night").state["period"] == "night"


def test_D16_D17_durak_counts_decks_and_variants_go_with_the_deal(py_client):
    six = py_client.deal("durak", seed=1, players=6, transfer=True, throw_in="neighbours",
                      known=True).state
    assert len(six["hands"]) == 6 and six["transfer"] and six["throw_in"] == "neighbours"
    assert six["known"][5] == [six["trump_card"]]  # D17: the last hand dealt shows it
    small = py_client.deal("durak", seed=1, players=3, cards=24, first_bout=5)
    assert len(small.deck) == 24 and small.state["first_bout"] == 5
    assert len(py_client.deal("durak", seed=1, cards=52).deck) == 52


def test_legal_moves_move_and_an_illegal_move_as_a_result(py_client):
    state = py_client.deal("durak", seed=1).state
    legal = py_client.legal_moves("durak", state)
    assert isinstance(legal, LegalMoves) and legal.to_act == state["to_act"]
    played = py_client.move("durak", state, legal.moves[0])
    assert isinstance(played, MoveResult) and played.legal and played.reason is None
    assert played.state["table"][0]["attack"] == legal.moves[0]["card"]
    assert played.events and played.settlement is None
    other = 1 - state["to_act"]
    illegal = py_client.move("durak", state, {"seat": other, "action": "attack",
                                           "card": state["hands"][other][0]})
    assert illegal == MoveResult(False, reason=Reason(
        "not_your_turn", "D6", illegal.reason.message))


def test_ai_move_and_view(py_client):
    state = py_client.deal("tarot", seed=3).state
    ai = py_client.ai_move("tarot", state, level="basic", seed=1)
    assert isinstance(ai, AiMove) and ai.level == "basic" and ai.elapsed_ms >= 0
    assert py_client.move("tarot", state, ai.move).legal
    view = py_client.view("tarot", state, 1)
    assert view["hands"][1] == state["hands"][1] and set(view["hands"][0]) == {"?"}


def test_tarot_settlement_from_a_score_sheet(py_client):
    settled = py_client.settlement({"contract": "garde", "taker": 1, "bouts": 2, "points": 45})
    assert settled["scores"][1] == -3 * settled["scores"][0] and settled["made"]


def test_a_tarot_session_as_json_and_as_csv(py_client):
    players = ["Anne", "Bruno", "Chloé"]
    deals = [{"contract": "garde", "taker": 1, "bouts": 2, "points": 45},
             {"annulled": "all_pass"}]
    evening = py_client.tarot_session(players, deals, dealer=2)
    assert evening["players"] == players and evening["next_dealer"] == 1
    assert evening["totals"] == evening["deals"][-1]["totals"] == [-58, 116, -58]
    assert [row["taken"] for row in evening["statistics"]] == [0, 1, 0]
    table = py_client.tarot_session_csv(players, deals, dealer=2)
    assert table.splitlines()[1].startswith("1,Chloé,Bruno,,garde,2,45,true,,,,,-58,116,-58")
    french = py_client.tarot_session_csv(players, deals, dealer=2, dialect="semicolon")
    assert french.startswith("\ufeffdeal;dealer;") and "\r\n1;Chloé;Bruno;;garde;" in french
    with pytest.raises(ProblemError) as refused:
        py_client.tarot_session(players, [{"contract": "garde", "bouts": 3, "points": 5}])
    assert [e["field"] for e in refused.value.problem["errors"]] == ["deals.0.points"]


def test_replay_of_a_record_and_of_an_illegal_one(py_client):
    rec = record("ganjifa", {"seed": 2})
    whole = py_client.replay_record(rec)
    assert isinstance(whole, ReplayResult) and whole.legal
    assert whole.played == len(rec["moves"]) and whole.settlement == whole.state["result"]
    every = py_client.replay("ganjifa", rec["moves"][:5], deal=rec["deal"], include="all")
    assert len(every.states) == len(every.events) == 5
    from_state = py_client.replay("ganjifa", rec["moves"][5:], state=every.states[-1])
    assert from_state.state == whole.state
    bad = py_client.replay("ganjifa", [rec["moves"][1]], deal=rec["deal"])
    assert not bad.legal and bad.at == 0 and bad.move == rec["moves"][1]
    assert bad.reason.code == "not_your_turn"


def test_render_the_text_of_a_seat_view(py_client):
    state = py_client.deal("durak", seed=1).state
    text = py_client.render("durak", state, seat=0, format="text")
    assert all(card in text for card in state["hands"][0])
    assert not any(card in text.split() for card in state["hands"][1])
    assert max(map(len, text.splitlines())) <= 80


def test_render_the_svg_picture_by_default(py_client):
    import xml.etree.ElementTree as ET

    state = py_client.deal("tarot", seed=2).state
    picture = ET.fromstring(py_client.render("tarot", state, seat=1))
    shown = {g.get("data-card") for g in picture.iter("{http://www.w3.org/2000/svg}g")
             if g.get("data-card")}
    assert shown == set(state["hands"][1])


@pytest.mark.skipif("/v1/games/{game}/rules" not in spec()["paths"],
                    reason="GET /v1/games/{game}/rules is not served by this build yet")
def test_rules_of_a_game(py_client):
    rules = py_client.rules("durak")
    assert rules and all(isinstance(r, Rule) for r in rules)
    assert [r.id for r in rules] == py_client.game("durak")["rules"]


def test_a_problem_is_raised_with_its_document(py_client):
    state = py_client.deal("durak", seed=1).state
    with pytest.raises(ProblemError) as refused:
        py_client.legal_moves("durak", {**state, "attacker": 5})
    problem = refused.value.problem
    assert problem["status"] == 422 and refused.value.status == 422
    assert problem["errors"][0]["pointer"] == "/state/attacker"
    assert "state.attacker" in str(refused.value)
    with pytest.raises(ProblemError) as unknown:
        py_client.game("chess")
    assert unknown.value.status == 404 and unknown.value.type == "/problems/unknown-game"


def test_an_answer_that_is_not_the_service_is_an_error(server):
    with Client(server + "/openapi.yaml#") as c, pytest.raises(UnexpectedAnswerError):
        c.games()  # GET /openapi.yaml#/v1/games: the YAML document, not JSON


def test_an_unreachable_service_is_the_clients_own_error():
    """Nothing listens on the port: the client's UnreachableError (a CardaviaError, and a
    requests.ConnectionError for code written against requests), never requests' own."""
    url = f"http://127.0.0.1:{free_port()}"
    with Client(url) as c, pytest.raises(UnreachableError) as e:
        c.deal("durak", seed=1)
    assert isinstance(e.value, CardaviaError) and isinstance(e.value, requests.ConnectionError)
    assert url in str(e.value)
    with Client("http://cardavia.invalid") as c, pytest.raises(UnreachableError):
        c.games()  # a host that cannot resolve (RFC 6761's .invalid)


def test_a_service_too_slow_to_answer_is_a_timeout():
    """A server that accepts and never answers: TimeoutError after the read timeout."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        accepted: list[socket.socket] = []
        thread = threading.Thread(target=lambda: accepted.append(listening.accept()[0]),
                                  daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{listening.getsockname()[1]}"
        try:
            with Client(url, timeout=(5, 0.2)) as c, pytest.raises(TimeoutError) as e:
                c.games()
        finally:
            thread.join(5)
            for conn in accepted:
                conn.close()
    assert isinstance(e.value, CardaviaError) and isinstance(e.value, requests.Timeout)


def test_the_language_and_the_session_and_timeout_of_every_request(server, py_client):
    with Client(server, language="hu") as hu:
        state = hu.deal("durak", seed=1).state
        illegal = hu.move("durak", state, {"seat": 0, "action": "take"})
    english = py_client.move("durak", state, {"seat": 0, "action": "take"})
    assert illegal.reason.code == english.reason.code
    assert illegal.reason.message != english.reason.message
    assert py_client.sent and {id(s) for s, _ in py_client.sent} == {id(py_client.session)}
    assert all(t == py_client.timeout and t is not None for _, t in py_client.sent)
