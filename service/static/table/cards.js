// A card as the service draws it: /render's card art, so that the table and /render show
// the same cards, with the card's name from GET /v1/games/{game} (in the chosen language)
// as its text for screen readers; its corners in the reader's convention of `indices`
// (Durak's english, french or russian letters), the deck's own without one.

import { h } from "./dom.js";

export function cardFace(game, card, indices = null) {
  const query = indices ? `?indices=${encodeURIComponent(indices)}` : "";
  return h("img", { class: "art", src: `/v1/games/${game}/cards/${card.code}.svg${query}`,
    alt: card.name, draggable: "false" });
}

export function cardBack(game, label) {
  return h("img", { class: "art back", src: `/v1/games/${game}/cards/back.svg`, alt: label,
    draggable: "false" });
}
