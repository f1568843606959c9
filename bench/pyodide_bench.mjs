// Engine speed in Pyodide under Node, in the runtime the site ships:
//   node bench/pyodide_bench.mjs RUNTIME_DIR BENCH_PY SECONDS
// (RUNTIME_DIR: the build's compiled runtime, pyodide_runtime.compiled().folder.) Boots a
// bare loadPyodide() (the distribution's .py standard library) and then the shipped runtime
// (compiled standard library, engine archives unpacked as the worker does), runs
// bench/engine_bench.py's run() in the latter and prints its JSON with both boot times.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadPyodide } from "pyodide";

const [runtimeDir, benchPy, seconds = "1.0"] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(join(runtimeDir, "manifest.json"), "utf8"));

let t0 = performance.now();
await loadPyodide();
const bareMs = performance.now() - t0;

t0 = performance.now();
const py = await loadPyodide({
  stdLibURL: join(runtimeDir, "stdlib.zip"),
  lockFileContents: { info: manifest.pyodide, packages: {} },
});
const bootMs = performance.now() - t0;
for (const group of Object.keys(manifest.engine_groups)) {
  py.unpackArchive(new Uint8Array(readFileSync(join(runtimeDir, "engine", group + ".zip"))), "zip",
                   { extractDir: manifest.engine_dir });
}
py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(manifest.engine_dir)})\nimport engine.web`);
const engineMs = performance.now() - t0;
py.FS.writeFile("/tmp/engine_bench.py", readFileSync(benchPy, "utf8"));
const out = py.runPython(`import sys, json\nsys.path.insert(0, "/tmp")\nimport engine_bench\njson.dumps(engine_bench.run(${Number(seconds)}))`);
console.log(JSON.stringify({ bare_boot_ms: Math.round(bareMs), boot_ms: Math.round(bootMs),
  boot_and_engine_ms: Math.round(engineMs), games: JSON.parse(out) }));
