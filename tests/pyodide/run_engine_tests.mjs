// Runs the engine's test suite inside real Pyodide (Python 3.14) under Node.
// Usage: node tests/pyodide/run_engine_tests.mjs WHEEL_DIR [pytest args...]
// Prints pytest's output, then one line "FINGERPRINT <sha256>" (the first deals of every
// game, to compare with CPython), and exits with pytest's return code.
import { loadPyodide } from "pyodide";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const [wheelDir, ...pytestArgs] = process.argv.slice(2);
if (!wheelDir) {
  console.error("usage: run_engine_tests.mjs WHEEL_DIR [pytest args]");
  process.exit(2);
}

function* files(dir) {
  for (const name of readdirSync(dir).sort()) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (name.endsWith(".py")) yield p;
  }
}

const py = await loadPyodide();
const decoder = new TextDecoder();
const writer = (stream) => ({ write: (buf) => { stream.write(decoder.decode(buf)); return buf.length; } });
py.setStdout(writer(process.stdout));
py.setStderr(writer(process.stderr));
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
for (const name of readdirSync(wheelDir).filter((n) => n.endsWith(".whl")).sort()) {
  py.unpackArchive(new Uint8Array(readFileSync(join(wheelDir, name))), "wheel",
                   { extractDir: site });
}
const work = "/home/pyodide/project";
for (const top of ["engine", "tests/engine"]) {
  for (const p of files(join(root, top))) {
    const dest = join(work, relative(root, p));
    py.FS.mkdirTree(dest.slice(0, dest.lastIndexOf("/")));
    py.FS.writeFile(dest, readFileSync(p));
  }
}
py.FS.writeFile(join(work, "tests/__init__.py"), "");
const code = await py.runPythonAsync(`
import os, sys, platform
os.chdir(${JSON.stringify(work)})
sys.path.insert(0, ${JSON.stringify(work)})
print("Python", platform.python_version(), "on", sys.platform)
import pytest
rc = pytest.main(["-p", "no:cacheprovider", "-q", "tests/engine", *${JSON.stringify(pytestArgs)}])
from tests.engine.test_core import deal_fingerprint
print("FINGERPRINT", deal_fingerprint())
int(rc)
`);
process.exit(code);
