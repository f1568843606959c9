// The edition's engine worker: one per tab, shared by every board, kept across Material's
// instant navigation. It boots Pyodide from the site's own copy, on the standard library the
// build compiled for the engine (public options stdLibURL and lockFileContents), unpacks the
// engine's compiled modules (the shared ones and the chapter's game) with unpackArchive, and
// answers the boards' JSON requests with engine.web.handle.
//
// Messages in:  {type: "boot", root: <URL of the site root>, pyodide, stdlib, engine,
//                 game: {archive, module} | null, lock: <lock file info>, bytes, wasmBytes}
//                 (paths relative to the root; bytes: what the downloads weigh, uncompressed,
//                 wasmBytes the WebAssembly's share)
//               {type: "game", root, game: {archive, module}}   another chapter's game
//               {type: "request", text: <JSON request>}
// Messages out: {type: "progress", step: "download" | "start" | "engine", loaded, total}
//               {type: "ready", ms}  {type: "failed", message}  {type: "response", text}
//
// Help requests (op "help": a hint, or "can this deal still be won?") run the solver in
// slices of about HELP_SLICE_MS, yielding to the event loop between slices, so that other
// requests (a move, op "help_cancel") are answered while it searches; the answer comes as
// the help request's response (with `help.cancelled` when it was cancelled or overtaken).

const BOOT_TIMEOUT_MS = 90000;
const HELP_SLICE_MS = 40;
/** Where the engine's compiled modules are unpacked (as the build compiled them for). */
const ENGINE_DIR = "/lib/cadogan";

/** The help search running for each board: a token, replaced to stop it. */
const helping = new Map();
let helpTokens = 0;

let handle = null;
let booting = null;
let failed = null;
let py = null;
const gamesLoaded = new Set();

function fail(message) {
  if (failed || handle) return;
  failed = message;
  postMessage({ type: "failed", message });
}

// Pyodide reports a wasm file served with the wrong MIME type only on the console
// ("wasm instantiation failed!") and then waits for ever: watch for it.
for (const level of ["error", "warn", "log"]) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    const text = args.map(String).join(" ");
    if (/wasm instantiation failed/i.test(text)) {
      fail("The WebAssembly runtime could not be started (" + text.slice(0, 200) + ").");
    }
    original(...args);
  };
}

// ---- downloads, all started at once, with progress

const progress = { step: "download", loaded: 0, total: 0, sent: 0, pending: 0 };

function report(step, force) {
  if (step) progress.step = step;
  const now = performance.now();
  if (!force && now - progress.sent < 120) return;
  progress.sent = now;
  postMessage({ type: "progress", step: progress.step, loaded: progress.loaded,
    total: Math.max(progress.total, progress.loaded) });
}

const nativeFetch = self.fetch.bind(self);
/** Responses fetched ahead of Pyodide, by URL: Pyodide's own fetch of that URL gets them. */
const early = new Map();

function finished() {
  // Every download done: Python is starting.
  if (--progress.pending === 0 && progress.step === "download") report("start", true);
}

/** Count the bytes of `r`'s body as they arrive; returns the response to hand on: a clone
 * (same URL and headers) that its reader reads as it comes. */
function counted(r) {
  if (!r.ok || !r.body) { finished(); return r; }
  const copy = r.clone();
  const reader = r.body.getReader();
  const pump = () => reader.read().then(({ done, value }) => {
    if (done) { finished(); return; }
    progress.loaded += value.byteLength;
    report();
    return pump();
  });
  pump().catch(finished);
  return copy;
}

/** Fetch `url` now, counting its bytes as they arrive. */
function prefetch(url) {
  progress.pending++;
  const p = nativeFetch(url).then(counted, (err) => { finished(); throw err; });
  early.set(url, p);
  return p;
}

/** Fetch the WebAssembly now, for Pyodide to compile as it streams in. Its bytes are counted
 * through a clone only when the download looks slow (at the pace of what has arrived so far
 * when Pyodide asks for it, more than SLOW_MS to come), where progress matters and a clone
 * costs nothing that counts; otherwise the clone would cost the compile its speed and the
 * browser its cached code, so Pyodide gets the response itself and its bytes count when the
 * download is over. */
const SLOW_MS = 1500;

function prefetchWasm(url, size) {
  progress.pending++;
  const start = performance.now();
  const response = nativeFetch(url);
  response.catch(() => finished());
  early.set(url, () => response.then((r) => {
    const rate = progress.loaded / Math.max(1, performance.now() - start);  // bytes a ms
    if (!rate || size / rate > SLOW_MS) return counted(r);
    if (self.PerformanceObserver) {
      const seen = new PerformanceObserver((list) => {
        if (!list.getEntries().some((e) => e.name === url)) return;
        seen.disconnect();
        progress.loaded += size;
        finished();
      });
      seen.observe({ type: "resource", buffered: true });
    } else {
      progress.loaded += size;
      finished();
    }
    return r;
  }));
}

self.fetch = (input, init) => {
  const url = typeof input === "string" ? input : (input && input.href) || (input && input.url);
  const p = url ? early.get(url) : null;
  if (p) {
    early.delete(url);
    return typeof p === "function" ? p() : p;
  }
  return nativeFetch(input, init);
};

function bytesOf(response, what) {
  return response.then((r) => {
    if (!r.ok) throw new Error(`${what} answered ${r.status}`);
    return r.arrayBuffer();
  });
}

function unpack(bytes) {
  py.unpackArchive(new Uint8Array(bytes), "zip", { extractDir: ENGINE_DIR });
}

async function boot(msg) {
  const t0 = performance.now();
  const watchdog = setTimeout(
    () => fail(`The Python runtime did not start within ${BOOT_TIMEOUT_MS / 1000} seconds.`),
    BOOT_TIMEOUT_MS);
  try {
    const at = (path) => new URL(path, msg.root).href;
    const base = at(msg.pyodide);
    progress.total = msg.bytes || 0;
    // Everything the engine needs is requested now, side by side.
    prefetchWasm(base + "pyodide.asm.wasm", msg.wasmBytes || 0);
    prefetch(at(msg.stdlib));
    const engineBytes = bytesOf(prefetch(at(msg.engine)), "the engine archive");
    const game = msg.game;
    const gameBytes = game ? bytesOf(prefetch(at(game.archive)), "the game's archive") : null;
    report("download", true);
    const { loadPyodide } = await import(base + "pyodide.mjs");
    py = await loadPyodide({
      indexURL: base,
      stdLibURL: at(msg.stdlib),
      lockFileContents: { info: msg.lock, packages: {} },
      stdout: (line) => console.log("[engine]", line),
      stderr: (line) => console.warn("[engine]", line),
    });
    if (failed) return;
    report("engine", true);
    unpack(await engineBytes);
    if (gameBytes) {
      unpack(await gameBytes);
      gamesLoaded.add(game.archive);
    }
    handle = py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})\n` +
      "import engine.web\n" + (game ? `import engine.${game.module}\n` : "") + "engine.web.handle");
    clearTimeout(watchdog);
    postMessage({ type: "ready", ms: performance.now() - t0 });
  } catch (err) {
    clearTimeout(watchdog);
    fail("The Python runtime could not be started: " + (err && err.message ? err.message : err));
  }
}

/** Another chapter's game (instant navigation): its modules, before its board's requests. */
async function loadGame(msg) {
  const game = msg.game;
  if (!game || gamesLoaded.has(game.archive) || !py) return;
  gamesLoaded.add(game.archive);
  try {
    unpack(await bytesOf(nativeFetch(new URL(game.archive, msg.root).href), "the game's archive"));
    py.runPython(`import importlib\nimportlib.invalidate_caches()\nimport engine.${game.module}`);
  } catch (err) {
    gamesLoaded.delete(game.archive);
    console.warn("[engine] could not load " + game.archive + ": " + (err && err.message ? err.message : err));
  }
}

function answer(id, text) {
  let r;
  try { r = JSON.parse(text); } catch (e) { r = { ok: false, error: { kind: "internal", message: "not JSON" } }; }
  r.id = id;
  return JSON.stringify(r);
}

function pause() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A help request: started with one call, then searched in slices until it answers, is
 * cancelled (op help_cancel, or another help for the board), or its board changes. */
async function runHelp(req) {
  const board = String(req.board);
  const token = ++helpTokens;
  helping.set(board, token);
  let text = handle(JSON.stringify(req));
  for (;;) {
    let r;
    try { r = JSON.parse(text); } catch (e) { break; }
    if (!r.ok || !r.help || !r.help.running) break;
    await pause();
    if (helping.get(board) !== token) {
      text = JSON.stringify({ ok: true, help: { kind: r.help.kind, running: false, cancelled: true } });
      break;
    }
    text = handle(JSON.stringify({ op: "help_step", board, ms: HELP_SLICE_MS }));
  }
  if (helping.get(board) === token) helping.delete(board);
  return answer(req.id, text);
}

self.onmessage = async (event) => {
  const msg = event.data || {};
  if (msg.type === "boot") {
    if (!booting) booting = boot(msg);
    return;
  }
  if (msg.type === "game") {
    booting = (booting || Promise.resolve()).then(() => loadGame(msg));
    return;
  }
  if (msg.type !== "request") return;
  if (booting) await booting;
  let text;
  if (!handle) {
    let id = null;
    try { id = JSON.parse(msg.text).id; } catch (e) { /* answered below */ }
    text = JSON.stringify({ id, ok: false, error: { kind: "engine", message: failed || "The engine is not running." } });
  } else {
    try {
      let req = null;
      try { req = JSON.parse(msg.text); } catch (e) { req = null; }
      if (req && req.op === "help") {
        text = await runHelp(req);
      } else {
        if (req && req.op === "help_cancel") helping.delete(String(req.board));
        text = handle(msg.text);
      }
    } catch (err) {
      let id = null;
      try { id = JSON.parse(msg.text).id; } catch (e) { /* answered below */ }
      text = JSON.stringify({ id, ok: false, error: { kind: "internal", message: String(err && err.message || err).slice(-500) } });
    }
  }
  postMessage({ type: "response", text });
};
