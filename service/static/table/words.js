// The page's own words, one JSON catalogue per language beside this module; every other
// word (card names, reasons, rules, game names) comes from the service.

export const LANGUAGES = [
  { code: "en", name: "English", dir: "ltr" },
  { code: "hi", name: "हिन्दी", dir: "ltr" },
  { code: "hu", name: "Magyar", dir: "ltr" },
  { code: "fa", name: "فارسی", dir: "rtl" },
  { code: "uk", name: "Українська", dir: "ltr" },
];

const loaded = new Map();

export async function catalogue(lang) {
  if (!loaded.has(lang)) {
    const answer = await fetch(`/table/locales/${lang}.json`);
    loaded.set(lang, await answer.json());
  }
  const words = loaded.get(lang);
  const numbers = new Intl.NumberFormat(lang);
  const format = (value) => (typeof value === "number" ? numbers.format(value) : value);
  // t(KEY, {n: 3}) fills {n}; a missing key shows itself.
  return function t(key, params = {}) {
    const text = words[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(format(params[name])));
  };
}
