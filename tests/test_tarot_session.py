"""A Tarot evening over a real gunicorn: `POST /v1/games/tarot/session` settles every deal as
`/settlement` does, keeps the running totals, passes the deal round (T2, T18), counts each
player's figures, names a bad deal by its index, and answers a CSV file on request."""

from __future__ import annotations

import csv
import io
import random
import re
import unicodedata

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract.examples import EVENING

SESSION = "/v1/games/tarot/session"
SETTLEMENT = "/v1/games/tarot/settlement"


def random_sheet(rng: random.Random, players: int) -> dict:
    """A plain sheet any deal of the count can give: a made or failed contract with the
    bouts and points well inside what every count allows, and now and then a bonus."""
    bouts = rng.randrange(4)
    sheet = {"contract": rng.choice(["prise", "garde", "garde_sans", "garde_contre"]),
             "taker": rng.randrange(players), "bouts": bouts,
             # Whole points: with four players a half point needs the Excuse (T12).
             "points": rng.randrange(10 + 5 * bouts, 65)}
    if players == 5:
        sheet["partner"] = rng.choice([None, rng.randrange(players)])
    if rng.random() < 0.2:
        sheet["poignees"] = [{"camp": rng.choice(["taker", "defense"]), "level": "simple"}]
    if rng.random() < 0.2 and bouts >= 1:
        sheet["petit_au_bout"] = "taker"
    return sheet


@pytest.fixture(scope="module")
def evening():
    with requests.Session() as session:
        yield session


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_session_is_its_deals_settled_one_by_one(evening, server, players):
    """Each deal's settlement is exactly /settlement's answer for its sheet; the totals run
    on; an annulled deal scores 0 for all and passes the deal on."""
    rng = random.Random(players)
    names = [f"Player {i}" for i in range(players)]
    deals: list[dict] = [random_sheet(rng, players) for _ in range(12)]
    deals.insert(3, {"annulled": "all_pass"})
    deals.insert(7, {"annulled": "petit_sec"})
    r = evening.post(server + SESSION, json={"players": names, "deals": deals, "dealer": 1})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["players"] == names and len(answer["deals"]) == len(deals)
    totals = [0] * players
    for i, (sheet, deal) in enumerate(zip(deals, answer["deals"], strict=True)):
        if "annulled" in sheet:
            expected = {"players": players, "annulled": sheet["annulled"],
                        "scores": [0] * players}
        else:
            expected = evening.post(server + SETTLEMENT, json={**sheet, "players": players}).json()
        assert deal["settlement"] == expected
        totals = [t + d for t, d in zip(totals, expected["scores"], strict=True)]
        assert deal["totals"] == totals and sum(totals) == 0
        # T2, T18: the deal passes counter-clockwise, to the seat after the dealer.
        assert deal["dealer"] == (1 + i) % players
    assert answer["totals"] == totals
    assert answer["next_dealer"] == (1 + len(deals)) % players
    assert [row["score"] for row in answer["statistics"]] == totals


def test_T2_the_deal_passes_to_the_dealers_right(evening, server):
    """T2: play starts at the dealer's right, seat (d + 1) % players, and the deal goes the
    same way round; an empty session's next dealer is its first."""
    for players in (3, 4, 5):
        names = [str(i) for i in range(players)]
        for dealer in range(players):
            body = {"players": names, "deals": [{"annulled": "all_pass"}] * 2,
                    "dealer": dealer}
            answer = evening.post(server + SESSION, json=body).json()
            assert [d["dealer"] for d in answer["deals"]] == [dealer, (dealer + 1) % players]
            assert answer["next_dealer"] == (dealer + 2) % players
            empty = evening.post(server + SESSION, json={"players": names, "dealer": dealer,
                                                   "deals": []}).json()
            assert empty["next_dealer"] == dealer and empty["totals"] == [0] * players


def test_statistics_count_what_each_player_did(evening, server):
    names = ["Anne", "Bruno", "Chloé", "Dmytro", "Eun"]
    deals = [
        # Anne takes a garde with Chloé, made; the Petit au bout and a poignée for them.
        {"contract": "garde", "taker": 0, "partner": 2, "bouts": 2, "points": 50,
         "petit_au_bout": "taker", "poignees": [{"camp": "taker", "level": "simple"}]},
        # Anne again, a prise alone, failed; the defence shows two poignées.
        {"contract": "prise", "taker": 0, "partner": 0, "bouts": 1, "points": 40,
         "poignees": [{"camp": "defense", "level": "simple"},
                      {"camp": "defense", "level": "simple"}]},
        {"annulled": "all_pass"},
        # Eun's garde sans with Bruno, a chelem announced and made.
        {"contract": "garde_sans", "taker": 4, "partner": 1, "bouts": 3, "points": 91,
         "chelem": {"announced": True, "made_by": "taker"}},
    ]
    r = evening.post(server + SESSION, json={"players": names, "deals": deals})
    assert r.status_code == 200, r.text
    stats = {row["player"]: row for row in r.json()["statistics"]}
    assert [row["player"] for row in r.json()["statistics"]] == names
    anne = stats["Anne"]
    assert (anne["taken"], anne["made"], anne["failed"]) == (2, 1, 1)
    assert anne["contracts"]["garde"] == {"taken": 1, "made": 1, "failed": 0}
    assert anne["contracts"]["prise"] == {"taken": 1, "made": 0, "failed": 1}
    assert anne["contracts"]["garde_sans"] == {"taken": 0, "made": 0, "failed": 0}
    assert anne["mean_points_as_taker"] == 45
    assert (anne["petits_au_bout"], anne["poignees"], anne["chelems"]) == (1, 1, 0)
    chloe = stats["Chloé"]  # a partner takes nothing, but shares the camp's bonuses
    assert (chloe["taken"], chloe["mean_points_as_taker"]) == (0, None)
    assert (chloe["petits_au_bout"], chloe["poignees"], chloe["chelems"]) == (1, 3, 0)
    eun = stats["Eun"]
    assert eun["contracts"]["garde_sans"] == {"taken": 1, "made": 1, "failed": 0}
    assert (eun["mean_points_as_taker"], eun["chelems"], stats["Bruno"]["chelems"]) == (91, 1, 1)
    assert stats["Dmytro"]["poignees"] == 2 and stats["Dmytro"]["chelems"] == 0


def test_T8_each_player_counts_the_poignees_they_showed(evening, server):
    """The camp's poignées credit every player of it (`poignees`); a player's own are those
    the sheet names their seat for, or a taker's alone (`poignees_shown`)."""
    names = ["Anne", "Bruno", "Chloé", "Dmytro", "Eun"]
    deals = [
        {"contract": "garde", "taker": 0, "partner": 2, "bouts": 2, "points": 50, "poignees": [
            {"camp": "taker", "level": "simple", "seat": 2},
            {"camp": "defense", "level": "simple", "seat": 4}]},
        {"contract": "garde", "taker": 1, "partner": 1, "bouts": 2, "points": 50,
         "poignees": [{"camp": "taker", "level": "simple"}]},  # Bruno alone: his own
        {"contract": "garde", "taker": 3, "partner": 0, "bouts": 2, "points": 50,
         "poignees": [{"camp": "defense", "level": "simple"}]},  # a defender: not known
    ]
    r = evening.post(server + SESSION, json={"players": names, "deals": deals})
    assert r.status_code == 200, r.text
    stats = r.json()["statistics"]
    assert [row["poignees_shown"] for row in stats] == [0, 1, 1, 0, 1]
    assert [row["poignees"] for row in stats] == [1, 3, 2, 1, 2]
    settled = r.json()["deals"][0]["settlement"]["poignees"]
    assert [(p["declared_by"], p["seat"]) for p in settled] == [("taker", 2), ("defense", 4)]


@pytest.mark.parametrize("body, field", [
    ({"players": ["a", "b"], "deals": []}, "players"),
    ({"players": ["a", "b", "c", "d", "e", "f"], "deals": []}, "players"),
    ({"players": ["a", "a", "b"], "deals": []}, "players.1"),
    # A name that reads as an earlier one, whatever its case, width, spacing, look-alike
    # letters or digits' script, and a name holding a control or direction character.
    ({"players": ["Ana", "b", "ana "], "deals": []}, "players.2"),
    ({"players": ["Ana", "\uff21\uff4e\uff41", "b"], "deals": []}, "players.1"),
    ({"players": ["Ana", "\u0410n\u0430", "b"], "deals": []}, "players.1"),
    ({"players": ["\u0639\u0644\u06cc", "\u0639\u0644\u064a", "b"], "deals": []}, "players.1"),
    ({"players": ["Player 1", "Player \u06f1", "b"], "deals": []}, "players.1"),
    ({"players": ["Ana", "A\u200bna", "b"], "deals": []}, "players.1"),
    ({"players": ["a", "b\x00", "c"], "deals": []}, "players.1"),
    ({"players": ["a", "b", "c\r\nd"], "deals": []}, "players.2"),
    ({"players": ["a", "b\n", "c"], "deals": []}, "players.1"),
    ({"players": ["\u202eana", "b", "c"], "deals": []}, "players.0"),
    ({"players": ["a", "b\u2066c\u2069", "d"], "deals": []}, "players.1"),
    ({"players": ["a", "b\u200fc", "d"], "deals": []}, "players.1"),
    ({"players": ["a", "b\u2028c", "d"], "deals": []}, "players.1"),
    ({"players": ["a", "b", "c"], "deals": [
        {"contract": "garde", "bouts": 2, "points": 41,
         "poignees": [{"camp": "taker", "level": "simple", "seat": 1}]}]},
     "deals.0.poignees.0.seat"),
    ({"players": ["a", "b", "c", "d", "e"], "deals": [
        {"contract": "garde", "bouts": 2, "points": 45, "partner": 3, "poignees": [
            {"camp": "taker", "level": "simple", "seat": 3},
            {"camp": "defense", "level": "simple", "seat": 3}]}]}, "deals.0.poignees.1.seat"),
    ({"players": ["a", "b", "c", "d"], "deals": [
        {"contract": "garde", "bouts": 2, "points": 41, "poignees": [
            {"camp": "defense", "level": "simple", "seat": 2},
            {"camp": "defense", "level": "simple", "seat": 2}]}]}, "deals.0.poignees.1.seat"),
    ({"players": ["a", "b", "c", "d"], "deals": [
        {"contract": "garde", "bouts": 2, "points": 41, "poignees": [
            {"camp": "defense", "level": "simple", "seat": 4}]}]}, "deals.0.poignees.0.seat"),
    ({"players": ["a", "", "b"], "deals": []}, "players.1"),
    ({"players": ["a", "b", "x" * 41], "deals": []}, "players.2"),
    ({"players": ["a", "b", 3], "deals": []}, "players.2"),
    ({"players": ["a", "b", "c"]}, "deals"),
    ({"players": ["a", "b", "c"], "deals": [], "dealer": 3}, "dealer"),
    ({"players": ["a", "b", "c"], "deals": [{"annulled": "all_pass"}] * 501}, "deals"),
    ({"players": ["a", "b", "c"], "deals": [{"annulled": "misdeal"}]}, "deals.0.annulled"),
    ({"players": ["a", "b", "c"], "deals": [{"annulled": "all_pass", "taker": 1}]},
     "deals.0.taker"),
    ({"players": ["a", "b", "c"], "deals": [{"annulled": "all_pass", "players": 4}]},
     "deals.0.players"),
    ({"players": ["a", "b", "c"], "deals": [
        {"annulled": "all_pass"}, {"contract": "garde", "bouts": 2, "points": 41},
        {"contract": "garde", "bouts": 2, "points": 41, "taker": 3}]}, "deals.2.taker"),
    ({"players": ["a", "b", "c", "d"], "deals": [
        {"contract": "garde", "bouts": 2, "points": 41, "players": 3}]}, "deals.0.players"),
    ({"players": ["a", "b", "c", "d", "e"], "deals": [
        {"contract": "garde", "bouts": 2, "points": 41}]}, "deals.0.partner"),
    ({"players": ["a", "b", "c", "d"], "deals": [
        {"contract": "garde", "bouts": 2, "points": 41, "partner": 1}]}, "deals.0.partner"),
    ({"players": ["a", "b", "c", "d"], "deals": [
        {"annulled": "all_pass"}, {"contract": "garde", "bouts": 2, "points": 91.5}]},
     "deals.1.points"),
    ({"players": ["a", "b", "c", "d"], "deals": ["garde"]}, "deals.0"),
])
def test_a_bad_session_is_a_422_naming_the_field(evening, server, body, field):
    r = evening.post(server + SESSION, json=body)
    assert r.status_code == 422 and r.headers["Content-Type"] == "application/problem+json"
    assert field in [e["field"] for e in r.json()["errors"]], r.json()


def csv_rows(answer: requests.Response, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig")),
                           delimiter=delimiter))


def test_csv_export_is_the_same_session(evening, server):
    body = {**EVENING, "players": ["=SUM(A1)", *EVENING["players"][1:]]}
    as_json = evening.post(server + SESSION, json=body).json()
    r = evening.post(server + SESSION, json=body, headers={"Accept": "text/csv"})
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("text/csv")
    assert r.headers["Content-Disposition"].startswith("attachment")
    assert "Accept" in r.headers["Vary"] and "Accept-Language" in r.headers["Vary"]
    assert not r.content.startswith(b"\xef\xbb\xbf")  # plain UTF-8 for programs
    rows = csv_rows(r)
    names = as_json["players"]
    n = len(names)
    header = rows[0]
    assert header[:12] == ["deal", "dealer", "taker", "partner", "contract", "bouts",
                           "points", "made", "petit_au_bout", "poignees", "chelem",
                           "chelem_announced"]
    # A name is never a formula in a spreadsheet.
    assert header[12] == "score =SUM(A1)" and rows[2][1] == "'=SUM(A1)"
    assert len(rows) == 1 + len(as_json["deals"])
    for i, (row, deal) in enumerate(zip(rows[1:], as_json["deals"], strict=True)):
        settlement = deal["settlement"]
        assert row[0] == str(i + 1)  # deals numbered as people number them
        assert row[12:12 + n] == [str(v) for v in settlement["scores"]]
        assert row[12 + n:12 + 2 * n] == [str(v) for v in deal["totals"]]
        if "annulled" in settlement:
            assert row[2:12] == [""] * 10 and row[-1] == settlement["annulled"]
        else:
            taker = names[settlement["taker"]]
            assert row[2] == ("'" + taker if taker.startswith("=") else taker)
            assert (row[4], row[5]) == (settlement["contract"], str(settlement["bouts"]))
            assert float(row[6]) == settlement["points"]
            assert row[7] == str(settlement["made"]).lower() and row[-1] == ""
            petit = settlement["petit_au_bout"]
            assert row[8] == (petit["camp"] if petit else "")
    # The bonuses of EVENING: a poignée of the taker's camp, petits au bout each way.
    assert [row[8:10] for row in rows[1:]] == [["", "simple (Bruno)"], ["", ""],
                                               ["defense", ""], ["taker", ""]]
    # JSON stays the default, and what a browser sends gets JSON too.
    for accept in ("*/*", "application/json", "text/html,*/*;q=0.8"):
        got = evening.post(server + SESSION, json=body, headers={"Accept": accept})
        assert got.headers["Content-Type"] == "application/json" and got.json() == as_json


CHELEM_EVENING = {"players": ["Anne", "Bruno", "Chloé", "Dmytro", "Eun"], "deals": [
    {"contract": "garde_sans", "taker": 4, "partner": 1, "bouts": 3, "points": 91,
     "chelem": {"announced": True, "made_by": "taker"},
     "poignees": [{"camp": "taker", "level": "double", "seat": 1},
                  {"camp": "defense", "level": "simple"}]},
    {"contract": "garde", "taker": 0, "partner": 0, "bouts": 2, "points": 40.5,
     "petit_au_bout": "taker"}]}


def test_csv_columns_say_the_chelem_and_who_showed_each_poignee(evening, server):
    rows = csv_rows(evening.post(server + SESSION, json=CHELEM_EVENING,
                                 headers={"Accept": "text/csv"}))
    assert [row[:12] for row in rows[1:]] == [
        ["1", "Anne", "Eun", "Bruno", "garde_sans", "3", "91", "true", "",
         "double (Bruno) + simple (defense)", "taker", "true"],
        ["2", "Bruno", "Anne", "", "garde", "2", "40.5", "false", "taker", "", "", ""]]


@pytest.mark.parametrize(("query", "language", "dialect"), [
    ("?dialect=semicolon", "en", ";"), ("", "fr-FR,fr;q=0.9", ";"), ("", "ru", ";"),
    ("", "hu-HU,hu;q=0.9", ";"), ("", "uk", ";"), ("?dialect=comma", "fr", ","),
    ("?dialect=comma", "hu", ","), ("", "en-GB", ","), ("", "fa", ",")])
def test_csv_for_a_french_spreadsheet_by_parameter_or_language(evening, server, query, language,
                                                               dialect):
    """`;` between cells, 40,5 and a byte order mark: what a French (Hungarian, Ukrainian…)
    spreadsheet opens as it is; chosen by `dialect`, else by `Accept-Language`."""
    r = evening.post(server + SESSION + query, json=CHELEM_EVENING,
               headers={"Accept": "text/csv", "Accept-Language": language})
    assert r.status_code == 200, r.text
    assert r.content.startswith(b"\xef\xbb\xbf") == (dialect == ";")
    rows = csv_rows(r, dialect)
    assert rows[0][:3] == ["deal", "dealer", "taker"] and rows[1][9] == \
        "double (Bruno) + simple (defense)"
    assert rows[2][6] == ("40,5" if dialect == ";" else "40.5")
    assert all(len(row) == 12 + 2 * 5 + 1 for row in rows)


def test_an_unknown_csv_dialect_is_a_400_naming_it(evening, server):
    r = evening.post(server + SESSION + "?dialect=tab", json=EVENING,
                     headers={"Accept": "text/csv"})
    assert r.status_code == 400 and r.headers["Content-Type"] == "application/problem+json"
    assert [e["field"] for e in r.json()["errors"]] == ["dialect"]


TRIGGERS = "=+-@\t\r"
NUMBER = re.compile(r"^-?\d+([.,]\d+)?$")


def formulas(text: str) -> list[str]:
    """Every cell a spreadsheet would read as a formula in the file, read with each
    separator it might guess, with quotes heeded or not: a cell that starts, after spaces
    and quotes, with a formula's first character, and is not a number of ours."""
    found = []
    for delimiter in ",;\t|":
        lines = text.replace("\r\n", "\n").split("\n")
        cells = [cell for line in lines for cell in line.split(delimiter)]
        cells += [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter)
                  for cell in row]
        found += [cell for cell in cells if cell.lstrip(' "')[:1] in TRIGGERS
                  and cell.lstrip(' "')[:1] and not NUMBER.match(cell.strip('"'))]
    return found


@pytest.mark.parametrize("name", ["x;=1+1", "\uff1d1+1", "x,@SUM(1)", "a|+1",
                                  'a,"=1', "x; =1", "=cmd|' /C calc'!A0", "\ufe66HYPERLINK(1)"])
@pytest.mark.parametrize("dialect", ["comma", "semicolon"])
def test_no_name_is_a_formula_whatever_the_separator(evening, server, name, dialect):
    """Issue 40: `x;=1+1` is a formula in its second cell to a spreadsheet that reads the
    file with `;`; a full-width `＝` is `=` to it; a name written in any cell, the header's
    included, is read as text whatever separator the file is opened with."""
    body = {"players": [name, "Bo", "Cy"], "dealer": 0, "deals": [
        {"contract": "garde", "taker": 0, "bouts": 2, "points": 50}]}
    r = evening.post(f"{server}{SESSION}?dialect={dialect}", json=body,
               headers={"Accept": "text/csv"})
    assert r.status_code == 200, r.text
    written = r.content.decode("utf-8-sig")
    assert formulas(written) == [], written
    # Read with its own separator, each name is itself, the apostrophes aside.
    rows = csv_rows(r, ";" if dialect == "semicolon" else ",")
    shown = rows[1][1]
    assert shown.replace("'", "") == unicodedata.normalize("NFKC", name).replace("'", "")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(alphabet="=+-@;,|\" 'aZ\uff1d\uff0b\t", min_size=1, max_size=12))
def test_no_name_of_formula_characters_is_a_formula(evening, server, name):
    body = {"players": [name, "Bo", "Cy"], "deals": [
        {"contract": "prise", "taker": 0, "bouts": 1, "points": 60}]}
    for dialect in ("comma", "semicolon"):
        r = evening.post(f"{server}{SESSION}?dialect={dialect}", json=body,
                   headers={"Accept": "text/csv"})
        if r.status_code == 422:  # a name of spaces, a tab: refused, never written
            assert not name.strip() or "\t" in name, r.text
            continue
        assert formulas(r.content.decode("utf-8-sig")) == [], (name, r.text)


def test_a_session_file_of_five_hundred_deals(evening, server):
    rng = random.Random(500)
    deals = [random_sheet(rng, 5) for _ in range(500)]
    body = {"players": ["a", "b", "c", "d", "e"], "deals": deals, "dealer": 4}
    r = evening.post(server + SESSION, json=body)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert len(answer["deals"]) == 500 and sum(answer["totals"]) == 0
    assert answer["next_dealer"] == (4 + 500) % 5
