/* The edition's playable board: a generic renderer and controller for every game.
 *
 * The build (build_scripts/board_embed.py) writes each board's markup with the view of its
 * first position embedded as JSON; this script draws that view at once, then starts the
 * engine (Pyodide in one module Web Worker per tab, created only on pages with a board) and
 * makes the board playable. It knows nothing of any game: it draws piles and cards from the
 * view and offers the moves the view lists (`movable`, `moves`, `actions`); every rule is
 * checked by the engine, and a refused move quotes the sentence of the chapter it breaks.
 *
 * Loaded by a <script> right after each board (written by the build hook), not through
 * extra_javascript: pages without a board never load it. It runs once per tab; boards are
 * mounted when it runs and on every page Material's instant navigation shows (`document$`).
 */
(function () {
  "use strict";

  // The build puts this script right after each board (so the board is drawn as soon as it
  // is parsed, before the rest of the page), and Material's instant navigation runs it again
  // on every page it shows: after the first run, only mount the new page's boards.
  if (window.__cadoganBoard) {
    window.__cadoganBoard.mountAll();
    return;
  }

  var SCRIPT_URL = (document.currentScript && document.currentScript.src) ||
    new URL("assets/javascripts/board.js", document.baseURI).href;
  var SITE_ROOT = new URL("../../", SCRIPT_URL);
  var WORKER_URL = new URL("board-worker.mjs", SCRIPT_URL);
  var STORE_PREFIX = "cadogan:game:";
  var STORE_VERSION = 1;
  var START_TIMEOUT_MS = 120000;
  var RANKS = { A: "ace", J: "knave", Q: "queen", K: "king", "2": "two", "3": "three",
    "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "10": "ten" };
  var SUITS = { S: ["spades", "\u2660", false], H: ["hearts", "\u2665", true],
    D: ["diamonds", "\u2666", true], C: ["clubs", "\u2663", false] };

  // ------------------------------------------------------------------ the engine
  var engine = null;

  function startEngine(cfg) {
    var eng = { pending: new Map(), nextId: 1, state: "loading", failure: null, bootMs: null,
      startedAt: performance.now() };
    var settle;
    eng.ready = new Promise(function (resolve, reject) { settle = { resolve: resolve, reject: reject }; });
    eng.ready.catch(function () { /* each caller reports the failure itself */ });
    function failed(message) {
      if (eng.state !== "loading") return;
      eng.state = "failed";
      eng.failure = message;
      settle.reject(new Error(message));
      eng.pending.forEach(function (p) { p.reject(new Error(message)); });
      eng.pending.clear();
    }
    try {
      eng.worker = new Worker(WORKER_URL, { type: "module", name: "cadogan-engine" });
    } catch (err) {
      failed("This browser cannot run the engine (" + err.message + ").");
      return eng;
    }
    var timer = setTimeout(function () {
      failed("The engine did not start within " + START_TIMEOUT_MS / 1000 + " seconds.");
    }, START_TIMEOUT_MS);
    eng.worker.onmessage = function (ev) {
      var m = ev.data || {};
      if (m.type === "ready") {
        clearTimeout(timer);
        eng.state = "ready";
        eng.bootMs = m.ms;
        settle.resolve();
      } else if (m.type === "failed") {
        clearTimeout(timer);
        failed(m.message);
      } else if (m.type === "response") {
        var r;
        try { r = JSON.parse(m.text); } catch (e) { return; }
        var p = eng.pending.get(r.id);
        if (p) { eng.pending.delete(r.id); p.resolve(r); }
      }
    };
    eng.worker.onerror = function (ev) {
      failed("The engine's worker failed to load (" + (ev.message || "error") + ").");
    };
    eng.worker.postMessage({
      type: "boot",
      pyodide: new URL(cfg.pyodide, SITE_ROOT).href,
      archive: new URL(cfg.archive, SITE_ROOT).href,
    });
    return eng;
  }

  function getEngine(cfg) {
    if (!engine) engine = startEngine(cfg);
    return engine;
  }

  function call(req) {
    var eng = engine;
    return eng.ready.then(function () {
      return new Promise(function (resolve, reject) {
        var id = eng.nextId++;
        req.id = id;
        eng.pending.set(id, { resolve: resolve, reject: reject });
        eng.worker.postMessage({ type: "request", text: JSON.stringify(req) });
      });
    });
  }

  // ------------------------------------------------------------------ helpers
  function el(tag, cls, attrs) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (attrs) for (var k in attrs) if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    return e;
  }

  function cardParts(c) {
    var rank = c.slice(0, -1), suit = SUITS[c.slice(-1)];
    if (!suit || !RANKS[rank]) return null;
    return { rank: rank, suit: c.slice(-1), name: RANKS[rank] + " of " + suit[0], symbol: suit[1], red: suit[2] };
  }

  function cardName(c) {
    if (c === null || c === undefined) return "a face-down card";
    var p = cardParts(c);
    return p ? p.name : c;
  }

  function pileOf(ref) { return ref.split(":")[0]; }

  function optionsMap(text) {
    var out = {};
    (text || "").split(",").forEach(function (part) {
      if (!part) return;
      var i = part.indexOf(":");
      if (i > 0) out[part.slice(0, i)] = part.slice(i + 1);
    });
    return out;
  }

  function sameSteps(a, b) {
    if (a.length !== b.length) return false;
    var x = a.map(function (s) { return s.join("-"); }).sort();
    var y = b.map(function (s) { return s.join("-"); }).sort();
    return x.every(function (v, i) { return v === y[i]; });
  }

  function containsSteps(big, small) {
    var left = big.map(function (s) { return s.join("-"); });
    return small.every(function (s) {
      var i = left.indexOf(s.join("-"));
      if (i < 0) return false;
      left.splice(i, 1);
      return true;
    });
  }

  function validView(v, game) {
    return v && typeof v === "object" && v.game === game && Array.isArray(v.piles) &&
      v.grid && typeof v.grid.w === "number" && typeof v.grid.h === "number" &&
      v.piles.every(function (p) { return p && typeof p.id === "string" && Array.isArray(p.cards); });
  }

  // ------------------------------------------------------------------ the board
  function Board(root) {
    this.root = root;
    this.game = root.getAttribute("data-game");
    this.id = root.getAttribute("data-board") || this.game;
    this.cfg = { pyodide: root.getAttribute("data-pyodide"), archive: root.getAttribute("data-engine-archive") };
    this.parts = {};
    var self = this;
    root.querySelectorAll("[data-cb]").forEach(function (e) { self.parts[e.getAttribute("data-cb")] = e; });
    this.view = null;
    this.position = null;
    this.urlState = null;
    this.pick = null;        // reference of the card picked up (`l3`, `l3:2`)
    this.steps = [];         // steps chosen so far of a move of several steps
    this.ready = false;
    this.queue = Promise.resolve();
    this.layout = null;
    this.flashTimer = null;
  }

  Board.prototype.mount = function () {
    var root = this.root;
    root.setAttribute("data-mounted", "1");
    var initial = null;
    try { initial = JSON.parse(root.getAttribute("data-initial")); } catch (e) { initial = null; }
    this.initial = initial;
    getEngine(this.cfg);  // first: Python boots in the worker while the page draws
    var saved = this.readSave();
    var linked = this.readAddress();
    var first = null;
    if (!linked && saved && saved.view) first = saved.view;
    if (!this.show(first) && !(initial && this.show(initial.view))) {
      this.parts.status.textContent = "The board could not be drawn.";
    }
    root.setAttribute("data-drawn", String(Math.round(performance.now())));
    this.bind();
    this.connectOptions();
    this.setEngineState("loading", "Engine loading\u2026 the board becomes playable when it is ready.");
    var self = this;
    this.enqueue(function () { return self.start(saved, linked); });
  };

  Board.prototype.enqueue = function (fn) {
    var self = this;
    var p = this.queue.then(fn).catch(function (err) { self.engineFailed(err); });
    this.queue = p;
    return p;
  };

  Board.prototype.start = function (saved, linked) {
    var self = this;
    var newDeal = function (why) {
      self.notice(why + " A new deal was started instead.");
      return self.request({ op: "new", game: self.game, deal: randomDeal(), options: "" });
    };
    var begin;
    if (linked) {
      begin = this.request({ op: "load", game: this.game, position: linked }).then(function (r) {
        return r.ok ? r : newDeal("The game in this page\u2019s address could not be restored (" + r.error.message + ").");
      });
    } else if (saved && saved.position) {
      begin = this.request({ op: "load", game: this.game, position: saved.position }).then(function (r) {
        return r.ok ? r : newDeal("The saved game could not be restored (" + r.error.message + ").");
      });
    } else if (saved && saved.corrupt) {
      begin = newDeal("The saved game was damaged and could not be read.");
    } else {
      var v = this.initial && this.initial.view;
      begin = this.request({ op: "new", game: this.game, deal: v ? v.deal : 1, options: v ? v.options : "" });
    }
    return begin.then(function (r) {
      if (!r.ok) throw new Error(r.error.message);
      self.apply(r, true);
      self.ready = true;
      self.root.setAttribute("data-ready-at", String(Math.round(performance.now())));
      // For the benchmark: when the tab's engine was started and how long Python took.
      self.root.setAttribute("data-engine-started-at", String(Math.round(engine.startedAt)));
      if (engine.bootMs !== null) self.root.setAttribute("data-engine-boot-ms", String(Math.round(engine.bootMs)));
      self.setEngineState("ready", "Engine ready: click or drag a card, or use the keyboard.");
    });
  };

  Board.prototype.engineFailed = function (err) {
    var msg = (err && err.message) || String(err);
    this.ready = false;
    this.setEngineState("failed", "The engine could not start, so the board cannot be played: " + msg + " Reload the page to try again.");
  };

  Board.prototype.setEngineState = function (state, text) {
    this.root.setAttribute("data-engine", state);
    if (this.parts.engine) this.parts.engine.textContent = text;
  };

  // Send one request for this board; answers with the response (ok or not).
  Board.prototype.request = function (req) {
    req.board = this.id;
    return call(req);
  };

  // ---- saving, the address
  Board.prototype.storeKey = function () { return STORE_PREFIX + this.id; };

  Board.prototype.readSave = function () {
    var text;
    try { text = window.localStorage.getItem(this.storeKey()); } catch (e) { return null; }
    if (text === null) return null;
    try {
      var data = JSON.parse(text);
      if (data && data.v === STORE_VERSION && typeof data.position === "string") {
        return { position: data.position, view: validView(data.view, this.game) ? data.view : null };
      }
    } catch (e) { /* damaged: below */ }
    return { corrupt: true };
  };

  Board.prototype.save = function () {
    try {
      window.localStorage.setItem(this.storeKey(), JSON.stringify({
        v: STORE_VERSION, position: this.position, view: this.view, saved: Date.now(),
      }));
    } catch (e) { /* storage full or refused: the game goes on unsaved */ }
  };

  // A game in the address: ?game=SLUG&deal=N&opts=...&moves=... (the compact position) in
  // the query, where Material's anchor tracking leaves it alone; a hash of the same form is
  // read too. Other query parameters are kept.
  var STATE_FIELDS = /^(game|deal|opts|start|vars|moves|redo)=/;

  function splitParams(text) {
    return text ? text.split("&").filter(function (p) { return p.length > 0; }) : [];
  }

  Board.prototype.addressState = function (text) {
    var raw = splitParams(text), parts = [], game = null;
    raw.forEach(function (p) {
      var d = p;
      try { d = decodeURIComponent(p); } catch (e) { /* keep it raw */ }
      if (STATE_FIELDS.test(d)) {
        parts.push(d);
        if (d.indexOf("game=") === 0) game = d.slice(5);
      }
    });
    if (!parts.length || (game !== null && game !== this.game)) return null;
    if (game === null) parts.unshift("game=" + this.game);
    return parts.join(";");
  };

  Board.prototype.readAddress = function () {
    return this.addressState(window.location.search.slice(1)) ||
      this.addressState(window.location.hash.slice(1));
  };

  Board.prototype.addressOf = function (urlState) {
    var others = splitParams(window.location.search.slice(1)).filter(function (p) {
      var d = p;
      try { d = decodeURIComponent(p); } catch (e) { /* keep it raw */ }
      return !STATE_FIELDS.test(d);
    });
    var ours = urlState.split(";").filter(function (f) { return !/^(opts|moves|redo)=$/.test(f); });
    return "?" + others.concat(ours).join("&");
  };

  Board.prototype.updateAddress = function () {
    if (!this.urlState) return;
    var query = this.addressOf(this.urlState);
    if (this.parts.link) this.parts.link.setAttribute("href", query + "#" + this.root.id);
    var hash = window.location.hash;
    if (this.addressState(hash.slice(1))) hash = "";  // the game moves to the query
    try {
      history.replaceState(history.state, "", window.location.pathname + query + hash);
    } catch (e) { /* some embedders forbid it */ }
  };

  // ---- responses
  Board.prototype.apply = function (r, quiet) {
    this.position = r.position;
    this.urlState = r.url_state;
    this.pick = null;
    this.steps = [];
    this.show(r.view);
    this.save();
    this.updateAddress();
    if (r.said && !quiet) this.say(r.said);
    if (r.view.outcome === "won") this.say(r.said + " " + r.view.status);
    else if (r.view.outcome === "lost") this.say(r.said + " " + r.view.status);
  };

  Board.prototype.say = function (text) {
    var live = this.parts.live;
    if (!live) return;
    live.textContent = "";
    // A fresh text node, so that the same sentence twice is still announced.
    window.setTimeout(function () { live.textContent = text; }, 20);
    live.setAttribute("data-last", text);
  };

  Board.prototype.clearMessage = function () {
    var m = this.parts.message;
    if (!m) return;
    m.hidden = true;
    m.className = "cb-message";
    m.textContent = "";
  };

  Board.prototype.notice = function (text) {
    var m = this.parts.message;
    m.className = "cb-message cb-notice";
    m.textContent = "";
    m.appendChild(el("p")).textContent = text;
    m.hidden = false;
    this.say(text);
  };

  Board.prototype.refused = function (error) {
    var m = this.parts.message;
    m.className = "cb-message cb-refusal";
    m.textContent = "";
    var p = m.appendChild(el("p"));
    p.appendChild(el("strong")).textContent = "Not allowed. ";
    p.appendChild(document.createTextNode(error.message));
    var target = error.rule ? document.getElementById(error.rule) : null;
    if (target) {
      var text = target.textContent.replace(/\s+/g, " ").replace(/\s*¶\s*$/, "").trim();
      if (text.length > 500) text = text.slice(0, 497) + "\u2026";
      var q = m.appendChild(el("blockquote", "cb-quote", { cite: "#" + error.rule }));
      q.textContent = text;
      var a = m.appendChild(el("a", "cb-rule-link", { href: "#" + error.rule }));
      a.textContent = "Read the rule in the text";
      this.flash(target);
    }
    m.setAttribute("data-rule", error.rule || "");
    m.hidden = false;
    this.say("Not allowed: " + error.message);
  };

  Board.prototype.flash = function (target) {
    document.querySelectorAll(".rule-flash").forEach(function (e) { e.classList.remove("rule-flash"); });
    void target.offsetWidth;  // restart the animation
    target.classList.add("rule-flash");
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(function () { target.classList.remove("rule-flash"); }, 4000);
  };

  // ---- drawing
  Board.prototype.show = function (view) {
    if (!validView(view, this.game)) return false;
    try {
      this.view = view;
      this.draw();
      this.updateControls();
      return true;
    } catch (err) {
      this.view = null;
      return false;
    }
  };

  // The arrangement to draw at the board's present width: the view's own, or one of its
  // optional `layouts` (the narrowest whose max_width the board fits).
  Board.prototype.arrangement = function (width) {
    var v = this.view, best = null;
    (v.layouts || []).forEach(function (l) {
      if (l && l.grid && width <= l.max_width && (!best || l.max_width < best.max_width)) best = l;
    });
    if (!best) return { name: "", grid: v.grid, regions: v.regions || [], piles: {}, hidden: {} };
    var hidden = {};
    (best.hidden || []).forEach(function (id) { hidden[id] = true; });
    return { name: best.name || "layout", grid: best.grid, regions: best.regions || [],
      piles: best.piles || {}, hidden: hidden };
  };

  Board.prototype.metrics = function (grid) {
    var width = this.parts.table.clientWidth || this.root.clientWidth || 700;
    var slot = Math.max(26, Math.min(124, width / grid.w));
    var cw = slot * 0.9, ch = cw * 1.4;
    return { slot: slot, slotH: ch + slot * 0.1, cw: cw, ch: ch };
  };

  Board.prototype.draw = function () {
    var view = this.view, table = this.parts.table;
    var width = table.clientWidth || this.root.clientWidth || 700;
    var arr = this.arrangement(width), mt = this.metrics(arr.grid);
    var self = this;
    var focusKey = document.activeElement && table.contains(document.activeElement) ?
      document.activeElement.getAttribute("data-key") : null;
    var frag = document.createDocumentFragment();
    var movable = view.movable || {};
    var targets = this.pick ? (movable[this.pick] || []) : [];
    var chosen = {};
    this.steps.forEach(function (s) { chosen[s[0]] = true; chosen[s[1]] = true; });
    var maxX = arr.grid.w * mt.slot, maxY = arr.grid.h * mt.slotH;
    table.style.setProperty("--cw", mt.cw + "px");
    table.style.setProperty("--ch", mt.ch + "px");
    table.classList.toggle("cb-picking", !!this.pick);
    table.setAttribute("data-layout", arr.name);

    arr.regions.forEach(function (r) {
      var re = el("div", "cb-region", { "aria-hidden": "true" });
      re.style.left = (r.x * mt.slot) + "px";
      re.style.top = (r.y * mt.slotH) + "px";
      re.style.width = (r.w * mt.slot) + "px";
      re.style.height = (r.h * mt.slotH) + "px";
      re.appendChild(el("span", "cb-region-label")).textContent = r.label;
      frag.appendChild(re);
    });

    view.piles.forEach(function (original) {
      if (arr.hidden[original.id]) return;
      var place = arr.piles[original.id], pile = original;
      if (place) {
        pile = Object.assign({}, original, {
          x: place.x !== undefined ? place.x : original.x,
          y: place.y !== undefined ? place.y : original.y,
          rotate: place.rotate !== undefined ? place.rotate : original.rotate,
        });
      }
      var left = pile.x * mt.slot + (mt.slot - mt.cw) / 2, top = pile.y * mt.slotH;
      var n = pile.cards.length, fan = pile.fan || "none";
      var offsets = self.fanOffsets(pile, mt);
      var ext = offsets.length ? offsets[offsets.length - 1] : { dx: 0, dy: 0 };
      var box = {
        left: left + Math.min(0, ext.dx), top: top + Math.min(0, ext.dy),
        w: mt.cw + Math.abs(ext.dx), h: mt.ch + Math.abs(ext.dy),
      };
      var topCard = n ? pile.cards[n - 1] : null;
      var label = pile.label + ": " + (n === 0 ? "empty" : n + (n === 1 ? " card" : " cards") +
        (topCard.c ? ", top " + cardName(topCard.c) : ", face down"));
      var pe = el("div", "cb-pile role-" + pile.role + " fan-" + fan, {
        "data-pile": pile.id, "data-key": pile.id, tabindex: "0", role: "button", "aria-label": label,
      });
      if (pile.id === self.pick) pe.classList.add("cb-picked");
      if (targets.indexOf(pile.id) >= 0) pe.classList.add("cb-target");
      if (movable[pile.id]) pe.classList.add("cb-source");
      pe.style.left = box.left + "px"; pe.style.top = box.top + "px";
      pe.style.width = box.w + "px"; pe.style.height = box.h + "px";
      var base = pe.appendChild(el("div", "cb-base"));
      base.style.left = (left - box.left) + "px"; base.style.top = (top - box.top) + "px";
      if (pile.rotate) {
        pe.style.transformOrigin = (left - box.left + mt.cw / 2) + "px " + (top - box.top + mt.ch / 2) + "px";
        pe.style.transform = "rotate(" + pile.rotate + "deg)";
      }
      if (n === 0) base.appendChild(el("span", "cb-empty-label")).textContent = pile.label;
      frag.appendChild(pe);
      pile.cards.forEach(function (card, k) {
        var ref = k === n - 1 ? pile.id : pile.id + ":" + k;
        var ce = self.drawCard(card, fan);
        ce.setAttribute("data-pile", pile.id);
        ce.setAttribute("data-index", String(k));
        ce.setAttribute("data-ref", ref);
        ce.style.left = (left + offsets[k].dx) + "px";
        ce.style.top = (top + offsets[k].dy) + "px";
        ce.style.zIndex = String(2 + k);
        if (pile.rotate) {
          ce.style.transformOrigin = (mt.cw / 2 - offsets[k].dx) + "px " + (mt.ch / 2 - offsets[k].dy) + "px";
          ce.style.transform = "rotate(" + pile.rotate + "deg)";
        }
        if (movable[ref]) ce.classList.add("cb-movable");
        if (ref === self.pick) ce.classList.add("cb-selected");
        if (chosen[ref] && k === n - 1) ce.classList.add("cb-chosen");
        if (k < n - 1 && movable[ref]) {
          // A buried card the rules let move: reachable by keyboard on its own.
          ce.setAttribute("tabindex", "0");
          ce.setAttribute("role", "button");
          ce.setAttribute("data-key", ref);
          ce.setAttribute("aria-label", cardName(card.c) + " in " + pile.label + (card.peek ? ", examined" : ""));
          ce.removeAttribute("aria-hidden");
        }
        frag.appendChild(ce);
      });
      maxX = Math.max(maxX, box.left + box.w);
      maxY = Math.max(maxY, box.top + box.h);
    });
    table.textContent = "";
    table.appendChild(frag);
    table.style.height = Math.ceil(maxY + 6) + "px";
    table.style.minWidth = Math.ceil(maxX) + "px";
    this.layoutWidth = table.clientWidth;
    if (focusKey) {
      var f = table.querySelector('[data-key="' + (window.CSS && CSS.escape ? CSS.escape(focusKey) : focusKey) + '"]');
      if (f) f.focus({ preventScroll: true });
    }
  };

  // Offsets of each card of a pile from the pile's place: face-down cards overlap more.
  Board.prototype.fanOffsets = function (pile, mt) {
    var fan = pile.fan || "none", cards = pile.cards, n = cards.length;
    var out = [];
    if (fan === "none") {
      for (var i = 0; i < n; i++) out.push({ dx: 0, dy: 0 });
      return out;
    }
    var vertical = fan === "down" || fan === "up";
    var unit = vertical ? mt.ch : mt.cw;
    var up = vertical ? 0.25 : 0.32, down = vertical ? 0.07 : 0.1;
    var steps = [], total = 0;
    for (var k = 1; k < n; k++) {
      var s = (cards[k - 1].c === null ? down : up) * unit;
      steps.push(s); total += s;
    }
    var limit = (pile.fan_limit != null ? pile.fan_limit : (vertical ? 4.2 : 5)) * unit;
    var scale = total > limit ? limit / total : 1;
    var pos = 0, sign = fan === "up" || fan === "left" ? -1 : 1;
    out.push({ dx: 0, dy: 0 });
    steps.forEach(function (s) {
      pos += s * scale;
      out.push(vertical ? { dx: 0, dy: sign * pos } : { dx: sign * pos, dy: 0 });
    });
    return out;
  };

  Board.prototype.drawCard = function (card, fan) {
    var c = card.c;
    if (c === null || c === undefined) {
      return el("div", "cb-card cb-back", { "aria-hidden": "true" });
    }
    var p = cardParts(c);
    var ce = el("div", "cb-card " + (p && p.red ? "cb-red" : "cb-black") + " cb-fan-" + fan, {
      "aria-hidden": "true", title: cardName(c) + (card.peek ? " (examined, not available)" : ""),
    });
    if (card.peek) ce.classList.add("cb-peek");
    if (!p) { ce.textContent = c; return ce; }
    ["cb-ix cb-tl", "cb-ix cb-br"].forEach(function (cls) {
      var ix = ce.appendChild(el("span", cls));
      ix.appendChild(el("b")).textContent = p.rank;
      ix.appendChild(el("i")).textContent = p.symbol;
    });
    var face = ce.appendChild(el("span", "cb-face" + ("JQK".indexOf(p.rank) >= 0 ? " cb-court" : "")));
    face.textContent = "JQK".indexOf(p.rank) >= 0 ? p.rank : p.symbol;
    if (card.peek) ce.appendChild(el("span", "cb-peek-mark")).textContent = "examined";
    return ce;
  };

  Board.prototype.updateControls = function () {
    var v = this.view, root = this.root;
    if (this.parts.deal) this.parts.deal.textContent = v.deal === null || v.deal === undefined ? "(set position)" : String(v.deal);
    if (this.parts.status) this.parts.status.textContent = v.status || "";
    root.setAttribute("data-outcome", v.outcome || "");
    var undo = root.querySelector('[data-cb-cmd="undo"]'), redo = root.querySelector('[data-cb-cmd="redo"]');
    if (undo) undo.setAttribute("aria-disabled", v.can_undo ? "false" : "true");
    if (redo) redo.setAttribute("aria-disabled", v.can_redo ? "false" : "true");
    (v.actions || []).forEach(function (a) {
      var b = root.querySelector('[data-cb-action="' + a.move + '"]');
      if (b) b.setAttribute("aria-disabled", a.enabled ? "false" : "true");
    });
    this.syncOptions();
  };

  // ---- options (controls in the editorial notes)
  Board.prototype.optionControls = function () {
    var id = this.id;
    return Array.prototype.filter.call(document.querySelectorAll("fieldset.cadogan-option"), function (f) {
      return f.getAttribute("data-board") === id;
    });
  };

  // The controls come later in the page than the board (and this script): listen on the
  // document, once per tab, and find the board by id when a control changes.
  var boards = {};

  Board.prototype.connectOptions = function () {
    boards[this.id] = this;
    var self = this;
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () { self.syncOptions(); });
    }
  };

  document.addEventListener("change", function (ev) {
    var t = ev.target;
    var f = t && t.closest ? t.closest("fieldset.cadogan-option") : null;
    if (!f || !t.name) return;
    var b = boards[f.getAttribute("data-board")];
    if (b && b.root.isConnected) b.setOption(f, f.getAttribute("data-option"), t.value);
  });

  Board.prototype.syncOptions = function () {
    if (!this.view) return;
    var map = optionsMap(this.view.options);
    this.optionControls().forEach(function (f) {
      var name = f.getAttribute("data-option");
      var value = name in map ? map[name] : f.getAttribute("data-default");
      f.querySelectorAll("input[type=radio]").forEach(function (r) { r.checked = r.value === value; });
      var s = f.querySelector("select");
      if (s) s.value = value;
    });
  };

  Board.prototype.setOption = function (fieldset, name, value) {
    var self = this;
    var status = fieldset.querySelector(".cb-opt-status");
    var map = optionsMap(this.view ? this.view.options : "");
    map[name] = value;
    if (value === fieldset.getAttribute("data-default")) delete map[name];
    var text = Object.keys(map).sort().map(function (k) { return k + ":" + map[k]; }).join(",");
    if (status) status.textContent = self.ready ? "Switching the board\u2026" : "The board will switch when the engine is ready\u2026";
    this.enqueue(function () {
      return self.request({ op: "set_options", options: text }).then(function (r) {
        if (!r.ok) {
          if (status) status.textContent = r.error.message;
          self.syncOptions();
          return;
        }
        self.clearMessage();
        self.apply(r, true);
        if (r.notice) self.notice(r.notice);
        else self.say(r.said);
        if (status) status.textContent = r.notice || "The board above now follows this reading.";
      });
    });
  };

  // ---- commands
  Board.prototype.send = function (req) {
    var self = this;
    if (!this.ready) {
      this.say(this.root.getAttribute("data-engine") === "failed" ?
        "The engine could not start: the board cannot be played." :
        "The engine is still loading; the board becomes playable in a moment.");
      return Promise.resolve(null);
    }
    return this.enqueue(function () {
      return self.request(req).then(function (r) {
        if (r.ok) {
          self.clearMessage();
          self.apply(r);
        } else if (r.error.kind === "illegal") {
          self.pick = null;
          self.steps = [];
          self.draw();
          self.refused(r.error);
        } else {
          self.pick = null;
          self.steps = [];
          self.draw();
          self.say(r.error.message);
          if (r.error.kind !== "nothing") self.notice(r.error.message);
        }
        return r;
      });
    });
  };

  Board.prototype.command = function (cmd) {
    if (cmd === "new") return this.send({ op: "new", game: this.game, deal: randomDeal(), options: this.view ? this.view.options : "" });
    if (cmd === "undo" || cmd === "redo" || cmd === "restart") return this.send({ op: cmd });
    return null;
  };

  Board.prototype.action = function (move) { return this.send({ op: "play", move: move }); };

  // Pick up the card `ref` (a pile id for its top card, `pile:k` for a buried card).
  Board.prototype.pickUp = function (ref) {
    if (!this.ready) return this.send({});
    var pile = this.pileById(pileOf(ref));
    if (!pile || pile.cards.length === 0) { this.say(pile ? pile.label + " is empty." : ""); return; }
    if (this.pick === ref) { this.cancel("Put back."); return; }
    this.pick = ref;
    var k = ref.indexOf(":") >= 0 ? parseInt(ref.split(":")[1], 10) : pile.cards.length - 1;
    var card = pile.cards[k];
    var dests = (this.view.movable || {})[ref] || [];
    var self = this;
    this.draw();
    this.say("Picked up " + (card && card.c ? "the " + cardName(card.c) : "a card") + " from " + pile.label + ". " +
      (dests.length ? "It may go to " + dests.map(function (d) { var p = self.pileById(d); return p ? p.label : d; }).join(", ") + "." :
        "It has no legal destination now; choose one to hear why."));
  };

  // Put the card picked up on pile `dst`: a step of the move being chosen.
  Board.prototype.putDown = function (dst) {
    if (!this.pick) return;
    if (pileOf(this.pick) === dst) { this.cancel("Put back."); return; }
    this.steps.push([this.pick, dst]);
    this.pick = null;
    this.settle();
  };

  Board.prototype.settle = function () {
    var steps = this.steps, moves = this.view.moves || [];
    for (var i = 0; i < moves.length; i++) {
      if (sameSteps(moves[i].steps, steps)) return this.send({ op: "play", move: moves[i].m });
    }
    var partial = moves.some(function (m) { return m.steps.length > steps.length && containsSteps(m.steps, steps); });
    if (partial) {
      this.draw();
      this.say("Step " + steps.length + " chosen; choose the next card of this move (Escape to cancel).");
      return null;
    }
    var text = steps.map(function (s) { return s[0] + "-" + s[1]; }).join("+");
    return this.send({ op: "play", move: text });
  };

  Board.prototype.cancel = function (text) {
    if (!this.pick && !this.steps.length) return;
    this.pick = null;
    this.steps = [];
    this.draw();
    this.say(text || "Move cancelled.");
  };

  Board.prototype.pileById = function (id) {
    var ps = this.view ? this.view.piles : [];
    for (var i = 0; i < ps.length; i++) if (ps[i].id === id) return ps[i];
    return null;
  };

  // A click (or Enter) on a pile or card.
  Board.prototype.activate = function (pileId, ref) {
    if (!this.ready) return this.send({});
    if (this.pick) return this.putDown(pileId);
    return this.pickUp(ref || pileId);
  };

  // ---- events
  Board.prototype.bind = function () {
    var self = this, root = this.root, table = this.parts.table;
    root.addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-cb-cmd], button[data-cb-action]");
      if (b && root.contains(b)) {
        ev.preventDefault();
        if (b.hasAttribute("data-cb-cmd")) self.command(b.getAttribute("data-cb-cmd"));
        else self.action(b.getAttribute("data-cb-action"));
      }
    });
    table.addEventListener("click", function (ev) {
      if (self.suppressClick) { self.suppressClick = false; return; }
      var hit = self.hit(ev.target);
      if (hit) self.activate(hit.pile, hit.ref);
    });
    table.addEventListener("pointerdown", function (ev) { self.dragStart(ev); });
    root.addEventListener("keydown", function (ev) { self.key(ev); });
    if (window.ResizeObserver) {
      var last = table.clientWidth;
      new ResizeObserver(function () {
        if (Math.abs(table.clientWidth - last) < 2 || !self.view) return;
        last = table.clientWidth;
        window.requestAnimationFrame(function () { self.draw(); });
      }).observe(table);
    }
  };

  // What a click or drop on `node` designates: {pile, ref}.
  Board.prototype.hit = function (node) {
    if (!node || !node.closest) return null;
    var card = node.closest(".cb-card[data-pile]");
    if (card && this.parts.table.contains(card)) {
      var pile = this.pileById(card.getAttribute("data-pile"));
      var k = parseInt(card.getAttribute("data-index"), 10);
      var ref = card.getAttribute("data-ref");
      // A face-down card under others stands for its pile.
      if (pile && pile.cards[k] && pile.cards[k].c === null) ref = pile.id;
      return { pile: card.getAttribute("data-pile"), ref: ref };
    }
    var pe = node.closest(".cb-pile[data-pile]");
    if (pe && this.parts.table.contains(pe)) return { pile: pe.getAttribute("data-pile"), ref: null };
    return null;
  };

  Board.prototype.dragStart = function (ev) {
    if (ev.button !== 0 || !this.ready) return;
    var card = ev.target.closest(".cb-card[data-ref]");
    if (!card) return;
    var self = this, start = { x: ev.clientX, y: ev.clientY }, ghost = null;
    var hit = this.hit(card);
    var pointerId = ev.pointerId;
    function move(e) {
      if (e.pointerId !== pointerId) return;
      if (!ghost) {
        if (Math.abs(e.clientX - start.x) + Math.abs(e.clientY - start.y) < 8) return;
        if (self.pick !== hit.ref) { self.pick = null; self.steps = self.steps || []; self.pickUp(hit.ref); }
        if (self.pick !== hit.ref) return end(e, true);
        var fresh = self.parts.table.querySelector('.cb-card[data-ref="' + hit.ref + '"]') || card;
        var r = fresh.getBoundingClientRect();
        ghost = fresh.cloneNode(true);
        ghost.classList.add("cb-ghost");
        ghost.style.position = "fixed";
        ghost.style.width = r.width + "px";
        ghost.style.height = r.height + "px";
        ghost.style.left = r.left + "px";
        ghost.style.top = r.top + "px";
        ghost.style.zIndex = "1000";
        ghost.style.setProperty("--cw", r.width + "px");
        ghost.dataset.ox = String(start.x - r.left);
        ghost.dataset.oy = String(start.y - r.top);
        document.body.appendChild(ghost);
      }
      ghost.style.left = (e.clientX - Number(ghost.dataset.ox)) + "px";
      ghost.style.top = (e.clientY - Number(ghost.dataset.oy)) + "px";
      e.preventDefault();
    }
    function end(e, abandon) {
      if (e.pointerId !== pointerId) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
      if (!ghost) return;
      ghost.remove();
      self.suppressClick = true;
      window.setTimeout(function () { self.suppressClick = false; }, 0);
      if (abandon) { self.cancel(); return; }
      var target = self.hit(document.elementFromPoint(e.clientX, e.clientY));
      if (target && target.pile !== pileOf(hit.ref)) self.putDown(target.pile);
      else self.cancel("Put back.");
    }
    function up(e) { end(e, false); }
    function cancel(e) { end(e, true); }
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
  };

  // A key the board acts on is the board's alone: Material's own shortcuts (N next page,
  // P previous, S search) listen on the document and must not see it.
  function claim(ev) {
    ev.preventDefault();
    ev.stopPropagation();
  }

  Board.prototype.key = function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    var inTable = this.parts.table.contains(t);
    var k = ev.key;
    if (k === "Escape") {
      if (this.pick || this.steps.length) { this.cancel(); claim(ev); }
      return;
    }
    if (inTable && (k === "Enter" || k === " ")) {
      var hit = this.hit(t);
      if (hit) { claim(ev); this.activate(hit.pile, t.classList.contains("cb-card") ? hit.ref : null); }
      return;
    }
    if (inTable && /^Arrow/.test(k)) {
      claim(ev);
      this.moveFocus(t, k);
      return;
    }
    if (k.length !== 1) return;
    var lower = k.toLowerCase();
    var acts = this.root.querySelectorAll("button[data-cb-action][data-key]");
    for (var i = 0; i < acts.length; i++) {
      var want = acts[i].getAttribute("data-key");
      var shift = want.indexOf("Shift+") === 0;
      if (want.replace("Shift+", "").toLowerCase() === lower && shift === ev.shiftKey) {
        claim(ev);
        this.action(acts[i].getAttribute("data-cb-action"));
        return;
      }
    }
    if (ev.shiftKey) return;
    var cmds = { u: "undo", r: "redo", n: "new" };
    if (cmds[lower]) { claim(ev); this.command(cmds[lower]); }
  };

  // Arrow keys: the nearest pile (or reachable card) in that direction.
  Board.prototype.moveFocus = function (from, key) {
    var items = Array.prototype.slice.call(this.parts.table.querySelectorAll("[tabindex='0']"));
    if (!items.length) return;
    if (items.indexOf(from) < 0) { items[0].focus(); return; }
    var a = from.getBoundingClientRect();
    var ax = a.left + Math.min(a.width, 40) / 2, ay = a.top + Math.min(a.height, 40) / 2;
    var best = null, bestScore = Infinity;
    items.forEach(function (it) {
      if (it === from) return;
      var b = it.getBoundingClientRect();
      var bx = b.left + Math.min(b.width, 40) / 2, by = b.top + Math.min(b.height, 40) / 2;
      var dx = bx - ax, dy = by - ay, along, across;
      if (key === "ArrowRight") { along = dx; across = dy; }
      else if (key === "ArrowLeft") { along = -dx; across = dy; }
      else if (key === "ArrowDown") { along = dy; across = dx; }
      else { along = -dy; across = dx; }
      if (along <= 1) return;
      var score = along + 2.5 * Math.abs(across);
      if (score < bestScore) { bestScore = score; best = it; }
    });
    if (best) best.focus();
  };

  function randomDeal() {
    var a = new Uint32Array(1);
    (window.crypto || window.msCrypto).getRandomValues(a);
    return 1 + (a[0] % 999999);
  }

  // ------------------------------------------------------------------ mounting
  function mountAll() {
    document.querySelectorAll(".cadogan-board[data-game]:not([data-mounted])").forEach(function (root) {
      if (!root.hasAttribute("data-initial")) return;
      var b = new Board(root);
      root.cadoganBoard = b;
      b.mount();
    });
  }

  // This script comes at the end of the body: the page's boards are already parsed, so draw
  // them now (before the first paint where possible); then again on every page that
  // Material's instant navigation shows.
  window.__cadoganBoard = { mountAll: mountAll };
  mountAll();
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(function () { mountAll(); });
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mountAll);
  }
})();
