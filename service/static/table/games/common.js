// What the games' modules share: a row of played cards, the last trick kept in sight, the
// scores by seat.

import { h } from "../dom.js";

const played = (play) => (typeof play === "string" ? { card: play } : play);

export function trickRow(ctx, plays, caption) {
  return h("figure", { class: "trick" },
    h("figcaption", {}, caption),
    h("div", { class: "plays" }, plays.map(played).map((p) =>
      h("div", { class: "play" }, ctx.card(p.card),
        p.seat === undefined ? null : h("span", { class: "who" }, ctx.who(p.seat))))));
}

// The last completed trick stays in sight while the next one is played.
export function lastTrick(view, ctx) {
  const last = view.tricks?.at(-1);
  if (!last) return null;
  const row = trickRow(ctx, last.cards, ctx.t("trick.last", { who: ctx.who(last.winner) }));
  row.classList.add("last");
  return row;
}

export function scoreList(ctx, scores) {
  return h("ol", { class: "scores" }, scores.map((score, seat) =>
    h("li", {}, h("span", {}, ctx.who(seat)), h("strong", {}, ctx.num(score, true)))));
}
