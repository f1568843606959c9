// Engine speed in Pyodide under Node: node bench/pyodide_bench.mjs ENGINE_ZIP BENCH_PY SECONDS
// Loads Pyodide from node_modules, installs the engine archive the site ships, runs
// bench/engine_bench.py's run() and prints its JSON (plus the boot time).
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [archive, benchPy, seconds = "1.0"] = process.argv.slice(2);
const t0 = performance.now();
const py = await loadPyodide();
const bootMs = performance.now() - t0;
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
py.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: site });
py.FS.writeFile(site + "/engine_bench.py", readFileSync(benchPy, "utf8"));
const out = py.runPython(`import json, engine_bench; json.dumps(engine_bench.run(${Number(seconds)}))`);
console.log(JSON.stringify({ boot_ms: Math.round(bootMs), games: JSON.parse(out) }));
