// The table: deals through the API, shows the seat's view, asks legal-moves for the
// player's turn and ai-move for the others, and sends every move, the player's and the
// AI's, to /move. The page keeps the state, as any client of this stateless service does.

import { api } from "./api.js";
import { cardBack, cardFace } from "./cards.js";
import { download, h } from "./dom.js";
import { GAMES } from "./games.js";
import { applySettings, INDICES, loadSettings, saveSettings, SLIDERS } from "./settings.js";
import { read, write } from "./store.js";
import { TableEvening } from "./table-evening.js";
import { catalogue, LANGUAGES, numbers, preferredLanguage } from "./words.js";

const params = new URLSearchParams(location.search);
// About 0.8 s between AI moves lets a person follow the play; ?pace=0 for tests.
const PACE = params.has("pace") ? Math.max(0, Number(params.get("pace")) || 0) : 800;
// ?seed=N makes the deal and every AI move reproducible.
const SEED = params.has("seed") ? Number(params.get("seed")) : null;
const LANG_KEY = "cardavia.table.language";
// The deal in progress, kept so that a reload sits down at the same table.
const DEAL_KEY = "cardavia.table.deal";

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

const page = {
  lang: "en", t: (key) => key, service: null, info: null, settings: loadSettings(),
};
// The deal in progress; `id` tells a stale answer (from before "deal again") to stop.
let deal = null;
let dealCount = 0;

// The Tarot evening the table keeps (its sheet is on the score keeper page, /scores).
const evening = new TableEvening({
  get t() { return page.t; },
  get service() { return page.service; },
});

// Every game's deals, in the order of GAMES.
function choices() {
  return Object.values(GAMES).flatMap((game) => game.setups.map((setup) =>
    ({ ...setup, game: game.id })));
}

function config() {
  const choice = choices().find((c) => c.value === $("game").value) ?? choices()[0];
  const options = Object.fromEntries([...$("options").querySelectorAll("[data-option]")]
    .map((field) => [field.dataset.option, field.type === "checkbox" ? field.checked : field.value]));
  return { ...choice, seat: Number($("seat").value) || 0, level: $("level").value || "strong",
    options };
}

// ---- words -------------------------------------------------------------------------

async function setLanguage(lang) {
  const known = LANGUAGES.find((l) => l.code === lang) ?? LANGUAGES[0];
  page.lang = known.code;
  page.t = await catalogue(known.code);
  page.service = api(known.code);
  write(LANG_KEY, known.code);
  document.documentElement.lang = known.code;
  document.documentElement.dir = known.dir;
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = page.t(node.dataset.word);
  document.title = page.t("title");
  $("title").textContent = page.t("title");
  await fillSetup();
  buildSettings();
}

async function fillSetup() {
  const { t } = page;
  const { games } = await page.service.games();
  const names = Object.fromEntries(games.map((g) => [g.id, g.name]));
  const keep = { game: $("game").value || choices()[0].value, seat: $("seat").value || "0",
    level: $("level").value || "strong" };
  $("game").replaceChildren(...choices().map((c) => h("option", { value: c.value },
    GAMES[c.game].setupLabel(c, t, names[c.game]))));
  $("game").value = keep.game;
  $("level").replaceChildren(...["random", "basic", "strong"].map((level) =>
    h("option", { value: level }, t(`level.${level}`))));
  $("level").value = keep.level;
  fillSeats(keep.seat);
}

// The variants a game offers at the deal (its module's `options`): a checkbox or a list
// each, keeping what was chosen while the game stays the same.
function fillOptions(keep = config().options) {
  const c = config();
  const specs = GAMES[c.game].options?.(c, page.t) ?? [];
  $("options").replaceChildren(...specs.map((spec) => {
    const kept = keep?.[spec.name];
    const field = spec.kind === "check"
      ? h("input", { type: "checkbox", id: `option-${spec.name}`, dataset: { option: spec.name } })
      : h("select", { id: `option-${spec.name}`, dataset: { option: spec.name } },
        spec.choices.map(([value, label]) => h("option", { value }, label)));
    if (spec.kind === "check") field.checked = Boolean(kept ?? spec.value);
    else field.value = spec.choices.some(([v]) => v === kept) ? kept : spec.value;
    return h("label", {}, h("span", {}, spec.label), field);
  }));
}

function fillSeats(keep) {
  const c = config();
  const n = GAMES[c.game].players(c);
  $("seat").replaceChildren(...Array.from({ length: n }, (_, seat) =>
    h("option", { value: String(seat) }, page.t("seat", { n: seat }))));
  $("seat").value = Number(keep) < n ? String(keep) : "0";
  $("tagline").textContent = page.t("tagline", { n });
  fillOptions();
}

// A card face up, its corners in the reader's convention where its game offers a choice.
function face(game, card) {
  const language = LANGUAGES.find((l) => l.code === page.lang);
  const indices = page.info?.indices ? page.settings.indices ?? language.indices : null;
  return cardFace(game, card, indices);
}

function buildSettings() {
  const language = LANGUAGES.find((l) => l.code === page.lang);
  const indices = h("select", { id: "indices", onchange: (e) => {
    page.settings.indices = e.target.value;
    saveSettings(page.settings);
    if (deal?.view) render();
  } }, Object.entries(INDICES).map(([value, letters]) => h("option", { value }, letters)));
  indices.value = page.settings.indices ?? language.indices;
  $("settings").replaceChildren(...SLIDERS.map((name) => {
    const percent = new Intl.NumberFormat(page.lang, { style: "percent" });
    const shown = () => percent.format(page.settings[name] / 100);
    const output = h("output", { for: `slider-${name}` }, shown());
    return h("label", { class: "slider" }, h("span", {}, page.t(`settings.${name}`)),
      h("input", { id: `slider-${name}`, type: "range", min: "0", max: "100", step: "1",
        value: String(page.settings[name]),
        oninput: (e) => {
          page.settings[name] = Number(e.target.value);
          output.textContent = shown();
          applySettings(document.documentElement, page.settings);
          saveSettings(page.settings);
        } }), output);
  }), h("label", { class: "choice" }, h("span", {}, page.t("settings.indices")), indices));
  applySettings(document.documentElement, page.settings);
}

// ---- the deal ----------------------------------------------------------------------

async function gameWords(game) {
  const info = await page.service.info(game, GAMES[game].listedDeck);
  page.info = { ...info, byCode: new Map(info.cards.map((card, i) => [card.code, { ...card, i }])) };
  showRules(game);
}

// The rules panel is not awaited: a deal goes on while its rules arrive, or fail to.
async function showRules(game) {
  const panel = $("rules");
  try {
    const { rules } = await page.service.rules(game);
    panel.replaceChildren(h("dl", { class: "rules" }, rules.map((rule) => [
      h("dt", {}, h("span", { class: "rule-id" }, rule.id), " ", rule.title),
      h("dd", {}, rule.text)])));
  } catch (e) {
    panel.replaceChildren(h("p", {}, page.t("error", { detail: e.message })));
  }
}

function seatDeal(c, saved = {}) {
  const id = ++dealCount;
  deal = { id, c, game: GAMES[c.game], state: null, view: null, moves: [], selection: null,
    dukalCaptured: false, template: null, played: 0, busy: true, request: null, record: [],
    lines: [], recorded: false, ...saved };
  $("settlement").hidden = true;
  $("table").className = `table game-${c.game} cards-${GAMES[c.game].cardShape}`;
  $("table").setAttribute("aria-busy", "true");
  $("table").dataset.deal = String(id); // which deal is on the table, for tests to wait on
  $("log").replaceChildren(...deal.lines.map(logLine));
  return id;
}

async function newDeal() {
  const c = config();
  const game = GAMES[c.game];
  const id = seatDeal(c);
  $("status").textContent = page.t("dealing");
  try {
    await gameWords(c.game);
    const body = game.dealBody(c);
    // A game kept over an evening deals with the dealer going round (the session's word).
    if (game.evening) body.dealer = await evening.nextDealer(game.evening(c));
    if (SEED !== null) body.seed = SEED;
    const { state, deck } = await page.service.deal(c.game, body);
    if (deal.id !== id) return;
    deal.state = state;
    // The game record's deal: the same deal again from its deck, whatever seed made it.
    const { seed, ...request } = body;
    deal.request = { ...request, deck };
    keep();
    await step(id);
  } catch (e) {
    failed(e);
  }
}

// The deal in progress into localStorage after every move, and back after a reload.
function keep() {
  const { c, state, request, record, lines, recorded, played } = deal;
  write(DEAL_KEY, JSON.stringify({ c, state, request, record, lines, recorded, played }));
}

// A kept deal the page can read back: what keep() writes, each field of its own type (one
// missing takes seatDeal's default). Another version's or a hand-edited one is not resumed:
// read as it is, it stopped the page at every visit until the store was cleared.
function readable(saved) {
  const is = (v, ok) => v === undefined || ok(v);
  return saved !== null && typeof saved === "object" && !Array.isArray(saved)
    && typeof saved.state === "object" && saved.state !== null
    && typeof saved.c === "object" && saved.c !== null && Object.hasOwn(GAMES, saved.c.game)
    && is(saved.lines, (v) => Array.isArray(v) && v.every((l) => typeof l === "string"))
    && is(saved.record, Array.isArray) && is(saved.played, Number.isInteger)
    && is(saved.recorded, (v) => typeof v === "boolean");
}

async function resume() {
  let saved;
  try {
    saved = JSON.parse(read(DEAL_KEY) || "null");
  } catch {
    saved = null;
  }
  if (!readable(saved)) return false;
  const choice = choices().find((c) => c.value === saved.c.value);
  if (!choice) return false;
  $("game").value = saved.c.value;
  fillSeats(String(saved.c.seat));
  $("level").value = saved.c.level;
  fillOptions(saved.c.options);
  const id = seatDeal(saved.c, saved);
  try {
    await gameWords(saved.c.game);
    if (GAMES[saved.c.game].evening) await evening.show(GAMES[saved.c.game].evening(saved.c));
    await step(id);
    return true;
  } catch {
    return false; // a state the service no longer takes: a fresh deal instead
  }
}

// The state names its seat to act, so each step asks at once for everything it needs: the
// view, and the legal moves (the player's turn) or the AI's move, whose thinking overlaps
// the pause that lets a person follow.
async function step(id) {
  while (deal.id === id) {
    const { state, c } = deal;
    const mine = state.to_act === c.seat;
    let thinking = null;
    if (!mine && state.phase !== "over") {
      const ask = { state, seat: state.to_act, level: c.level };
      if (SEED !== null) ask.seed = SEED * 1000 + deal.played;
      thinking = page.service.aiMove(c.game, ask);
      thinking.catch(() => {}); // a stale deal's answer is dropped; a failure is seen below
    }
    const [{ view }, legal] = await Promise.all([page.service.view(c.game, state, c.seat),
      mine ? page.service.legalMoves(c.game, state) : null]);
    if (deal.id !== id) return;
    deal.view = view;
    if (view.phase === "over") {
      deal.moves = [];
      deal.busy = false;
      render();
      showSettlement();
      return;
    }
    if (mine) {
      deal.moves = legal.moves;
      deal.template = legal.moves.find((m) => m.count !== undefined) ?? null;
      deal.selection = deal.template ? new Set(deal.template.must_include) : null;
      deal.busy = false;
      render();
      return; // the player's click or key plays on
    }
    deal.moves = [];
    deal.busy = true;
    render();
    const [{ move }] = await Promise.all([thinking, sleep(PACE)]);
    if (deal.id !== id) return;
    const answer = await page.service.move(c.game, state, move);
    if (deal.id !== id) return;
    if (!answer.legal) throw new Error(answer.reason.message); // the AI plays legal moves
    accept(move, answer);
  }
}

function accept(move, answer) {
  deal.state = answer.state;
  deal.played += 1;
  deal.record.push(move);
  const ctx = context();
  const lines = [deal.game.says(move, ctx)];
  for (const event of answer.events) {
    if (event.type === "trick_won") {
      deal.dukalCaptured = false;
      lines.push(page.t("said.trick", { who: ctx.who(event.seat) }));
    } else if (event.type === "dukal_captured") {
      deal.dukalCaptured = true;
      lines.push(page.t("said.dukal_captured", { who: ctx.who(event.seat) }));
    } else if (event.type === "went_out") { // D23: who is out after this bout
      lines.push(page.t("said.went_out", { who: event.seats.map(ctx.who).join(", ") }));
    } else if (event.type === "bout_taken" || event.type === "bout_beaten_off"
               || event.type === "chien_shown") {
      lines.push(page.t(`said.${event.type}`, { who: ctx.who(event.seat) }));
    }
  }
  say(...lines);
  keep();
}

// The player's move: whatever they chose goes to /move, so that an illegal choice is
// answered with the service's own reason.
async function playerMove(move) {
  if (!deal || deal.busy || deal.view.to_act !== deal.c.seat) return;
  const id = deal.id;
  deal.busy = true;
  // The buttons are drawn anew after the move: a keyboard player gets the focus back.
  deal.refocus = $("you").contains(document.activeElement);
  $("table").setAttribute("aria-busy", "true");
  const full = { seat: deal.c.seat, ...move };
  try {
    const answer = await page.service.move(deal.c.game, deal.state, full);
    if (deal.id !== id) return;
    if (!answer.legal) {
      deal.busy = false;
      $("table").setAttribute("aria-busy", "false");
      showReason(answer.reason);
      return;
    }
    showReason(null);
    accept(full, answer);
    await step(id);
  } catch (e) {
    failed(e);
  }
}

function failed(error) {
  $("status").textContent = page.t("error", { detail: error.message });
}

// ---- drawing -----------------------------------------------------------------------

function context() {
  const { t } = page;
  const me = deal.c.seat;
  const card = (code) => {
    if (code === "?") return h("span", { class: "card small" }, cardBack(deal.c.game, t("hidden")));
    const known = page.info.byCode.get(code);
    return h("span", { class: "card small", title: known.name }, face(deal.c.game, known));
  };
  const number = numbers(page.lang);
  return {
    t, me, moves: deal.moves, dukalCaptured: deal.dukalCaptured, card,
    back: () => h("span", { class: "card small" }, cardBack(deal.c.game, t("hidden"))),
    who: (seat) => (seat === me ? t("you") : t("seat", { n: seat })),
    name: (code) => page.info.byCode.get(code)?.name ?? code,
    suit: (suit) => ({ S: "♠", H: "♥", D: "♦", C: "♣" })[suit] ?? suit,
    avatar: (code) => page.info.byCode.get(code)?.avatar ?? code,
    avatarOf: (suit) => page.info.avatars?.find((a) => a.suit === suit)?.avatar ?? suit,
    num: number,
  };
}

// A card is lit when clicking it plays a legal move: the move the game makes of a click,
// not any move naming the card (a five-player call names cards it does not play, T22).
function isLegal(code) {
  if (deal.template) {
    return deal.template.must_include.includes(code) || deal.template.choose_from.includes(code);
  }
  const move = deal.game.cardMove(deal.view, deal.c.seat, code, deal.moves);
  return deal.moves.some((m) => sameMove(m, move));
}

// A seat's notes: the game's, and with an evening kept, the seat's running total.
function notes(seat, ctx) {
  const out = deal.game.seatNotes(deal.view, seat, ctx);
  const totals = deal.game.evening && evening.totals(deal.game.evening(deal.c));
  if (totals && totals.length === deal.view.hands.length) {
    out.push(page.t("total", { score: ctx.num(totals[seat], true) }));
  }
  return out;
}

// A finger's tap: below phone width, every card keeps this much of itself uncovered, across
// and down (CSS px).
const TAP = 40;
const GAP = 6; // between two cards side by side

// Below phone width the hand is laid in rows across the seat's whole width: as few rows as
// leave every card TAP px uncovered, the cards shared evenly between them (no card alone on
// a row), each card placed by its column and row (--col, --line). Above it, the style sheet
// fans one row.
function layHand() {
  const hand = $("hand");
  const cards = [...hand.children];
  for (const name of ["--lines", "--step", "--card-fit"]) hand.style.removeProperty(name);
  if (!cards.length || !matchMedia("(max-width: 720px)").matches) return;
  // The room is the seat's, not the hand's, whose width follows the count a row.
  const base = parseFloat(getComputedStyle(hand).getPropertyValue("--card-base"));
  const room = hand.parentElement.clientWidth - 16;
  const fits = Math.max(1, Math.floor((room - base) / TAP) + 1);
  const rows = Math.ceil(cards.length / fits);
  const perRow = Math.ceil(cards.length / rows);
  // Few cards a row are drawn larger, side by side, to fill the row; many overlap, each
  // spread as far from the next as the row allows.
  const width = Math.min(base * 1.4, Math.max(base, (room - GAP * (perRow - 1)) / perRow));
  const step = perRow > 1 ? Math.min(width + GAP, (room - width) / (perRow - 1)) : width;
  hand.style.setProperty("--lines", String(rows));
  hand.style.setProperty("--card-fit", `${Math.floor(width * 10) / 10}px`);
  hand.style.setProperty("--step", `${Math.floor(step * 10) / 10}px`);
  // The last rows hold one card fewer where the cards do not share out exactly.
  const short = rows * perRow - cards.length;
  let i = 0;
  for (let line = 0; line < rows; line += 1) {
    for (let col = 0; col < perRow - (line >= rows - short ? 1 : 0); col += 1, i += 1) {
      cards[i].style.setProperty("--col", String(col));
      cards[i].style.setProperty("--line", String(line));
    }
  }
}

// A hand of another seat: at most eight cards, the backs first, then on top, less
// overlapped, the cards everyone has seen in it (API.md `known`), face up.
function fan(hand, game) {
  const seen = hand.filter((code) => code !== "?").slice(0, 8);
  const backs = Math.min(hand.length - seen.length, 8 - seen.length);
  return h("div", { class: "fan", "aria-hidden": "true" },
    Array.from({ length: backs }, () => h("span", { class: "card tiny" }, cardBack(game, ""))),
    seen.map((code) => h("span", { class: "card tiny seen" },
      face(game, page.info.byCode.get(code)))));
}

function render() {
  const focused = document.activeElement?.dataset?.key;
  const ctx = context();
  const { view, c, game } = deal;
  const n = view.hands.length;
  const mine = view.to_act === c.seat && !deal.busy;
  $("table").setAttribute("aria-busy", String(deal.busy));

  $("opponents").replaceChildren(...Array.from({ length: n - 1 }, (_, i) => (c.seat + 1 + i) % n)
    .map((seat) => {
      const count = view.hands[seat].length;
      return h("article", { class: `seat${view.to_act === seat ? " acting" : ""}`,
        "aria-label": `${ctx.who(seat)} · ${page.t("cards", { n: count })}` },
      h("h2", { class: "seat-name" }, h("span", { class: "name" }, ctx.who(seat)),
        h("span", { class: "ai" }, page.t("ai"))),
      fan(view.hands[seat], c.game),
      h("p", { class: "notes" }, [page.t("cards", { n: count }), ...notes(seat, ctx)]
        .join(" · ")));
    }));

  $("centre").replaceChildren(...game.centre(view, ctx).filter(Boolean));

  $("you-title").textContent = `${page.t("hand")} · ${[page.t("seat", { n: c.seat }),
    ...notes(c.seat, ctx)].join(" · ")}`;
  $("you").classList.toggle("acting", mine);
  $("status").textContent = view.phase === "over" ? page.t("end.title")
    : mine ? page.t(deal.template ? "turn.choose" : "turn.you",
      { n: deal.template?.count ?? 0, phase: page.t(`phase.${view.phase}`) })
      : page.t("turn.ai", { who: ctx.who(view.to_act) });

  const hand = [...view.hands[c.seat]].sort((a, b) =>
    page.info.byCode.get(a).i - page.info.byCode.get(b).i);
  $("hand").classList.toggle("selecting", Boolean(deal.template));
  $("hand").style.setProperty("--gaps", String(Math.max(hand.length - 1, 1)));
  $("hand").replaceChildren(...hand.map((code) => {
    const known = page.info.byCode.get(code);
    const legal = mine && isLegal(code);
    const chosen = deal.selection?.has(code);
    return h("button", {
      type: "button", class: `card${legal ? " legal" : ""}${chosen ? " chosen" : ""}`,
      dataset: { code, key: `card:${code}` },
      "aria-label": legal ? `${known.name}, ${page.t("legal")}` : known.name,
      "aria-pressed": deal.selection ? String(Boolean(chosen)) : null,
      "aria-disabled": mine ? null : "true",
      title: known.name,
      onclick: () => chooseCard(code),
    }, face(c.game, known));
  }));

  const buttons = mine ? (deal.template ? [] : game.buttons(view, ctx)) : [];
  const controls = buttons.map((b, i) => {
    const legal = deal.moves.some((m) => sameMove(m, { seat: c.seat, ...b.move }));
    return h("button", { type: "button", class: `action${legal ? " legal" : ""}`,
      dataset: { key: `action:${i}:${b.move.action}` }, onclick: () => playerMove(b.move) },
    b.label);
  });
  if (mine && deal.template) {
    const k = deal.template.count;
    controls.push(h("button", { type: "button", class: "action legal confirm",
      dataset: { key: "confirm" }, disabled: deal.selection.size !== k,
      onclick: () => playerMove({ action: "discard", cards: [...deal.selection] }) },
    page.t("confirm", { n: deal.selection.size, k })));
  }
  $("controls").replaceChildren(...controls);
  layHand();

  const again = focused && document.querySelector(`[data-key="${CSS.escape(focused)}"]`);
  if (again) {
    again.focus();
  } else if (mine && (focused || deal.refocus)) {
    deal.refocus = false;
    (document.querySelector("#hand .legal") ?? document.querySelector("#controls .legal"))?.focus();
  }
}

function chooseCard(code) {
  if (!deal || deal.busy || deal.view.to_act !== deal.c.seat) return;
  if (!deal.selection) {
    playerMove(deal.game.cardMove(deal.view, deal.c.seat, code, deal.moves));
    return;
  }
  if (deal.selection.has(code)) deal.selection.delete(code);
  else deal.selection.add(code);
  showReason(null);
  render();
}

function sameMove(a, b) {
  return JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

// The service's reason names cards by their codes ("7H does not beat 8H"); the page shows
// each by the name the log and the hand use. Only whole words that are card codes of the
// game are read as cards.
function named(message) {
  return message.replace(/[\p{L}\p{N}]+/gu, (word) => page.info?.byCode.get(word)?.name ?? word);
}

function showReason(reason) {
  const node = $("reason");
  node.hidden = !reason;
  node.textContent = reason ? page.t("illegal", { message: named(reason.message),
    rule: reason.rule }) : "";
}

function showSettlement(again = false) {
  const ctx = context();
  const { game, c, view } = deal;
  const review = game.review ? h("details", { class: "review", id: "review" },
    h("summary", {}, page.t("review.title")), game.review(deal.state, view.result, ctx)) : null;
  // The evening's whole sheet, on the score keeper's page, for a game kept over an evening.
  const sheet = game.evening && evening.evening && !evening.evening.unsaved
    ? h("a", { id: "sheet-link", class: "button-link", href: `/scores?evening=${evening.evening.id}` },
      page.t("score.open_sheet")) : null;
  // replaceChildren writes a null as the text "null": a game without a review has none.
  $("settlement-body").replaceChildren(...[...game.settlement(view.result, ctx), review,
    h("div", { class: "settlement-tools" },
      h("button", { type: "button", id: "record", onclick: downloadRecord }, page.t("record")),
      sheet)].filter(Boolean));
  $("settlement").hidden = false;
  if (!again) {
    say(page.t("end.title"));
    $("settlement").focus();
  }
  if (game.evening && !deal.recorded) {
    // The deal joins the evening's sheet once, a reload of the ended deal included.
    deal.recorded = true;
    keep();
    const id = deal.id;
    evening.addPlayed(game.evening(c), view.result, c.seat).then(() => {
      if (deal.id !== id) return;
      render(); // each seat's new total
      showSettlement(true); // and the link to the sheet
    }).catch(failed);
  }
}

// The whole deal as a game record (API.md): the deal request with the deck it dealt from,
// and every move in order; /replay plays it again to the same settlement.
function downloadRecord() {
  const record = { game: deal.c.game, deal: deal.request, moves: deal.record };
  download(`${deal.c.game}-record.json`, "application/json", `${JSON.stringify(record, null, 2)}\n`);
}

// A line of the log, numbered from the deal's first in the language's digits: a number of
// the page's own, never a list marker cut off past 99.
function logLine(line, index) {
  return h("li", {}, h("span", { class: "n", "aria-hidden": "true" },
    numbers(page.lang)(index + 1)), h("span", { class: "line" }, line));
}

// What happened, in the log and, all of it at once, in the live region. The log keeps the
// whole deal, numbered from its first move, and scrolls to the newest line.
function say(...lines) {
  const log = $("log");
  for (const line of lines) log.append(logLine(line, deal.lines.push(line) - 1));
  log.lastElementChild?.scrollIntoView({ block: "nearest" });
  $("announcer").textContent = lines.join(". ");
}

// ---- start -------------------------------------------------------------------------

async function start() {
  $("language").replaceChildren(...LANGUAGES.map((l) =>
    h("option", { value: l.code, lang: l.code }, l.name)));
  // A first visit speaks the browser's language, where it is one of the page's.
  const lang = read(LANG_KEY) ?? preferredLanguage(navigator.languages);
  $("language").value = lang;
  await setLanguage(lang);
  $("language").addEventListener("change", async (e) => {
    await setLanguage(e.target.value);
    if (deal?.view) {
      await gameWords(deal.c.game);
      showReason(null);
      render();
      if (deal.view.phase === "over") showSettlement(true);
    }
  });
  $("game").addEventListener("change", () => fillSeats($("seat").value));
  $("setup").addEventListener("submit", (e) => { e.preventDefault(); newDeal(); });
  $("again").addEventListener("click", () => newDeal());
  // A hand of phone width is laid out in even rows: its width decides how many a row.
  new ResizeObserver(() => deal?.view && layHand()).observe($("you"));
  if (!(await resume())) await newDeal();
}

start();
