"""The pictures: each card's SVG (`GET /v1/games/{game}/cards/{code}.svg`) and the table's
(`POST /v1/games/{game}/render`): well-formed, self-contained, the same bytes every time,
and showing exactly the cards the seat may see, the hidden ones face down with their
counts (API.md, "A View")."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from render import cards as pictures
from render import ganjifa
from rules.registry import GAMES
from rules.texts import catalogue
from tests.test_render import STATES, render, state

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


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_card_has_a_well_formed_picture(client, game):
    for code in GAMES[game].game.deck.codes:
        r = client.get(f"/v1/games/{game}/cards/{code}.svg")
        assert r.status_code == 200 and r.headers["Content-Type"] == "image/svg+xml"
        root = parse(r.data)
        assert root.get("data-card") == code
        assert r.headers["Cache-Control"] == "public, max-age=86400"
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


def corners(client, code: str, query: str = "") -> list[str]:
    r = client.get(f"/v1/games/durak/cards/{code}.svg{query}")
    assert r.status_code == 200
    return [t.text for t in parse(r.data).iter(f"{SVG}text")]


@pytest.mark.parametrize(("indices", "letters"), [
    ("russian", {"JS": "В", "QH": "Д", "KD": "К", "AC": "Т"}),
    ("english", {"JS": "J", "QH": "Q", "KD": "K", "AC": "A"}),
    ("french", {"JS": "V", "QH": "D", "KD": "R", "AC": "A"}),
])
def test_durak_corners_in_the_readers_convention(client, indices, letters):
    """A reader chooses the letters their own cards print on the courts and aces: Latin in
    English, French ones (roi, dame, valet) in French, D1's Cyrillic in Russian; the pips
    are numbered alike, and GameInfo lists each convention as the pictures draw it."""
    for code, letter in letters.items():
        assert corners(client, code, f"?indices={indices}").count(letter) == 2, (code, indices)
    assert corners(client, "10S", f"?indices={indices}").count("10") == 2
    listed = client.get("/v1/games/durak").json["indices"][indices]
    assert {code: listed[code[:-1]] for code in letters} == letters


def test_a_convention_of_indices_the_game_has_not_is_refused_naming_it(client):
    for path in ("/v1/games/durak/cards/QS.svg?indices=german",
                 "/v1/games/tarot/cards/KS.svg?indices=english"):
        r = client.get(path)
        assert r.status_code == 422 and r.content_type == "application/problem+json"
        assert [e["field"] for e in r.json["errors"]] == ["indices"]
    r = client.post("/v1/games/tarot/render", json={"state": state("tarot-play"),
                                                    "indices": "english"})
    assert r.status_code == 422 and [e["field"] for e in r.json["errors"]] == ["indices"]


def test_a_durak_table_is_drawn_and_written_in_the_readers_convention(client):
    st = state("durak-bout")
    hand = st["hands"][0]
    for indices, letters in (("russian", "ВДКТ"), ("french", "VDRA")):
        body = {"state": st, "seat": 0, "indices": indices}
        text = client.post("/v1/games/durak/render", json={**body, "format": "text"},
                           headers={"Accept-Language": "ru"}).get_data(as_text=True)
        picture = client.post("/v1/games/durak/render", json={**body, "format": "svg"}).data
        info = client.get("/v1/games/durak").json
        for code in hand:
            card = next(c for c in info["cards"] if c["code"] == code)
            index = info["indices"][indices].get(card["rank"], card["rank"])
            mark = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card["suit"]]
            assert f"{index}{mark}" in text, (code, text)
            assert code not in text.split()
        drawn = [t.text for t in parse(picture).iter(f"{SVG}text")]
        assert any(letter in drawn for letter in letters)
    plain = client.post("/v1/games/durak/render", json={"state": st, "seat": 0,
                                                        "format": "text"}).get_data(as_text=True)
    assert all(code in plain for code in hand)  # by code, as a player types them


def test_T1_tarot_trumps_are_numbered_and_the_excuse_starred(client):
    texts = [t.text for t in parse(client.get("/v1/games/tarot/cards/T17.svg").data)
             .iter(f"{SVG}text")]
    assert texts.count("17") == 3  # both ends and the middle
    texts = [t.text for t in parse(client.get("/v1/games/tarot/cards/EX.svg").data)
             .iter(f"{SVG}text")]
    assert texts.count("★") == 2


def test_G1_ganjifa_suits_have_their_own_colour_and_emblem():
    fills = set()
    for suit in ganjifa.EMBLEMS:
        face = pictures.face("ganjifa", f"5{suit}")
        assert face.count(f'href="#em-{suit}"') == 5  # five pips of the suit's emblem
        fills.add(face.split('fill="', 1)[1].split('"', 1)[0])
        assert 'href="#crown"' in pictures.face("ganjifa", f"R{suit}")
        assert 'href="#turban"' in pictures.face("ganjifa", f"M{suit}")
    assert len(fills) == 10


def test_an_unknown_card_is_a_problem(client):
    r = client.get("/v1/games/durak/cards/1S.svg")  # D16: no ace is written 1
    assert r.status_code == 404 and r.headers["Content-Type"] == "application/problem+json"
    assert r.json["type"] == "/problems/unknown-card"
    assert client.get("/v1/games/chess/cards/QS.svg").status_code == 404


def test_a_card_picture_is_the_same_bytes_every_time(client):
    assert client.get("/v1/games/tarot/cards/T1.svg").data == \
        client.get("/v1/games/tarot/cards/T1.svg").data


# -- the table ------------------------------------------------------------------------------


def shown_cards(view: dict) -> Counter:
    """The cards a picture of `view` draws face up: the hands, the bout or trick, Durak's
    turned-up card (D2) or shown trump card (D17), Tarot's chien, écart and poignées where
    they are shown (T5, T6, T8), a pending Dukal and its discards (G8); "?" is not a
    card."""
    cards = [c for hand in view["hands"] for c in hand] + SHOWN[view["game"]](view)
    return Counter(c for c in cards if c != "?")


def durak_shown(view: dict) -> list[str]:
    cards = [c for p in view["table"] for c in (p["attack"], p["defense"]) if c]
    cards += view["stock"][-1:]
    return cards + ([view["trump_card"]] if "trump_card" in view else [])  # D17: shown to all


def tarot_shown(view: dict) -> list[str]:
    cards = [p["card"] for p in view["trick"]] + view["chien"] + view["ecart"]
    cards += [c for p in view["poignees"] for c in p["cards"]]
    return cards + (view["chien_shown"] if view["phase"] == "discard" else [])


def ganjifa_shown(view: dict) -> list[str]:
    cards = [p["card"] for p in view["trick"]]
    if view["dukal"] is not None:
        cards += view["dukal"]["cards"]
        cards += [c for d in view["dukal"]["discards"] for c in d["cards"]]
    return cards


# Each game's cards shown face up beside the hands.
SHOWN = {"durak": durak_shown, "tarot": tarot_shown, "ganjifa": ganjifa_shown}


def face_down_counts(view: dict) -> dict[str, int]:
    """The face-down piles of a picture of `view`: every hidden card where it is, and
    Durak's stock under its turned-up card (drawn as a count even face up)."""
    out = {f"hands.{s}": hand.count("?") for s, hand in enumerate(view["hands"])}
    if view["game"] == "durak":
        out["stock"] = max(0, len(view["stock"]) - 1)
    if view["game"] == "tarot":
        out["chien"] = view["chien"].count("?")
        out["ecart"] = view["ecart"].count("?")
    return {place: n for place, n in out.items() if n}


def drawn(root: ET.Element) -> tuple[Counter, dict[str, int]]:
    cards = Counter(e.get("data-card") for e in root.iter(f"{SVG}g")
                    if e.get("data-card") is not None)
    piles: Counter = Counter()
    for e in root.iter(f"{SVG}g"):
        if e.get("data-place") is not None:
            piles[e.get("data-place")] += int(e.get("data-count"))
    return cards, dict(piles)


@pytest.mark.parametrize("name", STATES)
def test_the_picture_shows_exactly_what_the_seat_may_see(client, name):
    st = state(name)
    for seat in (None, *range(len(st["hands"]))):
        view = st if seat is None else client.post(
            f"/v1/games/{st['game']}/view", json={"state": st, "seat": seat}).json["view"]
        r = render(client, name, seat, "svg")
        assert r.status_code == 200 and r.headers["Content-Type"] == "image/svg+xml"
        assert self_contained(r.data)
        cards, piles = drawn(parse(r.data))
        assert cards == shown_cards(view), seat
        assert piles == face_down_counts(view), seat


@pytest.mark.parametrize(("players", "cards"), [(3, 52), (4, 24), (5, 36), (6, 36)])
def test_D17_D21_no_seat_sees_a_hidden_card_of_a_multiplayer_deal(client, players, cards):
    """Seeded deals of 3 to 6 with passing on and known cards, taken every 30 moves of the
    first 120 (and at the end, if sooner): each seat's picture and text show exactly its
    View's cards (the known ones and the shown trump card face up), never a card hidden
    from it."""
    st = client.post("/v1/games/durak/deal", json={
        "seed": players, "players": players, "cards": cards, "transfer": True,
        "known": True}).json["state"]
    for step in range(121):
        if step % 30 == 0 or st["phase"] == "over":
            for seat in range(players):
                view = client.post("/v1/games/durak/view",
                                   json={"state": st, "seat": seat}).json["view"]
                body = {"state": st, "seat": seat}
                drawn_cards, piles = drawn(parse(client.post("/v1/games/durak/render",
                                                             json=body).data))
                assert drawn_cards == shown_cards(view), (step, seat)
                assert piles == face_down_counts(view), (step, seat)
                hidden = {c for s, hand in enumerate(st["hands"]) if s != seat
                          for c in hand} - set(shown_cards(view))
                text = client.post("/v1/games/durak/render",
                                   json={**body, "format": "text"}).get_data(as_text=True)
                assert not hidden & set(text.replace("/", " ").split()), (step, seat)
        if st["phase"] == "over":
            return
        move = client.post("/v1/games/durak/ai-move", json={
            "state": st, "seat": st["to_act"], "level": "random", "seed": step}).json["move"]
        st = client.post("/v1/games/durak/move", json={"state": st, "move": move}).json["state"]


def test_svg_is_the_default_format(client):
    st = state("durak-bout")
    r = client.post("/v1/games/durak/render", json={"state": st})
    assert r.headers["Content-Type"] == "image/svg+xml"
    assert r.data == render(client, "durak-bout", None, "svg").data


def test_the_same_state_gives_the_same_picture(client):
    for name in STATES:
        assert render(client, name, 1, "svg").data == render(client, name, 1, "svg").data


def test_picture_labels_follow_accept_language(client):
    r = render(client, "tarot-play", 0, "svg", lang="hu")
    assert r.headers["Content-Language"] == "hu"
    root = parse(r.data)
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "1. hely" in texts and "Seat" not in texts
    assert root.find(f"{SVG}title").text.startswith("Francia tarot")


def test_the_picture_marks_whose_turn_it_is(client):
    texts = [t.text for t in parse(render(client, "durak-bout", 0, "svg").data)
             .iter(f"{SVG}text")]
    assert any(t.startswith("▶ Seat 1") for t in texts)  # D7: the defender is to act
    over = [t.text for t in parse(render(client, "durak-over", 0, "svg").data)
            .iter(f"{SVG}text")]
    assert not any(t.startswith("▶") for t in over)
    assert "Seat 0 is the durak" in over  # D14


@pytest.mark.http
def test_pictures_over_gunicorn(server):
    import requests

    st = state("ganjifa-dukal")
    r = requests.post(f"{server}/v1/games/ganjifa/render", json={"state": st, "seat": 2},
                      timeout=10)
    assert r.status_code == 200 and r.headers["Content-Type"] == "image/svg+xml"
    view = requests.post(f"{server}/v1/games/ganjifa/view", json={"state": st, "seat": 2},
                         timeout=10).json()["view"]
    assert drawn(parse(r.content)) == (shown_cards(view), face_down_counts(view))
    r = requests.get(f"{server}/v1/games/ganjifa/cards/RRAM.svg", timeout=10)
    assert r.status_code == 200 and parse(r.content).get("data-card") == "RRAM"


@pytest.mark.parametrize("name", STATES)
def test_piles_out_of_play_are_drawn_as_their_counts(client, name):
    """Durak's discard (D11), Tarot's tricks won (T10), Ganjifa's captured cards (G7)."""
    st = state(name)
    root = parse(render(client, name, 0, "svg").data)
    piles = {e.get("data-pile"): int(e.get("data-count")) for e in root.iter(f"{SVG}g")
             if e.get("data-pile") is not None}
    if st["game"] == "durak":
        expected = {"discard": len(st["discard"])}
    elif st["game"] == "tarot":
        expected = {f"won.{s}": sum(t["winner"] == s for t in st["tricks"])
                    for s in range(len(st["hands"]))}
    else:
        expected = {f"won.{s}": len(c) for s, c in enumerate(st["captured"])}
    assert piles == expected


def test_persian_labels_are_laid_out_right_to_left(client):
    persian = parse(render(client, "ganjifa-dukal", 0, "svg", lang="fa").data)
    labels = [t for t in persian.iter(f"{SVG}text") if "صندلی" in (t.text or "")]
    assert labels and all(t.get("direction") == "rtl" for t in labels)
    english = parse(render(client, "ganjifa-dukal", 0, "svg").data)
    assert not [t for t in english.iter(f"{SVG}text") if t.get("direction")]


def _mirrored(root: ET.Element) -> ET.Element | None:
    return next((g for g in root.iter(f"{SVG}g") if g.get("class") == "mirrored"), None)


@pytest.mark.parametrize("name", STATES)
def test_a_persian_picture_is_the_mirror_of_the_table_its_faces_upright(client, name):
    """Right to left, the whole table is mirrored (the first seat's title and cards start at
    the right), and every label and card inside is turned back about itself, so that each
    reads and shows its face as it is: the same cards, in mirrored places."""
    persian = parse(render(client, name, 0, "svg", lang="fa").data)
    mirror = _mirrored(persian)
    assert mirror is not None and mirror.get("transform") == "matrix(-1 0 0 1 1200 0)"
    assert _mirrored(parse(render(client, name, 0, "svg").data)) is None
    parents = {child: parent for parent in persian.iter() for child in parent}

    def reflections(node: ET.Element | None) -> int:
        """How many mirrorings lie on the way down to `node`, itself included."""
        count = 0
        while node is not None:
            count += (node.get("transform") or "").startswith("matrix(-1 0 0 1 ")
            node = parents.get(node)
        return count

    texts = list(persian.iter(f"{SVG}text"))
    faces = [g for g in persian.iter(f"{SVG}g") if g.get("class") in ("card", "back")]
    assert texts and faces
    # Turned twice, the mirror's and its own: upright. A label reads right to left.
    assert all(reflections(node) == 2 for node in texts + faces)
    assert all(t.get("direction") == "rtl" for t in texts if parents[t].get("class") not in
               ("card", "back") and reflections(parents[t]) == 1)
    cards = Counter(g.get("data-card") for g in persian.iter(f"{SVG}g") if g.get("data-card"))
    english = parse(render(client, name, 0, "svg").data)
    assert cards == Counter(g.get("data-card") for g in english.iter(f"{SVG}g")
                            if g.get("data-card"))


def test_persian_numbers_are_written_in_persian_digits(client):
    persian = render(client, "tarot-over", 0, "svg", lang="fa").get_data(as_text=True)
    text = render(client, "tarot-over", 0, "text", lang="fa").get_data(as_text=True)
    for drawn in (persian, text):
        assert "صندلی ۰" in drawn and "صندلی ۳" in drawn
        assert "صندلی 0" not in drawn and "صندلی 3" not in drawn
    english = render(client, "tarot-over", 0, "text").get_data(as_text=True)
    assert "Seat 0" in english and "۰" not in english


@pytest.mark.parametrize("lang", ["en", "hi", "hu", "fa", "uk", "fr", "ru"])
def test_a_pass_is_the_tables_word_in_every_picture(client, lang):
    """One word list: the bids a picture shows are said as the table page says them (its
    catalogue, which `cardavia` reads too), a Tarot pass as the table's, not Durak's."""
    table = catalogue(lang, "table")
    drawn = render(client, "tarot-over", None, "text", lang=lang).get_data(as_text=True)
    assert table["contract.pass"] in drawn and table["contract.garde_contre"] in drawn
    if table["durak.pass"] != table["contract.pass"]:
        assert table["durak.pass"] not in drawn
