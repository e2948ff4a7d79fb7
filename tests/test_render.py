"""Pictures and text of a state (API.md, "Pictures and text of a state"): the text form of
fixed states equals its stored expectation, fits an 80-column terminal, shows a seat only
what its View shows, says its labels in the negotiated language, and is the same bytes
every time; bad input is a problem like everywhere else.

The fixed states of tests/data/render/ are seeded deals played a few moves (and a few to
the end); `python -m tests.test_render` writes the expected texts again after a deliberate
change of the layout (then read the diff)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from render.text import WIDTH, width
from service.app import TestingConfig, create_app

DATA = Path(__file__).resolve().parent / "data" / "render"
STATES = sorted(p.stem for p in DATA.glob("*.json"))
# The stored texts: every fixed state face up, and as seat 0 sees it.
EXPECTED = [(name, seat) for name in STATES for seat in (None, 0)]


def state(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text())


def expected_path(name: str, seat: int | None) -> Path:
    return DATA / f"{name}.{'all' if seat is None else f'seat{seat}'}.txt"


def render(client, name: str, seat: int | None = None, fmt: str = "text",
           lang: str | None = None):
    st = state(name)
    body: dict = {"state": st, "format": fmt}
    if seat is not None:
        body["seat"] = seat
    headers = {"Accept-Language": lang} if lang else {}
    return client.post(f"/v1/games/{st['game']}/render", json=body, headers=headers)


@pytest.mark.parametrize(("name", "seat"), EXPECTED)
def test_text_of_a_fixed_state_equals_its_stored_expectation(client, name, seat):
    r = render(client, name, seat)
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert r.get_data(as_text=True) == expected_path(name, seat).read_text()


@pytest.mark.parametrize("lang", ["en", "uk", "hu"])
@pytest.mark.parametrize("name", STATES)
def test_text_fits_an_80_column_terminal(client, name, lang):
    players = len(state(name)["hands"])
    for seat in (None, *range(players)):
        lines = render(client, name, seat, lang=lang).get_data(as_text=True).splitlines()
        too_wide = [line for line in lines if width(line) > WIDTH]
        assert not too_wide, (seat, too_wide)


def test_width_counts_terminal_columns():
    assert width("Місце 0") == 7
    assert width("कं") == 1  # the anusvara (a nonspacing mark) takes no column of its own
    assert width("漢字") == 4


@pytest.mark.parametrize("name", STATES)
def test_text_shows_a_seat_only_what_its_view_shows(client, name):
    """Every card code in a seat's text is one its View shows (API.md, "A View"), and the
    seat's whole hand is there."""
    st = state(name)
    deck = set(_codes(st["hands"])) | set(_codes(st))
    for seat in range(len(st["hands"])):
        view = client.post(f"/v1/games/{st['game']}/view",
                           json={"state": st, "seat": seat}).json["view"]
        text = render(client, name, seat).get_data(as_text=True)
        shown = {t for t in text.replace("/", " ").split() if t in deck}
        assert shown <= set(_codes(view)), (seat, shown - set(_codes(view)))
        assert set(st["hands"][seat]) <= shown


def _seat_lines(text: str) -> dict[int, str]:
    """Each seat's title line in a text, by seat."""
    out = {}
    for line in text.splitlines():
        words = line.removeprefix("> ").split(" · ")
        if words[0].startswith("Seat ") and words[0][5:].isdigit():
            out[int(words[0][5:])] = line
    return out


@pytest.mark.parametrize("name", ["durak3-neighbours", "durak4-passing", "durak6-passing"])
def test_D18_every_seat_is_drawn_round_the_viewer_with_its_role(client, name):
    """Every seat of a deal of 3 to 6 is at the table, the viewer last (at the bottom) and
    the others from the seat after it; exactly one attacker and one defender, the state's."""
    st = state(name)
    players = len(st["hands"])
    for seat in range(players):
        text = render(client, name, seat).get_data(as_text=True)
        lines = _seat_lines(text)
        assert list(lines) == [(seat + i) % players for i in range(1, players)] + [seat]
        assert " · attacker" in lines[st["attacker"]]
        assert " · defender" in lines[st["defender"]]
        roles = " ".join(lines.values())
        assert roles.count(" · attacker") == 1 and roles.count(" · defender") == 1
        assert " · you" in lines[seat] and f"cards: {len(st['hands'][seat])}" in lines[seat]


def test_D23_seats_gone_out_are_marked_and_listed_in_order(client):
    st = state("durak4-over")
    text = render(client, "durak4-over").get_data(as_text=True)
    lines = _seat_lines(text)
    gone = [s for bout in st["out"] for s in bout]
    assert gone and all(" · out" in lines[s] for s in gone)
    assert all(" · out" not in lines[s] for s in lines if s not in gone)
    order = " → ".join(", ".join(f"Seat {s}" for s in bout) for bout in st["out"])
    assert f"Gone out, in order: {order}" in text


@pytest.mark.parametrize("name", ["durak4-passing", "durak6-passing"])
def test_D17_the_shown_trump_card_and_known_cards_are_in_every_seats_text(client, name):
    """With the whole deck dealt the last card dealt is shown to all (D17), and every card
    known to be in a hand (API.md `known`) is face up in it for every seat."""
    st = state(name)
    for seat in range(len(st["hands"])):
        text = render(client, name, seat).get_data(as_text=True)
        assert f"Shown trump card: {st['trump_card']} (Seat {len(st['hands']) - 1})" in text
        lines = text.splitlines()
        for s, cards in enumerate(st["known"]):
            title = next(i for i, line in enumerate(lines)
                         if line.removeprefix("> ").startswith(f"Seat {s} ·"))
            assert set(cards) <= set(lines[title + 1].split()), (seat, s)


def test_D16_a_52_card_deal_is_drawn_with_its_low_ranks(client):
    st = state("durak3-neighbours")
    low = [c for hand in st["hands"] for c in hand if c[0] in "2345"]
    assert low  # the fixed state holds cards only the 52-card deck has
    assert render(client, "durak3-neighbours", None, "svg").status_code == 200
    for code in ("2S", "5C"):
        r = client.get(f"/v1/games/durak/cards/{code}.svg")
        assert r.status_code == 200 and f'data-card="{code}"' in r.get_data(as_text=True)


def _codes(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [c for v in value for c in _codes(v)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in _codes(v)]
    return []


def test_the_same_state_gives_the_same_bytes(client):
    for name in STATES:
        assert render(client, name, 0).get_data() == render(client, name, 0).get_data()


def test_labels_follow_accept_language(client):
    ukrainian = render(client, "durak-bout", 0, lang="uk")
    assert ukrainian.headers["Content-Language"] == "uk"
    text = ukrainian.get_data(as_text=True)
    assert "Дурак" in text and "Місце 1" in text and "Seat" not in text
    persian = render(client, "ganjifa-trick", None, lang="fa").get_data(as_text=True)
    assert "صندلی" in persian and "راما" in persian
    # Card codes are the same in every language: they are what a player types.
    english = render(client, "durak-bout", 0).get_data(as_text=True)
    assert set(_hand_line(english)) == set(_hand_line(text))


def _hand_line(text: str) -> list[str]:
    """The cards of the last seat drawn (the viewer's): the text's last line."""
    return text.splitlines()[-1].split()


@pytest.mark.parametrize(("body", "field"), [
    ({"format": "png"}, "format"),
    ({"seat": 2}, "seat"),
    ({"seat": "0"}, "seat"),
    ({"extra": 1}, "extra"),
])
def test_bad_input_is_a_problem_naming_the_field(client, body, field):
    r = client.post("/v1/games/durak/render", json={"state": state("durak-bout"), **body})
    assert r.status_code == 422
    assert r.headers["Content-Type"] == "application/problem+json"
    assert [e["field"] for e in r.json["errors"]] == [field]


def test_an_invalid_state_is_a_problem(client):
    st = state("durak-bout")
    st["hands"][0] = st["hands"][0][1:]  # D1: a card missing
    r = client.post("/v1/games/durak/render", json={"state": st, "format": "text"})
    assert r.status_code == 422 and r.json["type"] == "/problems/invalid-state"
    assert client.post("/v1/games/durak/render", json={}).status_code == 422
    assert client.post("/v1/games/chess/render", json={"state": st}).status_code == 404
    assert client.post("/v1/games/durak/render", data=b"{").status_code == 400


def test_a_view_is_not_accepted_as_a_state(client):
    st = state("durak-bout")
    view = client.post("/v1/games/durak/view", json={"state": st, "seat": 0}).json["view"]
    r = client.post("/v1/games/durak/render", json={"state": view, "format": "text"})
    assert r.status_code == 422


def test_signed_states_are_honoured():
    config = type("Signed", (TestingConfig,), {"STATE_KEY": "k1"})
    signed = create_app(config).test_client()
    st = state("durak-bout")
    r = signed.post("/v1/games/durak/render", json={"state": st, "format": "text"})
    assert r.status_code == 422 and r.json["type"] == "/problems/state_signature_invalid"
    dealt = signed.post("/v1/games/durak/deal", json={}).json["state"]  # no seed: signed
    r = signed.post("/v1/games/durak/render", json={"state": dealt, "format": "text"})
    assert r.status_code == 200


@pytest.mark.http
def test_render_over_gunicorn(server):
    import requests

    st = state("tarot-discard")
    r = requests.post(f"{server}/v1/games/tarot/render",
                      json={"state": st, "seat": 0, "format": "text"}, timeout=10)
    assert r.status_code == 200
    assert r.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert r.text == expected_path("tarot-discard", 0).read_text()
    r = requests.post(f"{server}/v1/games/tarot/render", json={"state": st, "format": "txt"},
                      timeout=10)
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "format"


def write_expectations() -> None:
    client = create_app(TestingConfig).test_client()
    for name, seat in EXPECTED:
        expected_path(name, seat).write_text(render(client, name, seat).get_data(as_text=True))


if __name__ == "__main__":
    write_expectations()
