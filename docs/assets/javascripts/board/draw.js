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

export function drawCard(card, fan) {
  const c = card.c;
  if (c === null || c === undefined) return el("div", "cb-card cb-back", { "aria-hidden": "true" });
  const p = cardParts(c);
  const ce = el("div", "cb-card " + (p && p.red ? "cb-red" : "cb-black") + " cb-fan-" + fan, {
    // The card's name as data, not a title: Material turns titles into tooltips of its own.
    "aria-hidden": "true", "data-name": cardName(c) + (card.peek ? " (examined, not available)" : ""),
  });
  if (card.peek) ce.classList.add("cb-peek");
  if (!p) { ce.textContent = c; return ce; }
  const corners = indexCorners(fan);
  const index = (corner, upright) => {
    const ix = ce.appendChild(el("span", "cb-ix cb-" + corner + (upright ? "" : " cb-turned") +
      (corners.column ? " cb-col" : "")));
    ix.appendChild(el("b")).textContent = p.rank;
    ix.appendChild(el("i")).textContent = p.symbol;
  };
  corners.upright.forEach((k) => index(k, true));
  corners.turned.forEach((k) => index(k, false));
  const court = "JQK".indexOf(p.rank) >= 0;
  ce.appendChild(el("span", "cb-face" + (court ? " cb-court" : ""))).textContent = court ? p.rank : p.symbol;
  if (card.peek) ce.appendChild(el("span", "cb-peek-mark")).textContent = "examined";
  return ce;
}

function actionLabel(view, move) {
  for (const a of view.actions || []) if (a.move === move) return a.label;
  return null;
}

/** Put the freshly drawn `frag` in the table. The element `keep` (the focused item) is not
 * replaced but updated in place, so it never leaves the page: a focus that left with it
 * would come back without its keyboard ring. */
function place(table, frag, keep) {
  const key = keep && keep.parentNode === table ? keep.getAttribute("data-key") : null;
  const twin = key ? Array.prototype.find.call(frag.childNodes, (n) => n.getAttribute && n.getAttribute("data-key") === key) : null;
  if (!twin) {
    table.textContent = "";
    table.appendChild(frag);
    return;
  }
  for (const child of Array.prototype.slice.call(table.childNodes)) if (child !== keep) child.remove();
  for (const a of Array.prototype.slice.call(keep.attributes)) if (!twin.hasAttribute(a.name)) keep.removeAttribute(a.name);
  for (const a of Array.prototype.slice.call(twin.attributes)) {
    if (keep.getAttribute(a.name) !== a.value) keep.setAttribute(a.name, a.value);
  }
  keep.replaceChildren(...Array.prototype.slice.call(twin.childNodes));
  let before = true;
  for (const node of Array.prototype.slice.call(frag.childNodes)) {
    if (node === twin) { before = false; continue; }
    if (before) table.insertBefore(node, keep);
    else table.appendChild(node);
  }
}

/** Draw the view into `table` (its focused item, `st.keep`, kept in place). `st`: {avail, pick, steps, cursor, hints}.
 * Returns the layout and the keys of the table's focusable items, in drawing order. */
export function render(table, view, st) {
  const lay = layout(view, st.avail);
  const { cw, ch, slot, dx, dy } = lay;
  const frag = document.createDocumentFragment();
  const movable = view.movable || {};
  const targets = st.pick ? (movable[st.pick] || []) : [];
  const chosen = {};
  for (const s of st.steps) { chosen[s[0]] = true; chosen[s[1]] = true; }
  const pack = view.pack || null;
  const keys = [];
  table.style.setProperty("--cw", cw + "px");
  table.style.setProperty("--ch", ch + "px");
  table.classList.toggle("cb-picking", !!st.pick);
  table.classList.toggle("cb-hints", !!st.hints);
  table.classList.toggle("cb-small", cw < SMALL_CARD_PX);
  table.setAttribute("data-layout", lay.arr.name);

  for (const r of lay.arr.regions) {
    const re = el("div", "cb-region", { "aria-hidden": "true" });
    re.style.left = (lay.X(r.x) + dx) + "px";
    re.style.top = (lay.Y(r.y) + dy) + "px";
    re.style.width = (r.w * slot) + "px";
    re.style.height = (r.h * ROW * slot) + "px";
    re.appendChild(el("span", "cb-region-label")).textContent = r.label;
    frag.appendChild(re);
  }

  for (const { pile, left: l0, top: t0, offsets, box } of lay.placed) {
    const left = l0 + dx, top = t0 + dy;
    const n = pile.cards.length, fan = pile.fan || "none";
    const topCard = n ? pile.cards[n - 1] : null;
    let label = pile.label + ": " + (n === 0 ? "empty" : n + (n === 1 ? " card" : " cards") +
      (topCard.c ? ", top " + cardName(topCard.c) : ", face down"));
    const isPack = pack && pack.pile === pile.id;
    if (isPack && pack.move) {
      const what = actionLabel(view, pack.move);
      label += ". Activate to " + (what ? what.charAt(0).toLowerCase() + what.slice(1) : "play " + pack.move) +
        (pack.legal ? "" : " (not allowed now: activate to hear why)");
    }
    const pe = el("div", "cb-pile role-" + pile.role + " fan-" + fan, {
      "data-pile": pile.id, "data-key": pile.id, tabindex: "-1", role: "button", "aria-label": label,
    });
    keys.push(pile.id);
    if (isPack) {
      pe.classList.add("cb-pack");
      if (pack.legal) pe.classList.add("cb-pack-ready");
    }
    if (pile.id === st.pick) pe.classList.add("cb-picked");
    if (targets.indexOf(pile.id) >= 0) pe.classList.add("cb-target");
    if (movable[pile.id]) pe.classList.add("cb-source");
    pe.style.left = (box.left + dx) + "px"; pe.style.top = (box.top + dy) + "px";
    pe.style.width = box.w + "px"; pe.style.height = box.h + "px";
    const base = pe.appendChild(el("div", "cb-base"));
    base.style.left = (left - box.left - dx) + "px"; base.style.top = (top - box.top - dy) + "px";
    if (pile.rotate) {
      pe.style.transformOrigin = (left - box.left - dx + cw / 2) + "px " + (top - box.top - dy + ch / 2) + "px";
      pe.style.transform = "rotate(" + pile.rotate + "deg)";
    }
    if (n === 0) base.appendChild(el("span", "cb-empty-label")).textContent = pile.label;
    frag.appendChild(pe);
    pile.cards.forEach((card, k) => {
      const ref = k === n - 1 ? pile.id : pile.id + ":" + k;
      const ce = drawCard(card, fan);
      ce.setAttribute("data-pile", pile.id);
      ce.setAttribute("data-index", String(k));
      ce.setAttribute("data-ref", ref);
      ce.style.left = (left + offsets[k].dx) + "px";
      ce.style.top = (top + offsets[k].dy) + "px";
      ce.style.zIndex = String(2 + k);
      if (pile.rotate) {
        ce.style.transformOrigin = (cw / 2 - offsets[k].dx) + "px " + (ch / 2 - offsets[k].dy) + "px";
        ce.style.transform = "rotate(" + pile.rotate + "deg)";
      }
      if (movable[ref]) ce.classList.add("cb-movable");
      if (isPack && pack.legal && k === n - 1) ce.classList.add("cb-pack-top");
      if (ref === st.pick) ce.classList.add("cb-selected");
      if (chosen[ref] && k === n - 1) ce.classList.add("cb-chosen");
      frag.appendChild(ce);
      if (k < n - 1 && movable[ref]) {
        // A buried card the rules let move: an item of the table on its own, a bare box over
        // the card (named in words; the card's printed index is decoration). Clicks go
        // through it to the card.
        const item = el("div", "cb-hit", {
          "data-pile": pile.id, "data-index": String(k), "data-ref": ref, "data-key": ref,
          tabindex: "-1", role: "button",
          "aria-label": cardName(card.c) + " in " + pile.label + (card.peek ? ", examined" : ""),
        });
        for (const prop of ["left", "top", "zIndex", "transform", "transformOrigin"]) item.style[prop] = ce.style[prop];
        frag.appendChild(item);
        keys.push(ref);
      }
    });
  }
  place(table, frag, st.keep);
  table.style.width = Math.ceil(lay.width) + "px";
  table.style.height = Math.ceil(lay.height) + "px";
  return { layout: lay, keys };
}
