// Contrast, grain and colour temperature, as the card-table site has them: 50% is the
// picture as drawn; and the letters on Durak's courts, as the reader's own cards print
// them (null: the language's usage). The values stay in localStorage between visits.

const KEY = "cardavia.table.settings";
export const SLIDERS = ["contrast", "grain", "temperature"];
// Each convention of GameInfo's `indices`, shown by its letters for J Q K A.
export const INDICES = { english: "J Q K A", french: "V D R A", russian: "В Д К Т" };

// Whatever is stored (another version's, an extension's, a hand-edited value: not JSON,
// null, a list, a word for a number) gives the sliders it cannot read at 50%: the page
// must start, and the next change writes a value it reads.
export function loadSettings() {
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    stored = null;
  }
  const read = stored !== null && typeof stored === "object" && !Array.isArray(stored);
  const sliders = Object.fromEntries(SLIDERS.map((name) => {
    const value = read && typeof stored[name] === "number" ? stored[name] : NaN;
    return [name, Number.isFinite(value) && value >= 0 && value <= 100 ? value : 50];
  }));
  const indices = read && typeof stored.indices === "string" ? stored.indices : "";
  return { ...sliders, indices: Object.hasOwn(INDICES, indices) ? indices : null };
}

export function saveSettings(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // storage full or refused: the settings hold for this visit
  }
}

export function applySettings(root, settings) {
  const s = root.style;
  // contrast 0%..100% maps to 0.6..1.4; grain to the noise layer's opacity, 50% a light
  // texture; temperature to a blue (0%) or amber (100%) wash, none at 50%.
  s.setProperty("--contrast", (0.6 + settings.contrast * 0.008).toFixed(3));
  s.setProperty("--grain", (settings.grain / 100 * 0.5).toFixed(3));
  const warmth = (settings.temperature - 50) / 50;
  s.setProperty("--tint", warmth >= 0 ? "255, 150, 40" : "60, 130, 255");
  s.setProperty("--tint-strength", (Math.abs(warmth) * 0.4).toFixed(3));
}
