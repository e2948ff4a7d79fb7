"""A Tarot evening at the table page, in a real browser (Debian's chromium through Playwright,
against a real gunicorn): deal after deal at the table with the dealer going round and the
evening kept for the score keeper (tests/test_scores_page.py), the end-of-deal review and
game record, a reload in the middle of a deal, and what a new player met at the table (the
five-player call, the fold, the languages)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import requests

from tests.test_table import Visitor, play_to_the_end

pytestmark = pytest.mark.http



@pytest.fixture
def visitor(browser, server):
    seat = Visitor(browser, server, width=1366)
    yield seat
    seat.close()


def table_evening(page, count: int) -> dict:
    """The table's evening of `count` players, as the page keeps it (evenings.js)."""
    kept = json.loads(page.evaluate("localStorage.getItem('cardavia.scores')") or "{}")
    return next(e for e in kept.get("evenings", []) if e["table"] == count)


def hand(page) -> list[str]:
    return page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.code)")


def seat_notes(page) -> dict[str, str]:
    """Each seat's name and notes, the player's own included."""
    notes = {}
    for seat in page.locator("#opponents .seat").all():
        name = seat.get_attribute("aria-label").split(" · ")[0]
        notes[name] = seat.locator(".notes").inner_text()
    notes["You"] = page.inner_text("#you-title")
    return notes


def dealer(page) -> str:
    return next(name for name, notes in seat_notes(page).items() if "dealer" in notes.split(" · "))


def test_T2_T18_a_tarot_evening_dealer_going_round_review_record_and_reload(visitor):
    visitor.open("pace=0&seed=7")
    page = visitor.page
    visitor.deal("tarot-3", level="random")
    assert dealer(page) == "Seat 2"  # T18: the last seat deals first
    # A few moves, then a reload: the same deal, hand and moves come back.
    visitor.button("Pass").click()  # an AI takes (random bids, this seed)
    visitor.settled()
    for _ in range(2):
        visitor.tap(visitor.legal_cards().first)
        visitor.settled()
    before = hand(page), page.locator("#log li").all_inner_texts()
    page.reload()
    visitor.settled()
    assert (hand(page), page.locator("#log li").all_inner_texts()) == before
    play_to_the_end(visitor)
    # The log holds the whole deal, numbered from its first move.
    log = page.locator("#log li").all_inner_texts()
    assert len(log) > 24 and log[:len(before[1])] == before[1]
    settlement = page.locator("#settlement .scores strong").all_inner_texts()
    # The review: every trick, the chien and the écart, and each camp's card points.
    page.click("#review summary")
    review = page.locator("#review")
    assert review.locator(".review-tricks > li").count() == 24  # T19: 24 cards each
    points = review.locator(".camps td").all_inner_texts()
    assert sum(float(p.split()[0]) for p in points) == 91  # T13
    assert review.locator("figure >> nth=0 >> .card").count() == 6  # the chien (T19)
    assert review.locator("figure >> nth=1 >> .card").count() == 6  # the écart (T20)
    visitor.shot("evening-review")
    # The game record replays to the same settlement.
    with page.expect_download() as got:
        page.click("#record")
    record = json.loads(Path(got.value.path()).read_text())
    assert record["game"] == "tarot" and len(record["deal"]["deck"]) == 78
    replay = requests.post(f"{visitor.server}/v1/games/tarot/replay",
                           json={"deal": record["deal"], "moves": record["moves"]}, timeout=30)
    result = replay.json()
    assert result["legal"] and result["settlement"]["scores"] == [
        int(s.replace("+", "")) for s in settlement]
    # The deal is on the evening's sheet (the score keeper's page), each seat's total
    # beside it at the table.
    page.wait_for_selector("#sheet-link")
    evening = table_evening(page, 3)
    session = {key: evening[key] for key in ("players", "deals", "dealer")}
    answer = requests.post(f"{visitor.server}/v1/games/tarot/session", json=session,
                           timeout=10).json()
    assert [f"{t:+d}" if t else "0" for t in answer["totals"]] == settlement
    # The next deal is dealt by the dealer the session names (T2: the deal goes round).
    dealt = int(page.get_attribute("#table", "data-deal"))
    page.click("#again")
    page.wait_for_selector(f"#table[data-deal='{dealt + 1}'][aria-busy=false]", state="attached")
    names = ["You", "Seat 1", "Seat 2"]
    assert dealer(page) == names[answer["next_dealer"]] != "Seat 2"
    for name, notes in seat_notes(page).items():
        assert f"total {settlement[names.index(name)]}" in notes, (name, notes)
    # A reload of the ended deal does not count it twice.
    page.reload()
    visitor.settled()
    assert len(table_evening(page, 3)["deals"]) == 1


def test_T22_the_call_lights_no_card_and_the_partner_is_marked_once_the_card_is_played(visitor):
    visitor.open("pace=0&seed=21")
    page = visitor.page
    visitor.deal("tarot-5", level="basic")
    visitor.button("Garde contre").click()  # nobody bids over it (T4)
    visitor.settled()
    assert page.inner_text("#status") == "Your turn: call"
    assert visitor.legal_cards().count() == 0  # a card in hand is not a move of the call
    calls = page.locator("#controls .action.legal")
    assert calls.count() >= 4
    visitor.shot("call")
    mine = set(hand(page))
    codes = [re.sub(r"^Call ", "", calls.nth(i).inner_text()) for i in range(calls.count())]
    names = {page.get_attribute(f"#hand .card[data-code='{c}']", "title") for c in mine}
    called = next(name for name in codes if name not in names)
    calls.nth(codes.index(called)).click()
    visitor.settled()
    marked = False
    for _ in range(200):
        if page.is_visible("#settlement"):
            break
        played = any(line.endswith(f": {called}") for line in
                     page.locator("#log li").all_inner_texts())
        notes = seat_notes(page)
        partners = [name for name, n in notes.items() if "partner" in n.split(" · ")]
        if played:
            assert len(partners) == 1, notes  # T22: public once the called card is played
            marked = True
        elif partners:
            assert partners == ["You"], notes  # only the partner knows, until then
        if (cards := visitor.legal_cards()).count():
            visitor.tap(cards.first)
        else:
            page.locator("#controls .action.legal").first.click()
        visitor.settled()
    assert marked


@pytest.mark.parametrize(("width", "height"), [(1366, 900), (1280, 720)])
def test_five_players_keep_the_hand_above_the_fold(browser, server, width, height):
    seat = Visitor(browser, server, width=width)
    seat.page.set_viewport_size({"width": width, "height": height})
    try:
        seat.open()
        seat.deal("tarot-5")
        box = seat.page.locator("#hand").bounding_box()
        assert box["y"] + box["height"] <= height, box
        assert seat.page.locator("#hand .card.legal").count() == 0  # bidding: no card
        seat.shot(f"five-{width}")
    finally:
        seat.close()


@pytest.mark.parametrize("game", ["tarot-5", "tarot-3", "tarot-4"])
def test_a_phone_hand_wraps_into_even_rows_with_no_card_alone(browser, server, game):
    seat = Visitor(browser, server, width=390)
    try:
        seat.open()
        seat.deal(game)
        tops = seat.page.eval_on_selector_all(
            "#hand .card", "cards => cards.map(c => Math.round(c.getBoundingClientRect().top))")
        rows = [tops.count(top) for top in sorted(set(tops))]
        assert max(rows) - min(rows) <= 1 and min(rows) > 1, rows
        assert seat.page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        seat.close()


def test_a_persian_hand_overlaps_left_to_right_showing_every_index(visitor):
    visitor.open()
    page = visitor.page
    page.select_option("#language", "fa")
    page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    visitor.deal("tarot-4")
    boxes = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => {"
                                      "const r = c.getBoundingClientRect();"
                                      "return [r.left, r.width]; })")
    # Each card lies to the right of the one before, its top left corner (the index) uncovered.
    for (left, width), (after, _) in zip(boxes, boxes[1:], strict=False):
        assert after - left >= 0.25 * width, boxes
    visitor.shot("persian-hand")


@pytest.mark.parametrize(("locale", "lang"), [("fa-IR", "fa"), ("hi-IN", "hi"), ("de-DE", "en")])
def test_a_first_visit_speaks_the_browsers_language(browser, server, locale, lang):
    context = browser.new_context(locale=locale)
    try:
        page = context.new_page()
        page.goto(f"{server}/table?pace=0&seed=3")
        page.wait_for_selector("#table[aria-busy=false]", state="attached")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.input_value("#language") == lang
    finally:
        context.close()


WORDS = """async ([lang, calls]) => {
  const { catalogue } = await import("/table/words.js");
  const t = await catalogue(lang);
  return calls.map(([key, n]) => t(key, { n, name: "Tarot", level: "simple", points: n }));
}"""


def test_counted_words_follow_each_languages_plural_rules(visitor):
    visitor.open()
    said = visitor.page.evaluate
    assert said(WORDS, ["en", [["tricks.won", 1], ["tricks.won", 2], ["cards", 1],
                               ["math.bouts", 1], ["math.bouts", 3]]]) == [
        "1 trick won", "2 tricks won", "1 card", "1 bout", "3 bouts"]
    assert said(WORDS, ["uk", [["tagline", 5], ["tagline", 3], ["cards", 1], ["cards", 21],
                               ["cards", 11]]]) == [
        "5 гравців · ви проти ШІ · роздача за роздачею",
        "3 гравці · ви проти ШІ · роздача за роздачею", "1 карта", "21 карта", "11 карт"]
    assert said(WORDS, ["hi", [["cards", 1], ["cards", 2]]]) == ["1 पत्ता", "2 पत्ते"]


SIGN = """async (value) => {
  const { numbers } = await import("/table/words.js");
  const text = numbers("fa")(value, true);
  const node = document.createElement("p");
  node.dir = "rtl";
  node.textContent = `امتیاز ${text}`;
  document.body.append(node);
  const box = (char) => {
    const at = node.textContent.indexOf(char);
    const range = document.createRange();
    range.setStart(node.firstChild, at);
    range.setEnd(node.firstChild, at + 1);
    return range.getBoundingClientRect().left;
  };
  const sign = value < 0 ? "\\u2212" : "+";
  const result = { text, sign: box(sign), first: box("\\u06f1"), last: box("\\u06f0") };
  node.remove();
  return result;
}"""


@pytest.mark.parametrize("value", [-120, 120])
def test_persian_figures_keep_persian_digits_and_the_sign_before_them(visitor, value):
    visitor.open()
    got = visitor.page.evaluate(SIGN, value)
    assert not re.search("[0-9]", got["text"]), got  # ۱۲۰, never 120
    assert got["sign"] < got["first"] < got["last"], got  # "−۱۲۰" read left to right
