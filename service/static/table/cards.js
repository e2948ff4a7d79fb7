// A card as the service draws it: /render's card art, so that the table and /render show
// the same cards, with the card's name from GET /v1/games/{game} (in the chosen language)
// as its text for screen readers.

import { h } from "./dom.js";

export function cardFace(game, card) {
  return h("img", { class: "art", src: `/v1/games/${game}/cards/${card.code}.svg`, alt: card.name,
    draggable: "false" });
}

export function cardBack(game, label) {
  return h("img", { class: "art back", src: `/v1/games/${game}/cards/back.svg`, alt: label,
    draggable: "false" });
}
