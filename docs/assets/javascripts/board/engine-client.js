// The engine client: one module Web Worker per tab (board-worker.mjs) running Pyodide and
// engine.web, shared by every board and kept across Material's instant navigation (a module
// runs once per document, so this state lives as long as the tab).
//
// A board page's head starts the worker at once (a small script the build writes there,
// build_scripts/board_embed.py): window.__cadoganEngine then holds it and the messages it
// sent before this module ran, and the client adopts it. A page reached by instant
// navigation, or without that script, starts the worker here.

const START_TIMEOUT_MS = 120000;

let engine = null;

/** The boot message of a board's runtime settings (data-runtime), paths relative to `root`. */
export function bootMessage(runtime, root) {
  return Object.assign({ type: "boot", root: String(root) }, runtime);
}

/** The worker's address carrying its boot message (board-worker.mjs reads it at once, without
 * waiting for this page's main thread to pass a message on). */
export function addressedWorker(workerUrl, msg) {
  return String(workerUrl).split("#")[0] + "#boot=" + encodeURIComponent(JSON.stringify(msg));
}

function start(cfg, siteRoot, workerUrl) {
  const eng = { pending: new Map(), nextId: 1, state: "loading", failure: null, bootMs: null, snapshot: null,
    startedAt: performance.now(), progress: null, listeners: new Set(), games: new Set() };
  let settle;
  eng.ready = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  eng.ready.catch(() => { /* each caller reports the failure itself */ });
  const failed = (message) => {
    if (eng.state !== "loading") return;
    eng.state = "failed";
    eng.failure = message;
    settle.reject(new Error(message));
    eng.pending.forEach((p) => p.reject(new Error(message)));
    eng.pending.clear();
  };
  const onMessage = (m) => {
    if (m.type === "ready") {
      clearTimeout(timer);
      eng.state = "ready";
      eng.bootMs = m.ms;
      eng.snapshot = m.snapshot || null;
      eng.progress = null;
      settle.resolve();
    } else if (m.type === "progress") {
      eng.progress = m;
      eng.listeners.forEach((fn) => fn(m));
    } else if (m.type === "failed") {
      clearTimeout(timer);
      failed(m.message);
    } else if (m.type === "response") {
      let r;
      try { r = JSON.parse(m.text); } catch (e) { return; }
      const p = eng.pending.get(r.id);
      if (p) { eng.pending.delete(r.id); p.resolve(r); }
    }
  };
  const timer = setTimeout(() => {
    failed("The engine did not start within " + START_TIMEOUT_MS / 1000 + " seconds.");
  }, START_TIMEOUT_MS);
  const early = window.__cadoganEngine;
  if (early && early.worker) {
    // Started by the page's head: take it over, with what it said so far.
    eng.worker = early.worker;
    eng.startedAt = early.startedAt;
    if (early.game) eng.games.add(early.game);
  } else {
    try {
      const url = cfg.runtime ? addressedWorker(workerUrl, bootMessage(cfg.runtime, siteRoot)) : workerUrl;
      eng.worker = new Worker(url, { type: "module", name: "cadogan-engine" });
    } catch (err) {
      clearTimeout(timer);
      failed("This browser cannot run the engine (" + err.message + ").");
      return eng;
    }
  }
  eng.worker.onmessage = (ev) => onMessage(ev.data || {});
  eng.worker.onerror = (ev) => {
    failed("The engine\u2019s worker failed to load (" + (ev.message || "error") + ").");
  };
  if (early && early.worker) {
    window.__cadoganEngine = { worker: eng.worker, adopted: true };
    (early.messages || []).forEach(onMessage);
    if (early.error) failed("The engine\u2019s worker failed to load (" + early.error + ").");
  } else if (cfg.runtime) {
    eng.worker.postMessage(bootMessage(cfg.runtime, siteRoot));
    if (cfg.runtime.game) eng.games.add(cfg.runtime.game.archive);
  } else {
    failed("The page does not say where the engine is.");
  }
  return eng;
}

/** The tab's engine, started on first use; a board whose game the worker has not loaded yet
 * (a chapter reached by instant navigation) has it sent ahead of its requests. */
export function getEngine(cfg, siteRoot, workerUrl) {
  if (!engine) engine = start(cfg, siteRoot, workerUrl);
  const game = cfg.runtime && cfg.runtime.game;
  if (game && engine.worker && !engine.games.has(game.archive)) {
    engine.games.add(game.archive);
    engine.worker.postMessage({ type: "game", root: String(siteRoot), game });
  }
  return engine;
}

/** Call `fn(progress)` with the engine's start-up progress ({step, loaded, total}) now (if
 * any) and on every change until it is ready; returns a function that stops it. */
export function onProgress(fn) {
  const eng = engine;
  if (!eng || eng.state !== "loading") return () => {};
  eng.listeners.add(fn);
  if (eng.progress) fn(eng.progress);
  const stop = () => eng.listeners.delete(fn);
  eng.ready.then(stop, stop);
  return stop;
}

/** Send one request; resolves with the response (ok or not), rejects if the engine failed. */
export function call(req) {
  const eng = engine;
  return eng.ready.then(() => new Promise((resolve, reject) => {
    const id = eng.nextId++;
    req.id = id;
    eng.pending.set(id, { resolve, reject });
    eng.worker.postMessage({ type: "request", text: JSON.stringify(req) });
  }));
}
