// The edition's engine worker: one per tab, shared by every board, kept across Material's
// instant navigation. It boots Pyodide from the site's own copy, installs the engine archive
// with unpackArchive, and answers the boards' JSON requests with engine.web.handle.
//
// Messages in:  {type: "boot", pyodide: <URL of the runtime folder>, archive: <URL of the zip>}
//               {type: "request", text: <JSON request>}
// Messages out: {type: "ready", ms}  {type: "failed", message}  {type: "response", text}
//
// Help requests (op "help": a hint, or "can this deal still be won?") run the solver in
// slices of about HELP_SLICE_MS, yielding to the event loop between slices, so that other
// requests (a move, op "help_cancel") are answered while it searches; the answer comes as
// the help request's response (with `help.cancelled` when it was cancelled or overtaken).

const BOOT_TIMEOUT_MS = 90000;
const HELP_SLICE_MS = 40;

/** The help search running for each board: a token, replaced to stop it. */
const helping = new Map();
let helpTokens = 0;

let handle = null;
let booting = null;
let failed = null;

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

async function boot({ pyodide: base, archive }) {
  const t0 = performance.now();
  const watchdog = setTimeout(
    () => fail(`The Python runtime did not start within ${BOOT_TIMEOUT_MS / 1000} seconds.`),
    BOOT_TIMEOUT_MS);
  try {
    const [{ loadPyodide }, archiveBytes] = await Promise.all([
      import(base + "pyodide.mjs"),
      fetch(archive).then((r) => {
        if (!r.ok) throw new Error(`the engine archive answered ${r.status}`);
        return r.arrayBuffer();
      }),
    ]);
    const py = await loadPyodide({
      indexURL: base,
      stdout: (line) => console.log("[engine]", line),
      stderr: (line) => console.warn("[engine]", line),
    });
    if (failed) return;
    const sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
    py.unpackArchive(new Uint8Array(archiveBytes), "zip", { extractDir: sitePackages });
    handle = py.runPython("import engine.web\nengine.web.handle");
    clearTimeout(watchdog);
    postMessage({ type: "ready", ms: performance.now() - t0 });
  } catch (err) {
    clearTimeout(watchdog);
    fail("The Python runtime could not be started: " + (err && err.message ? err.message : err));
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
