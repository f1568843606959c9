// Small helpers shared by the board's modules: elements, card names, moves, positions.

export const RANKS = { A: "ace", J: "knave", Q: "queen", K: "king", "2": "two", "3": "three",
  "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "10": "ten" };
export const SUITS = { S: ["spades", "\u2660", false], H: ["hearts", "\u2665", true],
  D: ["diamonds", "\u2666", true], C: ["clubs", "\u2663", false] };

/** A new element with a class and attributes (null or undefined attributes are left out). */
export function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (attrs) {
    for (const k of Object.keys(attrs)) {
      if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    }
  }
  return e;
}

export function cardParts(c) {
  const rank = c.slice(0, -1), suit = SUITS[c.slice(-1)];
  if (!suit || !RANKS[rank]) return null;
  return { rank, suit: c.slice(-1), name: RANKS[rank] + " of " + suit[0], symbol: suit[1], red: suit[2] };
}

export function cardName(c) {
  if (c === null || c === undefined) return "a face-down card";
  const p = cardParts(c);
  return p ? p.name : c;
}

/** The pile of a step reference: `l3` for `l3` and `l3:2`. */
export function pileOf(ref) { return ref.split(":")[0]; }

export function optionsMap(text) {
  const out = {};
  for (const part of (text || "").split(",")) {
    const i = part.indexOf(":");
    if (i > 0) out[part.slice(0, i)] = part.slice(i + 1);
  }
  return out;
}

function stepKeys(steps) { return steps.map((s) => s.join("-")); }

export function sameSteps(a, b) {
  if (a.length !== b.length) return false;
  const x = stepKeys(a).sort(), y = stepKeys(b).sort();
  return x.every((v, i) => v === y[i]);
}

export function containsSteps(big, small) {
  const left = stepKeys(big);
  return small.every((s) => {
    const i = left.indexOf(s.join("-"));
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

export function validView(v, game) {
  return !!(v && typeof v === "object" && v.game === game && Array.isArray(v.piles) &&
    v.grid && typeof v.grid.w === "number" && typeof v.grid.h === "number" &&
    v.piles.every((p) => p && typeof p.id === "string" && Array.isArray(p.cards)));
}

/** Position text as a map of its fields, empty fields left out. */
export function positionFields(text) {
  const out = {};
  for (const part of (text || "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(i + 1) !== "") out[part.slice(0, i)] = part.slice(i + 1);
  }
  return out;
}

/** Whether two position texts are the same game (field order and empty fields aside). */
export function samePosition(a, b) {
  if (!a || !b) return false;
  const x = positionFields(a), y = positionFields(b);
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

export function randomDeal() {
  const a = new Uint32Array(1);
  window.crypto.getRandomValues(a);
  return 1 + (a[0] % 999999);
}

export function plural(n, one, many) {
  return n + " " + (n === 1 ? one : (many || one + "s"));
}

export function cssEscape(s) {
  return window.CSS && CSS.escape ? CSS.escape(s) : String(s).replace(/["\\]/g, "\\$&");
}

/** Run `fn` once the page is parsed, in a task of its own: not in the parser's last task, in
 * which Material starts (a long one), as a DOMContentLoaded listener would. */
export function whenParsed(fn) {
  if (document.readyState !== "loading") { fn(); return; }
  const poll = () => { if (document.readyState === "loading") window.setTimeout(poll, 50); else fn(); };
  window.setTimeout(poll, 50);
}

/** Run `fn` once the page's deferred scripts (Material's bundle among them) have run, in a
 * task of its own: after DOMContentLoaded, not inside it (Material starts in it). */
export function whenMaterial(fn) {
  const nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  if (document.readyState === "complete" || (nav && nav.domContentLoadedEventEnd > 0)) { fn(); return; }
  document.addEventListener("DOMContentLoaded", () => window.setTimeout(fn, 0), { once: true });
}
