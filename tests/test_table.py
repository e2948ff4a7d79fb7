"""The table in a real browser: Debian's chromium driven by Playwright against a
real gunicorn, playing through the public API as a person would, by clicks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.texts import catalogue
from service.app import TestingConfig, create_app

pytestmark = pytest.mark.http

STATIC = Path(__file__).resolve().parent.parent / "service" / "static" / "table"
LANGS = ("en", "hi", "hu", "fa", "uk", "fr", "ru")
SHOTS = Path(__file__).resolve().parent.parent / ".pytest_cache" / "table"


class Visitor:
    """One visitor at the table: a fresh browser context, its console watched."""

    def __init__(self, browser, server: str, width: int = 1200):
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.page = self.context.new_page()
        self.server = server
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.set_default_timeout(15_000)

    def open(self, query: str = "pace=0&seed=3") -> None:
        self.page.goto(f"{self.server}/table?{query}")
        self.settled()

    def settled(self) -> None:
        """Waits until the page waits for the player: their turn, or the deal's end."""
        self.page.wait_for_selector("#table[aria-busy=false]", state="attached")

    def deal(self, game: str, level: str = "basic") -> None:
        self.page.select_option("#game", game)
        self.page.select_option("#level", level)
        dealt = int(self.page.get_attribute("#table", "data-deal"))
        self.page.click("#deal")
        self.page.wait_for_selector(f"#table[data-deal='{dealt + 1}']", state="attached")
        self.settled()

    def tap(self, card) -> None:
        """Clicks a card where a person would: on its uncovered left edge, the hand
        overlapping left to right in every language."""
        card.click(position={"x": 6, "y": 30})

    def legal_cards(self):
        return self.page.locator("#hand .card.legal")

    def button(self, text: str):
        return self.page.locator("#controls button", has_text=re.compile(f"^{text}$"))

    def reason(self) -> str:
        self.page.wait_for_selector("#reason:not([hidden])")
        return self.page.inner_text("#reason")

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors  # no console error at any step


@pytest.fixture
def table(browser, server):
    visitor = Visitor(browser, server)
    yield visitor
    visitor.close()


def play_to_the_end(table, keyboard: bool = False, limit: int = 400) -> None:
    """Plays the first legal choice at each turn, by click or, where the page puts the focus
    back on the first legal card after each move, by Enter."""
    for _ in range(limit):
        if table.page.is_visible("#settlement"):
            return
        if keyboard:
            table.page.keyboard.press("Enter")
        elif (cards := table.legal_cards()).count():
            table.tap(cards.first)
        else:
            table.page.locator("#controls .action.legal").first.click()
        table.settled()
    pytest.fail("the deal did not end")


def test_D6_D14_a_whole_durak_deal_played_by_clicks_to_its_settlement(table):
    table.open()
    table.deal("durak")
    assert table.page.inner_text("#status").startswith("Your turn")
    table.shot("durak-deal")
    # D6: the attacker may not pass on an empty table; the service's reason is shown.
    table.button("Pass").click()
    assert "(D6)" in table.reason()
    play_to_the_end(table)  # D13: with no card to add or to beat with, pass or take
    table.shot("durak-settlement")
    headline = table.page.inner_text("#settlement .headline")
    assert re.match(r"^(A draw|You are the durak|Durak: Seat 1)", headline), headline
    assert table.page.locator("#settlement .scores li").count() == 2
    table.page.click("#again")
    table.page.wait_for_selector("#table[data-deal='3'][aria-busy=false]", state="attached")
    assert not table.page.is_visible("#settlement")


def test_D16_D21_four_players_with_passing_set_up_and_the_attack_passed_on(table):
    """The settings deal four hands with passing (D16); facing one Six, the player holding
    two more Sixes is offered to pass the attack on with each (D21), and does."""
    table.open("pace=0&seed=12")  # seat 3 attacks seat 0 with a Six first
    table.page.select_option("#game", "durak-4")
    table.page.check("#option-transfer")
    table.deal("durak-4")
    state = table.page.evaluate("JSON.parse(localStorage.getItem('cardavia.table.deal')).state")
    assert len(state["hands"]) == 4 and state["transfer"] is True and "known" in state
    assert table.page.locator("#opponents .seat").count() == 3
    passes = table.page.locator("#controls button", has_text=re.compile("^Pass on with "))
    assert passes.count() == 2
    table.shot("durak-4-passing")
    passes.first.click()
    table.settled()
    assert "You: passes the attack on with Six of " in table.page.inner_text("#log")


def test_D16_a_52_card_deal_at_the_table_names_and_sorts_every_card(table):
    """The 52-card deck is offered (D16); its low ranks are named and sorted like the
    rest, by suit and then rank, as GET /v1/games/durak?cards=52 lists them."""
    table.open("pace=0&seed=5")
    table.page.select_option("#game", "durak-3")
    table.page.select_option("#option-cards", "52")
    table.deal("durak-3")
    state = table.page.evaluate("JSON.parse(localStorage.getItem('cardavia.table.deal')).state")
    assert len(state["stock"]) == 52 - 3 * 6  # D17: six cards a hand, the rest the stock
    names = table.page.eval_on_selector_all("#hand img.art", "els => els.map(e => e.alt)")
    codes = table.page.eval_on_selector_all("#hand [data-code]",
                                            "els => els.map(e => e.dataset.code)")
    held = state["hands"][int(table.page.input_value("#seat"))]
    assert len(names) == len(codes) == len(held) and set(codes) == set(held)
    assert all(" of " in n for n in names), names  # every card by its name, not its code
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    keys = [("SHDC".index(c[-1]), ranks.index(c[:-1])) for c in codes]
    assert keys == sorted(keys)
    table.shot("durak-52")


def test_T4_T5_T8_T17_a_tarot_bid_discard_poignee_tricks_and_itemised_settlement(table):
    table.open("pace=0&seed=110")  # seat 0 holds ten trumps once the chien is taken
    table.deal("tarot-4")
    table.button("Garde").click()
    table.settled()
    assert table.page.inner_text("#status").startswith("Choose 6 cards")
    assert "The chien, shown" in table.page.inner_text("#centre")
    table.shot("tarot-discard")
    # T5: a King never goes to the écart; chosen anyway, the service says why not.
    king = table.page.locator("#hand .card:not(.legal)[data-code^='K']").first
    table.tap(king)
    for i in range(5):
        table.tap(table.legal_cards().nth(i))
    assert table.page.locator("#hand .card.chosen").count() == 6
    table.page.click("#controls .confirm")
    reason = table.reason()
    assert "(T5)" in reason
    # The reason names the King as the hand and the log do, never by its code.
    code = king.get_attribute("data-code")
    assert king.get_attribute("title") in reason and code not in reason.split(), reason
    table.tap(king)  # unchosen again
    table.tap(table.page.locator("#hand .card.legal:not(.chosen)").last)
    table.page.click("#controls .confirm")
    table.settled()
    table.button("No chelem").click()  # T7
    table.settled()
    assert table.page.inner_text("#status") == "Your turn: play"
    table.button(re.escape("Show a simple poignée (10 trumps)")).click()  # T8
    table.settled()
    assert "Your poignée" in table.page.inner_text("#centre")
    table.tap(table.legal_cards().first)
    table.settled()
    table.shot("tarot-trick")
    log = table.page.inner_text("#log")
    assert "You: écart laid" in log and "Trick to " in log, log
    assert "Last trick, won by" in table.page.inner_text("#centre")
    play_to_the_end(table, keyboard=True)
    table.shot("tarot-settlement")
    rows = table.page.locator("#settlement .itemised:not(.camps) tr th").all_inner_texts()
    assert rows[:4] == ["Contract", "Bouts", "Points", "Base"], rows  # T17, item by item
    assert "Your simple poignée" in rows and rows[-1] == "Each defender scores (−D)", rows
    # T17: D is positive when the defenders pay; the row shows −D, each defender's score.
    each = table.page.locator("#settlement .itemised:not(.camps) tr td").last.inner_text()
    scores = table.page.locator("#settlement .scores strong").all_inner_texts()
    assert len(scores) == 4 and scores.count(each) >= 3, (each, scores)


def test_G5_G6_a_ganjifa_opening(table):
    table.open()
    table.deal("ganjifa-night")
    # G5: the trump Raja (Krishna's by night) opens the deal alone.
    assert table.page.locator("#centre img[alt='Raja of Krishna']").count() == 1
    table.shot("ganjifa-opening")
    legal = table.legal_cards()
    names = [legal.nth(i).get_attribute("aria-label") for i in range(legal.count())]
    assert names and all("Krishna" in name for name in names), names  # G6: follow suit
    table.tap(table.page.locator("#hand .card:not(.legal)").first)
    assert "(G6)" in table.reason()
    # By keyboard: a card is a button, focused and played with Enter.
    played = legal.first.get_attribute("aria-label").removesuffix(", playable")
    legal.first.focus()
    table.page.keyboard.press("Enter")
    table.settled()
    assert f"You: {played}" in table.page.inner_text("#log")
    # the focus comes back to the hand for the next move
    assert table.page.evaluate("document.activeElement.closest('#you') !== null")
    last = table.page.locator("#log li .line").last.inner_text()
    assert table.page.inner_text("#announcer").endswith(last)  # the live region says each move


def test_persian_right_to_left_and_back_with_the_sliders_kept(table):
    table.open()
    page = table.page
    assert page.input_value("#slider-contrast") == "50"  # every slider at 50% at first
    english = page.get_attribute("#hand .card >> nth=0", "aria-label")
    page.select_option("#language", "fa")
    page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    page.wait_for_function("() => document.title === 'میز کارداویا'")
    page.wait_for_function(
        f"() => document.querySelector('#hand .card').getAttribute('aria-label') !== {english!r}")
    persian = page.get_attribute("#hand .card >> nth=0", "aria-label")
    assert re.search("[\u0600-\u06ff]", persian), persian  # the service's card name
    page.locator("#rules-panel summary").click()  # the rules, in Persian, from the service
    page.wait_for_function("() => document.querySelectorAll('#rules dt').length === 25")  # D1-D25
    first = page.inner_text("#rules dt >> nth=0")
    assert first.startswith("D1") and re.search("[\u0600-\u06ff]", first), first
    page.locator("#settings-panel summary").click()
    page.fill("#slider-temperature", "80")
    table.shot("persian")
    page.reload()
    table.settled()
    assert page.evaluate("document.documentElement.dir") == "rtl"  # kept between visits
    assert page.input_value("#slider-temperature") == "80"
    page.select_option("#language", "en")
    page.wait_for_function("() => document.documentElement.dir === 'ltr'")
    page.wait_for_function(
        f"() => document.querySelector('#hand .card').getAttribute('aria-label') === {english!r}")
    assert page.inner_text("#title") == "Cardavia table"


def test_a_phone_width_keeps_the_hand_and_controls_on_screen(browser, server):
    visitor = Visitor(browser, server, width=375)
    visitor.open()
    page = visitor.page
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    visitor.shot("phone")
    visitor.tap(visitor.legal_cards().first)
    visitor.settled()
    visitor.close()



@pytest.mark.parametrize("lang", ["hu", "fa"])
def test_a_phone_keeps_each_seat_name_and_its_ai_mark_whole(browser, server, lang):
    """Five Tarot seats share a phone's row: a seat's name ("1. hely") and its AI mark
    ("هوش مصنوعی") may go to a line of their own, but neither breaks in two."""
    visitor = Visitor(browser, server, width=390)
    visitor.open()
    page = visitor.page
    page.select_option("#language", lang)
    page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")
    visitor.deal("tarot-5")
    lines = page.eval_on_selector_all(
        "#opponents .seat-name > span",
        "spans => spans.map(s => [s.textContent, s.getClientRects().length])")
    assert len(lines) == 8 and all(n == 1 for _, n in lines), lines
    visitor.shot(f"phone-seats-{lang}")
    visitor.close()

def test_durak_corners_follow_the_language_until_the_player_chooses_them(table):
    """Durak's courts carry the letters of the player's own cards: Cyrillic in Russian,
    Latin in English and French; once chosen in the settings (roi-dame-valet here), the
    choice stays, whatever the language, between visits too."""
    table.open()
    page = table.page

    def corners() -> str:
        src = page.get_attribute("#hand .card img >> nth=0", "src")
        return src.split("indices=", 1)[1] if "indices=" in src else ""

    assert corners() == "english"
    for lang, convention, title in (("ru", "russian", "Стол Cardavia"),
                                    ("fr", "english", "Table Cardavia")):
        page.select_option("#language", lang)
        page.wait_for_function(f"() => document.title === {title!r}")
        # The hand is drawn again after the title changes: wait for its pictures.
        page.wait_for_function("c => document.querySelector('#hand .card img').src"
                               ".endsWith('indices=' + c)", arg=convention)
        table.settled()
        assert corners() == convention
        assert page.input_value("#indices") == convention
    page.locator("#settings-panel summary").click()
    page.select_option("#indices", "french")
    page.wait_for_function("() => document.querySelector('#hand .card img').src"
                           ".endsWith('indices=french')")
    page.select_option("#language", "ru")
    page.wait_for_function("() => document.title === 'Стол Cardavia'")
    page.reload()
    table.settled()
    assert corners() == "french" and page.input_value("#indices") == "french"


# ---- without a browser ------------------------------------------------------------------

@pytest.fixture(scope="module")
def app_client():
    return create_app(TestingConfig).test_client()


def test_root_leads_to_the_table_and_the_page_is_served(app_client):
    assert app_client.get("/").headers["Location"].endswith("/table/")
    for path in ("/table", "/table/"):
        answer = app_client.get(path)
        assert answer.status_code == 200 and b'id="hand"' in answer.data
    assert app_client.get("/table/table.js").mimetype == "text/javascript"
    assert app_client.get("/table/../api.py").status_code == 404


PLURAL_CATEGORIES = {"en": {"one", "other"}, "hi": {"one", "other"}, "hu": {"one", "other"},
                     "fa": {"one", "other"}, "uk": {"one", "few", "many", "other"},
                     "fr": {"one", "many", "other"}, "ru": {"one", "few", "many", "other"}}


def placeholders(entry) -> set[str]:
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {name for text in texts for name in re.findall(r"\{\w+\}", text)}


def test_every_page_catalogue_holds_every_key_with_the_same_placeholders():
    english = catalogue("en", "table")
    for lang in LANGS:
        words = catalogue(lang, "table")
        assert words.keys() == english.keys(), lang
        for key, entry in words.items():
            assert placeholders(entry) == placeholders(english[key]), (lang, key)
            # A counted entry has a text for each plural category of the language
            # (Intl.PluralRules, CLDR), and one for {n} to choose by.
            assert isinstance(entry, dict) == isinstance(english[key], dict), (lang, key)
            if isinstance(entry, dict):
                assert set(entry) == PLURAL_CATEGORIES[lang], (lang, key)
                words = english[key]
                assert "{n}" in "".join(words.values()) or "{points}" in words["other"]


def test_every_word_the_page_uses_is_in_its_catalogue():
    english = catalogue("en", "table")
    source = "\n".join(p.read_text() for p in STATIC.rglob("*.js"))
    source += "\n".join(p.read_text() for p in STATIC.glob("*.html"))
    used = set(re.findall(r"""\bt\(\s*["']([\w.]+)["']""", source))
    used |= set(re.findall(r'data-word="([\w.]+)"', source))
    assert used and used <= english.keys(), used - english.keys()


@pytest.mark.parametrize("stored", ["{not json", "null", "[50, 50]", '"80"', "7",
                                    '{"contrast": "abc", "grain": null, "temperature": 1e9}'])
def test_settings_the_page_cannot_read_leave_it_working(table, stored):
    """A corrupt `cardavia.table.settings` (issue 40.7) used to throw as the page's module
    loaded, for good: now the sliders it cannot read start at 50% and the next change
    writes a value the page reads."""
    table.open()
    page = table.page
    page.evaluate("v => localStorage.setItem('cardavia.table.settings', v)", stored)
    page.reload()
    table.settled()
    assert page.locator("#hand .card").count() > 0
    if stored == "{not json":
        table.shot("corrupt-settings")
    assert [page.input_value(f"#slider-{name}") for name in
            ("contrast", "grain", "temperature")] == ["50", "50", "50"]
    page.locator("#settings-panel summary").click()
    page.fill("#slider-grain", "30")
    page.reload()
    table.settled()
    assert page.input_value("#slider-grain") == "30"


def play_one(table) -> None:
    """The first legal choice, a card or an action."""
    if (cards := table.legal_cards()).count():
        table.tap(cards.first)
    else:
        table.page.locator("#controls .action.legal").first.click()
    table.settled()


@pytest.mark.parametrize("damage", ["{}", '{"lines": 5}', '{"lines": [null]}',
                                    '{"c": {"options": 3}}', '{"record": "x", "played": "y"}',
                                    '{"state": 7}', "[1]"])
def test_a_kept_deal_the_page_cannot_read_gives_a_fresh_one(table, damage):
    """Issue 40.7's class: the deal in progress, kept in localStorage, read back damaged
    (another version's, a hand-edited one) must not stop the page for good: the table
    resumes it or deals afresh, and plays on."""
    table.open()
    page = table.page
    play_one(table)  # a move: the deal is kept
    log = page.inner_text("#log")
    page.evaluate("""damage => {
        const kept = JSON.parse(localStorage.getItem('cardavia.table.deal'));
        const bad = JSON.parse(damage);
        const c = bad.c ? { ...kept.c, ...bad.c } : kept.c;
        localStorage.setItem('cardavia.table.deal', JSON.stringify(
            Array.isArray(bad) ? bad : { ...kept, ...bad, c }));
    }""", damage)
    page.reload()
    table.settled()
    assert page.locator("#hand .card").count() > 0
    if damage == "{}":  # undamaged, the deal goes on where it was
        assert log and page.inner_text("#log") == log
    play_one(table)
    # The service's 422 to a state it cannot read is the browser's to log, not the page's.
    table.errors[:] = [e for e in table.errors if "status of 422" not in e]


STORAGE_REFUSED = {
    # A browser that blocks a site's data (cookies blocked): reading localStorage throws.
    "blocked": "Object.defineProperty(window, 'localStorage', {get() {"
               " throw new DOMException('The operation is insecure.', 'SecurityError'); }})",
    # A store that is full (or a private window's quota of nothing): every write throws.
    "full": "Storage.prototype.setItem = function () {"
            " throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); }",
}


@pytest.mark.parametrize("storage", STORAGE_REFUSED)
def test_a_browser_that_keeps_nothing_still_plays(table, storage):
    """Issue 40.7's class: the table keeps its language, settings and deal in
    localStorage, and a browser that refuses the store (blocked, or full) must still
    deal and play, keeping nothing between visits."""
    table.context.add_init_script(STORAGE_REFUSED[storage])
    table.open()
    page = table.page
    assert page.locator("#hand .card").count() > 0
    play_one(table)
    page.select_option("#language", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.locator("#settings-panel summary").click()
    page.fill("#slider-grain", "30")
    play_one(table)
