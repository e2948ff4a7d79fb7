// The page's own words, one JSON catalogue per language (the `table` part of the service's
// catalogues, service/locales/ and each game's rules/<game>/locales/); every other word
// (card names, reasons, rules, game names) comes from the service's answers. How each
// language writes Tarot's French terms and the cards is set down in service/locales/README.md.

// `indices`: the letters its players' own cards print on the courts and aces, which
// Durak's pictures take unless the reader chose others (settings).
export const LANGUAGES = [
  { code: "en", name: "English", dir: "ltr", indices: "english" },
  { code: "fr", name: "Français", dir: "ltr", indices: "english" },
  { code: "hi", name: "हिन्दी", dir: "ltr", indices: "english" },
  { code: "hu", name: "Magyar", dir: "ltr", indices: "english" },
  { code: "fa", name: "فارسی", dir: "rtl", indices: "english" },
  { code: "ru", name: "Русский", dir: "ltr", indices: "russian" },
  { code: "uk", name: "Українська", dir: "ltr", indices: "russian" },
];

// The first of the browser's languages (navigator.languages, most preferred first) that
// the page speaks, by its primary subtag: "fa-IR" is Persian.
export function preferredLanguage(wanted) {
  for (const tag of wanted ?? []) {
    const primary = String(tag).toLowerCase().split("-")[0];
    const known = LANGUAGES.find((l) => l.code === primary);
    if (known) return known.code;
  }
  return LANGUAGES[0].code;
}

// numbers(lang)(n, signed): n in the language's digits. In a right-to-left language a
// signed figure is isolated left to right (LRI … PDI), or the bidirectional algorithm puts
// its sign after the digits ("۱۲۰−"): the sign stays on the side the language writes it.
export function numbers(lang) {
  const rtl = LANGUAGES.find((l) => l.code === lang)?.dir === "rtl";
  const plain = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const signed = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, signDisplay: "exceptZero" });
  return (n, sign = false) => {
    const text = (sign ? signed : plain).format(n);
    return rtl && (sign || n < 0) ? `\u2066${text}\u2069` : text;
  };
}

const loaded = new Map();

export async function catalogue(lang) {
  if (!loaded.has(lang)) {
    const answer = await fetch(`/table/locales/${lang}.json`);
    loaded.set(lang, await answer.json());
  }
  const words = loaded.get(lang);
  const number = numbers(lang);
  const plurals = new Intl.PluralRules(lang);
  const format = (value) => (typeof value === "number" ? number(value) : value);
  // t(KEY, {n: 3}) fills {n}; a missing key shows itself. A key whose entry is an object
  // holds one text per plural category of the language ("one", "few", "many", "other"),
  // chosen for {n} by the platform's plural rules.
  return function t(key, params = {}) {
    let text = words[key] ?? key;
    if (typeof text === "object") text = text[plurals.select(params.n ?? 0)] ?? text.other;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(format(params[name])));
  };
}
