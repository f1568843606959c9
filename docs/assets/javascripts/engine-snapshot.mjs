// Makes the engine's memory snapshot, in a worker of its own (started by board-worker.mjs
// once its board has been ready and idle for a few seconds), so that the engine worker keeps
// answering moves meanwhile. A later visit restores Python from it instead of starting it.
//
// It boots a second Pyodide with the private option _makeSnapshot on the same files as the
// engine worker, all handed over by it (no request for them: the compiled WebAssembly
// module, the standard library's and the engine's bytes), imports the engine's shared
// modules (every module of the standard library the engine needs comes with them), takes
// pyodide.makeMemorySnapshot() and stores it in Cache Storage under the key it was given
// (the runtime's, stdlib's and engine's content-named files: a new build never restores an
// old snapshot). Most of the heap is zeros: what is stored is the number n of its non-zero
// pages of PAGE bytes and their indices (n + 1 unsigned 32-bit words, native order), then,
// from the next multiple of PAGE, those pages; the heap's length and the SHA-256 of what is
// stored are in the response's headers. Every other snapshot stored there is deleted.
//
// Message in:  {key, cache, indexURL, stdLibURL, lock, engineDir, module: WebAssembly.Module,
//               stdlib: ArrayBuffer, engine: ArrayBuffer}
// Message out: {ok: true, ms, bytes (the heap's), stored (bytes stored)} | {ok: false, message}

/** Serve the stdlib (and refuse the WebAssembly, compiled already) from what was handed. */
function install(msg) {
  const wasmUrl = msg.indexURL + "pyodide.asm.wasm";
  const nativeFetch = self.fetch.bind(self);
  self.fetch = (input, init) => {
    const url = typeof input === "string" ? input : (input && input.href) || (input && input.url);
    if (url === msg.stdLibURL) return Promise.resolve(new Response(msg.stdlib));
    if (url === wasmUrl) return Promise.resolve(new Response(new Uint8Array(0)));
    return nativeFetch(input, init);
  };
  // Pyodide instantiates the WebAssembly from its response: use the module handed over.
  WebAssembly.instantiateStreaming = async (_response, imports) =>
    ({ module: msg.module, instance: await WebAssembly.instantiate(msg.module, imports) });
}

/** The page of the stored layout (as board-worker.mjs reads it). */
const PAGE = 4096;

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function make(msg) {
  const t0 = performance.now();
  install(msg);
  const { loadPyodide } = await import(msg.indexURL + "pyodide.mjs");
  const py = await loadPyodide({
    indexURL: msg.indexURL,
    stdLibURL: msg.stdLibURL,
    lockFileContents: { info: msg.lock, packages: {} },
    _makeSnapshot: true,
  });
  py.unpackArchive(new Uint8Array(msg.engine), "zip", { extractDir: msg.engineDir });
  py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(msg.engineDir)})\nimport engine.web`);
  const snapshot = py.makeMemorySnapshot();
  // Most of the heap is zeros: only its non-zero pages are stored, after their indices.
  const pages = [];
  for (let at = 0; at < snapshot.length; at += PAGE) {
    const end = Math.min(at + PAGE, snapshot.length);
    for (let i = at; i < end; i++) {
      if (snapshot[i] !== 0) { pages.push(at / PAGE); break; }
    }
  }
  const head = 4 * (1 + pages.length);
  const data = head + ((PAGE - (head % PAGE)) % PAGE);
  const kept = new Uint8Array(data + pages.length * PAGE);
  new Uint32Array(kept.buffer, 0, 1 + pages.length).set([pages.length, ...pages]);
  pages.forEach((p, i) => kept.set(snapshot.subarray(p * PAGE, (p + 1) * PAGE), data + i * PAGE));
  const digest = hex(await crypto.subtle.digest("SHA-256", kept));
  const cache = await caches.open(msg.cache);
  await cache.put(msg.key, new Response(kept, { headers: {
    "content-type": "application/octet-stream",
    "x-snapshot-length": String(snapshot.length),
    "x-snapshot-sha256": digest,
  } }));
  for (const old of await cache.keys()) {
    if (old.url !== msg.key) await cache.delete(old);
  }
  return { ok: true, ms: Math.round(performance.now() - t0), bytes: snapshot.length, stored: kept.length };
}

self.onmessage = (event) => {
  make(event.data).then(
    (r) => postMessage(r),
    (err) => postMessage({ ok: false, message: String(err && err.message || err).slice(0, 300) }));
};
