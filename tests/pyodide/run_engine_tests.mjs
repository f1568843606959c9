// The engine in the runtime the site ships, under Node: Pyodide booted on the compiled
// standard library the build made (stdLibURL, lockFileContents: as the board's worker does),
// the engine's compiled archives unpacked with unpackArchive into the worker's folder.
// Usage: node tests/pyodide/run_engine_tests.mjs RUNTIME_DIR WHEEL_DIR [pytest args...]
// (RUNTIME_DIR: the compile step's output, pyodide_runtime.compiled().folder.)
//
// 1. With that runtime alone, every module the engine's sources import (at any depth) is
//    imported and every game is played through engine.web: a module the compiled stdlib
//    lacks fails here ("IMPORTS OK" is printed when it does not).
// 2. Then the engine's test suite runs there with pytest. Pytest and hypothesis need more of
//    the standard library than the engine: the distribution's python_stdlib.zip comes last on
//    sys.path for them, and a watch on imports reports every module taken from it on behalf
//    of the engine (an engine frame on the stack before any of the tests' own): the line
//    "ENGINE NEEDED <modules>" and exit code 3 when there is one.
// Prints pytest's output, then "FINGERPRINT <sha256>" (the first deals of every game, to
// compare with CPython), and exits with pytest's return code otherwise.
import { loadPyodide } from "pyodide";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const [runtimeDir, wheelDir, ...pytestArgs] = process.argv.slice(2);
if (!runtimeDir || !wheelDir) {
  console.error("usage: run_engine_tests.mjs RUNTIME_DIR WHEEL_DIR [pytest args]");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(runtimeDir, "manifest.json"), "utf8"));

function* files(dir, ext = ".py") {
  for (const name of readdirSync(dir).sort()) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p, ext);
    else if (name.endsWith(ext)) yield p;
  }
}

function copyTree(py, from, to) {
  for (const p of files(from)) {
    const dest = join(to, relative(from, p));
    py.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
    py.FS.writeFile(dest, readFileSync(p));
  }
}

const py = await loadPyodide({
  stdLibURL: join(runtimeDir, "stdlib.zip"),
  lockFileContents: { info: manifest.pyodide, packages: {} },
});
const decoder = new TextDecoder();
const writer = (stream) => ({ write: (buf) => { stream.write(decoder.decode(buf)); return buf.length; } });
py.setStdout(writer(process.stdout));
py.setStderr(writer(process.stderr));

// The engine as the worker installs it.
for (const group of Object.keys(manifest.engine_groups)) {
  py.unpackArchive(new Uint8Array(readFileSync(join(runtimeDir, "engine", group + ".zip"))), "zip",
                   { extractDir: manifest.engine_dir });
}
py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(manifest.engine_dir)})`);

// 1. The shipped runtime alone: every module the engine names, every game played.
copyTree(py, join(root, "engine"), "/build/src/engine");  // read for the names it imports, never imported
py.runPython(readFileSync(join(root, "build_scripts", "pyodide_compile.py"), "utf8"), { globals: py.globals });
const declared = JSON.parse(py.globals.get("exercise")("/build/src"));
py.runPython(`
import sys
wrong = sorted(n for n, m in list(sys.modules.items())
               if (n == "engine" or n.startswith("engine."))
               and not (getattr(m.__spec__, "origin", "") or "").startswith(${JSON.stringify(manifest.engine_dir + "/engine/")}))
if wrong:
    raise SystemExit(f"engine modules not from the compiled archives: {wrong}")
`);
console.log("IMPORTS OK", declared.length, "modules named by the engine, every game played");

// 2. The test suite, with the full standard library behind the shipped one for pytest's sake.
const testPackages = "/lib/test-only-packages";  // pytest, hypothesis and theirs
for (const name of readdirSync(wheelDir).filter((n) => n.endsWith(".whl")).sort()) {
  py.unpackArchive(new Uint8Array(readFileSync(join(wheelDir, name))), "wheel",
                   { extractDir: testPackages });
}
const extra = "/lib/test-only-stdlib.zip";
py.FS.writeFile(extra, readFileSync(join(root, "node_modules", "pyodide", "python_stdlib.zip")));
const work = "/home/pyodide/project";
copyTree(py, join(root, "tests", "engine"), join(work, "tests", "engine"));
py.FS.writeFile(join(work, "tests/__init__.py"), "");
const code = await py.runPythonAsync(`
import os, sys, zipimport
from importlib.machinery import PathFinder

EXTRA = ${JSON.stringify(extra)}
SHIPPED = ${JSON.stringify(manifest.stdlib_zip + "/")}
ENGINE = ${JSON.stringify(manifest.engine_dir + "/engine/")}
needed_by_engine = {}


class TestOnlyStdlib:
    """Finds in the full standard library (last on sys.path, and inside packages the shipped
    one holds only in part) what the shipped one lacks, and notes who asked for it."""

    def find_spec(self, name, path, target=None):
        spec = PathFinder.find_spec(name, path)
        if spec is None and "." in name:
            parent = name.rpartition(".")[0]
            try:
                spec = zipimport.zipimporter(EXTRA + "/" + parent.replace(".", "/") + "/").find_spec(name)
            except zipimport.ZipImportError:
                spec = None
        if spec is not None and (spec.origin or "").startswith(EXTRA):
            f = sys._getframe(1)
            while f is not None:
                fn = f.f_code.co_filename
                if fn.startswith(ENGINE):
                    needed_by_engine.setdefault(name, f"{fn}:{f.f_lineno}")
                    break
                if not (fn.startswith(SHIPPED) or fn.startswith("<frozen")):
                    break  # the tests' side: pytest, hypothesis, the tests themselves
                f = f.f_back
        return spec


sys.path.append(${JSON.stringify(testPackages)})
sys.path.append(EXTRA)
sys.meta_path.insert(0, TestOnlyStdlib())
os.chdir(${JSON.stringify(work)})
sys.path.insert(0, ${JSON.stringify(work)})
import platform
print("Python", platform.python_version(), "on", sys.platform)
import pytest
rc = pytest.main(["-p", "no:cacheprovider", "-q", "tests/engine", *${JSON.stringify(pytestArgs)}])
from tests.engine.test_core import deal_fingerprint
print("FINGERPRINT", deal_fingerprint())
import engine
assert engine.__file__.startswith(${JSON.stringify(manifest.engine_dir)}), engine.__file__
# The watch itself: code of the engine's folder importing what only the full library has.
exec(compile("import tomllib", ENGINE + "probe.py", "exec"), {})
assert "tomllib" in needed_by_engine, needed_by_engine
del needed_by_engine["tomllib"]
print("WATCH OK")
if needed_by_engine:
    print("ENGINE NEEDED", " ".join(f"{n} ({w})" for n, w in sorted(needed_by_engine.items())))
    rc = 3
int(rc)
`);
process.exit(code);
