// The solver in Pyodide under Node:
//   node bench/pyodide_solver_bench.mjs ENGINE_DIR BENCH_PY SECONDS POSITIONS [GAMES]
// Loads Pyodide from node_modules, writes the engine's sources (ENGINE_DIR, the `engine`
// package folder) into its file system, runs bench/solver_bench.py's run() (nodes per second
// per game, and the hint's share of answers within a second on positions of random games;
// GAMES: slugs joined by commas, all games when absent) and prints its JSON.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadPyodide } from "pyodide";

const [engineDir, benchPy, seconds = "2.0", positions = "20", games = ""] = process.argv.slice(2);
const py = await loadPyodide();
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
py.FS.mkdirTree(site + "/engine");
for (const name of readdirSync(engineDir)) {
  if (name.endsWith(".py")) {
    py.FS.writeFile(`${site}/engine/${name}`, readFileSync(join(engineDir, name), "utf8"));
  }
}
py.FS.writeFile(site + "/solver_bench.py", readFileSync(benchPy, "utf8"));
py.globals.set("GAMES", games);
const out = py.runPython(
  `import json, solver_bench
json.dumps(solver_bench.run(${Number(seconds)}, ${Number(positions)}, GAMES.split(",") if GAMES else None))`);
console.log(out);
