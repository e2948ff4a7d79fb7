"""The score keeper page (/scores) in a real browser, Debian's chromium through Playwright
against a real gunicorn: Tarot evenings kept in the browser, each deal settled by the
session endpoint; several evenings with a history; deletion confirmed and undone; the
five-player partner chosen, never assumed; form errors in the page's words and language,
deals numbered from 1; each player's own poignées; a phone's width, right to left too."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
import requests

from tests.test_evening import dealer
from tests.test_table import Visitor, play_to_the_end

pytestmark = pytest.mark.http

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]
ROWS = ".deals tbody tr"
TOTALS = ".deals tfoot td strong"


class Keeper(Visitor):
    """A visitor of the score keeper page."""

    def open_scores(self, query: str = "") -> None:
        self.page.goto(f"{self.server}/scores{query}")
        self.page.wait_for_selector("body[data-ready=true]", state="attached")

    def start(self, names: list[str], dealer: int = 0) -> None:
        page = self.page
        if not page.is_visible("#score-setup-form"):
            page.click("#new-evening")
        page.select_option("#score-count", str(len(names)))
        for i, name in enumerate(names):
            page.fill(f"input[name=player-{i}]", name)
        page.select_option("#score-dealer", str(dealer))
        page.click("#score-start")
        page.wait_for_selector("#score-kind")

    def rows(self, count: int) -> list[list[str]]:
        self.page.wait_for_function(
            f"() => document.querySelectorAll({ROWS!r}).length === {count}")
        rows = self.page.locator(ROWS)
        return [rows.nth(i).locator("th, td").all_inner_texts() for i in range(count)]

    def totals(self) -> list[str]:
        return self.page.locator(TOTALS).all_inner_texts()

    def errors_shown(self) -> list[str]:
        self.page.wait_for_selector(".score-arithmetic .score-errors li")
        return self.page.locator(".score-arithmetic .score-errors li").all_inner_texts()

    def arithmetic(self, text: str) -> None:
        self.page.wait_for_function("(text) => document.querySelector('.score-arithmetic')"
                                    ".textContent.includes(text)", arg=text)

    def close(self) -> None:
        # The browser logs each refusal (422) it was sent; nothing else may go wrong.
        self.errors[:] = [e for e in self.errors if "422" not in e]
        super().close()


@pytest.fixture
def keeper(browser, server):
    visitor = Keeper(browser, server, width=1366)
    yield visitor
    visitor.close()


def test_T17_T24_an_evening_settled_edited_deleted_with_confirmation_and_undo(keeper):
    keeper.open_scores()
    page = keeper.page
    page.select_option("#score-count", "5")
    for i, name in enumerate(NAMES):
        page.fill(f"input[name=player-{i}]", name)
    # The first dealer is chosen by name, as the names are typed.
    assert page.locator("#score-dealer option").all_inner_texts() == NAMES
    page.select_option("#score-dealer", "3")
    page.click("#score-start")
    page.wait_for_selector("#score-kind")
    # T24: Bo takes a garde, 2 bouts and 45 points. The partner is nobody's guess: saved
    # as it came, the deal is refused in plain words, and stays off the sheet.
    page.select_option("#score-taker", "1")
    page.fill("#score-points", "45")
    assert page.input_value("#score-partner") == ""
    page.click("#score-save")
    errors = keeper.errors_shown()
    assert errors == ["Choose the partner: the player whose card was called, or nobody if the "
                      "taker called a card of their own."], errors
    assert page.locator(ROWS).count() == 0
    page.select_option("#score-partner", "3")  # Di called
    keeper.arithmetic("(25 + 4) × 2 = +58")
    page.click("#score-save")
    assert keeper.rows(1)[0][:3] == ["1", "Di", "Garde by Bo: made · with Di\n45 points, 2 bouts"]
    assert keeper.totals() == ["-58", "+116", "-58", "+58", "-58"]
    # Alone is a choice of its own: Ed calls his own King, a poignée of Cy's (defence).
    page.select_option("#score-taker", "4")
    page.select_option("#score-partner", "4")
    assert page.inner_text("#score-partner option:checked") == \
        "Nobody: the taker called their own card"
    page.select_option("#score-contract", "prise")
    page.select_option("#score-bouts", "1")
    page.fill("#score-points", "60")
    page.select_option("#score-petit", "taker")
    page.click("#score-poignee-add")
    page.select_option("#score-poignee-seat-0", "2")
    keeper.arithmetic("Poignée simple, declared by: Cy")
    page.click("#score-save")
    second = keeper.rows(2)[1]
    # The row says the deal's points, bouts and bonuses, and who showed the poignée.
    assert second[2] == ("Prise by Ed: made\n60 points, 1 bout · Petit au bout: Taker's camp"
                         " · Poignée simple: Cy"), second
    keeper.shot("scores-evening")
    # Edited: 35 points fail Bo's garde by 6; every total after it follows.
    page.locator(f"{ROWS} >> nth=0 >> button.edit").click()
    page.fill("#score-points", "35")
    keeper.arithmetic("(25 + 6) × 2 = -62")
    page.click("#score-save")
    page.wait_for_function(f"() => document.querySelector({ROWS!r}).textContent"
                           ".includes('failed')")
    # Deleting asks first; kept, nothing changes.
    before = keeper.totals()
    page.locator(f"{ROWS} >> nth=0 >> button.delete").click()
    assert page.inner_text(".confirm-question") == "Delete deal 1?"
    page.click("#score-keep")
    assert len(keeper.rows(2)) == 2 and keeper.totals() == before
    page.locator(f"{ROWS} >> nth=0 >> button.delete").click()
    page.click("#score-confirm-delete")
    keeper.rows(1)
    assert page.inner_text("#undo span") == "Deal 1 deleted."
    page.click("#undo-button")  # back where it was, first
    assert keeper.rows(2)[0][2].startswith("Garde by Bo: failed") and keeper.totals() == before
    # Kept in the browser across a reload, and exported as the session endpoint's body.
    page.reload()
    page.wait_for_selector(ROWS)
    assert keeper.totals() == before
    with page.expect_download() as got:
        page.click("#score-export")
    session = json.loads(Path(got.value.path()).read_text())
    assert session["players"] == NAMES and session["dealer"] == 3
    assert session["deals"][1]["poignees"] == [{"camp": "defense", "level": "simple", "seat": 2}]
    answer = requests.post(f"{keeper.server}/v1/games/tarot/session", json=session, timeout=10)
    assert [f"{t:+d}" if t else "0" for t in answer.json()["totals"]] == before
    # The statistics count a player's own poignées: Cy's, not the defence's.
    stats = page.locator(".score-statistics tbody tr")
    shown = [stats.nth(i).locator("td").nth(5).inner_text() for i in range(5)]
    assert shown == ["0", "0", "1", "0", "0"], shown
    # The CSV a French spreadsheet opens: ";", a decimal comma, a byte order mark.
    page.select_option("#score-csv-dialect", "semicolon")
    with page.expect_download() as got:
        page.click("#score-export-csv")
    raw = Path(got.value.path()).read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert [row[0] for row in rows] == ["deal", "1", "2"]
    assert rows[2][9] == "simple (Cy)" and rows[2][8] == "taker"


def test_several_evenings_kept_with_their_history_and_deleted_with_undo(keeper):
    keeper.open_scores()
    page = keeper.page
    keeper.start(["Anne", "Bruno", "Chloé", "Dmytro"])
    page.fill("#score-points", "50")
    page.click("#score-save")
    keeper.rows(1)
    keeper.start(["Xavier", "Yvonne", "Zoé"], dealer=2)
    page.select_option("#score-kind", "all_pass")
    page.click("#score-save")
    assert keeper.rows(1)[0][1] == "Zoé"
    # The history, newest first, each evening with its players and deals.
    entries = page.locator(".evenings li")
    assert entries.count() == 2
    assert entries.nth(0).locator(".evening-title").inner_text() == "Xavier · Yvonne · Zoé"
    assert entries.nth(1).locator(".evening-when").inner_text().endswith("· 1 deal")
    assert page.get_attribute(".evenings li.current a", "aria-current") == "page"
    entries.nth(1).locator("a").click()  # the earlier evening, as it was left
    page.wait_for_function("() => document.getElementById('scores-title').textContent"
                           ".startsWith('Anne')")
    assert keeper.rows(1)[0][2].startswith("Garde by Anne: made")
    assert "evening=" in page.url
    keeper.shot("scores-history")
    # Deleting an evening asks first, and can be undone.
    page.locator(".evenings li >> nth=0 >> button.delete-evening").click()
    page.click("#evening-keep")
    assert entries.count() == 2
    page.locator(".evenings li >> nth=0 >> button.delete-evening").click()
    page.click("#evening-confirm-delete")
    page.wait_for_function("() => document.querySelectorAll('.evenings li').length === 1")
    assert page.inner_text("#undo span") == "Evening deleted: Xavier · Yvonne · Zoé."
    page.click("#undo-button")
    page.wait_for_function("() => document.querySelectorAll('.evenings li').length === 2")
    page.reload()
    page.wait_for_selector(".evenings li")
    assert page.locator(".evenings li").count() == 2


def test_the_form_waits_while_a_deal_is_saved(keeper):
    """Nothing on the form changes while the service settles the deal being saved: a
    partner chosen meanwhile would be wiped by the next deal's blank form."""
    keeper.open_scores()
    keeper.start(NAMES)
    page = keeper.page
    page.select_option("#score-partner", "3")
    keeper.arithmetic("× 2")  # the settlement shown: no request of the form's in flight
    held: list = []
    page.route("**/v1/games/tarot/settlement", lambda route: held.append(route))  # held back
    page.click("#score-save")
    page.wait_for_selector(".score-form[aria-busy=true]", state="attached")
    assert page.is_disabled("#score-partner") and page.is_disabled("#score-save")
    for route in held:
        route.continue_()
    page.unroute("**/v1/games/tarot/settlement")
    keeper.rows(1)
    page.wait_for_selector(".score-form:not([aria-busy])", state="attached")
    assert page.is_enabled("#score-partner") and page.input_value("#score-partner") == ""


@pytest.mark.parametrize(("lang", "deal", "points_field", "digits"), [
    ("en", "Deal 2: No deal gives the taker's camp these card points", "card points", "2"),
    ("fa", "دور ۲: هیچ دوری با این بوها و پاداش‌ها", "امتیاز کارت‌ها", "۲"),
    ("uk", "Роздача 2: Жодна роздача не дає табору", "очки карт", "2"),
    ("fr", "Donne 2\u00a0: Aucune donne ne rapporte ces points", "points des cartes", "2"),
    ("ru", "Раздача 2: Ни одна раздача не даёт", "очки карт", "2"),
])
def test_form_errors_in_plain_words_and_the_language_deals_numbered_from_1(
        keeper, lang, deal, points_field, digits):
    keeper.open_scores()
    page = keeper.page
    page.select_option("#language", lang)
    page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
    keeper.start(["A", "B", "C", "D"])
    page.click("#score-save")  # deal 1: a garde, 2 bouts and 41 points, as it came
    keeper.rows(1)
    # Deal 2: three bouts and five points, which no deal gives (the service's 422).
    page.select_option("#score-bouts", "3")
    page.fill("#score-points", "5")
    page.click("#score-save")
    errors = keeper.errors_shown()
    assert len(errors) == 1 and errors[0].startswith(deal), errors
    # Points that are no number: the page's own words, before the service is asked.
    page.fill("#score-points", "lots")
    page.click("#score-save")
    page.wait_for_function("(w) => document.querySelector('.score-arithmetic').textContent"
                           ".includes(w)", arg=points_field)
    shown = page.inner_text(".score-arithmetic")
    for jargon in ("schema", "field", "deals.", "points:", "422"):
        assert jargon not in shown, shown
    assert page.inner_text(".score-form h3").endswith(digits)  # the form's "Deal 2"
    keeper.rows(1)
    keeper.shot(f"scores-errors-{lang}")


@pytest.mark.parametrize(("names", "said"), [
    (["Ana", "Bo", "ana"], "Player 3 has the name of player 1"),
    (["Ana", "Bo", "Ｂｏ"], "Player 3 has the name of player 2"),
    (["Ana", "Bo\u202e", "Cy"], "Player 2's name holds a hidden character"),
    (["Ana", "Bo", "\u0410n\u0430"], "Player 3 (\u0410n\u0430): this name reads like another"),
    (["Ana", "", "Cy"], "Player 2 needs a name."),
])
def test_names_that_read_alike_or_hide_a_character_are_refused_in_plain_words(
        keeper, names, said):
    keeper.open_scores()
    page = keeper.page
    page.select_option("#score-count", "3")
    for i, name in enumerate(names):
        page.fill(f"input[name=player-{i}]", name)
    page.click("#score-start")
    page.wait_for_selector("#score-setup-form .score-errors li")
    errors = page.locator("#score-setup-form .score-errors li").all_inner_texts()
    assert len(errors) == 1 and errors[0].startswith(said), errors
    assert page.locator(".evenings li").count() == 0


def test_a_deal_played_at_the_table_is_on_the_evenings_sheet(browser, server):
    visitor = Keeper(browser, server, width=1366)
    try:
        visitor.open("pace=0&seed=7")
        page = visitor.page
        assert page.get_attribute("#scores-link", "href") == "/scores"
        visitor.deal("tarot-3", level="random")
        play_to_the_end(visitor)
        scores = page.locator("#settlement .scores strong").all_inner_texts()
        page.click("#sheet-link")
        page.wait_for_selector(ROWS)
        assert page.inner_text("#scores-title") == "At the table, 3 players"
        assert visitor.totals() == scores
        assert page.locator(".deals thead th.player").all_inner_texts() == \
            ["You", "Seat 1", "Seat 2"]
        # Finished, the evening goes to the history: the next deal at the table starts
        # another, dealt by the last seat as a first deal is (T18), not by the next dealer.
        page.click("#score-finish")
        page.click("#table-link")
        visitor.settled()
        page.click("#again")
        visitor.settled()
        assert dealer(page) == "Seat 2"
        evenings = json.loads(page.evaluate("localStorage.getItem('cardavia.scores')"))
        assert [(e["table"], len(e["deals"]), bool(e.get("finished")))
                for e in evenings["evenings"]] == [(3, 1, True)]
    finally:
        visitor.close()


def test_the_sheets_kept_before_several_evenings_are_brought_in(keeper):
    old = {"players": ["X", "Y", "Z"], "dealer": 2, "deals": [{"annulled": "all_pass"}]}
    keeper.open_scores()
    keeper.page.evaluate("(s) => { localStorage.clear();"
                         " localStorage.setItem('cardavia.table.scores.own', s); }",
                         json.dumps(old))
    keeper.open_scores()
    assert keeper.rows(1)[0][1] == "Z"
    assert keeper.page.evaluate("localStorage.getItem('cardavia.table.scores.own')") is None


# What shows past the edges of a box (the rendered ones: a hidden element has no box).
OUTSIDE = """(box) => {
  const edge = document.querySelector(box).getBoundingClientRect();
  return [...document.querySelectorAll(`${box} *`)].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 1 && (r.right > edge.right + 1 || r.left < edge.left - 1);
  }).map(e => `${e.tagName}.${e.className}: ${e.textContent.slice(0, 30)}`);
}"""


# Each choice of each select of the keeper whose words, chosen, are wider than the select
# leaves them (its padding and the arrow's 16 px taken off): a text that would show cut.
CUT = """() => {
  const pen = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('.scores-room select')].filter(s => s.offsetParent)
    .flatMap(s => {
      const css = getComputedStyle(s);
      pen.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
      const room = s.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) - 16;
      return [...s.options].filter(o => pen.measureText(o.text).width > room)
        .map(o => `${s.id}: ${o.text}`);
    });
}"""


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "fa"])
@pytest.mark.parametrize("width", [390, 1366])
def test_a_phone_reads_the_sheet_without_scrolling_sideways(browser, server, lang, width):
    """390 px: each deal a card, each player's score under the player's name; the same in
    Persian, right to left. 1366 px: the table of deals. Screenshots of both to look at."""
    visitor = Keeper(browser, server, width=width)
    try:
        visitor.open_scores()
        page = visitor.page
        page.select_option("#language", lang)
        page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
        visitor.start(["Anastasia", "Bartholomew", "Cyprian", "Dorothea", "Evangeline"])
        page.select_option("#score-partner", "3")
        page.click("#score-save")
        page.select_option("#score-taker", "2")
        page.select_option("#score-partner", "2")
        page.select_option("#score-petit", "taker")
        page.click("#score-poignee-add")
        page.click("#score-save")
        visitor.rows(2)
        visitor.shot(f"scores-{width}-{lang}")  # first: a failure is looked at too
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.evaluate(OUTSIDE, ".keeper") == []  # nothing past the evening's edges
        # Every choice whole in its box: the partner's "Choose: who was called?", "Nobody:
        # the taker called their own card", a deal's kind, a camp, the CSV's spreadsheet.
        assert page.evaluate(CUT) == []
        if width > 390:
            return
        labels = page.eval_on_selector_all(
            f"{ROWS} >> nth=0 >> td.figure",
            "tds => tds.map(td => getComputedStyle(td, '::before').content)")
        assert labels == [f'"{n}"' for n in
                          ["Anastasia", "Bartholomew", "Cyprian", "Dorothea", "Evangeline"]]
        # Every control a finger can reach: 40 px at least.
        small = page.eval_on_selector_all(
            ".keeper button, .keeper select, .keeper input[type=text]",
            "els => els.filter(e => e.getBoundingClientRect().height < 40)"
            ".map(e => e.id || e.className || e.textContent)")
        assert small == [], small
    finally:
        visitor.close()


def test_the_scores_page_is_served_and_named_in_every_language(keeper):
    answer = requests.get(f"{keeper.server}/scores", timeout=10)
    assert answer.status_code == 200 and b'id="history"' in answer.content
    keeper.open_scores()
    assert keeper.page.inner_text("#title") == "Cardavia score keeper"
    keeper.page.select_option("#language", "fa")
    keeper.page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    assert re.search("[\u0600-\u06ff]", keeper.page.inner_text("#title"))
