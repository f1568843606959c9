// The reader's hands on the board: clicks and taps, drag and drop, and the keyboard (one tab
// stop for the table, arrow keys inside it, shortcuts that work whenever the board was the
// last thing used, even after a click left the focus on the page).

import { pileOf } from "./util.js";

/** The board the reader used last (a click or focus inside it), or null. */
let lastBoard = null;

function boardOf(node) {
  const root = node && node.closest ? node.closest(".cadogan-board") : null;
  return root && root.cadoganBoard ? root.cadoganBoard : null;
}

function setLast(b) {
  if (lastBoard && lastBoard !== b) lastBoard.active = false;
  lastBoard = b;
  if (b) b.active = true;
}

/** What a click or drop on `node` designates: {pile, ref} (ref null: the pile itself). */
export function hit(board, node) {
  if (!node || !node.closest) return null;
  const table = board.parts.table;
  const card = node.closest(".cb-card[data-pile], .cb-hit[data-pile]");
  if (card && table.contains(card)) {
    const pile = board.pileById(card.getAttribute("data-pile"));
    const k = parseInt(card.getAttribute("data-index"), 10);
    let ref = card.getAttribute("data-ref");
    // A face-down card under others stands for its pile.
    if (pile && pile.cards[k] && pile.cards[k].c === null) ref = pile.id;
    return { pile: card.getAttribute("data-pile"), ref };
  }
  const pe = node.closest(".cb-pile[data-pile]");
  if (pe && table.contains(pe)) return { pile: pe.getAttribute("data-pile"), ref: null };
  return null;
}

/** The table's item (pile, or buried card that may move) a hit stands for. */
function itemKey(board, h) {
  if (h.ref && h.ref !== h.pile && board.keys && board.keys.indexOf(h.ref) >= 0) return h.ref;
  return h.pile;
}

export function bindInput(board) {
  const table = board.parts.table;
  table.addEventListener("click", (ev) => {
    if (board.suppressClick) { board.suppressClick = false; return; }
    const h = hit(board, ev.target);
    if (!h) return;
    board.focusItem(itemKey(board, h), false);  // the keyboard carries on from here
    board.activate(h.pile, h.ref);
  });
  table.addEventListener("pointerdown", (ev) => dragStart(board, ev));
  // Whatever item gets the focus (Tab, a click, a script) takes the table's one tab stop.
  table.addEventListener("focusin", (ev) => {
    const k = ev.target && ev.target.getAttribute ? ev.target.getAttribute("data-key") : null;
    if (k) board.setCursor(k);
  });
}

function dragStart(board, ev) {
  if (ev.button !== 0 || !board.ready) return;
  const card = ev.target.closest(".cb-card[data-ref]");
  if (!card) return;
  const start = { x: ev.clientX, y: ev.clientY }, pointerId = ev.pointerId;
  const h = hit(board, card);
  let ghost = null;
  const move = (e) => {
    if (e.pointerId !== pointerId) return;
    if (!ghost) {
      if (Math.abs(e.clientX - start.x) + Math.abs(e.clientY - start.y) < 8) return;
      if (board.pick !== h.ref) { board.pick = null; board.pickUp(h.ref); }
      if (board.pick !== h.ref) { end(e, true); return; }
      const fresh = board.item(h.ref) && board.item(h.ref).classList.contains("cb-card") ? board.item(h.ref) :
        board.parts.table.querySelector('.cb-card[data-ref="' + h.ref + '"]') || card;
      const r = fresh.getBoundingClientRect();
      ghost = fresh.cloneNode(true);
      ghost.classList.add("cb-ghost");
      ghost.removeAttribute("tabindex");
      Object.assign(ghost.style, { position: "fixed", width: r.width + "px", height: r.height + "px",
        left: r.left + "px", top: r.top + "px", zIndex: "1000" });
      ghost.style.setProperty("--cw", r.width + "px");
      ghost.dataset.ox = String(start.x - r.left);
      ghost.dataset.oy = String(start.y - r.top);
      document.body.appendChild(ghost);
    }
    ghost.style.left = (e.clientX - Number(ghost.dataset.ox)) + "px";
    ghost.style.top = (e.clientY - Number(ghost.dataset.oy)) + "px";
    e.preventDefault();
  };
  const end = (e, abandon) => {
    if (e.pointerId !== pointerId) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    if (!ghost) return;
    ghost.remove();
    board.suppressClick = true;
    window.setTimeout(() => { board.suppressClick = false; }, 0);
    if (abandon) { board.cancel(); return; }
    const target = hit(board, document.elementFromPoint(e.clientX, e.clientY));
    if (target && target.pile !== pileOf(h.ref)) board.putDown(target.pile, target.ref);
    else board.cancel("Put back.");
  };
  const up = (e) => end(e, false);
  const cancel = (e) => end(e, true);
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", cancel);
}

// ---- keyboard

/** A key the board acts on is the board's alone: Material's own shortcuts (N next page,
 * P previous, S search) listen on the window and must not see it. */
function claim(ev) {
  ev.preventDefault();
  ev.stopPropagation();
}

const TEXT_INPUT = /^(text|number|search|email|url|tel|password)$/;

function typing(t) {
  if (!t || !t.tagName) return false;
  if (t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable) return true;
  return t.tagName === "INPUT" && TEXT_INPUT.test(t.type || "text");
}

const COMMANDS = { u: "undo", r: "redo", n: "new", h: "hint" };

function key(board, ev) {
  const t = ev.target, k = ev.key;
  const inTable = board.parts.table.contains(t) && t !== board.parts.table;
  if (k === "Escape") {
    if (board.pick || board.steps.length) { board.cancel(); claim(ev); }
    return;
  }
  if (inTable && (k === "Enter" || k === " ")) {
    const h = hit(board, t);
    if (h) { claim(ev); board.activate(h.pile, t.hasAttribute("data-ref") ? h.ref : null); }
    return;
  }
  if (inTable && (/^Arrow/.test(k) || k === "Home" || k === "End")) {
    claim(ev);
    moveFocus(board, t, k);
    return;
  }
  if (k.length !== 1 || typing(t)) return;
  const lower = k.toLowerCase();
  for (const b of board.root.querySelectorAll("button[data-cb-action][data-key]")) {
    const want = b.getAttribute("data-key");
    const shift = want.indexOf("Shift+") === 0;
    if (want.replace("Shift+", "").toLowerCase() === lower && shift === ev.shiftKey) {
      claim(ev);
      board.action(b.getAttribute("data-cb-action"));
      return;
    }
  }
  if (ev.shiftKey) return;
  if (COMMANDS[lower]) { claim(ev); board.command(COMMANDS[lower]); }
}

/** Arrow keys: the nearest item of the table in that direction; Home and End: the first
 * and the last. The item moved to takes the table's one tab stop. */
function moveFocus(board, from, k) {
  const keys = board.keys || [];
  if (!keys.length) return;
  const items = keys.map((x) => board.item(x)).filter(Boolean);
  if (k === "Home" || k === "End" || items.indexOf(from) < 0) {
    const it = k === "End" ? items[items.length - 1] : items[0];
    board.focusItem(it.getAttribute("data-key"), true);
    return;
  }
  const a = from.getBoundingClientRect();
  const ax = a.left + Math.min(a.width, 40) / 2, ay = a.top + Math.min(a.height, 40) / 2;
  let best = null, bestScore = Infinity;
  for (const it of items) {
    if (it === from) continue;
    const b = it.getBoundingClientRect();
    const bx = b.left + Math.min(b.width, 40) / 2, by = b.top + Math.min(b.height, 40) / 2;
    const dx = bx - ax, dy = by - ay;
    let along, across;
    if (k === "ArrowRight") { along = dx; across = dy; }
    else if (k === "ArrowLeft") { along = -dx; across = dy; }
    else if (k === "ArrowDown") { along = dy; across = dx; }
    else { along = -dy; across = dx; }
    if (along <= 1) continue;
    const score = along + 2.5 * Math.abs(across);
    if (score < bestScore) { bestScore = score; best = it; }
  }
  if (best) board.focusItem(best.getAttribute("data-key"), true);
}

/** Once per tab: track the board used last, and route keys to it. */
export function installGlobalInput() {
  const track = (ev) => setLast(boardOf(ev.target));
  document.addEventListener("pointerdown", track, true);
  document.addEventListener("focusin", track, true);
  document.addEventListener("keydown", (ev) => {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    let b = boardOf(t);
    if (!b && (!t || t === document.body || t === document.documentElement) &&
        lastBoard && lastBoard.root.isConnected) {
      b = lastBoard;
    }
    if (b) key(b, ev);
  });
}
