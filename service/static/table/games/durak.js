// Durak at the table (D1–D15): the bout, the stock under its trump card, the discard.

import { h } from "../dom.js";
import { scoreList } from "./common.js";

export default {
  id: "durak",
  // The deals the page offers, and how the setup list names each.
  setups: [{ value: "durak" }],
  setupLabel: (setup, t, name) => name,
  cardShape: "french",
  players: () => 2,
  dealBody: () => ({}),
  cardMove: (view, seat, card) =>
    ({ seat, action: view.phase === "defend" ? "defend" : "attack", card }),
  buttons(view, ctx) {
    if (view.phase === "defend") return [{ label: ctx.t("durak.take"), move: { action: "take" } }];
    return [{ label: ctx.t("durak.pass"), move: { action: "pass" } }];
  },
  centre(view, ctx) {
    const stock = view.stock.length;
    const trumpCard = stock ? view.stock[stock - 1] : null;
    return [
      h("div", { class: "pile-row" },
        h("div", { class: "pile stock" },
          trumpCard ? h("div", { class: "trump-card" }, ctx.card(trumpCard)) : null,
          stock > 1 ? h("div", { class: "stock-backs" }, ctx.back()) : null,
          h("span", { class: "count" }, ctx.t("durak.stock", { n: stock }))),
        h("div", { class: "pile trump-suit" },
          h("span", { class: "label" }, ctx.t("trump")),
          h("span", { class: "suit-mark", dataset: { suit: view.trump } }, ctx.suit(view.trump))),
        h("div", { class: "pile discard" },
          view.discard.length ? ctx.back() : null,
          h("span", { class: "count" }, ctx.t("durak.discard", { n: view.discard.length })))),
      h("figure", { class: "bout" },
        h("figcaption", {}, view.table.length ? ctx.t("durak.bout", { who: ctx.who(view.attacker) })
          + (view.taking ? ` · ${ctx.t("durak.taking")}` : "") : ctx.t("durak.empty")),
        h("div", { class: "pairs" }, view.table.map((pair) =>
          h("div", { class: "pair" }, ctx.card(pair.attack),
            pair.defense ? h("div", { class: "defense" }, ctx.card(pair.defense)) : null)))),
    ];
  },
  seatNotes(view, seat, ctx) {
    return seat === view.attacker ? [ctx.t("durak.attacker")] : [ctx.t("durak.defender")];
  },
  says(move, ctx) {
    const who = ctx.who(move.seat);
    if (move.action === "take" || move.action === "pass") return ctx.t(`said.${move.action}`, { who });
    return ctx.t(`said.${move.action}`, { who, card: ctx.name(move.card) });
  },
  settlement(result, ctx) {
    const headline = result.outcome === "draw" ? ctx.t("end.durak.draw")
      : result.durak === ctx.me ? ctx.t("end.durak.you") : ctx.t("end.durak.seat",
        { who: ctx.who(result.durak) });
    return [h("p", { class: "headline" }, headline), scoreList(ctx, result.scores)];
  },
};
