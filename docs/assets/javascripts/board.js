/* The edition's playable board: a generic renderer and controller for every game.
 *
 * The build (build_scripts/board_embed.py) writes each board's markup with the view of its
 * first position embedded as JSON, followed by this module, loaded `async`: it runs in a task
 * of its own as soon as it has arrived (the board's markup is there by then), and draws the
 * saved game, or that first view, once the page has been laid out for its first frame; it
 * starts the engine (Pyodide in one module Web Worker per tab) and makes the
 * board playable. It knows nothing of any game: it draws piles and cards from the view and
 * offers the moves the view lists; every rule is checked by the engine, and a refused move
 * quotes the sentence of the chapter it breaks.
 *
 * Modules (board/): draw.js (the table from the view), input.js (pointer and keyboard),
 * engine-client.js (the worker), saved.js (saved games, statistics, share links),
 * controller.js (one board: commands, messages, history), util.js.
 *
 * A module runs once per tab even though Material's instant navigation re-inserts the
 * script on every page with a board: boards are mounted when it first runs and on every
 * page instant navigation shows (`document$`).
 */

import { Board, boards } from "./board/controller.js";
import { installGlobalInput } from "./board/input.js";
import { whenMaterial } from "./board/util.js";

const SCRIPT_URL = import.meta.url;
const env = {
  siteRoot: new URL("../../", SCRIPT_URL),
  workerUrl: new URL("board-worker.mjs", SCRIPT_URL),
};

function mountAll() {
  document.querySelectorAll(".cadogan-board[data-game]:not([data-mounted])").forEach((root) => {
    if (!root.hasAttribute("data-initial")) return;
    const b = new Board(root, env);
    root.cadoganBoard = b;
    b.mount();
  });
  skipLink();
}

/** "Skip to the board", right after Material's "Skip to content": the second Tab stop of
 * a page with a board. Made afresh on every page instant navigation shows. */
function skipLink() {
  document.querySelectorAll("a.cb-skip").forEach((a) => a.remove());
  const root = document.querySelector(".cadogan-board[data-mounted]");
  if (!root || !root.cadoganBoard) return;
  const a = document.createElement("a");
  a.className = "md-skip cb-skip";
  a.href = "#" + root.id;
  a.textContent = "Skip to the board";
  a.addEventListener("click", (ev) => {
    // Not Material's: its instant navigation would follow the anchor and move the focus.
    ev.preventDefault();
    ev.stopPropagation();
    root.cadoganBoard.focusTable();
  });
  // Inside Material's skip component, after its own link: a new child of <body> would make
  // the browser restyle the whole page (Material's `table:not([class]) + *` is a sibling rule
  // with a universal subject: traced, 4-6 ms of style at every load, 4x that on a phone),
  // a child of this <div> only the <div>'s two links. Instant navigation replaces the
  // component, and this link with it.
  const material = document.querySelector("[data-md-component=skip]");
  if (material) material.appendChild(a);
  else document.body.insertBefore(a, document.body.firstChild);
}

// The option controls come later in the page than the board: listen on the document, once
// per tab, and find the board by id when a control changes.
document.addEventListener("change", (ev) => {
  const t = ev.target;
  const f = t && t.closest ? t.closest("fieldset.cadogan-option") : null;
  if (!f || !t.name) return;
  const b = boards[f.getAttribute("data-board")];
  if (b && b.root.isConnected) b.setOption(f, f.getAttribute("data-option"), t.value);
});

// Printing: each board draws its table at the width of a printed page, and back after.
function printing(on) {
  Object.keys(boards).forEach((id) => {
    const b = boards[id];
    if (b.root.isConnected) b.setPrinting(on);
  });
}
window.addEventListener("beforeprint", () => printing(true));
window.addEventListener("afterprint", () => printing(false));
if (window.matchMedia) {
  const mq = window.matchMedia("print");
  const onChange = () => printing(mq.matches);
  if (mq.addEventListener) mq.addEventListener("change", onChange);
  else if (mq.addListener) mq.addListener(onChange);
}

installGlobalInput();
window.__cadoganBoard = { mountAll, boards };
mountAll();
// The module is loaded `async` (a task of its own, not the long one in which the parser ends
// and Material starts): Material's document$ may not exist yet. Its bundle is deferred
// (build_scripts/deferred_scripts.py): it runs once the page is parsed, before
// DOMContentLoaded, so that event (or its having passed) says the bundle has run.
function follow() {
  if (!window.document$ || typeof window.document$.subscribe !== "function") return false;
  window.document$.subscribe(() => mountAll());
  return true;
}
if (!follow()) whenMaterial(() => { if (!follow()) mountAll(); });
