// The edition's engine worker: one per tab, shared by every board, kept across Material's
// instant navigation. It boots Pyodide from the site's own copy, on the standard library the
// build compiled for the engine (public options stdLibURL and lockFileContents), unpacks the
// engine's compiled modules (the shared ones and the chapter's game) with unpackArchive, and
// answers the boards' JSON requests with engine.web.handle.
//
// A later visit starts from a memory snapshot made in the reader's own browser (Pyodide's
// private options _makeSnapshot and _loadSnapshot; nothing more is downloaded): once the
// board has been ready and idle for SNAPSHOT_IDLE_MS, and if this build has no snapshot
// yet, a worker of its own (engine-snapshot.mjs, handed the compiled WebAssembly and the
// stdlib's and engine's bytes, so it requests nothing) boots a second Pyodide, imports the
// engine's shared modules and stores the snapshot in Cache Storage, under a key naming this
// build's runtime, stdlib and engine (content-named files). The next boot looks for it
// beside its downloads; if found, it compiles the WebAssembly at once, reads the snapshot
// and checks its SHA-256 meanwhile, restores Python from it, reseeds `random` (frozen in
// the snapshot; the deals do not use it: the hash seed stays that of the snapshot's
// making), unpacks the archives (files are not in a snapshot) and imports the game. Any
// failure gives the ordinary boot, never a broken board: a damaged snapshot is deleted (and
// made again), one that fails to restore is replaced by a marker and not tried or made
// again for this build. A new build has a new key: the old snapshot is deleted when the
// new one is stored.
//
// The boot message also comes in the worker's own address, as its fragment ("#boot=" and
// the message as URI-encoded JSON): the boot then starts the moment this module has run. A
// message posted to a new worker is held in the page until the page's main thread has
// learnt that the worker's script ran, and on a chapter that thread is busy with Material's
// start (measured: the boot message arrived 90-200 ms after this module had run). The same
// message posted as well is then ignored.
//
// Messages in:  {type: "boot", root: <URL of the site root>, pyodide, stdlib, engine,
//                 game: {archive, module} | null, lock: <lock file info>, bytes, wasmBytes}
//                 (paths relative to the root; bytes: what the downloads weigh, uncompressed,
//                 wasmBytes the WebAssembly's share)
//               {type: "game", root, game: {archive, module}}   another chapter's game
//               {type: "request", text: <JSON request>}
// Messages out: {type: "progress", step: "download" | "start" | "engine", loaded, total}
//               {type: "ready", ms, snapshot, times}  {type: "failed", message}
//               {type: "response", text}  {type: "snapshot", ok, ms, bytes, stored | message}
//               (ready's snapshot: "restored" when Python came from a snapshot, else why not:
//               "none" (none yet), "damaged", "failed", "off" (no Cache Storage, nested
//               workers or WebCrypto); times: ms from the boot message to the end of
//               each step: imported (pyodide.mjs), found (the snapshot looked for),
//               downloaded, python, unpacked, ready (and read, checked, rebuilt when a
//               snapshot is restored); also kept as self.__bootTimes for the benchmarks;
//               "snapshot": one was made and stored, or not)
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
let bootMsg = null;
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
  if (--progress.pending === 0) progress.doneAt = performance.now();
  if (progress.pending === 0 && progress.step === "download") report("start", true);
}

/** Called once, when the first counted download is over. */
let oneDone = null;

/** Count the bytes of `r`'s body as they arrive; returns the response to hand on: a clone
 * (same URL and headers) that its reader reads as it comes. */
function counted(r) {
  if (!r.ok || !r.body) { finished(); return r; }
  const copy = r.clone();
  const reader = r.body.getReader();
  const pump = () => reader.read().then(({ done, value }) => {
    if (done) {
      finished();
      if (oneDone) { const f = oneDone; oneDone = null; f(); }
      return;
    }
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

/** The WebAssembly's request: {url, take} (take: its response, counted when it is over). */
let wasmRequest = null;
/** Its URL, to fetch it again should its bytes not compile. */
let wasmUrl = null;

function prefetchWasm(url, size) {
  wasmUrl = url;
  progress.pending++;
  const start = performance.now();
  const response = nativeFetch(url);
  response.catch(() => finished());
  let over = false;
  const markOver = () => {
    if (over) return;
    over = true;
    progress.loaded += size;
    finished();
  };
  const whenOver = (r) => {
    if (self.PerformanceObserver) {
      const seen = new PerformanceObserver((list) => {
        if (!list.getEntries().some((e) => e.name === url)) return;
        seen.disconnect();
        markOver();
      });
      seen.observe({ type: "resource", buffered: true });
    } else {
      markOver();
    }
    return r;
  };
  early.set(url, () => {
    wasmRequest = null;  // Pyodide's own request has it: no longer to be compiled ahead
    return response.then((r) => {
      const rate = progress.loaded / Math.max(1, performance.now() - start);  // bytes a ms
      return !rate || size / rate > SLOW_MS ? counted(r) : whenOver(r);
    });
  });
  // take: the response, for compiling ahead; over: its bytes are all in (compiled), which
  // may be known before the resource timing entry is delivered (a busy worker).
  wasmRequest = { url, take: () => { early.delete(url); return response.then(whenOver); },
    over: markOver };
}

/** The WebAssembly compiled ahead of Pyodide, as its bytes arrive: Pyodide's own request
 * for it then gets an empty response, and its instantiation this module. Otherwise the
 * compile would start only once Pyodide's JavaScript (pyodide.asm.mjs) had arrived and run,
 * with the WebAssembly's bytes waiting meanwhile. Started as soon as the download looks fast
 * (SLOW_MS, judged when the first other file is in, or after DECIDE_MS) or a snapshot is
 * found (a warm visit); on a slow download Pyodide compiles it when it asks for it, with
 * its bytes counted for the progress shown (see prefetchWasm). */
let precompiled = null;
const DECIDE_MS = 400;

function precompileWasm() {
  if (precompiled || !wasmRequest || !WebAssembly.compileStreaming || !nativeInstantiateStreaming) return;
  precompiled = { url: wasmRequest.url, module: WebAssembly.compileStreaming(wasmRequest.take()) };
  precompiled.module.then(wasmRequest.over, () => { /* Pyodide then fetches and compiles it itself */ });
}

/** Compile the WebAssembly early if its download looks fast: at the pace of what has come
 * so far, the rest of it due within SLOW_MS. */
function precompileIfFast(started, wasmSize) {
  const rate = progress.loaded / Math.max(1, performance.now() - started);  // bytes a ms
  if (rate && wasmSize / rate <= SLOW_MS) precompileWasm();
}

self.fetch = (input, init) => {
  const url = typeof input === "string" ? input : (input && input.href) || (input && input.url);
  if (precompiled && url === precompiled.url) {
    return Promise.resolve(new Response(new Uint8Array(0), { headers: { "content-type": "application/wasm" } }));
  }
  const p = url ? early.get(url) : null;
  if (p) {
    early.delete(url);
    return typeof p === "function" ? p() : p;
  }
  return nativeFetch(input, init);
};

/** The compiled WebAssembly, as Pyodide instantiates it: handed to the snapshot's worker. */
let wasmModule = null;
const nativeInstantiateStreaming = WebAssembly.instantiateStreaming;
if (nativeInstantiateStreaming) {
  WebAssembly.instantiateStreaming = async (source, imports) => {
    let r;
    let module = null;
    if (precompiled) {
      try {
        module = await precompiled.module;
      } catch (err) {
        // Compiled ahead and failed: Pyodide's request is answered by the network again.
        console.warn("[engine] the early compile failed (" + String(err && err.message || err).slice(0, 200) + "); compiling again");
        const url = precompiled.url;
        precompiled = null;
        source = nativeFetch(url, { cache: "reload" });
      }
    }
    if (module) {
      r = { module, instance: await WebAssembly.instantiate(module, imports) };
    } else {
      try {
        r = await nativeInstantiateStreaming.call(WebAssembly, source, imports);
      } catch (err) {
        // Bytes that are not the module (a damaged download, a damaged copy in the HTTP
        // cache): fetched once more from the network, as after an early compile's failure.
        if (!(err instanceof WebAssembly.CompileError) || !wasmUrl) throw err;
        console.warn("[engine] the WebAssembly could not be compiled (" + String(err.message).slice(0, 200) + "); fetching it again");
        r = await nativeInstantiateStreaming.call(WebAssembly, nativeFetch(wasmUrl, { cache: "reload" }), imports);
      }
    }
    wasmModule = r.module;
    return r;
  };
}

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
  self.__bootBeganAt = performance.timeOrigin + t0;  // for the benchmarks (epoch ms)
  bootMsg = msg;
  const watchdog = setTimeout(
    () => fail(`The Python runtime did not start within ${BOOT_TIMEOUT_MS / 1000} seconds.`),
    BOOT_TIMEOUT_MS);
  try {
    const at = (path) => new URL(path, msg.root).href;
    const base = at(msg.pyodide);
    progress.total = msg.bytes || 0;
    // A snapshot of an earlier visit is looked for while everything else is requested.
    const stored = findSnapshot(msg);
    // Everything the engine needs is requested now, side by side.
    prefetchWasm(base + "pyodide.asm.wasm", msg.wasmBytes || 0);
    prefetch(at(msg.stdlib));
    const engineBytes = bytesOf(prefetch(at(msg.engine)), "the engine archive");
    const game = msg.game;
    const gameBytes = game ? bytesOf(prefetch(at(game.archive)), "the game's archive") : null;
    stored.then((found) => { if (found.response) precompileWasm(); });
    const started = performance.now(), size = msg.wasmBytes || 0;
    const decide = setTimeout(() => precompileIfFast(started, size), DECIDE_MS);
    oneDone = () => { clearTimeout(decide); precompileIfFast(started, size); };
    report("download", true);
    // Pyodide's own JavaScript is asked for now too (Pyodide imports it from loadPyodide, by
    // the same URL: the one module), not only once pyodide.mjs has arrived and run.
    import(base + "pyodide.asm.mjs").catch(() => { /* loadPyodide reports it */ });
    const { loadPyodide } = await import(base + "pyodide.mjs");
    const imported = Math.round(performance.now() - t0);
    const options = {
      indexURL: base,
      stdLibURL: at(msg.stdlib),
      lockFileContents: { info: msg.lock, packages: {} },
      stdout: (line) => console.log("[engine]", line),
      stderr: (line) => console.warn("[engine]", line),
    };
    const install = async () => {
      report("engine", true);
      unpack(await engineBytes);
      if (gameBytes) unpack(await gameBytes);
      times.unpacked = Math.round(performance.now() - t0);
      return py.runPython(`import sys\nif ${JSON.stringify(ENGINE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})\n` +
        "import engine.web\n" + (game ? `import engine.${game.module}\n` : "") + "engine.web.handle");
    };
    const found = await stored;
    const times = { imported, found: Math.round(performance.now() - t0) };
    if (found.response) {
      // Read and checked while Pyodide loads its scripts (it awaits the bytes only then),
      // through a thenable that lets go of them once taken (Pyodide keeps its options).
      let bytes = snapshotBytes(found.response, times, t0);
      bytes.catch(() => { /* handled where loadPyodide rejects with it */ });
      const once = { then: (resolve, reject) => { const b = bytes; bytes = null; return b.then(resolve, reject); } };
      try {
        py = await loadPyodide(Object.assign({ _loadSnapshot: once }, options));
        times.python = Math.round(performance.now() - t0);
        // The snapshot froze the random module's state: a fresh seed (the deals do not use it).
        py.runPython("import random\nrandom.seed()");
        handle = await install();
        snapshot.state = "restored";
      } catch (err) {
        // A damaged snapshot is deleted (and made again); one that fails to restore is never
        // tried again for this build. Either way Python starts as without one.
        const damaged = !!(err && err.damagedSnapshot);
        console.warn("[engine] the stored snapshot " + (damaged ? "is damaged" :
          "could not be restored (" + String(err && err.message || err).slice(0, 200) + ")") +
          "; starting without it");
        py = null;
        handle = null;
        snapshot.state = damaged ? "damaged" : "failed";
        await (damaged ? forgetSnapshot(msg) : markSnapshot(msg, "failed"));
      }
    } else {
      snapshot.state = found.state;
    }
    if (!handle) {
      py = await loadPyodide(options);
      times.python = Math.round(performance.now() - t0);
      if (failed) return;
      handle = await install();
    }
    if (game) gamesLoaded.add(game.archive);
    if (failed) return;
    clearTimeout(watchdog);
    snapshot.engine = await engineBytes;
    times.ready = Math.round(performance.now() - t0);
    if (progress.doneAt) times.downloaded = Math.round(progress.doneAt - t0);
    self.__bootTimes = times;  // for the benchmarks, which read it in the worker
    postMessage({ type: "ready", ms: performance.now() - t0, snapshot: snapshot.state, times });
    scheduleSnapshot();
  } catch (err) {
    clearTimeout(watchdog);
    fail("The Python runtime could not be started: " + (err && err.message ? err.message : err));
  }
}

// ---- the memory snapshot (Pyodide's private API: _loadSnapshot here, _makeSnapshot and
// makeMemorySnapshot in engine-snapshot.mjs)

/** Cache Storage's cache for the snapshot, and the snapshot recipe's version (part of the
 * key: change it when what the snapshot holds or how it is stored changes). */
const SNAPSHOT_CACHE = "cadogan-engine-snapshot";
const SNAPSHOT_FORMAT = "1";
/** Quiet time (no request) after which the snapshot is made. */
const SNAPSHOT_IDLE_MS = 3000;
/** Longest time the snapshot's worker may take. */
const SNAPSHOT_MAX_MS = 120000;
/** The snapshot is stored as its non-zero pages of this size (about a third of the heap). */
const SNAPSHOT_PAGE = 4096;

/** state: "none" (no snapshot yet: one is made once idle), "restored" (started from it),
 * "damaged" (a stored one failed its check: deleted, made again), "failed" (one failed to
 * restore or to be made for this build: never again), "off" (no Cache Storage or nested
 * workers), "making", "stored". */
const snapshot = { state: "none", timer: null, engine: null };

function snapshotKey(msg) {
  const q = new URLSearchParams({ format: SNAPSHOT_FORMAT, pyodide: msg.pyodide,
    stdlib: msg.stdlib, engine: msg.engine });
  return new URL("__engine-snapshot__?" + q, msg.root).href;
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** This build's stored snapshot: {response} to restore, else {state} ("none", "failed",
 * "off"). Never throws. */
async function findSnapshot(msg) {
  try {
    if (!self.caches || !self.Worker || !self.crypto || !crypto.subtle) return { state: "off" };
    const cache = await caches.open(SNAPSHOT_CACHE);
    const r = await cache.match(snapshotKey(msg));
    if (!r) return { state: "none" };
    if (r.headers.get("x-snapshot-failed")) return { state: "failed" };
    return { response: r };
  } catch (err) {
    console.warn("[engine] no snapshot: " + String(err && err.message || err).slice(0, 200));
    return { state: "off" };
  }
}

/** The heap stored in `response`, its SHA-256 checked, rebuilt from its pages (layout in
 * engine-snapshot.mjs); rejects with an error marked damagedSnapshot if anything is off. */
async function snapshotBytes(response, times, t0) {
  const damaged = (why) => Object.assign(new Error("damaged snapshot: " + why), { damagedSnapshot: true });
  const length = Number(response.headers.get("x-snapshot-length"));
  const digest = response.headers.get("x-snapshot-sha256");
  let body;
  try {
    body = await response.arrayBuffer();
  } catch (err) {
    throw damaged("unreadable");
  }
  times.read = Math.round(performance.now() - t0);
  if (!digest || hex(await crypto.subtle.digest("SHA-256", body)) !== digest) throw damaged("digest");
  times.checked = Math.round(performance.now() - t0);
  const n = body.byteLength >= 4 ? new Uint32Array(body, 0, 1)[0] : -1;
  const head = 4 * (1 + n);
  const data = head + ((SNAPSHOT_PAGE - (head % SNAPSHOT_PAGE)) % SNAPSHOT_PAGE);
  if (!(length > 0) || n < 0 || data + n * SNAPSHOT_PAGE !== body.byteLength) throw damaged("layout");
  const pages = new Uint32Array(body, 4, n);
  const src = new Uint8Array(body);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < n; i++) {
    const at = pages[i] * SNAPSHOT_PAGE;
    if (at >= length) throw damaged("layout");
    const size = Math.min(SNAPSHOT_PAGE, length - at);
    bytes.set(src.subarray(data + i * SNAPSHOT_PAGE, data + i * SNAPSHOT_PAGE + size), at);
  }
  times.rebuilt = Math.round(performance.now() - t0);
  return bytes;
}

async function forgetSnapshot(msg) {
  try {
    await (await caches.open(SNAPSHOT_CACHE)).delete(snapshotKey(msg));
  } catch (err) { /* tried again next time */ }
}

/** Replace this build's snapshot by a marker: it is not to be tried or made again. */
async function markSnapshot(msg, state) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    await cache.put(snapshotKey(msg), new Response("", { headers: { "x-snapshot-failed": state } }));
  } catch (err) { /* nothing stored: tried again next time */ }
}

/** Make the snapshot once the board has been idle SNAPSHOT_IDLE_MS (called again after
 * every request, which puts it off). */
function scheduleSnapshot() {
  if ((snapshot.state !== "none" && snapshot.state !== "damaged") || !handle) return;
  clearTimeout(snapshot.timer);
  snapshot.timer = setTimeout(makeSnapshot, SNAPSHOT_IDLE_MS);
}

function makeSnapshot() {
  if (helping.size) { scheduleSnapshot(); return; }
  const msg = bootMsg;
  const at = (path) => new URL(path, msg.root).href;
  let stdlib;
  try {
    const zip = py.runPython("import sys\nnext(p for p in sys.path if p.endswith('.zip'))");
    stdlib = py.FS.readFile(zip).buffer;
  } catch (err) {
    snapshot.state = "failed";
    return;
  }
  if (!wasmModule || !snapshot.engine) { snapshot.state = "failed"; return; }
  snapshot.state = "making";
  let worker;
  const timer = setTimeout(() => {
    // A snapshot this slow is not worth it here: given up for this visit, tried next time.
    if (worker) worker.terminate();
    snapshot.state = "off";
  }, SNAPSHOT_MAX_MS);
  const done = (r) => {
    clearTimeout(timer);
    if (snapshot.state !== "making") return;
    if (worker) worker.terminate();
    snapshot.state = r.ok ? "stored" : "failed";
    if (!r.ok) {
      console.warn("[engine] no snapshot made: " + r.message);
      markSnapshot(msg, "failed");
    }
    postMessage(Object.assign({ type: "snapshot" }, r));
  };
  try {
    worker = new Worker(new URL("engine-snapshot.mjs", import.meta.url),
                        { type: "module", name: "cadogan-snapshot" });
  } catch (err) {
    clearTimeout(timer);
    snapshot.state = "off";
    return;
  }
  worker.onmessage = (e) => done(e.data || { ok: false, message: "no answer" });
  worker.onerror = (e) => { e.preventDefault(); done({ ok: false, message: e.message || "worker error" }); };
  worker.postMessage({
    key: snapshotKey(msg), cache: SNAPSHOT_CACHE, indexURL: at(msg.pyodide),
    stdLibURL: at(msg.stdlib), lock: msg.lock, engineDir: ENGINE_DIR,
    module: wasmModule, stdlib, engine: snapshot.engine.slice(0),
  }, [stdlib]);
}

/** Another chapter's game (instant navigation): its modules, before its board's requests. */
async function loadGame(msg) {
  const game = msg.game;
  if (!game || gamesLoaded.has(game.archive) || !py) return;
  gamesLoaded.add(game.archive);
  try {
    unpack(await bytesOf(nativeFetch(new URL(game.archive, msg.root).href), "the game's archive"));
    // The path finders' caches, as importlib.invalidate_caches() would (which also needs
    // importlib.metadata, not in the compiled stdlib).
    py.runPython("import sys\nfor f in list(sys.path_importer_cache.values()):\n" +
      "    if hasattr(f, 'invalidate_caches'): f.invalidate_caches()\n" +
      `import engine.${game.module}`);
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
  scheduleSnapshot();
};

/** The boot message carried by the worker's address (see the top), or null. */
function bootInAddress(hash) {
  if (typeof hash !== "string" || !hash.startsWith("#boot=")) return null;
  try {
    const msg = JSON.parse(decodeURIComponent(hash.slice(6)));
    return msg && msg.type === "boot" && typeof msg.root === "string" ? msg : null;
  } catch (e) {
    return null;  // a garbled address: the posted boot message starts the engine instead
  }
}

const addressed = bootInAddress(self.location && self.location.hash);
if (addressed && !booting) booting = boot(addressed);
