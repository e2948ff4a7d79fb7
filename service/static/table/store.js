// What the pages keep between visits, in localStorage, read and written so that a browser
// that refuses the store (a site's data blocked, where even reading `localStorage`
// throws; a store that is full) keeps nothing and plays on, as on a first visit.

export function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // refused or full: this visit goes on without it
  }
}
