"""The engine's tests, run again inside real Pyodide (Python 3.14) under Node, in the runtime
the site ships (the compiled standard library and engine archives of the build), and the
same deals checked to come out identical in CPython and in Pyodide; first, in that runtime
alone, every module the engine imports is imported and every game played, so that a module
the compiled standard library lacks fails here, not in a reader's browser."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from build_scripts import pyodide_runtime
from tests.engine.test_core import deal_fingerprint

ROOT = Path(__file__).resolve().parents[2]
WHEELS = ROOT / ".cache" / "pyodide-wheels"
RUNNER = ROOT / "tests" / "pyodide" / "run_engine_tests.mjs"
# Pure-Python wheels the test run needs inside Pyodide.
NEEDED = ("pytest", "hypothesis")

pytestmark = pytest.mark.pyodide


def _wheels() -> Path:
    have = {p.name.split("-")[0].lower() for p in WHEELS.glob("*.whl")}
    if not all(n in have for n in NEEDED):
        WHEELS.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:",
             "--python-version", "3.14", "--platform", "any", "--implementation", "py",
             "-d", str(WHEELS), *NEEDED],
            check=True)
    return WHEELS


@pytest.fixture(scope="module")
def pyodide_run() -> subprocess.CompletedProcess[str]:
    if shutil.which("node") is None:
        pytest.fail("node is not installed: the engine must be tested in Pyodide")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        pytest.fail("node_modules/pyodide is missing: run `npm ci`")
    runtime = pyodide_runtime.compiled().folder  # the bytes the site ships
    # The whole engine suite in Pyodide took about 15 minutes on the 2-core build machine
    # (stop 22): the limit leaves room for a slower CI machine.
    return subprocess.run(["node", str(RUNNER), str(runtime), str(_wheels())], cwd=ROOT,
                          capture_output=True, text=True, timeout=2400)


def test_the_shipped_runtime_imports_everything_the_engine_needs(
        pyodide_run: subprocess.CompletedProcess[str]) -> None:
    out = pyodide_run.stdout + pyodide_run.stderr
    assert "IMPORTS OK" in pyodide_run.stdout, out[-4000:]
    assert "WATCH OK" in pyodide_run.stdout, out[-4000:]  # the watch sees the engine's imports
    needed = [ln for ln in pyodide_run.stdout.splitlines() if ln.startswith("ENGINE NEEDED")]
    assert not needed, ("the engine imported modules the shipped runtime lacks (add them to "
                        f"what build_scripts/pyodide_compile.py exercises): {needed}")


def test_engine_suite_passes_in_pyodide(pyodide_run: subprocess.CompletedProcess[str]) -> None:
    out = pyodide_run.stdout + pyodide_run.stderr
    assert pyodide_run.returncode == 0, out[-4000:]
    assert "Python 3.14" in out, "the run was not in Pyodide's Python 3.14"
    assert " passed" in out and " failed" not in out, out[-2000:]


def test_same_deals_in_cpython_and_pyodide(pyodide_run: subprocess.CompletedProcess[str]
                                           ) -> None:
    lines = [ln for ln in pyodide_run.stdout.splitlines() if ln.startswith("FINGERPRINT ")]
    assert lines, pyodide_run.stdout[-2000:]
    assert lines[-1].split()[1] == deal_fingerprint()
