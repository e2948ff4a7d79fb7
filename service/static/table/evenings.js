// The Tarot evenings kept in this browser: each one's players, score sheets (the body of
// POST /v1/games/tarot/session) and when it was played. The score keeper page shows and
// edits them; the table adds the deals it plays to its own evening, one per player count.
// Nothing here computes a score: the service settles every sheet.

const KEY = "cardavia.scores";
// The sheets the page kept before it kept several evenings, brought in once.
const OLD_OWN = "cardavia.table.scores.own";
const OLD_TABLE = "cardavia.table.scores.table.";
// A table's evening left this long goes to the history; the next deal starts a new one.
const EVENING_ENDS_MS = 12 * 60 * 60 * 1000;

const now = () => new Date().toISOString();
const newId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function wellFormed(e) {
  return e && typeof e.id === "string" && Array.isArray(e.players) && Array.isArray(e.deals);
}

function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    if (kept && Array.isArray(kept.evenings)) return kept.evenings.filter(wellFormed);
  } catch {
    // a damaged store starts afresh rather than stopping the page
  }
  return null;
}

function oldSheet(key) {
  try {
    const s = JSON.parse(localStorage.getItem(key) || "null");
    return s && Array.isArray(s.players) && Array.isArray(s.deals) ? s : null;
  } catch {
    return null;
  }
}

function broughtIn() {
  const evenings = [];
  const own = oldSheet(OLD_OWN);
  if (own) evenings.push({ ...own, id: newId(), table: null, started: now(), updated: now() });
  for (const count of [3, 4, 5]) {
    const sheet = oldSheet(`${OLD_TABLE}${count}`);
    if (sheet?.deals.length) {
      evenings.push({ players: sheet.players, deals: sheet.deals, dealer: sheet.dealer ?? count - 1,
        id: newId(), table: count, seat: 0, started: now(), updated: now() });
    }
  }
  return evenings;
}

export function loadEvenings() {
  let evenings = stored();
  if (evenings === null) {
    evenings = broughtIn();
    saveEvenings(evenings);
    localStorage.removeItem(OLD_OWN);
    for (const count of [3, 4, 5]) localStorage.removeItem(`${OLD_TABLE}${count}`);
  }
  return evenings;
}

export function saveEvenings(evenings) {
  localStorage.setItem(KEY, JSON.stringify({ evenings }));
}

export function findEvening(id) {
  return loadEvenings().find((e) => e.id === id) ?? null;
}

// Writes one evening back, the newest first in the history.
export function putEvening(evening) {
  const others = loadEvenings().filter((e) => e.id !== evening.id);
  saveEvenings([{ ...evening, updated: now() }, ...others]);
}

// Takes an evening out, and answers what brings it back where it was.
export function removeEvening(id) {
  const evenings = loadEvenings();
  const at = evenings.findIndex((e) => e.id === id);
  if (at < 0) return () => {};
  const [gone] = evenings.splice(at, 1);
  saveEvenings(evenings);
  return () => {
    const left = loadEvenings().filter((e) => e.id !== gone.id);
    left.splice(Math.min(at, left.length), 0, gone);
    saveEvenings(left);
  };
}

export function newEvening(players, dealer, extra = {}) {
  const evening = { id: newId(), players, deals: [], dealer, table: null, started: now(),
    updated: now(), ...extra };
  putEvening(evening);
  return evening;
}

// The body of POST /v1/games/tarot/session (and the session file) of an evening.
export function sessionOf(evening, names = evening.players) {
  return { players: names, deals: evening.deals, dealer: evening.dealer ?? 0 };
}

// The evening the table keeps for `count` players: the last one, unless it was finished or
// left for the night; `names` are the seats' names when a new one starts.
export function tableEvening(count, names) {
  const last = loadEvenings().find((e) => e.table === count);
  const fresh = last && !last.finished
    && Date.now() - Date.parse(last.updated) < EVENING_ENDS_MS;
  if (fresh) return last;
  // The table's single deal is dealt by the last seat (T18); the session's dealer goes on.
  return { id: newId(), players: names, deals: [], dealer: count - 1, table: count, seat: 0,
    started: now(), updated: now(), unsaved: true };
}

// A settlement from the table (GET view's result) as the sheet that settles the same.
export function sheetOfSettlement(result) {
  if (result.annulled) return { annulled: result.annulled };
  const camp = (seat) => (seat === result.taker || seat === result.partner ? "taker" : "defense");
  const sheet = {
    contract: result.contract, taker: result.taker, bouts: result.bouts, points: result.points,
    petit_au_bout: result.petit_au_bout?.camp ?? null,
    // A played deal's poignée names its seat; the sheet names the camp that declared it too.
    poignees: result.poignees.map((p) => (p.seat === undefined
      ? { level: p.level, camp: p.declared_by }
      : { level: p.level, camp: camp(p.seat), seat: p.seat })),
    chelem: result.chelem ? { announced: result.chelem.announced, made_by: result.chelem.made_by }
      : { announced: false, made_by: null },
  };
  if (result.partner !== undefined) sheet.partner = result.partner ?? result.taker;
  return sheet;
}
