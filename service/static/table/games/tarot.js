// Tarot at the table (T1–T24): bids, the chien and the écart, the call, poignées, tricks.

import { h } from "../dom.js";
import { lastTrick, scoreList, trickRow } from "./common.js";

// The player counts the page offers (T18); the call (T22, five players) and the partner in
// the settlement are drawn for five.
const PLAYERS = [3, 4, 5];
const POIGNEE_LEVELS = ["simple", "double", "triple"];

export default {
  id: "tarot",
  setups: PLAYERS.map((players) => ({ value: `tarot-${players}`, players })),
  setupLabel: (setup, t, name) => t("setup.tarot", { name, n: setup.players }),
  cardShape: "french",
  players: (config) => config.players,
  // Deals are kept over an evening, one score sheet per player count, dealer going round.
  evening: (config) => config.players,
  dealBody: (config) => (config.players === 4 ? {} : { players: config.players }),
  cardMove: (view, seat, card) => ({ seat, action: "play", card }),
  buttons(view, ctx) {
    if (view.phase === "bidding") {
      return ["pass", "prise", "garde", "garde_sans", "garde_contre"].map((contract) =>
        ({ label: ctx.t(`contract.${contract}`), move: { action: "bid", contract } }));
    }
    if (view.phase === "call") { // five players (T22): the taker calls a card
      return ctx.moves.filter((m) => m.action === "call").map((move) =>
        ({ label: ctx.t("tarot.call", { card: ctx.name(move.card) }), move }));
    }
    if (view.phase === "chelem") {
      return [{ label: ctx.t("tarot.chelem.yes"), move: { action: "chelem", announce: true } },
        { label: ctx.t("tarot.chelem.no"), move: { action: "chelem", announce: false } }];
    }
    // One canonical poignée per level the seat can show (T8), smallest level first.
    const shows = ctx.moves.filter((m) => m.action === "poignee")
      .sort((a, b) => a.cards.length - b.cards.length);
    return shows.map((move, i) => ({
      label: ctx.t("tarot.poignee", { level: ctx.t(`poignee.${POIGNEE_LEVELS[i]}`),
        n: move.cards.length }), move,
    }));
  },
  centre(view, ctx) {
    const parts = [];
    const chien = view.chien_shown.length ? view.chien_shown : view.chien;
    if (view.phase === "bidding" || view.phase === "discard" || view.phase === "chelem"
        || view.tricks.length === 0) {
      parts.push(h("figure", { class: "chien" },
        h("figcaption", {}, view.chien_shown.length ? ctx.t("tarot.chien.shown")
          : ctx.t("tarot.chien", { n: view.chien.length })),
        h("div", { class: "plays" }, chien.map((code) => ctx.card(code)))));
    }
    if (view.contract) {
      parts.push(h("p", { class: "contract" }, ctx.t("tarot.contract",
        { who: ctx.who(view.taker), contract: ctx.t(`contract.${view.contract}`) })
        + (view.called ? ` · ${ctx.t("tarot.called", { card: ctx.name(view.called) })}` : "")
        + (view.chelem ? ` · ${ctx.t("tarot.chelem.announced")}` : "")));
    }
    if (view.trick.length) parts.push(trickRow(ctx, view.trick, ctx.t("trick.current")));
    parts.push(lastTrick(view, ctx));
    if (view.poignees.length) {
      parts.push(h("div", { class: "poignees" }, view.poignees.map((p) =>
        trickRow(ctx, p.cards, p.seat === ctx.me ? ctx.t("tarot.poignee.shown.you")
          : ctx.t("tarot.poignee.shown", { who: ctx.who(p.seat) })))));
    }
    return parts;
  },
  seatNotes(view, seat, ctx) {
    const notes = [];
    if (seat === view.dealer) notes.push(ctx.t("tarot.dealer"));
    const first = (view.dealer + 1) % view.hands.length;
    const spoken = (seat - first + view.hands.length) % view.hands.length;
    if (spoken < view.bids.length) notes.push(ctx.t(`contract.${view.bids[spoken]}`));
    if (seat === view.taker) notes.push(ctx.t("tarot.taker"));
    // T22: the partner is public once the called card is played; the seat's view then
    // names it (and the partner's own view knows it from the call).
    if (typeof view.partner === "number" && seat === view.partner && seat !== view.taker) {
      notes.push(ctx.t("tarot.partner"));
    }
    const won = view.tricks.filter((trick) => trick.winner === seat).length;
    notes.push(ctx.t("tricks.won", { n: won }));
    return notes;
  },
  says(move, ctx) {
    const who = ctx.who(move.seat);
    switch (move.action) {
      case "bid": return ctx.t("said.bid", { who, contract: ctx.t(`contract.${move.contract}`) });
      case "discard": return ctx.t("said.ecart", { who });
      case "chelem": return ctx.t(move.announce ? "said.chelem.yes" : "said.chelem.no", { who });
      case "poignee": return ctx.t("said.poignee", { who, n: move.cards.length });
      case "call": return ctx.t("said.call", { who, card: ctx.name(move.card) });
      default: return ctx.t("said.play", { who, card: ctx.name(move.card) });
    }
  },
  // After the deal: every trick with who played what and who won it, the chien and the
  // écart, and the card points each camp took (the settlement's, T13-T14).
  review(state, result, ctx) {
    const parts = [];
    if (!result.annulled) {
      const attack = ctx.num(result.points);
      const defence = ctx.num(91 - result.points);
      parts.push(h("table", { class: "itemised camps" }, h("tbody", {},
        h("tr", {}, h("th", { scope: "row" }, ctx.t("review.attack")),
          h("td", {}, ctx.t("review.points", { points: attack, n: result.points }))),
        h("tr", {}, h("th", { scope: "row" }, ctx.t("review.defence")),
          h("td", {}, ctx.t("review.points", { points: defence, n: 91 - result.points }))))));
    }
    // Taken (prise, garde), the chien is the one shown; set aside (T6), it is still there.
    const chien = state.chien_shown.length ? state.chien_shown : state.chien;
    parts.push(trickRow(ctx, chien, ctx.t("review.chien")));
    if (state.ecart.length) parts.push(trickRow(ctx, state.ecart, ctx.t("review.ecart")));
    parts.push(h("ol", { class: "review-tricks" }, state.tricks.map((trick) =>
      h("li", {}, trickRow(ctx, trick.cards, ctx.t("review.trick", { who: ctx.who(trick.winner) }))))));
    return parts;
  },
  settlement(result, ctx) {
    if (result.annulled) {
      return [h("p", { class: "headline" }, ctx.t(`end.tarot.${result.annulled}`)),
        scoreList(ctx, result.scores)];
    }
    const camp = (name) => ctx.t(`camp.${name}`);
    const signed = (value) => ctx.num(value, true);
    const rows = [
      [ctx.t("end.tarot.contract"), ctx.t("tarot.contract",
        { who: ctx.who(result.taker), contract: ctx.t(`contract.${result.contract}`) })],
      ...(result.partner === undefined ? [] : [[ctx.t("end.tarot.partner"),
        result.partner === null ? ctx.t("end.tarot.alone") : ctx.who(result.partner)]]),
      [ctx.t("end.tarot.bouts"), ctx.num(result.bouts)],
      [ctx.t("end.tarot.points"), ctx.t("end.tarot.against",
        { points: ctx.num(result.points), target: ctx.num(result.target) })],
      [ctx.t("end.tarot.base"), `${signed(result.base)} (${ctx.t(result.made ? "end.tarot.made"
        : "end.tarot.failed")})`],
    ];
    if (result.petit_au_bout) {
      rows.push([ctx.t("end.tarot.petit"),
        `${signed(result.petit_au_bout.value)} · ${camp(result.petit_au_bout.camp)}`]);
    }
    for (const p of result.poignees) {
      const level = ctx.t(`poignee.${p.level}`);
      rows.push([p.seat === ctx.me ? ctx.t("end.tarot.poignee.you", { level })
        : ctx.t("end.tarot.poignee", { who: ctx.who(p.seat), level }),
      `${signed(p.value)} · ${camp(p.camp)}`]);
    }
    if (result.chelem) {
      rows.push([ctx.t(result.chelem.announced ? "end.tarot.chelem.announced"
        : "end.tarot.chelem"), `${signed(result.chelem.value)} · ${camp(result.chelem.camp)}`]);
    }
    // T17's D is positive when the defenders pay; the row says what each defender scores,
    // −D, with the sign the scores below carry.
    rows.push([ctx.t("end.tarot.per_defender"), signed(-result.per_defender)]);
    return [
      h("p", { class: "headline" }, ctx.t(result.made ? "end.tarot.headline.made"
        : "end.tarot.headline.failed", { who: ctx.who(result.taker) })),
      h("table", { class: "itemised" }, h("tbody", {}, rows.map(([item, value]) =>
        h("tr", {}, h("th", { scope: "row" }, item), h("td", {}, value))))),
      scoreList(ctx, result.scores),
    ];
  },
};
