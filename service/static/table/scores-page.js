// The score keeper page (/scores): the Tarot evenings kept in this browser, newest first,
// one of them open, and a form to start another. Each evening's deals are settled by the
// service (POST /v1/games/tarot/session) in the language chosen, as on the table.

import { api } from "./api.js";
import { h } from "./dom.js";
import { findEvening, loadEvenings, newEvening, removeEvening } from "./evenings.js";
import { ScoreKeeper } from "./keeper.js";
import { explainProblem, nameProblems } from "./sheet-words.js";
import { read, write } from "./store.js";
import { catalogue, LANGUAGES, numbers, preferredLanguage } from "./words.js";

const LANG_KEY = "cardavia.table.language"; // one language for the table and the sheets
const $ = (id) => document.getElementById(id);

let openId = new URLSearchParams(location.search).get("evening");
let settingUp = false;
let deleting = null; // the evening whose deletion waits for a yes

const page = {
  lang: "en", t: (key) => key, service: null,
  num: (n, signed = false) => numbers(page.lang)(n, signed),
  // A table's evening names its seats as the table does, in the language of the moment.
  names: (evening) => (evening.table ? evening.players.map((_, seat) =>
    (seat === evening.seat ? page.t("you") : page.t("seat", { n: seat }))) : evening.players),
  title: (evening) => (evening.table ? page.t("keeper.evening.table", { n: evening.table })
    : page.names(evening).join(" · ")),
  when: (evening) => {
    const date = new Intl.DateTimeFormat(page.lang, { dateStyle: "medium", timeStyle: "short" })
      .format(new Date(evening.started));
    return page.t(evening.finished ? "keeper.when.finished" : "keeper.when", { date });
  },
  offerUndo,
  changed: () => drawHistory(),
};

const keeper = new ScoreKeeper($("evening"), page);

// ---- undo ----------------------------------------------------------------------------

function offerUndo(text, undo) {
  const bar = $("undo");
  const button = h("button", { type: "button", id: "undo-button", onclick: async () => {
    bar.hidden = true;
    await undo();
    drawHistory();
  } }, page.t("undo"));
  bar.replaceChildren(h("span", {}, text), button);
  bar.hidden = false;
  button.focus();
}

// ---- the history -----------------------------------------------------------------------

function eveningEntry(evening) {
  const { t } = page;
  const current = evening.id === openId && !settingUp;
  const tools = deleting === evening.id
    ? [h("span", { class: "confirm-question" }, t("keeper.delete.ask")),
      h("button", { type: "button", class: "danger", id: "evening-confirm-delete",
        onclick: () => forget(evening) }, t("score.delete.yes")),
      h("button", { type: "button", id: "evening-keep",
        onclick: () => { deleting = null; drawHistory(); } }, t("score.delete.no"))]
    : [h("button", { type: "button", class: "delete-evening",
      "aria-label": `${t("score.delete")} · ${page.title(evening)}`,
      onclick: () => { deleting = evening.id; drawHistory(); $("evening-keep")?.focus(); } },
    t("score.delete"))];
  return h("li", { class: current ? "current" : null, dataset: { id: evening.id } },
    h("a", { href: `?evening=${encodeURIComponent(evening.id)}`, "aria-current": current ? "page" : null,
      onclick: (e) => { e.preventDefault(); openEvening(evening.id); } },
    h("span", { class: "evening-title" }, page.title(evening)),
    h("span", { class: "evening-when" }, `${page.when(evening)} · ${t("keeper.deals", { n: evening.deals.length })}`)),
    h("span", { class: "evening-tools" }, tools));
}

function drawHistory() {
  const { t } = page;
  const evenings = loadEvenings();
  const file = h("input", { type: "file", accept: ".json,application/json", id: "score-import",
    class: "visually-hidden", onchange: (e) => { if (e.target.files[0]) importFile(e.target.files[0]); } });
  $("history").replaceChildren(
    h("h2", { id: "history-title" }, t("keeper.history")),
    h("div", { class: "history-tools" },
      h("button", { type: "button", class: "primary", id: "new-evening",
        onclick: () => { settingUp = true; draw(); } }, t("keeper.new")),
      h("button", { type: "button", id: "score-import-button", onclick: () => file.click() },
        t("score.import")), file),
    evenings.length ? h("ol", { class: "evenings" }, evenings.map(eveningEntry))
      : h("p", { class: "empty" }, t("keeper.none")));
}

async function forget(evening) {
  deleting = null;
  const restore = removeEvening(evening.id);
  if (openId === evening.id) openId = loadEvenings()[0]?.id ?? null;
  await draw();
  offerUndo(page.t("keeper.deleted", { title: page.title(evening) }), async () => {
    restore();
    openId = evening.id;
    await draw();
  });
}

// ---- a new evening -----------------------------------------------------------------------

function setupView(problems = []) {
  const { t } = page;
  const count = h("select", { id: "score-count" }, [3, 4, 5].map((n) =>
    h("option", { value: String(n) }, page.num(n))));
  count.value = "4";
  const names = h("div", { class: "score-names" });
  const dealer = h("select", { id: "score-dealer" });
  const typed = () => [...names.querySelectorAll("input")].map((input) => input.value.trim());
  // The first dealer is chosen by name, as the names are typed.
  const fillDealer = () => {
    const kept = dealer.value;
    dealer.replaceChildren(...typed().map((name, i) => h("option", { value: String(i) },
      name || t("score.player", { n: i + 1 }))));
    dealer.value = kept && Number(kept) < typed().length ? kept : "0";
  };
  const fill = () => {
    const kept = typed();
    names.replaceChildren(...Array.from({ length: Number(count.value) }, (_, i) => h("label", {},
      h("span", {}, t("score.player", { n: i + 1 })),
      h("input", { type: "text", maxlength: "40", name: `player-${i}`, autocomplete: "off",
        value: kept[i] ?? "", oninput: fillDealer }))));
    fillDealer();
  };
  count.addEventListener("change", fill);
  fill();
  const errors = h("ul", { class: "score-errors", role: "alert" },
    problems.map((line) => h("li", {}, line)));
  return h("form", { class: "score-setup", id: "score-setup-form", novalidate: true,
    onsubmit: async (e) => {
      e.preventDefault();
      const players = typed();
      const wrong = nameProblems(players, t);
      if (!wrong.length) {
        try {
          await page.service.session({ players, deals: [], dealer: Number(dealer.value) });
        } catch (err) {
          wrong.push(...explainProblem(err, t, players));
        }
      }
      if (wrong.length) {
        errors.replaceChildren(...wrong.map((line) => h("li", {}, line)));
        return;
      }
      const evening = newEvening(players, Number(dealer.value));
      settingUp = false;
      openEvening(evening.id);
    } },
  h("h2", { id: "scores-title" }, t("keeper.new")),
  h("label", {}, h("span", {}, t("score.count")), count), names,
  h("label", {}, h("span", {}, t("score.first_dealer")), dealer), errors,
  h("div", { class: "score-actions" },
    h("button", { type: "submit", class: "primary", id: "score-start" }, t("score.start")),
    loadEvenings().length ? h("button", { type: "button", id: "score-setup-cancel",
      onclick: () => { settingUp = false; draw(); } }, t("score.cancel")) : null));
}

async function importFile(file) {
  let session;
  try {
    session = JSON.parse(await file.text());
    await page.service.session(session);
  } catch (e) {
    const why = e instanceof SyntaxError ? [page.t("keeper.import.not_json")]
      : explainProblem(e, page.t, session?.players ?? []);
    offerNothing(why);
    return;
  }
  const evening = newEvening(session.players, session.dealer ?? 0, { deals: session.deals });
  settingUp = false;
  openEvening(evening.id);
}

// A file that is no session: said above the sheets, in the page's words.
function offerNothing(lines) {
  const bar = $("undo");
  bar.replaceChildren(h("span", { class: "score-problem" }, page.t("score.import.bad")),
    h("ul", { class: "score-errors" }, lines.map((line) => h("li", {}, line))));
  bar.hidden = false;
}

// ---- the page ------------------------------------------------------------------------------

async function openEvening(id) {
  openId = id;
  settingUp = false;
  history.replaceState(null, "", id ? `?evening=${encodeURIComponent(id)}` : location.pathname);
  await draw();
}

async function draw() {
  drawHistory();
  const evening = openId ? findEvening(openId) : null;
  if (settingUp || !evening) {
    keeper.evening = null;
    if (!settingUp && loadEvenings().length) {
      await openEvening(loadEvenings()[0].id);
      return;
    }
    $("evening").replaceChildren(setupView());
    return;
  }
  if (keeper.evening?.id === evening.id) {
    keeper.evening = evening;
    await keeper.refresh();
  } else {
    await keeper.show(evening);
  }
  $("evening").dataset.evening = evening.id; // which evening is shown, for tests to wait on
}

async function setLanguage(lang) {
  const known = LANGUAGES.find((l) => l.code === lang) ?? LANGUAGES[0];
  page.lang = known.code;
  page.t = await catalogue(known.code);
  page.service = api(known.code);
  write(LANG_KEY, known.code);
  document.documentElement.lang = known.code;
  document.documentElement.dir = known.dir;
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = page.t(node.dataset.word);
  document.title = page.t("keeper.title");
  $("title").textContent = page.t("keeper.title");
}

async function start() {
  $("language").replaceChildren(...LANGUAGES.map((l) =>
    h("option", { value: l.code, lang: l.code }, l.name)));
  const lang = read(LANG_KEY) ?? preferredLanguage(navigator.languages);
  $("language").value = lang;
  await setLanguage(lang);
  $("language").addEventListener("change", async (e) => {
    await setLanguage(e.target.value);
    $("undo").hidden = true;
    await draw();
  });
  await draw();
  document.body.dataset.ready = "true";
}

start();
