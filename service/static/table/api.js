// The page is a client of the public API and nothing else: every call goes through here,
// in the language the player chose, so that names, reasons and rules come translated.

export class ServiceError extends Error {
  constructor(message, problem = null) {
    super(message);
    this.problem = problem; // the problem document, whose `errors` name the fields at fault
  }
}

export function api(lang) {
  async function call(method, path, body, accept = "application/json") {
    const init = { method, headers: { "Accept-Language": lang, Accept: accept } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const answer = await fetch(path, init);
    const type = answer.headers.get("Content-Type") || "";
    const data = type.includes("json") ? await answer.json() : null;
    if (!answer.ok) {
      // A problem document names what was wrong; show its detail rather than a status.
      throw new ServiceError((data && (data.detail || data.title)) || String(answer.status), data);
    }
    // A file is passed on as its bytes: decoded as text, a CSV file would lose the byte order
    // mark that a spreadsheet reads its encoding from.
    return data ?? (accept === "application/json" ? answer.text() : answer.blob());
  }
  const post = (game, action, body) => call("POST", `/v1/games/${game}/${action}`, body);
  return {
    games: () => call("GET", "/v1/games"),
    // `cards`: the size of the deck to list (Durak's D16), or the default deck's.
    info: (game, cards) => call("GET", `/v1/games/${game}${cards ? `?cards=${cards}` : ""}`),
    rules: (game) => call("GET", `/v1/games/${game}/rules`),
    deal: (game, body) => post(game, "deal", body),
    legalMoves: (game, state) => post(game, "legal-moves", { state }),
    move: (game, state, move) => post(game, "move", { state, move }),
    aiMove: (game, body) => post(game, "ai-move", body),
    view: (game, state, seat) => post(game, "view", { state, seat }),
    // Tarot's score keeping: one sheet, or a whole session (JSON, or CSV for a download).
    settlement: (sheet) => post("tarot", "settlement", sheet),
    session: (body) => post("tarot", "session", body),
    // `dialect`: "comma" or "semicolon" (a French spreadsheet's file).
    sessionCsv: (body, dialect) => call("POST",
      `/v1/games/tarot/session${dialect ? `?dialect=${dialect}` : ""}`, body, "text/csv"),
  };
}
