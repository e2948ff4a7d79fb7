// What the table knows of each game, one module a game (games/<game>.js): the deals the
// setup offers, how many seats, how a click on a card becomes a move, what lies in the
// middle of the table, which buttons a seat gets, and how a settlement reads. Everything
// about legality stays with the service (legal-moves, move).

import durak from "./games/durak.js";
import ganjifa from "./games/ganjifa.js";
import tarot from "./games/tarot.js";

export const GAMES = Object.fromEntries([durak, tarot, ganjifa].map((game) => [game.id, game]));
