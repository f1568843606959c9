// The engine client: one module Web Worker per tab (board-worker.mjs) running Pyodide and
// engine.web, shared by every board and kept across Material's instant navigation (a module
// runs once per document, so this state lives as long as the tab).

const START_TIMEOUT_MS = 120000;

let engine = null;

function start(cfg, siteRoot, workerUrl) {
  const eng = { pending: new Map(), nextId: 1, state: "loading", failure: null, bootMs: null,
    startedAt: performance.now() };
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
  try {
    eng.worker = new Worker(workerUrl, { type: "module", name: "cadogan-engine" });
  } catch (err) {
    failed("This browser cannot run the engine (" + err.message + ").");
    return eng;
  }
  const timer = setTimeout(() => {
    failed("The engine did not start within " + START_TIMEOUT_MS / 1000 + " seconds.");
  }, START_TIMEOUT_MS);
  eng.worker.onmessage = (ev) => {
    const m = ev.data || {};
    if (m.type === "ready") {
      clearTimeout(timer);
      eng.state = "ready";
      eng.bootMs = m.ms;
      settle.resolve();
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
  eng.worker.onerror = (ev) => {
    failed("The engine\u2019s worker failed to load (" + (ev.message || "error") + ").");
  };
  eng.worker.postMessage({
    type: "boot",
    pyodide: new URL(cfg.pyodide, siteRoot).href,
    archive: new URL(cfg.archive, siteRoot).href,
  });
  return eng;
}

/** The tab's engine, started on first use. */
export function getEngine(cfg, siteRoot, workerUrl) {
  if (!engine) engine = start(cfg, siteRoot, workerUrl);
  return engine;
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
