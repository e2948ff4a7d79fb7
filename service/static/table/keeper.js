// One Tarot evening on the score keeper page: the deals' rows, the running totals and their
// chart, the form that adds or edits a deal, and each player's statistics. The service's
// session endpoint settles every sheet; the page computes no score itself, and shows the
// service's figures and how they add up.

import { download, h } from "./dom.js";
import { putEvening, sessionOf } from "./evenings.js";
import { explainProblem, formProblems } from "./sheet-words.js";

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

// "۴۰٫۵", "४०.५" or "40,5" as 40.5; anything else as NaN, which the form refuses.
export function readNumber(text) {
  const latin = String(text).trim()
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u0966-\u096f]/g, (d) => String(d.charCodeAt(0) - 0x0966))
    .replace(/[\u066b,]/g, ".");
  return /^\d+(\.\d+)?$/.test(latin) ? Number(latin) : Number.NaN;
}

// A new deal's form. The five-player partner starts unchosen ("" ), so that nobody is
// written down as playing alone by a form left as it came.
const blankForm = (taker = 0) => ({
  kind: "played", taker, partner: "", contract: "garde", bouts: 2, points: 41,
  petit: "", poignees: [], chelemAnnounced: false, chelemBy: "",
});

// The camp of a seat in the deal the form describes.
function campOf(form, seat) {
  const partner = form.partner === "" ? null : Number(form.partner);
  return seat === Number(form.taker) || seat === partner ? "taker" : "defense";
}

// The score sheet (a session's deal) a form describes, and back. A poignée row names a
// seat ("2") or, where the sheet did not say who, only a camp ("camp:defense").
function sheetOf(form, count) {
  if (form.kind !== "played") return { annulled: form.kind };
  const sheet = {
    contract: form.contract, taker: Number(form.taker), bouts: Number(form.bouts),
    points: Number(form.points), petit_au_bout: form.petit || null,
    poignees: form.poignees.map((p) => (p.who.startsWith("camp:")
      ? { camp: p.who.slice(5), level: p.level }
      : { camp: campOf(form, Number(p.who)), level: p.level, seat: Number(p.who) })),
    chelem: { announced: form.chelemAnnounced, made_by: form.chelemBy || null },
  };
  // Unchosen, the partner is left out: the form refuses it (sheet-words.js), and so would the
  // service, never reading it as a taker alone.
  if (count === CALLING && form.partner !== "") sheet.partner = Number(form.partner);
  return sheet;
}

function formOf(sheet) {
  if (sheet.annulled) return { ...blankForm(), kind: sheet.annulled };
  return {
    kind: "played", taker: sheet.taker ?? 0, partner: sheet.partner ?? sheet.taker ?? 0,
    contract: sheet.contract, bouts: sheet.bouts, points: sheet.points,
    petit: sheet.petit_au_bout ?? "",
    poignees: (sheet.poignees ?? []).map((p) => ({ level: p.level,
      who: p.seat === undefined ? `camp:${p.camp}` : String(p.seat) })),
    chelemAnnounced: Boolean(sheet.chelem?.announced), chelemBy: sheet.chelem?.made_by ?? "",
  };
}

export class ScoreKeeper {
  // page: {t, lang, service, num(n, signed), names(evening), offerUndo(text, undo)}, read
  // afresh at each use, so that a change of language shows at the next render.
  constructor(root, page) {
    this.root = root;
    this.page = page;
    this.evening = null;
    this.answer = null;
    this.problem = null;
    this.form = blankForm();
    this.editing = null;
    this.deleting = null;
    this.arithmetic = null;
    this.asked = 0;
  }

  name(seat) { return this.page.names(this.evening)[seat] ?? ""; }

  async show(evening) {
    this.evening = evening;
    this.cancel();
    this.deleting = null;
    await this.refresh();
  }

  save(deals) {
    this.evening = { ...this.evening, deals };
    putEvening(this.evening);
    this.page.changed();
  }

  async refresh() {
    const asked = ++this.asked;
    this.problem = null;
    this.answer = null;
    try {
      const answer = await this.page.service.session(sessionOf(this.evening));
      if (asked !== this.asked) return;
      this.answer = answer;
    } catch (e) {
      if (asked !== this.asked) return;
      this.problem = explainProblem(e, this.page.t, this.names());
    }
    this.render();
  }

  names() { return this.page.names(this.evening); }

  cancel() {
    this.editing = null;
    this.form = blankForm();
    this.arithmetic = null;
  }

  // The form's problems in the page's words (sheet-words.js), or the service's settlement
  // of the sheet: what the arithmetic box shows, and what keeps a deal off the sheet.
  async check(sheet) {
    const local = formProblems(this.form, this.evening.players.length, this.page.t);
    if (local.length) return { errors: local };
    if (sheet.annulled) return null;
    try {
      return { result: await this.page.service.settlement(
        { ...sheet, players: this.evening.players.length }) };
    } catch (e) {
      return { errors: explainProblem(e, this.page.t, this.names(), this.dealNumber()) };
    }
  }

  dealNumber() {
    return this.editing === null ? this.evening.deals.length + 1 : this.editing + 1;
  }

  // Nothing on the form can change while the service is asked: an edit made meanwhile
  // would be wiped by the next deal's blank form (and its taker carried into it).
  async commit() {
    if (this.saving) return;
    this.saving = true;
    this.render();
    try {
      await this.store(sheetOf(this.form, this.evening.players.length));
    } finally {
      this.saving = false;
      this.render();
    }
  }

  async store(sheet) {
    const checked = await this.check(sheet);
    if (checked?.errors) {
      this.arithmetic = checked;
      this.render();
      this.root.querySelector(".score-errors")?.scrollIntoView({ block: "nearest" });
      return;
    }
    const deals = [...this.evening.deals];
    if (this.editing === null) deals.push(sheet);
    else deals[this.editing] = sheet;
    this.save(deals);
    const { taker } = this.form;
    this.cancel();
    this.form = blankForm(taker);
    await this.refresh();
    this.root.querySelector(".score-totals")?.scrollIntoView({ block: "nearest" });
  }

  // A deal leaves the sheet once its deletion is confirmed; the page offers to undo it.
  async remove(index) {
    const deals = [...this.evening.deals];
    const [gone] = deals.splice(index, 1);
    this.deleting = null;
    if (this.editing === index) this.cancel();
    this.save(deals);
    await this.refresh();
    const id = this.evening.id;
    this.page.offerUndo(this.page.t("score.deleted", { n: index + 1 }), async () => {
      if (this.evening?.id !== id) return;
      const back = [...this.evening.deals];
      back.splice(index, 0, gone);
      this.save(back);
      await this.refresh();
    });
  }

  edit(index) {
    this.editing = index;
    this.deleting = null;
    this.form = formOf(this.evening.deals[index]);
    this.render();
    this.explain();
    this.root.querySelector(".score-form")?.scrollIntoView({ block: "nearest" });
  }

  // The settlement of the sheet being entered, from the service, as the form changes.
  async explain() {
    const asked = ++this.asked;
    const checked = await this.check(sheetOf(this.form, this.evening.players.length));
    if (asked !== this.asked) return;
    this.arithmetic = checked;
    const shown = this.root.querySelector(".score-arithmetic");
    if (shown) shown.replaceWith(this.arithmeticView());
  }

  async exportCsv(dialect) {
    const body = sessionOf(this.evening, this.names());
    const text = await this.page.service.sessionCsv(body, dialect);
    download("tarot-session.csv", "text/csv", text);
  }

  exportJson() {
    const text = `${JSON.stringify(sessionOf(this.evening, this.names()), null, 2)}\n`;
    download("tarot-session.json", "application/json", text);
  }

  // ---- drawing ---------------------------------------------------------------------

  render() {
    const { t } = this.page;
    const answer = this.answer;
    const parts = [this.header()];
    if (this.problem) {
      parts.push(h("ul", { class: "score-problem score-errors", role: "alert" },
        this.problem.map((line) => h("li", {}, line))));
    }
    // An evening of its own players is titled by their names; the table's, by its count.
    if (this.evening.table) parts.push(h("p", { class: "score-players" }, this.names().join(" · ")));
    if (answer) {
      parts.push(this.totalsView(answer), this.chart(answer),
        h("p", { class: "score-next" }, t("score.next_dealer", { who: this.name(answer.next_dealer) })));
    }
    parts.push(this.formView());
    if (answer?.deals.length) parts.push(this.statisticsView(answer));
    // The sheet is drawn anew at each change: the field that had the focus keeps it.
    const focused = this.root.contains(document.activeElement) ? document.activeElement.id : "";
    this.root.replaceChildren(...parts);
    if (focused) document.getElementById(focused)?.focus();
  }

  header() {
    const { t } = this.page;
    const e = this.evening;
    const dialect = h("select", { id: "score-csv-dialect", "aria-label": t("score.csv.dialect") },
      h("option", { value: "comma" }, t("score.csv.comma")),
      h("option", { value: "semicolon" }, t("score.csv.semicolon")));
    dialect.value = ["fr", "ru", "uk", "hu"].includes(this.page.lang) ? "semicolon" : "comma";
    return h("header", { class: "score-head" },
      h("div", {}, h("h2", { id: "scores-title" }, this.page.title(e)),
        h("p", { class: "score-when" }, this.page.when(e))),
      h("div", { class: "score-tools" },
        h("button", { type: "button", id: "score-export", onclick: () => this.exportJson() },
          t("score.export")),
        h("span", { class: "csv-tools" },
          h("button", { type: "button", id: "score-export-csv",
            onclick: () => this.exportCsv(dialect.value) }, t("score.export_csv")), dialect),
        e.table && !e.finished ? h("button", { type: "button", id: "score-finish",
          onclick: () => {
            this.evening = { ...this.evening, finished: true };
            putEvening(this.evening);
            this.page.changed();
            this.render();
          } }, t("score.finish")) : null));
  }

  summary(deal) {
    const { t, num } = this.page;
    const s = deal.settlement;
    if (s.annulled) return [t(`score.annulled.${s.annulled}`)];
    const line = t(s.made ? "score.made" : "score.failed", { contract: t(`contract.${s.contract}`),
      who: this.name(s.taker) }) + (s.partner !== undefined && s.partner !== null
      ? ` · ${t("score.with", { who: this.name(s.partner) })}` : "");
    const details = [t("score.points_bouts", { points: num(s.points),
      bouts: t("math.bouts", { n: s.bouts }) })];
    if (s.petit_au_bout) {
      details.push(t("score.bonus.petit", { camp: t(`score.camp.${s.petit_au_bout.camp}`) }));
    }
    for (const p of s.poignees) {
      const shower = p.seat ?? (p.declared_by === "taker" && (s.partner ?? null) === null
        ? s.taker : null);
      details.push(t("score.bonus.poignee", { level: t(`poignee.${p.level}`),
        who: shower === null ? t(`score.camp.${p.declared_by}`) : this.name(shower) }));
    }
    if (s.chelem) {
      details.push(t(s.chelem.announced ? "score.bonus.chelem.announced" : "score.bonus.chelem",
        { camp: t(`score.camp.${s.chelem.camp}`) }));
    }
    return [line, h("span", { class: "score-details" }, details.join(" · "))];
  }

  rowTools(index) {
    const { t, num } = this.page;
    if (this.deleting === index) {
      return h("td", { class: "row-tools confirming" },
        h("span", { class: "confirm-question" }, t("score.delete.ask", { n: index + 1 })),
        h("button", { type: "button", class: "delete danger", id: "score-confirm-delete",
          onclick: () => this.remove(index) }, t("score.delete.yes")),
        h("button", { type: "button", id: "score-keep",
          onclick: () => { this.deleting = null; this.render(); } }, t("score.delete.no")));
    }
    return h("td", { class: "row-tools" },
      h("button", { type: "button", class: "edit", onclick: () => this.edit(index),
        "aria-label": `${t("score.edit")} ${num(index + 1)}` }, t("score.edit")),
      h("button", { type: "button", class: "delete", onclick: () => {
        this.deleting = index;
        this.render();
        document.getElementById("score-keep")?.focus();
      }, "aria-label": `${t("score.delete")} ${num(index + 1)}` }, t("score.delete")));
  }

  totalsView(answer) {
    const { t, num } = this.page;
    const names = this.names();
    const head = h("tr", {}, h("th", { scope: "col" }, t("score.number")),
      h("th", { scope: "col" }, t("score.dealer")), h("th", { scope: "col" }, t("score.summary")),
      names.map((name) => h("th", { scope: "col", class: "player figure-head" }, name)),
      h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("score.actions"))));
    const rows = answer.deals.map((deal, index) => h("tr", {
      class: this.editing === index ? "editing" : null },
    h("th", { scope: "row", class: "deal-number" }, num(index + 1)),
    h("td", { class: "dealer", "data-label": t("score.dealer") }, this.name(deal.dealer)),
    h("td", { class: "summary" }, this.summary(deal)),
    deal.settlement.scores.map((score, i) => h("td", { class: "figure", "data-label": names[i] },
      h("span", { class: "deal-score" }, num(score, true)),
      h("span", { class: "running" }, num(deal.totals[i], true)))),
    this.rowTools(index)));
    const foot = h("tr", { class: "total" }, h("th", { scope: "row", colspan: "3" }, t("score.total")),
      answer.totals.map((total, i) => h("td", { class: "figure", "data-label": names[i] },
        h("strong", {}, num(total, true)))),
      h("td", {}));
    return h("div", { class: "score-totals" },
      answer.deals.length ? null : h("p", {}, t("score.empty")),
      h("table", { class: "deals" }, h("caption", { class: "visually-hidden" }, t("score.title")),
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

  // Each player's own figures: a poignée counts for the player who showed it.
  statisticsView(answer) {
    const { t, num } = this.page;
    const columns = ["taken", "made", "failed", "mean", "petits", "poignees_shown", "chelems"];
    const value = (s, column) => {
      if (column === "mean") return s.mean_points_as_taker === null ? "–" : num(s.mean_points_as_taker);
      const field = { petits: "petits_au_bout" }[column] ?? column;
      return num(s[field]);
    };
    return h("section", { class: "score-stats", "aria-labelledby": "score-stats-title" },
      h("h3", { id: "score-stats-title" }, t("score.stats")),
      h("div", { class: "score-totals score-statistics" }, h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("score.player.column")),
          columns.map((c) => h("th", { scope: "col", class: "figure-head" }, t(`score.stats.${c}`))))),
        h("tbody", {}, answer.statistics.map((s, i) => h("tr", {},
          h("th", { scope: "row" }, this.name(i)),
          columns.map((c) => h("td", { class: "figure", "data-label": t(`score.stats.${c}`) },
            value(s, c)))))))));
  }

  // The fields of a played deal, in the order a score keeper reads them off the table.
  playedFields(n, select, field, changed) {
    const { t, num } = this.page;
    const f = this.form;
    const seats = Array.from({ length: n }, (_, i) => [i, this.name(i)]);
    // The partner's choices are sentences ("Nobody: the taker called their own card"):
    // two columns of the form, their words whole when chosen, in every language.
    const wide = (label) => { label.classList.add("wide"); return label; };
    const camps = [["", t("score.none")], ["taker", t("score.camp.taker")],
      ["defense", t("score.camp.defense")]];
    const partner = n === CALLING ? wide(field(t("score.partner"), select("score-partner", [
      ["", t("score.partner.choose")],
      ...seats.filter(([i]) => i !== Number(f.taker)),
      [Number(f.taker), t("score.alone")]], f.partner, (v) => { f.partner = v === "" ? "" : Number(v); })))
      : null;
    const who = (p, k) => select(`score-poignee-seat-${k}`, [...seats,
      ["camp:taker", t("score.poignee.someone.taker")],
      ["camp:defense", t("score.poignee.someone.defense")]], p.who, (v) => { p.who = v; });
    return [
      field(t("score.taker"), select("score-taker", seats, f.taker, (v) => {
        // A taker alone stays alone when the taker changes; a partner unchosen stays so.
        if (f.partner !== "" && Number(f.partner) === Number(f.taker)) f.partner = Number(v);
        f.taker = Number(v);
      })),
      partner,
      field(t("score.contract"), select("score-contract", CONTRACTS.map((c) =>
        [c, t(`contract.${c}`)]), f.contract, (v) => { f.contract = v; })),
      field(t("score.bouts"), select("score-bouts", [0, 1, 2, 3].map((b) => [b, num(b)]), f.bouts,
        (v) => { f.bouts = Number(v); })),
      // A text field, so that the points read in the language's digits as every other
      // figure does; what is typed is read in any digits, with "." or the local separator.
      field(t("score.points"), h("input", { id: "score-points", type: "text",
        value: Number.isNaN(Number(f.points)) ? "" : num(Number(f.points)), inputmode: "decimal",
        autocomplete: "off", oninput: (e) => { f.points = readNumber(e.target.value); this.explain(); } })),
      field(t("score.petit"), select("score-petit", camps, f.petit, (v) => { f.petit = v; })),
      h("fieldset", { class: "score-poignees" }, h("legend", {}, t("score.poignees")),
        f.poignees.map((p, k) => h("div", { class: "poignee-row" },
          h("span", { class: "poignee-number" }, num(k + 1)), who(p, k),
          select(`score-poignee-level-${k}`, LEVELS.map((l) => [l, t(`poignee.${l}`)]), p.level,
            (v) => { p.level = v; }),
          h("button", { type: "button", onclick: () => { f.poignees.splice(k, 1); changed(); } },
            t("score.poignee.remove")))),
        h("button", { type: "button", id: "score-poignee-add", onclick: () => {
          f.poignees.push({ who: String(f.taker), level: "simple" });
          changed();
        } }, t("score.poignee.add"))),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "score-chelem-announced",
        checked: f.chelemAnnounced, onchange: (e) => { f.chelemAnnounced = e.target.checked; changed(); } }),
      h("span", {}, t("score.chelem.announced"))),
      field(t("score.chelem.made_by"), select("score-chelem-by", camps, f.chelemBy,
        (v) => { f.chelemBy = v; })),
    ];
  }

  formView() {
    const { t } = this.page;
    const n = this.evening.players.length;
    const f = this.form;
    const changed = () => { this.render(); this.explain(); };
    const select = (id, options, value, set) => {
      const node = h("select", { id, onchange: (e) => { set(e.target.value); changed(); } },
        options.map(([v, text]) => h("option", { value: String(v) }, text)));
      node.value = String(value);
      return node;
    };
    const field = (label, control) => h("label", {}, h("span", {}, label), control);
    const fields = [field(t("score.kind"), select("score-kind",
      ["played", "all_pass", "petit_sec"].map((k) => [k, t(`score.kind.${k}`)]), f.kind,
      (v) => { f.kind = v; }))];
    if (f.kind === "played") fields.push(...this.playedFields(n, select, field, changed));
    return h("form", { class: "score-form", novalidate: true, "aria-busy": this.saving ? "true" : null,
      onsubmit: (e) => { e.preventDefault(); this.commit(); } },
    h("h3", {}, this.editing === null ? t("score.new_deal", { n: this.dealNumber() })
      : t("score.editing", { n: this.editing + 1 })),
    h("fieldset", { class: "score-fieldset", disabled: this.saving },
      h("div", { class: "score-fields" }, fields),
      this.arithmeticView(),
      h("div", { class: "score-actions" },
        h("button", { type: "submit", class: "primary", id: "score-save" },
          t(this.editing === null ? "score.add" : "score.save")),
        this.editing === null ? null : h("button", { type: "button", onclick: () => {
          this.cancel(); this.render();
        } }, t("score.cancel")))));
  }

  // The service's settlement of the sheet being entered, item by item: the target, the
  // margin, the base, each bonus with its camp, D, and what each seat scores; or what is
  // wrong with the form, in the page's words.
  arithmeticView() {
    const { t } = this.page;
    const box = h("div", { class: "score-arithmetic", "aria-live": "polite" });
    const a = this.arithmetic;
    if (!a) return box;
    if (a.errors) {
      box.append(h("p", { class: "score-problem" }, t("score.errors.title")),
        h("ul", { class: "score-errors", role: "alert" }, a.errors.map((line) => h("li", {}, line))));
      return box;
    }
    box.append(h("h4", {}, t("score.arithmetic")), h("table", { class: "itemised" },
      h("tbody", {}, this.arithmeticRows(a.result).map(([item, value]) => h("tr", {},
        h("th", { scope: "row" }, item), h("td", { class: "formula", dir: "ltr" }, value))))));
    return box;
  }

  arithmeticRows(r) {
    const { t, num } = this.page;
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
    const bonus = (label, camp, value) => {
      rows.push([label, signed(sign(camp) * value)]);
      terms.push(sign(camp) * value);
    };
    if (r.petit_au_bout) {
      bonus(t("math.petit", { camp: t(`camp.${r.petit_au_bout.camp}`) }), r.petit_au_bout.camp,
        r.petit_au_bout.value);
    }
    for (const p of r.poignees) {
      bonus(t("math.poignee", { level: t(`poignee.${p.level}`),
        declared: p.seat === undefined ? t(`score.camp.${p.declared_by}`) : this.name(p.seat),
        camp: t(`camp.${p.camp}`) }), p.camp, p.value);
    }
    if (r.chelem) bonus(t("math.chelem", { camp: t(`camp.${r.chelem.camp}`) }), r.chelem.camp, r.chelem.value);
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
    return rows;
  }
}
