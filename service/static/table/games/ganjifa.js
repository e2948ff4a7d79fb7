// Ganjifa at the table (G1–G9): the period's trump, tricks, Dukals and their answers.

import { h } from "../dom.js";
import { lastTrick, trickRow } from "./common.js";

export default {
  id: "ganjifa",
  setups: ["day", "night"].map((period) => ({ value: `ganjifa-${period}`, period })),
  setupLabel: (setup, t, name) => t(`setup.ganjifa.${setup.period}`, { name }),
  cardShape: "round",
  players: () => 3,
  dealBody: (config) => ({ period: config.period }),
  cardMove: (view, seat, card) => ({ seat, action: "play", card }),
  buttons(view, ctx) {
    return ctx.moves.filter((m) => m.action === "dukal").map((move) => ({
      label: ctx.t("ganjifa.dukal", { suit: ctx.avatar(move.cards[0]), n: move.cards.length }),
      move,
    }));
  },
  centre(view, ctx) {
    const parts = [h("p", { class: "contract" }, ctx.t(`ganjifa.period.${view.period}`,
      { suit: ctx.avatarOf(view.period === "day" ? "RAM" : "KRI") }))];
    if (view.dukal) {
      parts.push(trickRow(ctx, view.dukal.cards, ctx.t("ganjifa.dukal.led",
        { who: ctx.who(view.dukal.seat) })));
      for (const answer of view.dukal.discards) {
        parts.push(trickRow(ctx, answer.cards, ctx.t("ganjifa.dukal.answered",
          { who: ctx.who(answer.seat) })));
      }
    } else if (view.trick.length) {
      parts.push(trickRow(ctx, view.trick, ctx.t("trick.current")));
    }
    const captured = ctx.dukalCaptured && view.dukals?.at(-1);
    if (captured) {
      // A Dukal is captured the moment its last discard lands: keep it in sight a while.
      const cards = [captured.cards, ...captured.discards.map((d) => d.cards)].flat();
      const row = trickRow(ctx, cards, ctx.t("said.dukal_captured", { who: ctx.who(captured.seat) }));
      row.classList.add("last");
      parts.push(row);
    } else {
      parts.push(lastTrick(view, ctx));
    }
    return parts;
  },
  seatNotes(view, seat, ctx) {
    return [ctx.t("captured", { n: view.captured[seat].length })];
  },
  says(move, ctx) {
    const who = ctx.who(move.seat);
    if (move.action === "dukal") return ctx.t("said.dukal", { who, n: move.cards.length });
    if (move.action === "discard") return ctx.t("said.dukal.discard", { who, n: move.cards.length });
    return ctx.t("said.play", { who, card: ctx.name(move.card) });
  },
  settlement(result, ctx) {
    const winners = result.winners.map((seat) => ctx.who(seat)).join(", ");
    return [
      h("p", { class: "headline" }, ctx.t(result.winners.length > 1 ? "end.ganjifa.shared"
        : "end.ganjifa.won", { who: winners })),
      h("table", { class: "itemised" }, h("tbody", {}, result.captured.map((n, seat) =>
        h("tr", {}, h("th", { scope: "row" }, ctx.who(seat)),
          h("td", {}, ctx.t("captured", { n }))))))];
  },
};
