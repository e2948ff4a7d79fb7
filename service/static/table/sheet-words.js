// What is wrong with a score sheet, in the page's words and language: the form's own
// checks before anything is sent, and the fields a service's problem document names
// (`deals.2.points`), each said as the form says it, deals numbered from 1. The service's
// messages are English and name fields by their path: the page never shows them as they are.

const FIELDS = {
  points: "score.error.points", bouts: "score.error.bouts", contract: "score.error.contract",
  taker: "score.error.taker", partner: "score.error.partner",
  petit_au_bout: "score.error.petit", chelem: "score.error.chelem",
  dealer: "score.error.dealer",
};

// "40.5" or "40,5" typed: a number of card points the rules can count (T13: halves).
function countable(points) {
  return Number.isFinite(points) && points >= 0 && points <= 91 && Number.isInteger(points * 2);
}

// The form's problems before the service is asked: points that are no number, and a
// five-player deal whose partner nobody chose.
export function formProblems(form, count, t) {
  if (form.kind !== "played") return [];
  const problems = [];
  if (!countable(Number(form.points))) problems.push(t("score.error.points_number"));
  if (count === 5 && form.partner === "") problems.push(t("score.error.partner_choose"));
  return problems;
}

function fieldWords(path, t, names) {
  const [key, index, part] = path;
  if (key === "players" && index !== undefined) {
    const n = Number(index) + 1;
    return t("score.error.name", { n, name: names[Number(index)] ?? "" });
  }
  if (key === "players") return t("score.error.names");
  if (key === "poignees") {
    const n = Number(index ?? 0) + 1;
    return t(part === "seat" ? "score.error.poignee.seat" : "score.error.poignee", { n });
  }
  return t(FIELDS[key] ?? "score.error.other");
}

// A refusal of the service (api.js's ServiceError) as lines in the page's words: a deal's
// field by the deal's number from 1 (`deal`, the form's number, for a single sheet's).
export function explainProblem(error, t, names, deal = null) {
  const errors = error?.problem?.errors;
  if (!errors?.length) return [t("error", { detail: error?.message ?? "" })];
  return errors.map(({ field }) => {
    const path = String(field ?? "").split(".");
    let n = deal;
    if (path[0] === "deals" && path.length > 1) {
      n = Number(path[1]) + 1;
      path.splice(0, 2);
    }
    const text = fieldWords(path, t, names);
    return n === null || path[0] === "players" ? text : t("score.error.in_deal", { n, text });
  });
}

// The names a new evening is set up with, checked as the service checks them: each one
// given, without a control or direction character, and none reading as another.
const CONTROL = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/u;

export function nameProblems(names, t) {
  const seen = new Map();
  const problems = [];
  names.forEach((name, i) => {
    const like = name.normalize("NFKC").toLocaleLowerCase().replace(/\s+/g, " ").trim();
    if (!like) problems.push(t("score.error.name.empty", { n: i + 1 }));
    else if (CONTROL.test(name)) problems.push(t("score.error.name.control", { n: i + 1 }));
    else if (seen.has(like)) {
      problems.push(t("score.error.name.twice", { n: i + 1, other: seen.get(like) + 1 }));
    } else seen.set(like, i);
  });
  return problems;
}
