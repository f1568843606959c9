// Saved games, the games a reader replaced (so Undo can bring them back), preferences,
// statistics, and the share link. Everything lives in the reader's own localStorage; the page
// address carries a game only when a share link is opened, and loses it at once (so the
// page's own links stay same-page links).

import { positionFields } from "./util.js";

const STORE_PREFIX = "cadogan:game:";
const STATS_PREFIX = "cadogan:stats:";
const PREFS_KEY = "cadogan:board-prefs";
const STORE_VERSION = 2;
/** How many replaced games Undo can bring back. */
export const HISTORY_LIMIT = 20;
const STATS_KEYS_LIMIT = 400;

function getItem(key) {
  try { return window.localStorage.getItem(key); } catch (e) { return null; }
}

function setItem(key, value) {
  try { window.localStorage.setItem(key, value); return true; } catch (e) { return false; }
}

function entries(list) {
  return Array.isArray(list) ? list.filter((e) => e && typeof e.position === "string")
    .slice(-HISTORY_LIMIT) : [];
}

/** The saved game of a board: {position, view, past, ahead}, {corrupt: true}, or null. */
export function readSave(boardId, validView) {
  const text = getItem(STORE_PREFIX + boardId);
  if (text === null) return null;
  try {
    const data = JSON.parse(text);
    if (data && (data.v === 1 || data.v === STORE_VERSION) && typeof data.position === "string") {
      return { position: data.position, view: validView(data.view) ? data.view : null,
        past: entries(data.past), ahead: entries(data.ahead) };
    }
  } catch (e) { /* damaged: below */ }
  return { corrupt: true };
}

export function writeSave(boardId, record) {
  setItem(STORE_PREFIX + boardId, JSON.stringify({
    v: STORE_VERSION, position: record.position, view: record.view, saved: Date.now(),
    past: record.past.slice(-HISTORY_LIMIT), ahead: record.ahead.slice(-HISTORY_LIMIT),
  }));
}

// ---- preferences (the board's switches), the same for every board of the site
export function readPrefs() {
  try {
    const p = JSON.parse(getItem(PREFS_KEY) || "{}");
    return { autoplay: p.autoplay === true, hints: p.hints === true };
  } catch (e) {
    return { autoplay: false, hints: false };
  }
}

export function writePrefs(prefs) { setItem(PREFS_KEY, JSON.stringify(prefs)); }

// ---- statistics, per game: deals played (a move made), won, fewest moves in a win, hints
// taken (a hint shown, or a move of a winning line the engine played)
function gameKey(view) {
  return (view.deal === null || view.deal === undefined ? "set" : String(view.deal)) + "/" +
    (view.options || "");
}

export function readStats(game) {
  try {
    const s = JSON.parse(getItem(STATS_PREFIX + game) || "null");
    if (s && typeof s.played === "number") {
      return { played: s.played, won: s.won || 0, best: typeof s.best === "number" ? s.best : null,
        seen: Array.isArray(s.seen) ? s.seen : [], wins: Array.isArray(s.wins) ? s.wins : [],
        hints: typeof s.hints === "number" ? s.hints : 0 };
    }
  } catch (e) { /* damaged: start again */ }
  return { played: 0, won: 0, best: null, seen: [], wins: [], hints: 0 };
}

/** Count a hint taken (a hint shown, or a move of a winning line played for the reader). */
export function noteHint(game) {
  const s = readStats(game);
  s.hints += 1;
  setItem(STATS_PREFIX + game, JSON.stringify(s));
}

/** Count a view into the game's statistics; returns true when they changed. */
export function noteStats(game, view) {
  if (!view || !view.played) return false;
  const s = readStats(game), key = gameKey(view);
  let changed = false;
  if (s.seen.indexOf(key) < 0) {
    s.seen.push(key);
    s.played += 1;
    changed = true;
  }
  if (view.outcome === "won") {
    if (s.wins.indexOf(key) < 0) {
      s.wins.push(key);
      s.won += 1;
      changed = true;
    }
    if (s.best === null || view.played < s.best) { s.best = view.played; changed = true; }
  }
  if (changed) {
    s.seen = s.seen.slice(-STATS_KEYS_LIMIT);
    s.wins = s.wins.slice(-STATS_KEYS_LIMIT);
    setItem(STATS_PREFIX + game, JSON.stringify(s));
  }
  return changed;
}

export function clearStats(game) {
  try { window.localStorage.removeItem(STATS_PREFIX + game); } catch (e) { /* nothing kept */ }
}

// ---- the address and the share link
// A share link carries the compact position in the query: ?game=SLUG&deal=N&opts=...&moves=...
// (a hash of the same form is read too). Other query parameters are left alone.
const STATE_FIELDS = /^(game|deal|opts|start|vars|moves|redo)=/;

function params(text) {
  return text ? text.split("&").filter((p) => p.length > 0) : [];
}

function decoded(p) {
  try { return decodeURIComponent(p); } catch (e) { return p; }
}

function stateOf(text, game) {
  const parts = [];
  let named = null;
  for (const p of params(text)) {
    const d = decoded(p);
    if (STATE_FIELDS.test(d)) {
      parts.push(d);
      if (d.indexOf("game=") === 0) named = d.slice(5);
    }
  }
  if (!parts.length || (named !== null && named !== game)) return null;
  if (named === null) parts.unshift("game=" + game);
  return parts.join(";");
}

/** The position a share link in the page's address carries for `game`, or null. */
export function readAddress(game) {
  return stateOf(window.location.search.slice(1), game) ||
    stateOf(window.location.hash.slice(1), game);
}

/** Take any game out of the page's address (so same-page links are same-page links). */
export function stripAddress() {
  const loc = window.location;
  const keep = params(loc.search.slice(1)).filter((p) => !STATE_FIELDS.test(decoded(p)));
  const hashState = params(loc.hash.slice(1)).some((p) => STATE_FIELDS.test(decoded(p)));
  const query = keep.length ? "?" + keep.join("&") : "";
  const hash = hashState ? "" : loc.hash;
  if (query === loc.search && hash === loc.hash) return;
  try {
    history.replaceState(history.state, "", loc.pathname + query + hash);
  } catch (e) { /* some embedders forbid it */ }
}

/** The share link of a position, opening the page at the board. */
export function shareLink(position, anchor) {
  const fields = positionFields(position);
  const order = ["game", "deal", "opts", "start", "vars", "moves", "redo"];
  const query = order.filter((k) => k in fields)
    .map((k) => k + "=" + encodeURIComponent(fields[k]).replace(/%3A/g, ":").replace(/%2C/g, ",")
      .replace(/%7C/g, "|"))
    .join("&");
  const loc = window.location;
  return loc.origin + loc.pathname + "?" + query + (anchor ? "#" + anchor : "");
}
