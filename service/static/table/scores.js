// The score keeper: a Tarot session (named players, deal after deal) kept in the browser
// and settled by the service's session endpoint, which answers every deal's settlement, the
// running totals, the next dealer and the statistics. The page computes no score itself: it
// shows the service's figures and how they add up. Two sheets are kept: the table's evening
// (one per player count, the deals played at the table) and the player's own players.

import { h } from "./dom.js";

const OWN_KEY = "cardavia.table.scores.own";
const TABLE_KEY = "cardavia.table.scores.table";
const CONTRACTS = ["prise", "garde", "garde_sans", "garde_contre"];
const LEVELS = ["simple", "double", "triple"];
const CALLING = 5; // T22: five players call a partner
const SVG = "http://www.w3.org/2000/svg";

// svg("polyline", {points}): as h(), in the SVG namespace.
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export { download };

function read(key) {
  try {
    const session = JSON.parse(localStorage.getItem(key) || "null");
    return session && Array.isArray(session.players) && Array.isArray(session.deals) ? session : null;
  } catch {
    return null;
  }
}

// "۴۰٫۵", "४०.५" or "40,5" as 40.5; anything else as NaN, for the service to refuse.
export function readNumber(text) {
  const latin = String(text).trim()
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u0966-\u096f]/g, (d) => String(d.charCodeAt(0) - 0x0966))
    .replace(/[\u066b,]/g, ".");
  return /^\d+(\.\d+)?$/.test(latin) ? Number(latin) : Number.NaN;
}

const blankForm = (taker = 0) => ({
  kind: "played", taker, partner: taker, contract: "garde", bouts: 2, points: 41,
  petit: "", poignees: [], chelemAnnounced: false, chelemBy: "",
});

// The score sheet (the body of POST /settlement, `players` left to the session) a form
// describes, and back.
function sheetOf(form, count) {
  if (form.kind !== "played") return { annulled: form.kind };
  const sheet = {
    contract: form.contract, taker: Number(form.taker), bouts: Number(form.bouts),
    points: Number(form.points), petit_au_bout: form.petit || null,
    poignees: form.poignees.map((p) => ({ camp: p.camp, level: p.level })),
    chelem: { announced: form.chelemAnnounced, made_by: form.chelemBy || null },
  };
  if (count === CALLING) sheet.partner = Number(form.partner);
  return sheet;
}

function formOf(sheet) {
  if (sheet.annulled) return { ...blankForm(), kind: sheet.annulled };
  return {
    kind: "played", taker: sheet.taker ?? 0, partner: sheet.partner ?? sheet.taker ?? 0,
    contract: sheet.contract, bouts: sheet.bouts, points: sheet.points,
    petit: sheet.petit_au_bout ?? "", poignees: (sheet.poignees ?? []).map((p) => ({ ...p })),
    chelemAnnounced: Boolean(sheet.chelem?.announced), chelemBy: sheet.chelem?.made_by ?? "",
  };
}

// A settlement from the table (GET view's result) as the sheet that settles the same.
export function sheetOfSettlement(result) {
  if (result.annulled) return { annulled: result.annulled };
  const sheet = {
    contract: result.contract, taker: result.taker, bouts: result.bouts, points: result.points,
    petit_au_bout: result.petit_au_bout?.camp ?? null,
    // A played deal's poignée names its seat; the sheet names the camp that declared it.
    poignees: result.poignees.map((p) => ({ level: p.level, camp: p.declared_by
      ?? (p.seat === result.taker || p.seat === result.partner ? "taker" : "defense") })),
    chelem: result.chelem ? { announced: result.chelem.announced, made_by: result.chelem.made_by }
      : { announced: false, made_by: null },
  };
  if (result.partner !== undefined) sheet.partner = result.partner ?? result.taker;
  return sheet;
}

export class ScoreKeeper {
  // page: {t, lang, service, num(n, signed), who(seat), evening} read afresh at each use, so
  // that a change of language shows at the next render; `evening`: the game chosen keeps its
  // deals on this sheet. changed(): the sheet's totals moved.
  constructor(root, page, changed = () => {}) {
    this.root = root;
    this.page = page;
    this.changed = changed;
    this.kind = read(OWN_KEY) ? "own" : "table";
    this.count = 4; // the table's player count, for the table's sheet
    this.answer = null;
    this.problem = null;
    this.form = blankForm();
    this.editing = null;
    this.arithmetic = null;
    this.setup = false;
    this.asked = 0;
    this.aside = null; // drawn aside (closed at first) while the game chosen is not Tarot
    this.open = false;
  }

  key() { return this.kind === "own" ? OWN_KEY : `${TABLE_KEY}.${this.count}`; }

  session() {
    const stored = read(this.key());
    if (stored || this.kind === "own") return stored;
    // The table's evening starts with the dealer of a single deal (T18: the last seat).
    return { players: Array.from({ length: this.count }, (_, seat) =>
      this.page.t("seat", { n: seat })), deals: [], dealer: this.count - 1 };
  }

  save(session) { localStorage.setItem(this.key(), JSON.stringify(session)); }

  name(seat) {
    return this.kind === "table" ? this.page.who(seat) : this.session()?.players[seat] ?? "";
  }

  // The table's evening for `count` players, brought to the front.
  async showTable(count) {
    this.kind = "table";
    this.count = count;
    this.cancel();
    await this.refresh();
  }

  // A deal played at the table joins the evening of its count.
  async addPlayed(count, result) {
    this.kind = "table";
    this.count = count;
    const session = this.session();
    session.deals.push(sheetOfSettlement(result));
    this.save(session);
    await this.refresh();
  }

  // The dealer of the next deal: the service's word once a deal is recorded.
  async nextDealer(count) {
    if (this.kind !== "table" || this.count !== count || !this.answer) await this.showTable(count);
    return this.answer?.next_dealer ?? this.session().dealer ?? count - 1;
  }

  async refresh() {
    const session = this.session();
    const asked = ++this.asked;
    this.problem = null;
    this.answer = null;
    if (session) {
      try {
        const answer = await this.page.service.session(session);
        if (asked !== this.asked) return;
        this.answer = answer;
      } catch (e) {
        if (asked !== this.asked) return;
        this.problem = e.message;
      }
    }
    this.render();
    this.changed();
  }

  // Every figure of the sheet after each deal, for the seats at the table.
  totals() { return this.answer?.totals ?? null; }

  cancel() {
    this.editing = null;
    this.form = blankForm();
    this.arithmetic = null;
  }

  async commit() {
    const session = this.session();
    const sheet = sheetOf(this.form, session.players.length);
    const deals = [...session.deals];
    if (this.editing === null) deals.push(sheet);
    else deals[this.editing] = sheet;
    const candidate = { ...session, deals };
    try {
      await this.page.service.session(candidate); // refused sheets never reach the sheet
    } catch (e) {
      this.arithmetic = { error: e };
      this.render();
      return;
    }
    this.save(candidate);
    const taker = this.form.taker;
    this.cancel();
    this.form = blankForm(taker);
    await this.refresh();
    this.root.querySelector(".score-totals")?.scrollIntoView({ block: "nearest" });
  }

  async remove(index) {
    const session = this.session();
    session.deals.splice(index, 1);
    this.save(session);
    if (this.editing === index) this.cancel();
    await this.refresh();
  }

  edit(index) {
    this.editing = index;
    this.form = formOf(this.session().deals[index]);
    this.render();
    this.explain();
    this.root.querySelector(".score-form")?.scrollIntoView({ block: "nearest" });
  }

  // The settlement of the sheet being entered, from the service, as the form changes.
  async explain() {
    const session = this.session();
    if (!session) return;
    const asked = ++this.asked;
    const sheet = sheetOf(this.form, session.players.length);
    let arithmetic;
    if (sheet.annulled) {
      arithmetic = null;
    } else {
      try {
        arithmetic = { result: await this.page.service.settlement(
          { ...sheet, players: session.players.length }) };
      } catch (e) {
        arithmetic = { error: e };
      }
    }
    if (asked !== this.asked) return;
    this.arithmetic = arithmetic;
    const shown = this.root.querySelector(".score-arithmetic");
    if (shown) shown.replaceWith(this.arithmeticView());
  }

  async importFile(file) {
    let session;
    try {
      session = JSON.parse(await file.text());
      await this.page.service.session(session);
    } catch (e) {
      this.problem = this.page.t("score.import.bad", { detail: e.message });
      this.render();
      return;
    }
    this.kind = "own";
    this.save({ players: session.players, deals: session.deals,
      ...(session.dealer === undefined ? {} : { dealer: session.dealer }) });
    this.cancel();
    await this.refresh();
  }

  async exportCsv() {
    const text = await this.page.service.sessionCsv(this.session());
    download("tarot-session.csv", "text/csv", text);
  }

  // ---- drawing ---------------------------------------------------------------------

  render() {
    const { t } = this.page;
    const session = this.session();
    // Beside another game the sheet says it is Tarot's and starts closed, so that its Tarot
    // columns and form are not read as that game's; it stays open while the user keeps it so.
    // The user's own evening opens it: kept here on purpose, it is what the page is for then.
    const aside = !this.page.evening;
    if (aside !== this.aside) {
      this.aside = aside;
      this.open = this.kind === "own";
    }
    const title = h("h2", { id: "scores-title" }, aside ? t("score.title.tarot")
      : t("score.title"));
    const parts = [this.header(aside ? null : title)];
    if (this.problem) parts.push(h("p", { class: "score-problem", role: "alert" }, this.problem));
    if (this.setup || !session) {
      parts.push(this.setupView(session));
    } else {
      const answer = this.answer;
      parts.push(h("p", { class: "score-players" }, session.players.map((_, i) => this.name(i))
        .join(" · ")));
      if (answer) {
        parts.push(this.totalsView(session, answer), this.chart(answer),
          h("p", { class: "score-next" }, t("score.next_dealer", { who: this.name(answer.next_dealer) })));
      }
      parts.push(this.formView(session));
      if (answer?.deals.length) parts.push(this.statisticsView(answer));
    }
    // The sheet is drawn anew at each change: the field that had the focus keeps it.
    const focused = this.root.contains(document.activeElement) ? document.activeElement.id : "";
    if (aside) {
      const details = h("details", { class: "keeper-aside", open: this.open, ontoggle: (e) => {
        if (e.target === details) this.open = details.open;
      } }, h("summary", {}, title), parts);
      this.root.replaceChildren(details);
    } else {
      this.root.replaceChildren(...parts);
    }
    if (focused) document.getElementById(focused)?.focus();
  }

  // title: the sheet's heading, or null where the heading is drawn elsewhere.
  header(title) {
    const { t } = this.page;
    const which = h("select", { id: "score-sheet", onchange: async (e) => {
      this.kind = e.target.value;
      this.setup = false;
      this.cancel();
      await this.refresh();
    } },
    h("option", { value: "table" }, t("score.sheet.table", { n: this.count })),
    h("option", { value: "own" }, t("score.sheet.own")));
    which.value = this.kind;
    const file = h("input", { type: "file", accept: ".json,application/json", class: "visually-hidden",
      id: "score-import", onchange: (e) => e.target.files[0] && this.importFile(e.target.files[0]) });
    const session = this.session();
    return h("div", { class: "score-head" },
      title,
      h("label", {}, h("span", {}, t("score.sheet")), which),
      h("div", { class: "score-tools" },
        this.kind === "own" ? h("button", { type: "button", id: "score-new",
          onclick: () => { this.setup = true; this.render(); } }, t("score.new")) : null,
        session ? h("button", { type: "button", id: "score-export",
          onclick: () => download("tarot-session.json", "application/json",
            `${JSON.stringify(this.session(), null, 2)}\n`) }, t("score.export")) : null,
        session ? h("button", { type: "button", id: "score-export-csv",
          onclick: () => this.exportCsv() }, t("score.export_csv")) : null,
        h("button", { type: "button", id: "score-import-button",
          onclick: () => file.click() }, t("score.import")), file));
  }

  setupView(session) {
    const { t } = this.page;
    const count = h("select", { id: "score-count" }, [3, 4, 5].map((n) =>
      h("option", { value: String(n) }, this.page.num(n))));
    count.value = String(session?.players.length ?? 4);
    const names = h("div", { class: "score-names" });
    const dealer = h("select", { id: "score-dealer" });
    const fill = () => {
      const n = Number(count.value);
      const kept = [...names.querySelectorAll("input")].map((input) => input.value);
      names.replaceChildren(...Array.from({ length: n }, (_, i) => h("label", {},
        h("span", {}, t("score.player", { n: i + 1 })),
        h("input", { type: "text", maxlength: "40", required: true, name: `player-${i}`,
          value: kept[i] ?? session?.players[i] ?? "" }))));
      dealer.replaceChildren(...Array.from({ length: n }, (_, i) =>
        h("option", { value: String(i) }, t("score.player", { n: i + 1 }))));
    };
    count.addEventListener("change", fill);
    fill();
    return h("form", { class: "score-setup", onsubmit: async (e) => {
      e.preventDefault();
      const players = [...names.querySelectorAll("input")].map((input) => input.value.trim());
      if (new Set(players).size !== players.length || players.some((p) => !p)) {
        this.problem = t("score.names.distinct");
        this.render();
        return;
      }
      this.kind = "own";
      this.save({ players, deals: [], dealer: Number(dealer.value) });
      this.setup = false;
      this.cancel();
      await this.refresh();
    } },
    h("label", {}, h("span", {}, t("score.count")), count), names,
    h("label", {}, h("span", {}, t("score.first_dealer")), dealer),
    h("button", { type: "submit", class: "primary", id: "score-start" }, t("score.start")),
    session ? h("button", { type: "button", onclick: () => { this.setup = false; this.render(); } },
      t("score.cancel")) : null);
  }

  summary(deal, sheet) {
    const { t } = this.page;
    const s = deal.settlement;
    if (s.annulled) return t(`score.annulled.${s.annulled}`);
    return t(s.made ? "score.made" : "score.failed", { contract: t(`contract.${s.contract}`),
      who: this.name(s.taker) }) + (sheet.partner !== undefined && s.partner !== null
      ? ` · ${t("score.with", { who: this.name(s.partner) })}` : "");
  }

  totalsView(session, answer) {
    const { t, num } = this.page;
    const n = session.players.length;
    const head = h("tr", {}, h("th", { scope: "col" }, t("score.number")),
      h("th", { scope: "col" }, t("score.dealer")), h("th", { scope: "col" }, t("score.summary")),
      Array.from({ length: n }, (_, i) => h("th", { scope: "col" }, this.name(i))),
      h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("score.actions"))));
    const rows = answer.deals.map((deal, index) => h("tr", {
      class: this.editing === index ? "editing" : null },
    h("th", { scope: "row" }, num(index + 1)),
    h("td", {}, this.name(deal.dealer)),
    h("td", {}, this.summary(deal, session.deals[index])),
    deal.settlement.scores.map((score, i) => h("td", { class: "figure" },
      h("span", { class: "deal-score" }, num(score, true)),
      h("span", { class: "running" }, num(deal.totals[i], true)))),
    h("td", { class: "row-tools" },
      h("button", { type: "button", class: "edit", onclick: () => this.edit(index),
        "aria-label": `${t("score.edit")} ${num(index + 1)}` }, t("score.edit")),
      h("button", { type: "button", class: "delete", onclick: () => this.remove(index),
        "aria-label": `${t("score.delete")} ${num(index + 1)}` }, t("score.delete")))));
    const foot = h("tr", { class: "total" }, h("th", { scope: "row", colspan: "3" }, t("score.total")),
      answer.totals.map((total) => h("td", { class: "figure" }, h("strong", {}, num(total, true)))),
      h("td", {}));
    return h("div", { class: "score-totals" },
      answer.deals.length ? null : h("p", {}, t("score.empty")),
      h("table", {}, h("caption", { class: "visually-hidden" }, t("score.title")),
        h("thead", {}, head), h("tbody", {}, rows), h("tfoot", {}, foot)));
  }

  // Each player's running total after each deal, from 0 before the first: a line a player,
  // drawn by the page (left to right in every language, as time runs on the axis).
  chart(answer) {
    const { t, num } = this.page;
    const series = answer.totals.map((_, i) => [0, ...answer.deals.map((d) => d.totals[i])]);
    const all = series.flat();
    let low = Math.min(0, ...all);
    let high = Math.max(0, ...all);
    if (low === high) { low -= 10; high += 10; }
    const W = 640; const H = 240; const left = 56; const right = 12; const top = 12; const bottom = 28;
    const steps = Math.max(answer.deals.length, 1);
    const x = (k) => left + (k * (W - left - right)) / steps;
    const y = (v) => top + ((high - v) * (H - top - bottom)) / (high - low);
    const label = (v) => svg("text", { x: String(left - 6), y: String(y(v) + 4), class: "axis",
      "text-anchor": "end" }, num(v));
    const every = Math.ceil(steps / 12);
    const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "score-chart",
      "aria-labelledby": "score-chart-title", direction: "ltr" },
    svg("title", { id: "score-chart-title" }, t("score.chart")),
    svg("line", { x1: String(left), x2: String(W - right), y1: String(y(0)), y2: String(y(0)),
      class: "zero" }),
    svg("line", { x1: String(left), x2: String(left), y1: String(top), y2: String(H - bottom),
      class: "axis-line" }),
    label(high), label(0), low < 0 ? label(low) : null,
    Array.from({ length: answer.deals.length + 1 }, (_, k) => (k % every ? null
      : svg("text", { x: String(x(k)), y: String(H - 8), class: "axis", "text-anchor": "middle" },
        num(k)))),
    series.map((values, i) => svg("g", { class: `player p${i}` },
      svg("polyline", { points: values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ") }),
      values.map((v, k) => svg("circle", { cx: x(k).toFixed(1), cy: y(v).toFixed(1), r: "3" },
        svg("title", {}, `${this.name(i)}: ${num(v, true)}`))))));
    const legend = h("ul", { class: "score-legend" }, answer.totals.map((total, i) =>
      h("li", { class: `p${i}` }, h("span", { class: "swatch", "aria-hidden": "true" }),
        `${this.name(i)} `, h("strong", {}, num(total, true)))));
    return h("figure", { class: "score-figure" },
      h("figcaption", {}, t("score.chart")), picture, legend);
  }

  statisticsView(answer) {
    const { t, num } = this.page;
    const columns = ["taken", "made", "failed", "mean", "petits", "poignees", "chelems"];
    const value = (s, column) => {
      if (column === "mean") return s.mean_points_as_taker === null ? "–" : num(s.mean_points_as_taker);
      const field = { petits: "petits_au_bout" }[column] ?? column;
      return num(s[field]);
    };
    return h("details", { class: "score-stats" }, h("summary", {}, t("score.stats")),
      h("div", { class: "score-totals score-statistics" }, h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("score.player.column")),
          columns.map((c) => h("th", { scope: "col" }, t(`score.stats.${c}`))))),
        h("tbody", {}, answer.statistics.map((s, i) => h("tr", {},
          h("th", { scope: "row" }, this.name(i)),
          columns.map((c) => h("td", { class: "figure" }, value(s, c)))))))));
  }

  formView(session) {
    const { t, num } = this.page;
    const n = session.players.length;
    const f = this.form;
    const changed = () => { this.render(); this.explain(); };
    const select = (id, options, value, set) => {
      const node = h("select", { id, onchange: (e) => { set(e.target.value); changed(); } },
        options.map(([v, text]) => h("option", { value: String(v) }, text)));
      node.value = String(value);
      return node;
    };
    const seats = Array.from({ length: n }, (_, i) => [i, this.name(i)]);
    const camps = [["", t("score.none")], ["taker", t("score.camp.taker")],
      ["defense", t("score.camp.defense")]];
    const field = (label, control) => h("label", {}, h("span", {}, label), control);
    const fields = [field(t("score.kind"), select("score-kind",
      ["played", "all_pass", "petit_sec"].map((k) => [k, t(`score.kind.${k}`)]), f.kind,
      (v) => { f.kind = v; }))];
    if (f.kind === "played") {
      fields.push(
        field(t("score.taker"), select("score-taker", seats, f.taker, (v) => {
          if (Number(f.partner) === Number(f.taker)) f.partner = Number(v);
          f.taker = Number(v);
        })),
        n === CALLING ? field(t("score.partner"), select("score-partner", seats.map(([i, name]) =>
          [i, i === Number(f.taker) ? t("score.alone") : name]), f.partner,
        (v) => { f.partner = Number(v); })) : null,
        field(t("score.contract"), select("score-contract", CONTRACTS.map((c) =>
          [c, t(`contract.${c}`)]), f.contract, (v) => { f.contract = v; })),
        field(t("score.bouts"), select("score-bouts", [0, 1, 2, 3].map((b) => [b, num(b)]), f.bouts,
          (v) => { f.bouts = Number(v); })),
        // A text field, so that the points read in the language's digits as every other
        // figure does; what is typed is read in any digits, with "." or the local separator.
        field(t("score.points"), h("input", { id: "score-points", type: "text",
          value: num(Number(f.points)), inputmode: "decimal", autocomplete: "off",
          oninput: (e) => { f.points = readNumber(e.target.value); this.explain(); } })),
        field(t("score.petit"), select("score-petit", camps, f.petit, (v) => { f.petit = v; })),
        h("fieldset", { class: "score-poignees" }, h("legend", {}, t("score.poignees")),
          f.poignees.map((p, k) => h("div", { class: "poignee-row" },
            select(`score-poignee-camp-${k}`, camps.slice(1), p.camp, (v) => { p.camp = v; }),
            select(`score-poignee-level-${k}`, LEVELS.map((l) => [l, t(`poignee.${l}`)]), p.level,
              (v) => { p.level = v; }),
            h("button", { type: "button", onclick: () => { f.poignees.splice(k, 1); changed(); } },
              t("score.poignee.remove")))),
          h("button", { type: "button", id: "score-poignee-add", onclick: () => {
            f.poignees.push({ camp: "taker", level: "simple" });
            changed();
          } }, t("score.poignee.add"))),
        h("label", { class: "check" }, h("input", { type: "checkbox", id: "score-chelem-announced",
          checked: f.chelemAnnounced, onchange: (e) => { f.chelemAnnounced = e.target.checked; changed(); } }),
        h("span", {}, t("score.chelem.announced"))),
        field(t("score.chelem.made_by"), select("score-chelem-by", camps, f.chelemBy,
          (v) => { f.chelemBy = v; })),
      );
    }
    return h("form", { class: "score-form", onsubmit: (e) => { e.preventDefault(); this.commit(); } },
      h("h3", {}, this.editing === null ? t("score.new_deal", { n: session.deals.length + 1 })
        : t("score.editing", { n: this.editing + 1 })),
      h("div", { class: "score-fields" }, fields),
      this.arithmeticView(),
      h("div", { class: "score-actions" },
        h("button", { type: "submit", class: "primary", id: "score-save" },
          t(this.editing === null ? "score.add" : "score.save")),
        this.editing === null ? null : h("button", { type: "button", onclick: () => {
          this.cancel(); this.render();
        } }, t("score.cancel"))));
  }

  // The service's settlement of the sheet being entered, item by item: the target, the
  // margin, the base, each bonus with its camp, D, and what each seat scores.
  arithmeticView() {
    const { t, num } = this.page;
    const box = h("div", { class: "score-arithmetic", "aria-live": "polite" });
    const a = this.arithmetic;
    if (!a) return box;
    if (a.error) {
      const errors = a.error.problem?.errors ?? [];
      box.append(h("p", { class: "score-problem", role: "alert" }, a.error.message),
        h("ul", { class: "score-errors" }, errors.map((e) => h("li", {},
          h("code", {}, e.field ?? ""), " ", e.message))));
      return box;
    }
    const r = a.result;
    const formula = (text) => h("td", { class: "formula", dir: "ltr" }, text);
    const signed = (v) => num(v, true);
    const margin = Math.abs(r.base) / r.multiplier - 25;
    const counted = r.made ? r.target + margin : r.target - margin;
    const sign = (camp) => (camp === "taker" ? 1 : -1);
    const rows = [
      [t("math.target", { bouts: t("math.bouts", { n: r.bouts }) }), num(r.target)],
      ...(counted === r.points ? [] : [[t("math.half"), `${num(r.points)} → ${num(counted)}`]]),
      [t("math.margin"), `|${num(counted)} − ${num(r.target)}| = ${num(margin)}`],
      [t(r.made ? "math.base.made" : "math.base.failed"),
        `(${num(25)} + ${num(margin)}) × ${num(r.multiplier)} = ${signed(r.base)}`],
    ];
    const terms = [r.base];
    if (r.petit_au_bout) {
      rows.push([t("math.petit", { camp: t(`camp.${r.petit_au_bout.camp}`) }),
        signed(sign(r.petit_au_bout.camp) * r.petit_au_bout.value)]);
      terms.push(sign(r.petit_au_bout.camp) * r.petit_au_bout.value);
    }
    for (const p of r.poignees) {
      rows.push([t("math.poignee", { level: t(`poignee.${p.level}`),
        declared: t(`score.camp.${p.declared_by}`), camp: t(`camp.${p.camp}`) }),
      signed(sign(p.camp) * p.value)]);
      terms.push(sign(p.camp) * p.value);
    }
    if (r.chelem) {
      rows.push([t("math.chelem", { camp: t(`camp.${r.chelem.camp}`) }),
        signed(sign(r.chelem.camp) * r.chelem.value)]);
      terms.push(sign(r.chelem.camp) * r.chelem.value);
    }
    const sum = terms.map((v, i) => (i === 0 ? num(v) : `${v < 0 ? "−" : "+"} ${num(Math.abs(v))}`))
      .join(" ");
    rows.push([t("math.d"), terms.length > 1 ? `${sum} = ${num(r.per_defender)}` : num(r.per_defender)]);
    const D = r.per_defender;
    const defenders = r.scores.filter((s, seat) => seat !== r.taker && seat !== r.partner).length;
    const takerShare = r.scores[r.taker] / (D || 1);
    rows.push([t("math.taker", { who: this.name(r.taker) }),
      D ? `${num(takerShare)} × ${num(D)} = ${signed(r.scores[r.taker])}` : signed(0)]);
    if (r.partner !== undefined && r.partner !== null) {
      rows.push([t("math.partner", { who: this.name(r.partner) }), signed(r.scores[r.partner])]);
    }
    rows.push([t("math.defenders", { n: defenders }), signed(-D)]);
    box.append(h("h4", {}, t("score.arithmetic")), h("table", { class: "itemised" },
      h("tbody", {}, rows.map(([item, value]) => h("tr", {}, h("th", { scope: "row" }, item),
        formula(value))))));
    return box;
  }
}
