// A card as the table shows it, named for screen readers by the card's name from
// GET /v1/games/{game} in the chosen language.
// Placeholder until /render's card art (GET /v1/games/{game}/cards/{code}.svg) lands: a
// face drawn from the card's label and suit.

import { h } from "./dom.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function cardFace(game, card) {
  const suit = card.suit;
  if (game === "ganjifa") {
    return h("span", { class: "face round", dataset: { suit }, "aria-hidden": "true" },
      h("span", { class: `rank${card.label.length > 2 ? " long" : ""}` }, card.label),
      h("span", { class: "suit" }, suit));
  }
  const symbol = SUITS[suit] ?? (suit === "T" ? "✦" : "★");
  return h("span", { class: "face", dataset: { suit }, "aria-hidden": "true" },
    h("span", { class: "rank" }, card.label), h("span", { class: "suit" }, symbol),
    h("span", { class: "pip" }, symbol));
}

export function cardBack(game) {
  return h("span", { class: `face back${game === "ganjifa" ? " round" : ""}`,
    "aria-hidden": "true" });
}
