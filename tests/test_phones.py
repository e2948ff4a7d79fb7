"""The table on a phone (390 px) and on a laptop (1366 px), in a real browser (Debian's
chromium through Playwright, against a real gunicorn): the hand spread across the whole
width with every card a finger's tap (40 px uncovered across and down), Tarot's 15 cards
and Ganjifa's 40 in rows; the Rules panel never pushing the hand below the fold; the move
log numbering its lines past 99; left to right and right to left (Persian). Each case
leaves a screenshot in .pytest_cache/table/ to look at."""

from __future__ import annotations

import pytest

from rules.texts import catalogue
from tests.test_table import Visitor, play_to_the_end

pytestmark = pytest.mark.http

TAP = 40
PHONE = (390, 844)
LAPTOP = (1366, 768)
LANGS = ("en", "fa")
# The languages each screen is looked at in: English, the two new ones, and right to left.
SCREEN_LANGS = ("en", "fr", "ru", "fa")

# Every card of the hand that a finger finds: a cross of TAP px across and TAP px down at
# the middle of the part of the card no other card covers (up to the next card of its row,
# and the row below), every point of it the card's own. A round card's corners are not
# the card, so a square would not do; the cross measures both shapes alike.
UNCOVERED = """(tap) => {
  const cards = [...document.querySelectorAll('#hand .card')];
  const boxes = cards.map(card => card.getBoundingClientRect());
  return cards.filter((card, i) => {
    const r = boxes[i];
    const right = boxes.find(b => Math.abs(b.top - r.top) < 1 && b.left > r.left + 1);
    const below = boxes.find(b => b.top > r.top + 1 && Math.abs(b.left - r.left) < r.width);
    const x = r.left + Math.min(right ? right.left - r.left : r.width, r.width) / 2;
    const y = r.top + Math.min(below ? below.top - r.top : r.height, r.height) / 2;
    for (let d = -tap / 2 + 1; d <= tap / 2 - 1; d += 3) {
      for (const [px, py] of [[x + d, y], [x, y + d]]) {
        const hit = document.elementFromPoint(px, py);
        if (!hit || hit.closest('.card') !== card) return false;
      }
    }
    return true;
  }).length;
}"""

# The hand's rows: the left and right edges of the cards of each row, and the room the
# seat gives the hand.
ROWS = """() => {
  const rows = new Map();
  for (const card of document.querySelectorAll('#hand .card')) {
    const r = card.getBoundingClientRect();
    const top = Math.round(r.top);
    const row = rows.get(top) ?? [Infinity, -Infinity, 0];
    rows.set(top, [Math.min(row[0], r.left), Math.max(row[1], r.right), row[2] + 1]);
  }
  const seat = document.getElementById('you');
  const s = seat.getBoundingClientRect();
  const pad = parseFloat(getComputedStyle(seat).paddingLeft);
  const left = s.left + seat.clientLeft + pad;
  return { rows: [...rows.values()], left, right: left + seat.clientWidth - 2 * pad };
}"""


# The hand's box on the page (not in the viewport, which a click may scroll).
HAND = """() => {
  const r = document.getElementById('hand').getBoundingClientRect();
  return { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, width: r.width };
}"""


def phone_or_laptop(browser, server, size, lang):
    width, height = size
    visitor = Visitor(browser, server, width=width)
    visitor.page.set_viewport_size({"width": width, "height": height})
    visitor.open()
    if lang != "en":
        visitor.page.select_option("#language", lang)
        visitor.page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
    return visitor


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("game", "cards"), [("tarot-5", 15), ("tarot-3", 24),
                                             ("ganjifa-day", 40), ("durak-6", 6)])
def test_a_phone_spreads_the_hand_across_the_width_each_card_a_tap(browser, server, game,
                                                                    cards, lang):
    visitor = phone_or_laptop(browser, server, PHONE, lang)
    try:
        page = visitor.page
        visitor.deal(game)
        assert page.locator("#hand .card").count() == cards
        # In sight, and no pointer hovering a card (which lifts it): a finger's view.
        page.evaluate("document.getElementById('hand').scrollIntoView({block: 'center'})")
        page.mouse.move(1, 1)
        assert page.evaluate(UNCOVERED, TAP) == cards
        laid = page.evaluate(ROWS)
        counts = [count for _, _, count in laid["rows"]]
        assert max(counts) - min(counts) <= 1, laid  # the cards shared evenly
        widest = max(laid["rows"], key=lambda row: row[2])
        if widest[2] > 1 and max(counts) < cards:  # rows: each spread to the full width
            assert abs(widest[0] - laid["left"]) <= 1 and abs(laid["right"] - widest[1]) <= 2, laid
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
        visitor.shot(f"phone-{game}-{lang}")
    finally:
        visitor.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390", "1366"])
def test_the_rules_panel_never_pushes_the_hand_below_the_fold(browser, server, size, lang):
    visitor = phone_or_laptop(browser, server, size, lang)
    try:
        page = visitor.page
        visitor.deal("tarot-5")
        before = page.evaluate(HAND)
        assert before["bottom"] <= size[1], before  # in sight when the deal starts
        page.locator("#rules-panel summary").click()
        page.wait_for_selector("#rules dt")
        assert page.evaluate(HAND) == before  # where it was: still above the fold
        visitor.shot(f"rules-open-{size[0]}-{lang}")
    finally:
        visitor.close()


@pytest.mark.parametrize(("lang", "hundred"), [("en", "100"), ("fa", "۱۰۰")])
def test_the_move_log_numbers_its_lines_past_99(browser, server, lang, hundred):
    visitor = phone_or_laptop(browser, server, LAPTOP, lang)
    try:
        page = visitor.page
        visitor.deal("tarot-3", level="random")
        play_to_the_end(visitor)
        numbers = page.eval_on_selector_all("#log li .n", "ns => ns.map(n => n.textContent)")
        assert len(numbers) > 100 and numbers[99] == hundred
        # Every number whole inside the log, beside its line, not cut off at its edge.
        boxes = page.eval_on_selector_all("#log li", """lis => lis.map(li => {
          const log = li.parentElement.getBoundingClientRect();
          const n = li.querySelector('.n').getBoundingClientRect();
          return [n.left >= log.left - 0.5 && n.right <= log.right + 0.5, n.width > 0];
        })""")
        assert all(inside and shown for inside, shown in boxes)
        page.evaluate("document.querySelector('#log li:nth-child(100)').scrollIntoView()")
        visitor.shot(f"log-past-99-{lang}")
    finally:
        visitor.close()


@pytest.mark.parametrize("lang", SCREEN_LANGS)
@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390", "1366"])
def test_screens_of_each_game(browser, server, size, lang):
    """The screenshots looked at for each width and language: every game dealt, in the
    language's own words, nothing wider than the screen."""
    visitor = phone_or_laptop(browser, server, size, lang)
    words = catalogue(lang, "table")
    try:
        page = visitor.page
        for game in ("durak", "tarot-4", "tarot-5", "ganjifa-night"):
            visitor.deal(game)
            status = page.inner_text("#status")
            assert status.startswith(words["turn.you"].split("{", 1)[0]), status
            assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
            visitor.shot(f"screen-{game}-{size[0]}-{lang}")
    finally:
        visitor.close()


@pytest.mark.parametrize("lang", ("ru", "fa"))
def test_a_phone_reads_a_tarot_settlement_without_scrolling_sideways(browser, server, lang):
    """A five-player deal's settlement and its review on a phone: the itemised score,
    each player's figure and the tricks, inside the screen's width, right to left too."""
    visitor = phone_or_laptop(browser, server, PHONE, lang)
    try:
        page = visitor.page
        visitor.deal("tarot-5", level="random")
        play_to_the_end(visitor)
        page.locator("#settlement .review summary").first.click()
        visitor.shot(f"phone-settlement-{lang}")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
        box = page.evaluate("(() => { const r = document.getElementById('settlement')"
                            ".getBoundingClientRect(); return [r.left, r.right]; })()")
        assert box[0] >= 0 and box[1] <= PHONE[0], box
        wider = page.evaluate("""() => [...document.querySelectorAll('#settlement *')]
          .filter(e => e.scrollWidth > e.clientWidth + 1
                       && getComputedStyle(e).overflowX !== 'visible')
          .map(e => e.className)""")
        assert wider == [], wider  # nothing in it scrolls sideways either
    finally:
        visitor.close()
