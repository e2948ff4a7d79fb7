// Durak at the table (D1–D25): two to six seats, the deck and the variants as settings,
// the bout, the stock under its trump card (or the trump card shown, D17), the discard.

import { h } from "../dom.js";
import { scoreList } from "./common.js";

const PLAYERS = [2, 3, 4, 5, 6]; // D16
// D16's decks the page offers, the default first. The cards' names and their order in a
// hand come from GET /v1/games/durak?cards=52, whose deck holds the other two.
const DECKS = [36, 24, 52];
const MOST_PLAYERS = { 24: 4, 36: 6, 52: 6 }; // D16: a 24-card deck serves at most four

// D18: the state names the defender with more than two players; with two it is the seat
// that is not attacking.
const defenderOf = (view) => ("defender" in view ? view.defender : 1 - view.attacker);
const gone = (view) => new Set((view.out ?? []).flat()); // D23

export default {
  id: "durak",
  // The deals the page offers, and how the setup list names each; two players keep the
  // game's own value, as before there were more.
  setups: PLAYERS.map((players) => ({ value: players === 2 ? "durak" : `durak-${players}`,
    players })),
  setupLabel: (setup, t, name) => (setup.players === 2 ? name
    : t("setup.tarot", { name, n: setup.players })),
  cardShape: "french",
  listedDeck: 52,
  players: (config) => config.players ?? 2,
  // The variants chosen at the deal (D16, D19, D21), as the setup's own fields.
  options: (config, t) => [
    { name: "transfer", label: t("option.transfer"), kind: "check", value: false },
    { name: "throw_in", label: t("option.throw_in"), value: "all",
      choices: [["all", t("option.throw_in.all")], ["neighbours", t("option.throw_in.neighbours")]] },
    { name: "cards", label: t("option.cards"), value: "36",
      choices: DECKS.filter((n) => (config.players ?? 2) <= MOST_PLAYERS[n])
        .map((n) => [String(n), String(n)]) },
  ],
  // The page asks for `known` (API.md): the cards everyone has seen stay face up.
  dealBody(config) {
    const o = config.options ?? {};
    const body = { known: true };
    if ((config.players ?? 2) !== 2) body.players = config.players;
    if (o.cards && o.cards !== "36") body.cards = Number(o.cards);
    if (o.transfer) body.transfer = true;
    if (o.throw_in === "neighbours") body.throw_in = "neighbours";
    return body;
  },
  // A click on a card defends with it, or passes the attack on (D21) when only that is
  // legal with it.
  cardMove(view, seat, card, moves = []) {
    if (view.phase !== "defend") return { seat, action: "attack", card };
    const passOn = { seat, action: "transfer", card };
    const beats = moves.some((m) => m.action === "defend" && m.card === card);
    const passes = moves.some((m) => m.action === "transfer" && m.card === card);
    return passes && !beats ? passOn : { seat, action: "defend", card };
  },
  buttons(view, ctx) {
    if (view.phase === "defend") {
      // D21: each legal pass on, named by its card, beside take
      const passes = ctx.moves.filter((m) => m.action === "transfer").map((move) =>
        ({ label: ctx.t("durak.transfer", { card: ctx.name(move.card) }), move }));
      return [{ label: ctx.t("durak.take"), move: { action: "take" } }, ...passes];
    }
    return [{ label: ctx.t("durak.pass"), move: { action: "pass" } }];
  },
  centre(view, ctx) {
    const stock = view.stock.length;
    const trumpCard = stock ? view.stock[stock - 1] : null;
    const holder = view.hands.length - 1; // D17: the last hand dealt kept it
    return [
      h("div", { class: "pile-row" },
        // D17: with the whole deck dealt there is no stock, but the trump card shown
        view.trump_card ? null : h("div", { class: "pile stock" },
          trumpCard ? h("div", { class: "trump-card" }, ctx.card(trumpCard)) : null,
          stock > 1 ? h("div", { class: "stock-backs" }, ctx.back()) : null,
          h("span", { class: "count" }, ctx.t("durak.stock", { n: stock }))),
        view.trump_card ? h("div", { class: "pile shown-trump" }, ctx.card(view.trump_card),
          h("span", { class: "count" }, ctx.t("durak.trump_card", { who: ctx.who(holder) })))
          : null,
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
    if (gone(view).has(seat)) return [ctx.t("durak.out")];
    if (seat === view.attacker) return [ctx.t("durak.attacker")];
    return seat === defenderOf(view) ? [ctx.t("durak.defender")] : [];
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
