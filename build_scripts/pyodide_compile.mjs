// Build step (run by pyodide_runtime.py): the precompiled runtime, made with Pyodide's own
// Python under Node.   node build_scripts/pyodide_compile.mjs ENGINE_PARENT OUT_DIR
//
// 1. A first interpreter imports the engine and plays every game through engine.web (as the
//    board's worker does, calls from JavaScript included) and lists the files of
//    python_stdlib.zip the modules then loaded came from (pyodide_compile.py).
// 2. A second, fresh interpreter compiles those files and the engine (ENGINE_PARENT/engine)
//    into OUT_DIR/stdlib.zip and OUT_DIR/engine/<group>.zip (the shared modules, one archive
//    per game), and writes OUT_DIR/manifest.json.
// 3. A third interpreter boots as the browser will, on OUT_DIR/stdlib.zip alone, unpacks the
//    engine's archives with unpackArchive as the worker does, and plays every game again: a
//    runtime that lacks a module fails the build here.
import { loadPyodide } from "pyodide";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [engineParent, outDir] = process.argv.slice(2);
if (!engineParent || !outDir) {
  console.error("usage: pyodide_compile.mjs ENGINE_PARENT OUT_DIR");
  process.exit(2);
}
const source = readFileSync(join(here, "pyodide_compile.py"), "utf8");
const quiet = { stdout: () => {}, stderr: (line) => process.stderr.write(line + "\n") };

function* pyFiles(dir) {
  for (const name of readdirSync(dir).sort()) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* pyFiles(p);
    else if (name.endsWith(".py")) yield p;
  }
}

/** Copy ENGINE_PARENT/engine into the interpreter's /build/src; returns that parent. */
function copyEngine(py) {
  const dest = "/build/src";
  for (const p of pyFiles(join(engineParent, "engine"))) {
    const to = join(dest, relative(engineParent, p));
    py.FS.mkdirTree(dirname(to));
    py.FS.writeFile(to, readFileSync(p));
  }
  return dest;
}

function load(py) {
  py.runPython(source, { globals: py.globals });
  return (name) => py.globals.get(name);
}

// 1. which files of the stdlib the engine needs, the engine arriving as in the worker (a zip
//    unpacked with unpackArchive)
const first = await loadPyodide(quiet);
const fn1 = load(first);
const zipped = fn1("source_zip")(copyEngine(first));
first.unpackArchive(zipped.toJs(), "zip", { extractDir: "/build/unpacked" });
zipped.destroy();
first.runPython("import sys; sys.path.insert(0, '/build/unpacked')");
fn1("exercise")("/build/unpacked");
const handle1 = first.runPython("import engine.web\nengine.web.handle");
handle1(JSON.stringify({ id: 1, op: "ping", board: "b" }));
try { first.runPython("raise ValueError('an error crossing into JavaScript')"); } catch (e) { /* expected */ }
const files = fn1("needed_files")();

// 2. compile them, and the engine, in a fresh interpreter
const second = await loadPyodide(quiet);
const fn2 = load(second);
const manifest = JSON.parse(fn2("build")(files, copyEngine(second), "/build/out"));
const archives = ["stdlib.zip", ...Object.keys(manifest.engine_groups).map((g) => `engine/${g}.zip`)];
mkdirSync(join(outDir, "engine"), { recursive: true });
for (const name of archives) writeFileSync(join(outDir, name), second.FS.readFile("/build/out/" + name));

// 3. boot on the compiled stdlib alone and unpack the engine, as the worker does; play every game
const lock = JSON.parse(readFileSync(join(here, "..", "node_modules", "pyodide", "pyodide-lock.json"), "utf8"));
const third = await loadPyodide({
  ...quiet,
  stdLibURL: join(outDir, "stdlib.zip"),
  lockFileContents: { info: lock.info, packages: {} },
});
for (const group of Object.keys(manifest.engine_groups)) {
  third.unpackArchive(new Uint8Array(readFileSync(join(outDir, "engine", group + ".zip"))), "zip",
                      { extractDir: manifest.engine_dir });
}
third.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(manifest.engine_dir)})\nimport engine.web`);
const fn3 = load(third);
fn3("exercise")(copyEngine(third));  // the sources, read only for the names they import
const origins = third.runPython(`
import sys, json
json.dumps(sorted({getattr(getattr(m, "__spec__", None), "origin", None) or "" for n, m in list(sys.modules.items()) if n == "engine" or n.startswith("engine.")}))
`);
for (const o of JSON.parse(origins)) {
  if (!(o.startsWith(manifest.engine_dir + "/") && o.endsWith(".pyc"))) {
    console.error(`the check imported the engine from ${o}, not from its compiled modules`);
    process.exit(1);
  }
}
manifest.pyodide = lock.info;
writeFileSync(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
console.log(JSON.stringify({ stdlib_files: manifest.stdlib_files.length, archives: archives.length }));
