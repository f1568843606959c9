// Help at the table: the Hint button and "Can this deal still be won?". The engine's worker
// runs the solver in slices (so the page never freezes and Cancel is heard); this module only
// asks, shows the answer, marks the hinted move on the table and plays a winning line move by
// move. It knows nothing of any game: the move, its words and the verdict come from the engine.

import { noteHint } from "./saved.js";
import { cssEscape, pileOf } from "./util.js";

/** Seconds the solver is given: for a hint, and for "can this deal still be won?". */
export const HINT_SECONDS = 1;
export const WINNABLE_SECONDS = 15;

export class Help {
  constructor(board) {
    this.board = board;
    this.running = null;   // {kind, started, timer, cancelled}
    this.mark = null;      // {position, steps, action}: the hinted move, marked on the table
    this.line = null;      // {position, moves, at}: a winning line being played
    const root = board.root;
    this.box = board.parts.helpbox || null;
    root.addEventListener("click", (ev) => {
      const b = ev.target.closest("button[data-cb-help]");
      if (!b || !root.contains(b)) return;
      ev.preventDefault();
      const what = b.getAttribute("data-cb-help");
      if (what === "cancel") this.cancel();
      else if (what === "line") this.playLine();
      else this.ask(what);
    });
  }

  part(name) { return this.box ? this.box.querySelector('[data-cb-help-part="' + name + '"]') : null; }

  /** Ask the engine for a hint ("hint") or whether the deal can still be won ("winnable"). */
  ask(kind) {
    const b = this.board;
    if (!b.ready) { b.notReady(); return null; }
    if (this.running) {
      b.message("info", "Still searching: wait for the answer, or cancel it.");
      return null;
    }
    if (b.view && b.view.outcome) {
      b.message("info", b.view.outcome === "won" ? "The game is won already." :
        "The game is over: no move can change the outcome now.");
      return null;
    }
    this.clearMark();
    this.line = null;
    const seconds = kind === "hint" ? HINT_SECONDS : WINNABLE_SECONDS;
    const position = b.position;
    const run = { kind, started: performance.now(), cancelled: false, timer: null };
    this.running = run;
    b.root.setAttribute("data-help", "running");
    this.showBox(kind === "hint" ? "Looking for a good move\u2026" :
      "Searching every way on from here\u2026", false);
    const text = this.part("text");
    run.timer = window.setInterval(() => {
      const s = Math.floor((performance.now() - run.started) / 1000);
      if (text && s >= 1) text.textContent = "Searching\u2026 " + s + " s of at most " + seconds + " s.";
    }, 500);
    return b.request({ op: "help", kind, seconds }).then((r) => {
      this.finish(run);
      if (!r.ok) {
        b.message("notice", r.error.message);
        return r;
      }
      const h = r.help || {};
      if (h.cancelled) {
        if (run.cancelled) b.message("info", "Search cancelled.");
        return r;
      }
      if (b.position !== position) return r;  // the game moved on meanwhile
      b.root.setAttribute("data-help-verdict", h.verdict || "");
      if (kind === "hint") this.showHint(h, position);
      else this.showWinnable(h, position);
      return r;
    }, (err) => {
      this.finish(run);
      b.engineFailed(err);
    });
  }

  finish(run) {
    window.clearInterval(run.timer);
    if (this.running === run) this.running = null;
    this.board.root.removeAttribute("data-help");
    this.hideBox();
  }

  cancel() {
    const run = this.running;
    if (!run) return null;
    run.cancelled = true;
    return this.board.request({ op: "help_cancel" });
  }

  showHint(h, position) {
    const b = this.board;
    if (h.move) {
      this.mark = { position, steps: h.steps || [], action: h.action || null, careful: !!h.careful };
      noteHint(b.game);
      b.showStats();
      b.draw();
    }
    b.message(h.verdict === "lost" ? "notice" : "info", h.said || "No hint.");
    b.root.setAttribute("data-hint", h.move || "");
  }

  showWinnable(h, position) {
    const b = this.board;
    b.message(h.verdict === "won" ? "info" : "notice", h.said || "");
    if (h.verdict === "won" && h.line && h.line.length) {
      this.line = { position, moves: h.line, at: 0 };
      this.showBox(h.said, true);
    }
  }

  /** Play the next move of the winning line found (an ordinary move: Undo takes it back). */
  playLine() {
    const b = this.board, line = this.line;
    if (!line || b.position !== line.position || line.at >= line.moves.length) {
      this.line = null;
      this.hideBox();
      b.message("info", "The game has left the winning line: ask again whether it can still be won.");
      return null;
    }
    const move = line.moves[line.at];
    noteHint(b.game);
    return b.play(move, "line").then((r) => {
      if (!r || !r.ok || this.line !== line) return r;
      line.at += 1;
      line.position = b.position;
      if (line.at >= line.moves.length || (r.view && r.view.outcome)) {
        this.line = null;
        this.hideBox();
      } else {
        this.showBox("A winning line: move " + (line.at + 1) + " of " + line.moves.length + " next.", true);
      }
      b.showStats();
      return r;
    });
  }

  showBox(text, lineButton) {
    if (!this.box) return;
    const t = this.part("text"), cancel = this.part("cancel"), play = this.part("line");
    if (t) t.textContent = text;
    if (cancel) cancel.hidden = !!lineButton;
    if (play) {
      play.hidden = !lineButton;
      if (lineButton && this.line) {
        play.textContent = this.line.at === 0 ? "Play the winning line, move by move" :
          "Play the next move of the line";
      }
    }
    this.box.hidden = false;
  }

  hideBox() {
    if (this.box && !(this.line && this.board.position === this.line.position)) this.box.hidden = true;
  }

  clearMark() {
    if (!this.mark) return;
    this.mark = null;
    this.board.root.removeAttribute("data-hint");
    this.decorate();
  }

  /** The board's game changed (`how`, as in Board.apply): marks and lines that no longer
   * apply go. */
  changed(how) {
    if (this.mark && this.mark.position !== this.board.position) this.clearMark();
    if (this.line && how !== "line" && this.board.position !== this.line.position) {
      this.line = null;
      if (this.box) this.box.hidden = true;
    }
  }

  /** After each drawing of the table: mark the hinted move's cards and piles. */
  decorate() {
    const b = this.board, table = b.parts.table;
    if (!table) return;
    table.querySelectorAll(".cb-hinted, .cb-hint-target").forEach((e) => {
      e.classList.remove("cb-hinted", "cb-hint-target");
    });
    b.root.querySelectorAll("button.cb-hinted").forEach((e) => e.classList.remove("cb-hinted"));
    const m = this.mark;
    if (!m || m.position !== b.position) return;
    for (const [src, dst] of m.steps) {
      const card = table.querySelector('.cb-card[data-ref="' + cssEscape(src) + '"]');
      if (card) card.classList.add("cb-hinted");
      const from = table.querySelector('.cb-pile[data-pile="' + cssEscape(pileOf(src)) + '"]');
      if (from && !card) from.classList.add("cb-hinted");
      const to = table.querySelector('.cb-pile[data-pile="' + cssEscape(pileOf(dst)) + '"]');
      if (to) to.classList.add("cb-hint-target");
    }
    if (m.action) {
      const pack = b.view && b.view.pack;
      if (pack && pack.move === m.action) {
        const p = table.querySelector('.cb-pile[data-pile="' + cssEscape(pack.pile) + '"]');
        if (p) p.classList.add("cb-hinted");
      }
      const btn = b.root.querySelector('button[data-cb-action="' + cssEscape(m.action) + '"]');
      if (btn) btn.classList.add("cb-hinted");
    }
  }
}
