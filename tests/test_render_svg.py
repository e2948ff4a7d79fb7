"""The pictures: each card's SVG (`GET /v1/games/{game}/cards/{code}.svg`) and the table's
(`POST /v1/games/{game}/render`): well-formed, self-contained, the same bytes every time,
and showing exactly the cards the seat may see, the hidden ones face down with their
counts (API.md, "A View")."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from render import art

SVG = "{http://www.w3.org/2000/svg}"


def parse(data: bytes) -> ET.Element:
    root = ET.fromstring(data)
    assert root.tag == f"{SVG}svg"
    return root


def self_contained(data: bytes) -> bool:
    """No outside reference: every href points inside the document, no font is loaded."""
    text = data.decode()
    root = ET.fromstring(data)
    hrefs = [e.get("href") for e in root.iter() if e.get("href") is not None]
    return all(h.startswith("#") for h in hrefs) and "@font-face" not in text \
        and "url(http" not in text


@pytest.mark.parametrize("game", sorted(art.CARDS))
def test_every_card_has_a_well_formed_picture(client, game):
    for code in art.CARDS[game]:
        r = client.get(f"/v1/games/{game}/cards/{code}.svg")
        assert r.status_code == 200 and r.headers["Content-Type"] == "image/svg+xml"
        root = parse(r.data)
        assert root.get("data-card") == code
        assert self_contained(r.data)
    back = client.get(f"/v1/games/{game}/cards/back.svg")
    assert back.status_code == 200 and parse(back.data).get("data-card") is None


def test_a_card_picture_is_titled_in_the_language_asked(client):
    r = client.get("/v1/games/durak/cards/QS.svg", headers={"Accept-Language": "uk"})
    assert parse(r.data).find(f"{SVG}title").text == "Дама пік"
    assert r.headers["Content-Language"] == "uk"
    r = client.get("/v1/games/ganjifa/cards/RKRI.svg")
    assert parse(r.data).find(f"{SVG}title").text == "Raja of Krishna"


def test_D1_durak_cards_carry_their_cyrillic_indices(client):
    for code, index in (("JS", "В"), ("QH", "Д"), ("KD", "К"), ("AC", "Т"), ("10S", "10")):
        texts = [t.text for t in parse(client.get(f"/v1/games/durak/cards/{code}.svg").data)
                 .iter(f"{SVG}text")]
        assert texts.count(index) == 2, (code, texts)  # both corners


def test_T1_tarot_trumps_are_numbered_and_the_excuse_starred(client):
    texts = [t.text for t in parse(client.get("/v1/games/tarot/cards/T17.svg").data)
             .iter(f"{SVG}text")]
    assert texts.count("17") == 3  # both ends and the middle
    texts = [t.text for t in parse(client.get("/v1/games/tarot/cards/EX.svg").data)
             .iter(f"{SVG}text")]
    assert texts.count("★") == 2


def test_G1_ganjifa_suits_have_their_own_colour_and_emblem():
    fills = set()
    for suit in art.EMBLEMS:
        face = art.face("ganjifa", f"5{suit}")
        assert face.count(f'href="#em-{suit}"') == 5  # five pips of the suit's emblem
        fills.add(face.split('fill="', 1)[1].split('"', 1)[0])
        assert 'href="#crown"' in art.face("ganjifa", f"R{suit}")
        assert 'href="#turban"' in art.face("ganjifa", f"M{suit}")
    assert len(fills) == 10


def test_an_unknown_card_is_a_problem(client):
    r = client.get("/v1/games/durak/cards/5S.svg")  # D1: no five in the Atlas deck
    assert r.status_code == 404 and r.headers["Content-Type"] == "application/problem+json"
    assert r.json["type"] == "/problems/unknown-card"
    assert client.get("/v1/games/chess/cards/QS.svg").status_code == 404


def test_a_card_picture_is_the_same_bytes_every_time(client):
    assert client.get("/v1/games/tarot/cards/T1.svg").data == \
        client.get("/v1/games/tarot/cards/T1.svg").data
