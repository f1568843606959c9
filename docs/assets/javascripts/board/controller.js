// One board: what it shows, what it says, and what the reader's commands do. The engine
// decides every rule; this keeps the game's history (including games replaced, which Undo
// brings back), the message line, the switches, the statistics and the share link.

import { call, getEngine, onProgress } from "./engine-client.js";
import { PAD, remark, render } from "./draw.js";
import { Help } from "./help.js";
import { bindInput } from "./input.js";
import {
  HISTORY_LIMIT, clearStats, noteStats, readAddress, readPrefs, readSave, readStats,
  shareLink, stripAddress, writePrefs, writeSave,
} from "./saved.js";
import {
  cardName, containsSteps, cssEscape, el, optionsMap, pileOf, plural, positionFields,
  randomDeal, sameSteps, samePosition, validView, whenParsed,
} from "./util.js";

const LOADING = "Engine loading\u2026 the board becomes playable when it is ready.";
const MAX_DEAL = 9007199254740991;
/** Auto-play stops after this many moves in a row (a safeguard: a game never needs more). */
const AUTOPLAY_LIMIT = 400;
/** Width the table is drawn at for printing, in CSS pixels (a page's text width). */
const PRINT_WIDTH = 640;

/** The boards of the page, by board id (the option controls find theirs here). */
export const boards = {};

function describeEntry(position) {
  const f = positionFields(position);
  const n = f.moves ? f.moves.split(",").length : 0;
  return (f.deal !== undefined ? "deal " + f.deal : "the set position") + ", after " +
    plural(n, "move");
}

export class Board {
  constructor(root, env) {
    this.root = root;
    this.env = env;
    this.game = root.getAttribute("data-game");
    this.id = root.getAttribute("data-board") || this.game;
    this.cfg = { pyodide: root.getAttribute("data-pyodide"), archive: root.getAttribute("data-engine-archive"),
      runtime: readRuntime(root) };
    this.parts = {};
    root.querySelectorAll("[data-cb]").forEach((e) => { this.parts[e.getAttribute("data-cb")] = e; });
    this.view = null;
    this.position = null;
    this.past = [];          // games replaced, that Undo brings back (latest last)
    this.ahead = [];         // games Undo took back from, that Redo brings back
    this.pick = null;        // the card picked up (`l3`, `l3:2`)
    this.steps = [];         // the steps chosen so far of a move of several steps
    this.cursor = null;      // the table's item that has the tab stop
    this.ready = false;
    this.queue = Promise.resolve();
    this.prefs = readPrefs();
    this.autoRun = 0;
    this.printing = false;
    this.flashTimer = null;
  }

  // ---------------------------------------------------------------- mounting
  mount() {
    const root = this.root;
    root.setAttribute("data-mounted", "1");
    let initial = null;
    try { initial = JSON.parse(root.getAttribute("data-initial")); } catch (e) { initial = null; }
    this.initial = initial;
    getEngine(this.cfg, this.env.siteRoot, this.env.workerUrl);  // Python boots while the page draws
    const saved = readSave(this.id, (v) => validView(v, this.game));
    let linked = readAddress(this.game);
    stripAddress();  // the game lives in the save and the share link, not in the address
    if (saved && !saved.corrupt) { this.past = saved.past; this.ahead = saved.ahead; }
    const own = saved && saved.position ? saved.position : null;
    if (linked && own && samePosition(linked, own)) linked = null;  // the reader's own game
    if (linked) {
      // The game of a share link becomes the saved game at once (a reload keeps it); the
      // reader's own game is kept for Undo.
      if (own) this.pushPast(own);
      this.ahead = [];
      writeSave(this.id, { position: linked, view: null, past: this.past, ahead: this.ahead });
    }
    // Draw at once what the reader will play: the saved game as it was last seen; a game
    // whose view is not known yet (a link) is shown face down until the engine has it.
    let first = null, veiled = false;
    const initialPos = initial ? initial.position : null;
    if (!linked && saved && saved.view) first = saved.view;
    else if (initial) {
      const pending = linked || (own && !samePosition(own, initialPos) ? own : null);
      veiled = !!pending;
      first = veiled ? veil(initial.view) : initial.view;
    }
    // The table is drawn once the page has been laid out for its first frame (bindControls):
    // its width read now would lay the whole chapter out at once, inside this script's task
    // (on the Empress, 25-45 ms of CPU before the first card).
    if (validView(first, this.game)) {
      this.view = first;
      this.updateControls();  // the table itself: firstDraw(), once the width is known
    } else {
      this.parts.status.textContent = "The board could not be drawn.";
    }
    root.classList.toggle("cb-veiled", veiled);
    boards[this.id] = this;
    bindInput(this);
    this.bindControls();
    this.help = new Help(this);
    this.setEngineState("loading", LOADING);
    this.message("info", linked ? "Opening the game in the link when the engine is ready\u2026" : LOADING, true);
    this.parts.message.setAttribute("data-line", "progress");
    onProgress((p) => this.showProgress(p, linked));
    this.showStats();
    whenParsed(() => this.syncOptions());  // the option controls come later in the page
    this.enqueue(() => this.start(saved, linked, own));
  }

  enqueue(fn) {
    const p = this.queue.then(fn).catch((err) => this.engineFailed(err));
    this.queue = p;
    return p;
  }

  request(req) {
    req.board = this.id;
    return call(req);
  }

  start(saved, linked, own) {
    const load = (position) => this.request({ op: "load", game: this.game, position });
    const newDeal = (why) => this.request({ op: "new", game: this.game, deal: randomDeal(), options: "" })
      .then((r) => { r.notice = why + " A new deal was started instead."; return r; });
    let begin;
    if (linked) {
      begin = load(linked).then((r) => {
        if (r.ok) {
          if (own) {
            r.notice = "Opened the game in the link. The game you had here (" + describeEntry(own) +
              ") is kept: Undo at the start of this one brings it back.";
          }
          return r;
        }
        const why = "The game in this page\u2019s address could not be restored (" + r.error.message + ").";
        if (!own) return newDeal(why);
        this.past.pop();
        return load(own).then((r2) => {
          if (r2.ok) r2.notice = why + " Your own game was resumed.";
          return r2.ok ? r2 : newDeal(why);
        });
      });
    } else if (own) {
      begin = load(own).then((r) =>
        r.ok ? r : newDeal("The saved game could not be restored (" + r.error.message + ")."));
    } else if (saved && saved.corrupt) {
      begin = newDeal("The saved game was damaged and could not be read.");
    } else {
      const v = this.initial && this.initial.view;
      begin = this.request({ op: "new", game: this.game, deal: v ? v.deal : 1, options: v ? v.options : "" });
    }
    return begin.then((r) => {
      if (!r.ok) throw new Error(r.error.message);
      this.root.classList.remove("cb-veiled");
      this.apply(r, "start");
      this.ready = true;
      this.root.setAttribute("data-ready-at", String(Math.round(performance.now())));
      const eng = getEngine(this.cfg, this.env.siteRoot, this.env.workerUrl);
      // For the benchmark: when the tab's engine was started and how long Python took.
      this.root.setAttribute("data-engine-started-at", String(Math.round(eng.startedAt)));
      if (eng.bootMs !== null) this.root.setAttribute("data-engine-boot-ms", String(Math.round(eng.bootMs)));
      // Whether Python was restored from a snapshot of an earlier visit (board-worker.mjs).
      if (eng.snapshot) this.root.setAttribute("data-engine-snapshot", eng.snapshot);
      this.setEngineState("ready", "Engine ready.");
      if (r.notice) this.notice(r.notice);
      else this.message("info", "Ready: click or drag a card, or use the keyboard.", true);
      if (this.prefs.autoplay) this.autoplay();
    });
  }

  engineFailed(err) {
    const msg = (err && err.message) || String(err);
    this.ready = false;
    this.root.classList.remove("cb-veiled");
    const text = "The engine could not start, so the board cannot be played: " + msg + " Reload the page to try again.";
    this.setEngineState("failed", text);
    this.message("notice", text, true);
  }

  setEngineState(state, text) {
    this.root.setAttribute("data-engine", state);
    if (this.parts.engine) this.parts.engine.textContent = text;
  }

  /** The engine's start-up, step by step, on the message line (with the share of the
   * download done) and, once a step, in the engine's status (a polite live region). */
  showProgress(p, linked) {
    if (this.ready || !this.root.isConnected || this.root.getAttribute("data-engine") !== "loading") return;
    const step = PROGRESS[p.step] || PROGRESS.download;
    if (this.parts.engine && this.parts.engine.textContent !== step.status) this.parts.engine.textContent = step.status;
    const pct = p.total ? Math.min(100, Math.floor((100 * p.loaded) / p.total)) : null;
    this.root.setAttribute("data-progress", p.step + (pct !== null ? " " + pct : ""));
    const m = this.parts.message;
    if (!m || m.getAttribute("data-line") !== "progress") return;  // the reader's message stays
    const text = step.line + (p.step === "download" && pct !== null ? " " + pct + "\u00a0%." : "") +
      (linked ? " The game in the link opens when it is ready." : " The board becomes playable when it is ready.");
    this.message("info", text, true);
    m.setAttribute("data-line", "progress");
    if (p.step === "download" && pct !== null) {
      m.appendChild(el("progress", "cb-progress", { max: "100", value: String(pct), "aria-hidden": "true" }));
    }
  }

  // ---------------------------------------------------------------- saving
  persist() {
    writeSave(this.id, { position: this.position, view: this.view, past: this.past, ahead: this.ahead });
    if (this.parts.link) this.parts.link.setAttribute("href", this.link());
  }

  link() { return shareLink(this.position || "", this.root.id); }

  pushPast(position) {
    if (!position) return;
    this.past.push({ position });
    if (this.past.length > HISTORY_LIMIT) this.past.shift();
  }

  // ---------------------------------------------------------------- responses
  /** A response's game becomes the board's. `how`: start, play, auto, line (a move of a
   * winning line the engine found), undo, redo, replace, restore, option. */
  apply(r, how) {
    const prev = this.view;
    this.position = r.position;
    this.pick = null;
    this.steps = [];
    const moved = how === "play" || how === "auto" || how === "line";
    if (moved) this.ahead = [];
    if (this.help) this.help.changed(how);
    this.show(r.view);
    this.persist();
    if (noteStats(this.game, r.view)) this.showStats();
    this.showOutcome();
    return !!((moved || how === "redo") &&
      r.view.outcome && (!prev || prev.outcome !== r.view.outcome));
  }

  show(view) {
    if (!validView(view, this.game)) return false;
    try {
      this.view = view;
      this.draw();
      this.updateControls();
      return true;
    } catch (err) {
      this.view = null;
      if (window.console) console.warn("[board] could not draw", err);
      if (this.parts.status) this.parts.status.textContent = "The board could not be drawn.";
      return false;
    }
  }

  // ---------------------------------------------------------------- the message line
  /** Say `text` to screen readers (the live region) and show it on the message line. */
  say(text) {
    const live = this.parts.live;
    if (!live || !text) return;
    live.textContent = "";
    // A fresh text node, so that the same sentence twice is still announced.
    window.setTimeout(() => { live.textContent = text; }, 20);
    live.setAttribute("data-last", text);
  }

  /** Show a message on the line above the table (and say it unless `silent`). */
  message(kind, text, silent) {
    const m = this.parts.message;
    if (!m) return;
    m.className = "cb-message cb-" + kind;
    m.removeAttribute("data-rule");
    m.removeAttribute("data-line");
    m.textContent = "";
    m.appendChild(el("p")).textContent = text;
    m.hidden = false;
    if (!silent) this.say(text);
    return m;
  }

  notice(text) { return this.message("notice", text); }

  refused(error) {
    const m = this.parts.message;
    m.className = "cb-message cb-refusal";
    m.textContent = "";
    const p = m.appendChild(el("p"));
    p.appendChild(el("strong")).textContent = "Not allowed. ";
    p.appendChild(document.createTextNode(error.message));
    const target = error.rule ? document.getElementById(error.rule) : null;
    if (target) {
      let text = target.textContent.replace(/\s+/g, " ").replace(/\s*¶\s*$/, "").trim();
      if (text.length > 500) text = text.slice(0, 497) + "\u2026";
      const q = m.appendChild(el("blockquote", "cb-quote", { cite: "#" + error.rule }));
      q.textContent = text;
      const a = m.appendChild(el("a", "cb-rule-link", { href: "#" + error.rule }));
      a.textContent = "Read the rule in the text";
      this.flash(target);
    }
    m.setAttribute("data-rule", error.rule || "");
    m.hidden = false;
    this.say("Not allowed: " + error.message);
  }

  flash(target) {
    document.querySelectorAll(".rule-flash").forEach((e) => e.classList.remove("rule-flash"));
    void target.offsetWidth;  // restart the animation
    target.classList.add("rule-flash");
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => target.classList.remove("rule-flash"), 4000);
  }

  notReady() {
    this.message("notice", this.root.getAttribute("data-engine") === "failed" ?
      "The engine could not start: the board cannot be played." :
      "The engine is still loading; the board becomes playable in a moment.");
  }

  // ---------------------------------------------------------------- drawing
  /** The table's first drawing (if nothing has drawn it yet). */
  firstDraw() {
    if (this.drawnWidth === undefined && this.view) this.show(this.view);
  }

  avail() {
    if (this.printing) return PRINT_WIDTH;
    if (this.width) return this.width;  // as the ResizeObserver last reported it
    const s = this.parts.scroll;
    return (s && s.clientWidth) || this.root.clientWidth || 700;
  }

  /** Draw the table from the view. `marks`: only the card picked up, the steps chosen or
   * their targets changed since the last drawing (a pick-up, a put-back): when the table
   * was drawn from this same view, only their classes are written (draw.js remark). */
  draw(marks) {
    const table = this.parts.table;
    const active = document.activeElement;
    const hadFocus = !!(active && table.contains(active));
    const st = { pick: this.pick, steps: this.steps, hints: this.prefs.hints, cursor: this.cursor };
    if (!(marks && !this.printing && this.keys && remark(table, this.view, st))) this.drawAll(st);
    const keys = this.keys;
    if (keys.indexOf(this.cursor) < 0) this.cursor = this.pick && keys.indexOf(pileOf(this.pick)) >= 0 ? pileOf(this.pick) : keys[0];
    const item = this.item(this.cursor);
    if (item && item.getAttribute("tabindex") !== "0") item.setAttribute("tabindex", "0");
    if (item && item !== document.activeElement &&
        (hadFocus || (this.active && (!active || active === document.body)))) {
      item.focus({ preventScroll: true });
    }
  }

  drawAll(st) {
    if (!this.root.hasAttribute("data-drawn")) {
      this.root.setAttribute("data-drawn", String(Math.round(performance.now())));
    }
    const avail = this.avail();
    this.drawnWidth = avail;
    st.avail = avail;
    const { layout, keys } = render(this.parts.table, this.view, st);
    this.layout = layout;
    this.keys = keys;
    this.firstScroll();
    this.updateCue();
    if (this.help) this.help.decorate();
  }

  /** A table wider than the board starts scrolled to its cards (centred on them when they
   * fit), once per width: the reader's own scrolling is left alone after that. */
  firstScroll() {
    // The width the table was drawn for (no reading of the page's layout here: after the
    // table changed, that would lay the page out at once, in the same task).
    const s = this.parts.scroll, lay = this.layout;
    if (!s || !lay || this.printing) return;
    const key = lay.arr.name + "/" + Math.round(this.drawnWidth) + "/" + Math.round(lay.width);
    if (this.scrollKey === key) return;
    this.scrollKey = key;
    if (!lay.scrolls) return;  // nothing to scroll: the browser keeps it at 0
    const span = lay.contentRight - lay.contentLeft, w = this.drawnWidth;
    const want = span + 2 * PAD <= w ? (lay.contentLeft + lay.contentRight - w) / 2 : lay.contentLeft - PAD;
    s.scrollLeft = Math.max(0, Math.min(want, lay.width - w));
  }

  item(key) {
    return key ? this.parts.table.querySelector('[data-key="' + cssEscape(key) + '"]') : null;
  }

  /** Give the table's one tab stop to the item `key`. */
  setCursor(key) {
    if (key === this.cursor) return;
    const old = this.item(this.cursor);
    if (old) old.setAttribute("tabindex", "-1");
    this.cursor = key;
    const it = this.item(key);
    if (it) it.setAttribute("tabindex", "0");
  }

  /** Give the table's tab stop to `key` and focus it. */
  focusItem(key, scroll) {
    this.setCursor(key);
    const it = this.item(key);
    if (!it) return;
    if (scroll) this.syncBarHeight();
    it.focus({ preventScroll: !scroll });
    if (scroll) it.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** The sticky bar's height, as the scroll margin of the table's items (--cb-bar-h on the
   * board). Written only when it changed, and not as the message line grows and shrinks
   * with every move: a custom property of the board restyles each of its cards. */
  syncBarHeight() {
    const bar = this.parts.bar;
    const px = bar ? bar.offsetHeight : 0;
    if (!px || !stuck(bar)) return;  // not laid out or styled yet: the stylesheet's estimate stands
    const h = px + "px";
    if (this.barHeight !== h) {
      this.barHeight = h;
      this.root.style.setProperty("--cb-bar-h", h);
    }
  }

  focusTable() {
    this.root.scrollIntoView({ block: "start" });
    this.focusItem(this.cursor || (this.keys && this.keys[0]), false);
  }

  updateCue() {
    const s = this.parts.scroll, cue = this.parts.cue;
    if (!s || !cue) return;
    const wide = !this.printing && this.layout && this.layout.scrolls;
    if (cue.hidden !== !wide) cue.hidden = !wide;
    // The shading at an edge with more table beyond it: attributes of the scroll box, not
    // classes (a class change there restyled every card of the table it holds: see draw.js).
    if (!wide) {  // no need to read the scroll position (and lay the page out for it)
      s.toggleAttribute("data-more-left", false);
      s.toggleAttribute("data-more-right", false);
      return;
    }
    s.toggleAttribute("data-more-left", s.scrollLeft > 2);
    s.toggleAttribute("data-more-right", s.scrollLeft + s.clientWidth < s.scrollWidth - 2);
  }

  updateControls() {
    const v = this.view, root = this.root, p = this.parts;
    if (p.deal) p.deal.textContent = v.deal === null || v.deal === undefined ? "(set position)" : String(v.deal);
    if (p.moves) p.moves.textContent = plural(v.played || 0, "move") + " played";
    if (p.status) p.status.textContent = v.status || "";
    root.setAttribute("data-outcome", v.outcome || "");
    const undo = root.querySelector('[data-cb-cmd="undo"]'), redo = root.querySelector('[data-cb-cmd="redo"]');
    if (undo) undo.setAttribute("aria-disabled", v.can_undo || this.past.length ? "false" : "true");
    if (redo) redo.setAttribute("aria-disabled", v.can_redo || this.ahead.length ? "false" : "true");
    for (const a of v.actions || []) {
      const b = root.querySelector('[data-cb-action="' + cssEscape(a.move) + '"]');
      if (!b) continue;
      b.setAttribute("aria-disabled", a.enabled ? "false" : "true");
      if (a.occasional) b.hidden = !a.enabled;  // shown only while it can be played
    }
    if (p.link && this.position) p.link.setAttribute("href", this.link());
    this.syncOptions();
  }

  showOutcome() {
    const v = this.view, box = this.parts.outcome;
    if (!box) return;
    if (!v.outcome) {
      box.hidden = true;
      this.root.classList.remove("cb-moment");
      return;
    }
    this.parts["outcome-text"].textContent = this.outcomeText();
    box.setAttribute("data-outcome", v.outcome);
    box.hidden = false;
  }

  outcomeText() {
    const v = this.view;
    return v.outcome === "won" ? "Won, in " + plural(v.played, "move") + "!" :
      "Lost: no move can change the outcome now (" + plural(v.played, "move") + " played).";
  }

  /** The moment of a win or a loss: the banner above the table shows it (with what to do
   * next), the table marks it, and screen readers hear it. */
  announceOutcome(moment) {
    const v = this.view;
    if (!moment) return;
    this.root.classList.remove("cb-moment");
    void this.root.offsetWidth;  // restart the animation
    this.root.classList.add("cb-moment");
    this.say(this.outcomeText() + " " + (v.status || ""));
  }

  showStats() {
    const s = readStats(this.game), out = this.parts.stats;
    if (!out) return;
    out.textContent = s.played === 0 && !s.hints ? "No deal of this game played on this device yet." :
      "On this device: " + plural(s.played, "deal") + " played, " + s.won + " won" +
      (s.best !== null ? ", best win in " + plural(s.best, "move") : "") +
      (s.hints ? ", " + plural(s.hints, "hint") + " taken" : "") + ".";
  }

  // ---------------------------------------------------------------- commands
  /** Send a request; `how` says what kind of change it is (see apply). */
  send(req, how, replaced) {
    if (!this.ready) { this.notReady(); return Promise.resolve(null); }
    return this.enqueue(() => this.request(req).then((r) => {
      if (r.ok) {
        if (replaced && !samePosition(replaced, r.position)) {
          this.pushPast(replaced);
          this.ahead = [];
        }
        const moment = this.apply(r, how);
        if (r.notice) this.notice(r.notice);
        else if (r.said) this.message("info", (how === "auto" ? "Auto-play: " : "") + r.said);
        if (moment) this.announceOutcome(true);
        else if ((how === "play" || how === "auto") && this.prefs.autoplay) this.autoplay();
      } else if (r.error.kind === "illegal") {
        this.pick = null;
        this.steps = [];
        this.draw(true);
        this.refused(r.error);
      } else {
        this.pick = null;
        this.steps = [];
        this.draw(true);
        this.message(r.error.kind === "nothing" ? "info" : "notice", r.error.message);
      }
      return r;
    }));
  }

  play(move, how) { return this.send({ op: "play", move }, how || "play"); }

  action(move) { return this.play(move); }

  undo() {
    if (!this.ready) return this.notReady();
    if (this.view.can_undo) return this.send({ op: "undo" }, "undo");
    if (this.past.length) return this.restore("past");
    this.message("info", "There is no move to take back.");
    return null;
  }

  redo() {
    if (!this.ready) return this.notReady();
    if (this.view.can_redo) return this.send({ op: "redo" }, "redo");
    if (this.ahead.length) return this.restore("ahead");
    this.message("info", "There is no move to play again.");
    return null;
  }

  /** Bring back the last game of `past` (Undo) or `ahead` (Redo). */
  restore(which) {
    const from = which === "past" ? this.past : this.ahead;
    const to = which === "past" ? this.ahead : this.past;
    return this.enqueue(() => {
      const entry = from[from.length - 1];
      if (!entry) return null;
      return this.request({ op: "load", game: this.game, position: entry.position }).then((r) => {
        from.pop();
        if (!r.ok) {
          this.persist();
          this.updateControls();
          this.notice("That game could not be brought back (" + r.error.message + ").");
          return r;
        }
        to.push({ position: this.position });
        this.apply(r, "restore");
        this.message("info", (which === "past" ? "The game you had is back: " : "Back to the game you left: ") +
          describeEntry(r.position) + ".");
        return r;
      });
    });
  }

  /** Replace the game (new deal, restart, deal number): the one replaced can come back. */
  replace(req, what) {
    const before = this.position;
    return this.send(req, "replace", before).then((r) => {
      if (r && r.ok && before && !samePosition(before, r.position)) {
        this.message("info", what(r) + " Undo brings back the game you had.");
      }
      return r;
    });
  }

  newDeal(deal) {
    const n = deal === undefined ? randomDeal() : deal;
    return this.replace({ op: "new", game: this.game, deal: n, options: this.view ? this.view.options : "" },
      () => "Deal " + n + ".");
  }

  restart() {
    if (!this.ready) return this.notReady();
    if (!this.view.played && !this.view.can_redo) {
      this.message("info", "This deal is at its start already.");
      return null;
    }
    return this.replace({ op: "restart" }, (r) => "Deal " + r.view.deal + " started again.");
  }

  command(cmd) {
    if (cmd === "new" || cmd === "fresh") return this.newDeal();
    if (cmd === "again") return this.restart();
    if (cmd === "undo") return this.undo();
    if (cmd === "redo") return this.redo();
    if (cmd === "restart") return this.restart();
    if (cmd === "copy") return this.copyLink();
    if (cmd === "clear-stats") return this.clearStats();
    if (cmd === "hint" && this.help) return this.help.ask("hint");
    return null;
  }

  copyLink() {
    const link = this.link();
    const done = () => this.message("info", "Link copied: whoever opens it sees this game, at this move.");
    const fallback = () => {
      const ta = el("textarea", "cb-copy-area", { "aria-hidden": "true", readonly: "" });
      ta.value = link;
      document.body.appendChild(ta);
      ta.select();
      let ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      ta.remove();
      if (ok) done();
      else this.message("info", "Copy this link to share the game: " + link);
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(link).then(done, fallback);
    } else {
      fallback();
    }
  }

  clearStats() {
    const b = this.root.querySelector('[data-cb-cmd="clear-stats"]');
    if (b && b.getAttribute("data-armed") !== "1") {
      b.setAttribute("data-armed", "1");
      b.textContent = "Clear them: are you sure?";
      this.message("info", "Press again to clear this game\u2019s statistics on this device.");
      clearTimeout(this.armTimer);
      this.armTimer = setTimeout(() => this.disarm(), 6000);
      return;
    }
    this.disarm();
    clearStats(this.game);
    this.showStats();
    this.message("info", "This game\u2019s statistics were cleared.");
  }

  disarm() {
    const b = this.root.querySelector('[data-cb-cmd="clear-stats"]');
    if (!b) return;
    b.removeAttribute("data-armed");
    b.textContent = "Clear statistics";
  }

  setSwitch(name, on) {
    this.prefs[name] = !!on;
    writePrefs(this.prefs);
    if (name === "hints") {
      if (this.view) this.draw();
      this.message("info", on ? "Cards that can move are marked." : "Playable cards are no longer marked.");
    } else if (name === "autoplay") {
      this.message("info", on ? "Auto-play on: cards the rules make safe go to the foundations by themselves, each an ordinary move that Undo takes back." :
        "Auto-play off.");
      if (on && this.ready) this.autoplay();
    }
  }

  /** Play the first safe move the engine offers, as the reader's own move; send() comes
   * back here after it until none is left. */
  autoplay() {
    const v = this.view;
    if (!this.ready || !v || v.outcome || !v.safe || !v.safe.length || this.pick || this.steps.length) {
      this.autoRun = 0;
      return;
    }
    if (++this.autoRun > AUTOPLAY_LIMIT) { this.autoRun = 0; return; }
    this.play(v.safe[0], "auto");
  }

  // ---------------------------------------------------------------- choosing a move
  pileById(id) {
    for (const p of this.view ? this.view.piles : []) if (p.id === id) return p;
    return null;
  }

  label(id) { const p = this.pileById(id); return p ? p.label : id; }

  /** A click (or Enter) on pile `pileId`, on the card `ref` (null: the pile itself). */
  activate(pileId, ref) {
    if (!this.ready) return this.notReady();
    const pack = this.view.pack;
    if (!this.pick && !this.steps.length && pack && pack.move && pack.pile === pileId &&
        (!ref || pileOf(ref) === pileId)) {
      return this.play(pack.move);
    }
    if (this.pick) return this.putDown(pileId, ref);
    return this.pickUp(ref || pileId);
  }

  pickUp(ref) {
    const pile = this.pileById(pileOf(ref));
    if (!pile || pile.cards.length === 0) {
      this.message("info", pile ? pile.label.charAt(0).toUpperCase() + pile.label.slice(1) + " is empty." : "There is no card there.");
      return null;
    }
    this.pick = ref;
    const k = ref.indexOf(":") >= 0 ? parseInt(ref.split(":")[1], 10) : pile.cards.length - 1;
    const card = pile.cards[k];
    const dests = (this.view.movable || {})[ref] || [];
    this.draw(true);
    const what = card && card.c ? "the " + cardName(card.c) : "a card";
    this.message("info", "Picked up " + what + " from " + pile.label + ". " +
      (dests.length ? "It may go to " + dests.map((d) => this.label(d)).join(", ") + "." :
        "It has no legal destination now; choose one to hear why."));
    return null;
  }

  /** The only foundation the card `ref` may go to, or null. */
  soleFoundation(ref) {
    const dests = ((this.view.movable || {})[ref] || []).filter((d) => {
      const p = this.pileById(d);
      return p && p.role === "foundation";
    });
    return dests.length === 1 ? dests[0] : null;
  }

  /** Put the card picked up on pile `dst`: a step of the move being chosen. The card's own
   * pile again (a double click, Enter twice) sends it to its foundation when it has one. */
  putDown(dst, ref) {
    if (!this.pick) return null;
    if (pileOf(this.pick) === dst && (!ref || ref === this.pick || pileOf(ref) === dst)) {
      const f = this.soleFoundation(this.pick);
      if (!f) { this.cancel("Put back."); return null; }
      dst = f;
    }
    this.steps.push([this.pick, dst]);
    this.pick = null;
    return this.settle();
  }

  settle() {
    const steps = this.steps, moves = this.view.moves || [];
    for (const m of moves) if (sameSteps(m.steps, steps)) return this.play(m.m);
    const partial = moves.some((m) => m.steps.length > steps.length && containsSteps(m.steps, steps));
    if (partial) {
      this.draw(true);
      this.message("step", "Step " + steps.length + " chosen; choose the next card of this move (Escape to cancel).");
      return null;
    }
    return this.play(steps.map((s) => s[0] + "-" + s[1]).join("+"));
  }

  cancel(text) {
    if (!this.pick && !this.steps.length) return;
    this.pick = null;
    this.steps = [];
    this.draw(true);
    this.message("info", text || "Move cancelled.");
  }

  // ---------------------------------------------------------------- controls
  bindControls() {
    const root = this.root;
    root.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-cb-cmd], button[data-cb-action]");
      if (!b || !root.contains(b)) return;
      ev.preventDefault();
      if (b.hasAttribute("data-cb-cmd")) this.command(b.getAttribute("data-cb-cmd"));
      else this.action(b.getAttribute("data-cb-action"));
    });
    root.querySelectorAll("input[data-cb-switch]").forEach((input) => {
      const name = input.getAttribute("data-cb-switch");
      input.checked = !!this.prefs[name];
      input.addEventListener("change", () => this.setSwitch(name, input.checked));
    });
    const form = this.parts.dealform;
    if (form) {
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const input = form.querySelector("input");
        const text = (input.value || "").trim();
        if (!/^\d+$/.test(text) || Number(text) > MAX_DEAL) {
          this.message("notice", "A deal number is a whole number from 0 to " + MAX_DEAL + ".");
          return;
        }
        if (!this.ready) { this.notReady(); return; }
        this.newDeal(Number(text));
      });
    }
    const scroll = this.parts.scroll, bar = this.parts.bar;
    if (scroll) scroll.addEventListener("scroll", () => this.updateCue(), { passive: true });
    // The bar's height, so that whatever is scrolled into view on the table clears it.
    // Measured by a ResizeObserver (which reports as the page is laid out anyway) once the
    // bar is laid out in the board's style, then again only before the board scrolls an
    // item into view: see syncBarHeight. Its first report can come before the page is laid
    // out (seen on a busy machine, the document still loading): a height of 0, which was
    // taken, and the table's top row then scrolled in under the bar. Such a report, or one
    // before the board's stylesheet is on the bar, is passed over.
    if (window.ResizeObserver && bar) {
      const ro = new ResizeObserver(() => {
        this.syncBarHeight();
        if (this.barHeight !== undefined) ro.disconnect();
      });
      ro.observe(bar);
    } else {
      this.syncBarHeight();
    }
    if (window.ResizeObserver && scroll) {
      // The board's width as the page's own layout finds it (reported after each layout that
      // changes it: never read from the page, which would lay it out at once). The first
      // drawing waits for it, in a task of its own; the table is drawn again when the width
      // changes from the one it was drawn at.
      new ResizeObserver((entries) => {
        const w = Math.round(entries[entries.length - 1].contentRect.width);
        if (!w) return;  // not laid out yet (the stylesheets to come): nothing to draw to
        this.width = w;
        if (!this.view || this.printing) return;
        if (this.drawnWidth === undefined) { window.setTimeout(() => this.firstDraw(), 0); return; }
        if (Math.abs(w - this.drawnWidth) < 2) return;
        window.requestAnimationFrame(() => this.draw());
      }).observe(scroll);
    } else {
      afterLayout(() => this.firstDraw());
    }
  }

  // ---- the option controls in the editorial notes
  optionControls() {
    return Array.prototype.filter.call(document.querySelectorAll("fieldset.cadogan-option"),
      (f) => f.getAttribute("data-board") === this.id);
  }

  syncOptions() {
    if (!this.view) return;
    const map = optionsMap(this.view.options);
    for (const f of this.optionControls()) {
      const name = f.getAttribute("data-option");
      const value = name in map ? map[name] : f.getAttribute("data-default");
      f.querySelectorAll("input[type=radio]").forEach((r) => { r.checked = r.value === value; });
      const s = f.querySelector("select");
      if (s) s.value = value;
    }
  }

  setOption(fieldset, name, value) {
    const status = fieldset.querySelector(".cb-opt-status");
    const map = optionsMap(this.view ? this.view.options : "");
    map[name] = value;
    if (value === fieldset.getAttribute("data-default")) delete map[name];
    const text = Object.keys(map).sort().map((k) => k + ":" + map[k]).join(",");
    if (status) status.textContent = this.ready ? "Switching the board\u2026" : "The board will switch when the engine is ready\u2026";
    this.enqueue(() => {
      const before = this.position;
      return this.request({ op: "set_options", options: text }).then((r) => {
        if (!r.ok) {
          if (status) status.textContent = r.error.message;
          this.syncOptions();
          return;
        }
        if (r.notice && before) {  // the moves played were lost: Undo brings them back
          this.pushPast(before);
          this.ahead = [];
        }
        this.apply(r, "option");
        if (r.notice) this.notice(r.notice + " Undo brings back the game you had, under the reading you had.");
        else this.message("info", r.said);
        if (status) status.textContent = r.notice || "The board above now follows this reading.";
      });
    });
  }

  // ---- printing: the table drawn at a page's width
  setPrinting(on) {
    if (this.printing === on || !this.view) return;
    this.printing = on;
    this.draw();
  }
}

/** What each step of the engine's start-up says: in its status, and on the message line. */
const PROGRESS = {
  download: { status: "Engine loading: downloading\u2026", line: "Downloading the engine:" },
  start: { status: "Engine loading: starting Python\u2026", line: "Starting the engine\u2026" },
  engine: { status: "Engine loading: reading the rules\u2026", line: "Loading the rules\u2026" },
};

/** Whether the board's stylesheet is on `bar` yet (it makes the bar sticky). */
function stuck(bar) {
  return window.getComputedStyle(bar).position === "sticky";
}

/** Run `fn` in a task of its own after the next frame's layout (without a ResizeObserver). */
function afterLayout(fn) {
  window.requestAnimationFrame(() => window.setTimeout(fn, 0));
}

/** The board's runtime settings (JSON in data-runtime, written by the build). */
function readRuntime(root) {
  try { return JSON.parse(root.getAttribute("data-runtime")); } catch (e) { return null; }
}

/** The view with every card face down: a linked game's table before the engine has it. */
function veil(view) {
  if (!view || !Array.isArray(view.piles)) return view;
  return Object.assign({}, view, {
    piles: view.piles.map((p) => Object.assign({}, p, { cards: p.cards.map(() => ({ c: null })) })),
    moves: [], movable: {}, safe: [],
  });
}

export { PAD };
