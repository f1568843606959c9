// The solver in Pyodide under Node: node bench/pyodide_solver_bench.mjs ENGINE_ZIP BENCH_PY SECONDS POSITIONS
// Loads Pyodide from node_modules, installs the engine archive the site ships, runs
// bench/solver_bench.py's run() (nodes per second per game, and the hint's share of answers
// within a second on positions of random games) and prints its JSON.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [archive, benchPy, seconds = "2.0", positions = "20"] = process.argv.slice(2);
const py = await loadPyodide();
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
py.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: site });
py.FS.writeFile(site + "/solver_bench.py", readFileSync(benchPy, "utf8"));
const out = py.runPython(
  `import json, solver_bench; json.dumps(solver_bench.run(${Number(seconds)}, ${Number(positions)}))`);
console.log(out);
