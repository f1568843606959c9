// Drawing the table from the engine's view: where each pile goes at the board's width, how
// its cards fan, and each card's face. Nothing here knows a game: the view says it all.

import { el, cardParts, cardName } from "./util.js";

/** Cards are never drawn narrower than this (CSS pixels): a wider table scrolls instead. */
export const MIN_CARD_PX = 36;
const CARD = 0.9;            // a card's width, in slots
const RATIO = 1.4;           // a card's height over its width
const CH = CARD * RATIO;     // a card's height, in slots
const ROW = CH + 0.1;        // a grid row, in slots
const MIN_SLOT = MIN_CARD_PX / CARD;
const MAX_SLOT = 124;
/** Felt left round the cards, in CSS pixels. */
export const PAD = 10;
/** Below this card width the court cards lose their frame (the indices say it all). */
const SMALL_CARD_PX = 46;

/** The arrangement to draw at a board `width` wide: the view's own, or one of its optional
 * `layouts` (the narrowest whose max_width the board fits). */
export function arrangement(view, width) {
  let best = null;
  for (const l of view.layouts || []) {
    if (l && l.grid && width <= l.max_width && (!best || l.max_width < best.max_width)) best = l;
  }
  if (!best) return { name: "", grid: view.grid, regions: view.regions || [], piles: {}, hidden: {} };
  const hidden = {};
  for (const id of best.hidden || []) hidden[id] = true;
  return { name: best.name || "layout", grid: best.grid, regions: best.regions || [],
    piles: best.piles || {}, hidden };
}

function placedPiles(view, arr) {
  const out = [];
  for (const original of view.piles) {
    if (arr.hidden[original.id]) continue;
    const place = arr.piles[original.id];
    out.push(place ? Object.assign({}, original, {
      x: place.x !== undefined ? place.x : original.x,
      y: place.y !== undefined ? place.y : original.y,
      rotate: place.rotate !== undefined ? place.rotate : original.rotate,
    }) : original);
  }
  return out;
}

/** Half the width and height of a w×h box turned by `deg` degrees. */
function turned(w, h, deg) {
  const r = (deg * Math.PI) / 180, c = Math.abs(Math.cos(r)), s = Math.abs(Math.sin(r));
  return { hx: (c * w + s * h) / 2, hy: (s * w + c * h) / 2 };
}

/** Offsets of each card of a pile from the pile's place, in pixels: face-down cards overlap
 * more; a fan closes up to stay within its limit. */
export function fanOffsets(pile, cw, ch) {
  const fan = pile.fan || "none", cards = pile.cards, n = cards.length, out = [];
  if (fan === "none") {
    for (let i = 0; i < n; i++) out.push({ dx: 0, dy: 0 });
    return out;
  }
  const vertical = fan === "down" || fan === "up";
  const unit = vertical ? ch : cw;
  const up = vertical ? 0.25 : 0.36, down = vertical ? 0.07 : 0.1;
  const steps = [];
  let total = 0;
  for (let k = 1; k < n; k++) {
    const s = (cards[k - 1].c === null ? down : up) * unit;
    steps.push(s);
    total += s;
  }
  const limit = (pile.fan_limit != null ? pile.fan_limit : (vertical ? 4.2 : 5)) * unit;
  const scale = total > limit ? limit / total : 1;
  const sign = fan === "up" || fan === "left" ? -1 : 1;
  let pos = 0;
  out.push({ dx: 0, dy: 0 });
  for (const s of steps) {
    pos += s * scale;
    out.push(vertical ? { dx: 0, dy: sign * pos } : { dx: sign * pos, dy: 0 });
  }
  return out;
}

/** Where everything goes on a board `avail` pixels wide. The scale comes from the grid (and
 * any turned card reaching past it), never from how far the fans have grown, so it stays put
 * as the game goes on; a fan that outgrows the grid makes the table larger. */
export function layout(view, avail) {
  const arr = arrangement(view, avail);
  const piles = placedPiles(view, arr);
  let x0 = 0, y0 = 0, x1 = arr.grid.w, y1 = arr.grid.h * ROW;
  for (const p of piles) {
    const cx = p.x + 0.5, cy = p.y * ROW + CH / 2;
    const t = p.rotate ? turned(CARD, CH, p.rotate) : { hx: CARD / 2, hy: CH / 2 };
    x0 = Math.min(x0, cx - t.hx); x1 = Math.max(x1, cx + t.hx);
    y0 = Math.min(y0, cy - t.hy); y1 = Math.max(y1, cy + t.hy);
  }
  const slot = Math.max(MIN_SLOT, Math.min(MAX_SLOT, (avail - 2 * PAD) / (x1 - x0)));
  const cw = slot * CARD, ch = cw * RATIO;
  const nominalW = (x1 - x0) * slot + 2 * PAD, nominalH = (y1 - y0) * slot + 2 * PAD;
  const centre = nominalW < avail ? (avail - nominalW) / 2 : 0;
  const X = (x) => centre + PAD + (x - x0) * slot;
  const Y = (y) => PAD + (y * ROW - y0) * slot;
  let minL = Infinity, minT = Infinity, maxR = -Infinity, maxB = -Infinity;
  const placed = piles.map((pile) => {
    const left = X(pile.x + (1 - CARD) / 2), top = Y(pile.y);
    const offsets = fanOffsets(pile, cw, ch);
    const ext = offsets.length ? offsets[offsets.length - 1] : { dx: 0, dy: 0 };
    const box = { left: left + Math.min(0, ext.dx), top: top + Math.min(0, ext.dy),
      w: cw + Math.abs(ext.dx), h: ch + Math.abs(ext.dy) };
    let vis = box;
    if (pile.rotate) {  // the turned box, about the centre of the base card
      const t = turned(box.w, box.h, pile.rotate);
      const cx = box.left + box.w / 2, cy = box.top + box.h / 2;
      vis = { left: cx - t.hx, top: cy - t.hy, w: 2 * t.hx, h: 2 * t.hy };
    }
    minL = Math.min(minL, vis.left); minT = Math.min(minT, vis.top);
    maxR = Math.max(maxR, vis.left + vis.w); maxB = Math.max(maxB, vis.top + vis.h);
    return { pile, left, top, offsets, box };
  });
  // A fan that reaches past the felt's edge moves everything over rather than being cut.
  const dx = minL < PAD ? PAD - minL : 0, dy = minT < PAD ? PAD - minT : 0;
  const width = Math.max(nominalW + dx, maxR + dx + PAD, avail);
  const height = Math.max(nominalH + dy, maxB + dy + PAD);
  return { arr, slot, cw, ch, dx, dy, width, height, placed, X, Y, x0, y0,
    contentLeft: minL + dx, contentRight: maxR + dx, scrolls: width > avail + 0.5 };
}

// ---- cards

/** Where each fan shows a covered card: the corner whose index must be upright there. */
function indexCorners(fan) {
  if (fan === "up") return { upright: ["bl"], turned: ["tr"], column: false };
  if (fan === "left" || fan === "right") return { upright: ["tl", "tr"], turned: ["bl", "br"], column: true };
  return { upright: ["tl"], turned: ["br"], column: false };
}

/** Fill the card element `e` with the face of `card` (nothing for a face-down card). */
function fillFace(e, card, fan) {
  const c = card.c;
  if (c === null || c === undefined) return;
  const p = cardParts(c);
  if (!p) { e.textContent = c; return; }
  const corners = indexCorners(fan);
  // One element an index: the rank as its text, the suit drawn by CSS from data-s (half the
  // elements of a rank and a suit of their own: the Empress's 208 cards style and lay out
  // twice as fast).
  const index = (corner, upright) => {
    e.appendChild(el("span", "cb-ix cb-" + corner + (upright ? "" : " cb-turned") +
      (corners.column ? " cb-col" : ""), { "data-s": p.symbol })).textContent = p.rank;
  };
  corners.upright.forEach((k) => index(k, true));
  corners.turned.forEach((k) => index(k, false));
  const court = "JQK".indexOf(p.rank) >= 0;
  e.appendChild(el("span", "cb-face" + (court ? " cb-court" : ""))).textContent = court ? p.rank : p.symbol;
  if (card.peek) e.appendChild(el("span", "cb-peek-mark")).textContent = "examined";
}

function cardClass(card, fan) {
  const c = card.c;
  if (c === null || c === undefined) return "cb-card cb-back";
  const p = cardParts(c);
  return "cb-card " + (p && p.red ? "cb-red" : "cb-black") + " cb-fan-" + fan + (card.peek ? " cb-peek" : "");
}

function cardNameOf(card) {
  const c = card.c;
  return c === null || c === undefined ? null : cardName(c) + (card.peek ? " (examined, not available)" : "");
}

/** A card on its own, as the table draws it. */
export function drawCard(card, fan) {
  // The card's name as data, not a title: Material turns titles into tooltips of its own.
  const ce = el("div", cardClass(card, fan), { "aria-hidden": "true", "data-name": cardNameOf(card) });
  fillFace(ce, card, fan);
  return ce;
}

function actionLabel(view, move) {
  for (const a of view.actions || []) if (a.move === move) return a.label;
  return null;
}

// ---- drawing: each item of the table is an element kept from one draw to the next (by its
// key: a pile's id, a card's pile and place, a region's number), and only what changed in
// it is written. A pick-up or a hover touches a few elements, not the 208 cards of the
// Empress; a focused item stays in the page (and keeps its keyboard ring) while it exists.

/** What the table holds: elements by key, with the last values written to each. */
function memo(table) {
  if (!table._cb) table._cb = { items: new Map() };
  return table._cb;
}

// Classes and attributes are compared with the element's own (others write some: the
// controller moves the tab stop); styles with what was written last (a browser reads back
// lengths rounded).
function setClass(e, cls) {
  if (e.className !== cls) e.className = cls;
}

function setAttrs(e, attrs) {
  for (const k in attrs) {
    const v = attrs[k];
    if (v === null || v === undefined) {
      if (e.hasAttribute(k)) e.removeAttribute(k);
    } else if (e.getAttribute(k) !== v) {
      e.setAttribute(k, v);
    }
  }
}

const STYLE_PROPS = ["left", "top", "width", "height", "zIndex", "transform", "transformOrigin"];

function setStyle(e, style) {
  const had = e._cbStyle || {};
  for (const k of STYLE_PROPS) {
    const v = style[k] === undefined ? "" : style[k];
    if ((had[k] === undefined ? "" : had[k]) !== v) e.style[k] = v;
  }
  e._cbStyle = style;
}

function px(n) { return n + "px"; }

/** New elements made in one frame, counted in cards (a pile, a region or a hit box counts a
 * quarter): a large table's first draw is spread over frames, each a short task (the
 * Empress's 208 cards in thirty-five), rather than one long one. Changes to elements that
 * exist are always written at once. Measured on the Empress (CPU time of each frame, its
 * style, layout and paint included, unthrottled, the machine loaded): 48 cards a frame
 * 22-45 ms, 16 cards 16-20 ms, 8 cards 11-14 ms, 6 cards 8-11 ms (under 12.5 ms: 50 ms at a
 * 4x slowdown). Once the table is complete, a change (a move dealing several cards, another
 * arrangement) makes up to LATER_PER_FRAME a frame: one frame's fixed cost (about 5 ms on the
 * Empress) paid once rather than for every six cards. */
const NEW_PER_FRAME = 6;
const LATER_PER_FRAME = 32;

/** Make the table's drawing exactly `specs` (in that order), reusing the element of each
 * key and writing only what differs. A spec: {key, group, tag, cls, attrs, style, content,
 * weight, fill(e)} (`fill` makes the element's inside when its `content` signature
 * changes). The table says `data-complete="1"` once every element is there.
 *
 * The elements of a group (the regions; each pile with its cards and hit boxes) live in an
 * element of their own, `display: contents` (no box: every card is still placed on the
 * table, and paints in the same order). Material's stylesheet has a rule on whatever follows
 * a `table` without a class (`.md-typeset table:not([class]) + *`), and Chrome answers an
 * element put into or taken out of a parent by restyling every descendant of that parent:
 * a card played on the Empress restyled the whole table (800 elements); now one pile. */
function reconcile(table, specs, clean) {
  const m = memo(table);
  const groups = new Map();
  for (const sp of specs) {
    const g = groups.get(sp.group);
    if (g) g.push(sp);
    else groups.set(sp.group, [sp]);
  }
  m.groups = groups;
  if (m.frame) {
    window.cancelAnimationFrame(m.frame);
    m.frame = 0;
  }
  passAll(table, m, true, clean);
}

const NO_FILL = () => {};

/** One pass over every group: every element brought up to date (`all`), or only the new
 * ones made (a later frame of a first draw: the others may have changed since, the tab stop
 * for one). The groups in `clean` (a set of keys, or none) are left as they are: render()
 * found them drawn from the same inputs last time. */
function passAll(table, m, all, clean) {
  const top = [];
  for (const key of m.groups.keys()) {
    top.push({ key, tag: "DIV", cls: "cb-group", attrs: {}, style: {}, content: "", fill: NO_FILL });
  }
  place(table, m, top, true, null);
  const wasComplete = table.getAttribute("data-complete") === "1";
  const budget = { made: 0, waiting: false, limit: wasComplete ? LATER_PER_FRAME : NEW_PER_FRAME };
  let placed = 0, compared = 0;
  for (const [key, specs] of m.groups) {
    const same = !!clean && clean.has(key);
    // A clean group of a table still being drawn may lack elements: those are made, and the
    // ones it has (made from the same specs) are not compared again.
    if (same && wasComplete) continue;
    place(m.items.get(key), memo(m.items.get(key)), specs, all && !same, budget);
    placed++;
    if (all && !same) compared++;
  }
  // For the tests: the groups passed over (their missing elements made) and, of those, the
  // ones whose elements were compared with their specs.
  m.placedGroups = placed;
  m.comparedGroups = compared;
  const complete = budget.waiting ? "0" : "1";
  if (table.getAttribute("data-complete") !== complete) table.setAttribute("data-complete", complete);
  if (budget.waiting) {
    m.frame = window.requestAnimationFrame(() => {
      m.frame = 0;
      passAll(table, m, false);
    });
  }
}

/** Make `parent`'s children exactly the elements of `specs`, in that order; new elements
 * only while `budget` (null: no limit) allows. */
function place(parent, m, specs, all, budget) {
  const next = new Map();
  // Elements no spec keeps leave first: the walk below then finds the kept ones in their
  // order and moves none of them (a stale element left in place would make every later
  // one be moved before it, and a moved element is styled and laid out afresh).
  const kept = new Set();
  for (const sp of specs) {
    const e = m.items.get(sp.key);
    if (e && e.tagName === sp.tag) kept.add(e);
  }
  for (let c = parent.firstChild; c;) {
    const n = c.nextSibling;
    if (!kept.has(c)) c.remove();
    c = n;
  }
  let at = parent.firstChild;
  for (const sp of specs) {
    let e = m.items.get(sp.key);
    if (e && e.tagName !== sp.tag) e = null;
    if (!e) {
      if (budget) {
        if (budget.made >= budget.limit) { budget.waiting = true; continue; }
        budget.made += sp.weight;
      }
      e = document.createElement(sp.tag);
    } else if (!all) {
      next.set(sp.key, e);
      if (e === at) at = at.nextSibling;
      else parent.insertBefore(e, at);
      continue;
    }
    setClass(e, sp.cls);
    setAttrs(e, sp.attrs);
    setStyle(e, sp.style);
    if (e._cbContent !== sp.content) {
      if (e._cbContent !== undefined) e.textContent = "";
      sp.fill(e);
      e._cbContent = sp.content;
    }
    next.set(sp.key, e);
    if (e === at) at = at.nextSibling;
    else parent.insertBefore(e, at);
  }
  while (at) {
    const gone = at;
    at = at.nextSibling;
    gone.remove();
  }
  m.items = next;
}

function setTableStyle(table, prop, value) {
  if (table.style.getPropertyValue(prop) !== value) table.style.setProperty(prop, value);
}

/** What a pile's drawing depends on, as a string: the same string, the same elements. */
function pileSignature({ pile, left, top, offsets, box }, lay, view, st, targets, chosen) {
  const pack = view.pack || null, movable = view.movable || {};
  const n = pile.cards.length;
  const flags = pile.cards.map((card, k) => {
    const ref = k === n - 1 ? pile.id : pile.id + ":" + k;
    return (movable[ref] ? "m" : "") + (ref === st.pick ? "s" : "") + (chosen[ref] ? "c" : "");
  });
  // The tab stop, when it is the pile or one of its cards' hit boxes.
  const cursor = typeof st.cursor === "string" &&
    (st.cursor === pile.id || st.cursor.startsWith(pile.id + ":")) ? st.cursor : null;
  const isPack = !!(pack && pack.pile === pile.id);
  return JSON.stringify([pile, left, top, offsets, box, lay.cw, lay.ch, lay.dx, lay.dy,
    isPack ? [pack.move, pack.legal, pack.move ? actionLabel(view, pack.move) : null] : null,
    cursor, targets.indexOf(pile.id) >= 0, flags]);
}

/** The specs of one pile's group (the pile, its cards, the hit boxes of its buried cards
 * that may move), the keys of its focusable items and what remark() needs of its cards. */
function pileSpecs({ pile, left: l0, top: t0, offsets, box }, lay, view, st, targets, chosen, sig) {
  const { cw, ch, dx, dy } = lay;
  const movable = view.movable || {};
  const pack = view.pack || null;
  const specs = [], keys = [], cards = [];
  const left = l0 + dx, top = t0 + dy;
  const n = pile.cards.length, fan = pile.fan || "none";
  const topCard = n ? pile.cards[n - 1] : null;
  // An empty place's name begins with the text it shows (its mark), as a name should.
  let label = (n === 0 && pile.mark ? pile.mark + ", " : "") + pile.label + ": " +
    (n === 0 ? "empty" : n + (n === 1 ? " card" : " cards") +
    (topCard.c ? ", top " + cardName(topCard.c) : ", face down"));
  const isPack = pack && pack.pile === pile.id;
  if (isPack && pack.move) {
    const what = actionLabel(view, pack.move);
    label += ". Activate to " + (what ? what.charAt(0).toLowerCase() + what.slice(1) : "play " + pack.move) +
      (pack.legal ? "" : " (not allowed now: activate to hear why)");
  }
  let cls = "cb-pile role-" + pile.role + " fan-" + fan + (n === 0 ? " cb-empty" : "");
  if (isPack) cls += " cb-pack" + (pack.legal ? " cb-pack-ready" : "");
  const baseLeft = left - box.left - dx, baseTop = top - box.top - dy;
  specs.push({
    key: "pile:" + pile.id, group: "group:" + pile.id, tag: "DIV", cls, weight: 0.25,
    attrs: { "data-pile": pile.id, "data-key": pile.id, tabindex: pile.id === st.cursor ? "0" : "-1",
      role: "button", "aria-label": label, ...pileMarks(pile.id, targets) },
    style: { left: px(box.left + dx), top: px(box.top + dy), width: px(box.w), height: px(box.h),
      transformOrigin: pile.rotate ? px(baseLeft + cw / 2) + " " + px(baseTop + ch / 2) : "",
      transform: pile.rotate ? "rotate(" + pile.rotate + "deg)" : "" },
    content: [baseLeft, baseTop, n === 0 ? pile.mark || pile.label : ""].join("|"),
    fill: (e) => {
      const base = e.appendChild(el("div", "cb-base"));
      base.style.left = px(baseLeft); base.style.top = px(baseTop);
      if (n === 0) base.appendChild(el("span", "cb-empty-label")).textContent = pile.mark || pile.label;
    },
  });
  keys.push(pile.id);
  pile.cards.forEach((card, k) => {
    const ref = k === n - 1 ? pile.id : pile.id + ":" + k;
    const c = card.c;
    let ccls = cardClass(card, fan);
    if (isPack && pack.legal && k === n - 1) ccls += " cb-pack-top";
    cards.push([ref, { top: k === n - 1, group: "group:" + pile.id, key: "card:" + pile.id + ":" + k }]);
    const style = { left: px(left + offsets[k].dx), top: px(top + offsets[k].dy), zIndex: String(2 + k) };
    if (pile.rotate) {
      style.transformOrigin = px(cw / 2 - offsets[k].dx) + " " + px(ch / 2 - offsets[k].dy);
      style.transform = "rotate(" + pile.rotate + "deg)";
    }
    specs.push({
      key: "card:" + pile.id + ":" + k, group: "group:" + pile.id, tag: "DIV", cls: ccls, weight: 1,
      attrs: { "aria-hidden": "true", "data-name": cardNameOf(card),
        "data-pile": pile.id, "data-index": String(k), "data-ref": ref,
        "data-movable": movable[ref] ? "" : null, ...cardMarks(ref, k === n - 1, st.pick, chosen) },
      style,
      content: (c === null || c === undefined ? "" : c) + "|" + fan + "|" + (card.peek ? 1 : 0),
      fill: (e) => fillFace(e, card, fan),
    });
    if (k < n - 1 && movable[ref]) {
      // A buried card the rules let move: an item of the table on its own, a bare box over
      // the card (named in words; the card's printed index is decoration). Clicks go
      // through it to the card.
      specs.push({
        key: "hit:" + ref, group: "group:" + pile.id, tag: "DIV", cls: "cb-hit", weight: 0.25,
        attrs: { "data-pile": pile.id, "data-index": String(k), "data-ref": ref, "data-key": ref,
          tabindex: ref === st.cursor ? "0" : "-1", role: "button",
          "aria-label": cardName(c) + " in " + pile.label + (card.peek ? ", examined" : "") },
        style, content: "", fill: () => {},
      });
      keys.push(ref);
    }
  });
  return { sig, specs, keys, cards };
}

/** Draw the view into `table` (elements kept from the last draw, only changes written). `st`:
 * {avail, pick, steps, cursor, hints}. Returns the layout and the keys of the table's
 * focusable items, in drawing order. */
export function render(table, view, st) {
  const lay = layout(view, st.avail);
  const { cw, ch, slot, dx, dy } = lay;
  const movable = view.movable || {};
  const targets = st.pick ? (movable[st.pick] || []) : [];
  const chosen = chosenOf(st.steps);
  const keys = [];
  const specs = [];
  // What remark() needs to change the marks of a pick-up without drawing the table again.
  const marks = { view, hints: !!st.hints, pick: st.pick, targets, chosen, piles: new Set(), cards: new Map() };
  setTableStyle(table, "--cw", px(cw));
  setTableStyle(table, "--ch", px(ch));
  // No class of the table changes on a pick-up: Material's stylesheet has selectors on
  // [class] whose invalidation takes in every descendant of an element whose class changes
  // (the whole table, 900 elements on the Empress). Switches and widths may.
  table.classList.toggle("cb-hints", !!st.hints);
  table.classList.toggle("cb-small", cw < SMALL_CARD_PX);
  if (table.getAttribute("data-layout") !== lay.arr.name) table.setAttribute("data-layout", lay.arr.name);

  lay.arr.regions.forEach((r, i) => {
    specs.push({
      key: "region:" + i, group: "regions", tag: "DIV", cls: "cb-region", attrs: { "aria-hidden": "true" }, weight: 0.25,
      style: { left: px(lay.X(r.x) + dx), top: px(lay.Y(r.y) + dy), width: px(r.w * slot),
        height: px(r.h * ROW * slot) },
      content: "region:" + r.label,
      fill: (e) => { e.appendChild(el("span", "cb-region-label")).textContent = r.label; },
    });
  });

  // A pile drawn last time from the same inputs (its cards and place, the marks and the tab
  // stop in it: pileSignature) is left as it is, its specs neither built nor compared with
  // its elements again: a move on the Empress draws the two or three piles it changed, not
  // its 208 cards. remark() forgets the piles whose marks it wrote.
  // So too while the first drawing is still spread over frames (a view from the engine
  // arriving mid-way, most often the same as the one being drawn): passAll then only makes
  // the elements a clean pile still lacks.
  const m = memo(table);
  const reuse = !!m.piles;
  const piles = new Map();
  const clean = new Set();
  for (const placed of lay.placed) {
    const group = "group:" + placed.pile.id;
    const sig = pileSignature(placed, lay, view, st, targets, chosen);
    const old = reuse ? m.piles.get(group) : null;
    const drawn = old && old.sig === sig ? old : pileSpecs(placed, lay, view, st, targets, chosen, sig);
    drawn.placed = placed;
    if (drawn === old) clean.add(group);
    piles.set(group, drawn);
    for (const sp of drawn.specs) specs.push(sp);
    for (const k of drawn.keys) keys.push(k);
    marks.piles.add(placed.pile.id);
    for (const [ref, c] of drawn.cards) marks.cards.set(ref, c);
  }
  m.piles = piles;
  m.lay = lay;
  reconcile(table, specs, clean);
  memo(table).marks = marks;
  setTableStyle(table, "width", px(Math.ceil(lay.width)));
  setTableStyle(table, "height", px(Math.ceil(lay.height)));
  return { layout: lay, keys };
}

// ---- marks: a pick-up, a put-back or a step chosen changes only the marks of the card
// picked up, the piles it may go to and the cards of the steps chosen. remark() writes those
// and nothing else (render() would draw again every pile whose marks changed, with its
// cards: on the Empress a card's targets are two dozen piles).
//
// The marks are attributes (data-selected, data-chosen, data-target), not classes: Material's
// stylesheet has selectors on [class] (`table:not([class]) td > :first-child`, `... + *`)
// whose invalidation restyles every descendant and the next sibling of an element whose
// class changes, each of them costly to style under Material's rules. Measured on the
// Empress at a 4x slowdown, eight elements marked: by class 3.2-7.9 ms of style (median),
// by an attribute 0.1-0.5 ms.

function chosenOf(steps) {
  const chosen = {};
  for (const s of steps) { chosen[s[0]] = true; chosen[s[1]] = true; }
  return chosen;
}

/** The marks of pile `id`: a place the card picked up may go to. */
function pileMarks(id, targets) {
  return { "data-target": targets.indexOf(id) >= 0 ? "" : null };
}

/** The marks of card `ref` (`top`: the top card of its pile): picked up, or chosen in a step. */
function cardMarks(ref, top, pick, chosen) {
  return { "data-selected": ref === pick ? "" : null, "data-chosen": chosen[ref] && top ? "" : null };
}

function itemOf(m, group, key) {
  const g = m.items.get(group);
  return g && g._cb ? g._cb.items.get(key) || null : null;
}

/** Show the marks of `st` ({pick, steps, hints}) on a table last drawn by render() from this
 * same `view`, writing only the marks that change. False (nothing written) when the table
 * must be drawn again instead: another view, another switch, or a first draw not finished. */
export function remark(table, view, st) {
  const m = memo(table), old = m.marks;
  if (!old || m.frame || old.view !== view || old.hints !== !!st.hints ||
      table.getAttribute("data-complete") !== "1") return false;
  const movable = view.movable || {};
  const targets = st.pick ? (movable[st.pick] || []) : [];
  const chosen = chosenOf(st.steps);
  const piles = new Set(old.targets.concat(targets));
  const cards = new Set(Object.keys(old.chosen).concat(Object.keys(chosen)));
  for (const r of [old.pick, st.pick]) if (r) cards.add(r);
  for (const id of piles) {
    const e = old.piles.has(id) && itemOf(m, "group:" + id, "pile:" + id);
    if (e) setAttrs(e, pileMarks(id, targets));
  }
  for (const ref of cards) {
    const c = old.cards.get(ref);
    const e = c && itemOf(m, c.group, c.key);
    if (e) setAttrs(e, cardMarks(ref, c.top, st.pick, chosen));
  }
  // Those piles now show the marks of `st`: their signatures say so (and that the tab stop
  // is where the controller keeps it), so the next drawing leaves them as they are if
  // nothing else changed in them.
  const groups = new Set(Array.from(piles, (id) => "group:" + id));
  for (const ref of cards) if (old.cards.has(ref)) groups.add(old.cards.get(ref).group);
  for (const g of groups) {
    const d = m.piles && m.piles.get(g);
    if (d) d.sig = pileSignature(d.placed, m.lay, view, st, targets, chosen);
  }
  old.pick = st.pick;
  old.targets = targets;
  old.chosen = chosen;
  m.remarks = (m.remarks || 0) + 1;  // for the tests: how often the marks alone were written
  return true;
}
