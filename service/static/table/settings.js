// Contrast, grain and colour temperature, as the card-table site has them: 50% is the
// picture as drawn; and the letters on Durak's courts, as the reader's own cards print
// them (null: the language's usage). The values stay in localStorage between visits.

const KEY = "cardavia.table.settings";
export const SLIDERS = ["contrast", "grain", "temperature"];
// Each convention of GameInfo's `indices`, shown by its letters for J Q K A.
export const INDICES = { english: "J Q K A", french: "V D R A", russian: "В Д К Т" };

export function loadSettings() {
  const stored = JSON.parse(localStorage.getItem(KEY) || "{}");
  const sliders = Object.fromEntries(SLIDERS.map((name) => {
    const value = Number(stored[name]);
    return [name, Number.isFinite(value) && value >= 0 && value <= 100 ? value : 50];
  }));
  return { ...sliders, indices: Object.hasOwn(INDICES, stored.indices) ? stored.indices : null };
}

export function saveSettings(settings) {
  localStorage.setItem(KEY, JSON.stringify(settings));
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
