"""The edition's benchmark (`make bench`): prints one JSON object.

- ``engine``: cycles of legal_moves + play + undo per second, per game, in CPython and in
  Pyodide under Node (the runtime the site ships: compiled stdlib and engine archives), with
  the boot times of a bare ``loadPyodide()`` and of that runtime under Node;
- ``browser``: the boards in headless Chromium (bench/browser_bench.py): playable (first
  move accepted) cold, warm and hot, and warm restored from the engine's memory snapshot,
  beside a bare ``loadPyodide()`` in the same browser, and the ratios; bytes by kind
  (runtime, stdlib, engine, site, chapter), cold and warm; long tasks and pick-up times on
  the Empress at a 4x CPU slowdown; every chapter once;
- ``scans``: bench/scans_bench.py's numbers, when that file is present;
- ``verdicts``: per game, how fast and how often ``outcome_of`` judges the positions of
  random games (bench/verdict_bench.py);
- ``solver``: per game, the solver's positions expanded per second in CPython and in Pyodide
  under Node, and the share of positions of random games on which the hint answers (a
  winning line or a proof of loss) within one second in Pyodide (bench/solver_bench.py;
  ``python bench/solver_bench.py solved 20`` gives the share of deals decided within 200,000
  positions, too slow for every run);
- ``odds``: the time of the whole default odds sweep on this machine, from the records of
  ``make odds`` (bench/odds_bench.py).

Options: ``--quick`` (one browser repeat, shorter engine runs, fewer positions judged),
``--only engine,browser``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
for p in (str(ROOT), str(BENCH)):
    if p not in sys.path:
        sys.path.insert(0, p)

import engine_bench
import odds_bench
import solver_bench
import verdict_bench

from build_scripts import pyodide_runtime


def pyodide_engine(seconds: float) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        return {"skipped": "needs node and node_modules/pyodide (npm ci)"}
    runtime = pyodide_runtime.compiled().folder
    r = subprocess.run([node, str(BENCH / "pyodide_bench.mjs"), str(runtime),
                        str(BENCH / "engine_bench.py"), str(seconds)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    if r.returncode != 0:
        return {"error": r.stderr.strip()[-2000:]}
    return dict(json.loads(r.stdout.strip().splitlines()[-1]))


def engine_section(seconds: float) -> dict[str, Any]:
    cpython = engine_bench.run(seconds)
    pyo = pyodide_engine(seconds)
    out: dict[str, Any] = {
        "cpython": {k: v["per_second"] for k, v in cpython.items()},
        "pyodide_node": ({k: v["per_second"] for k, v in pyo["games"].items()}
                         if "games" in pyo else pyo),
        "unit": "cycles of legal_moves + play + undo per second",
    }
    for key in ("bare_boot_ms", "boot_ms", "boot_and_engine_ms"):
        if key in pyo:
            out[f"pyodide_node_{key}"] = pyo[key]
    return out


def solver_section(seconds: float, positions: int) -> dict[str, Any]:
    """bench/solver_bench.py's measure(): every game, in CPython and in Pyodide under Node."""
    res = solver_bench.measure(seconds, positions)
    games = res["games"]
    out: dict[str, Any] = {
        "cpython_nodes_per_second": {k: v["cpython_nodes_per_s"] for k, v in games.items()},
        "unit": "positions expanded per second; hint: share of positions of random games "
                "answered (won or lost) within 1 s in Pyodide",
    }
    if "pyodide" in res:
        out["pyodide_node"] = res["pyodide"]
    else:
        out["pyodide_nodes_per_second"] = {k: v["pyodide_nodes_per_s"] for k, v in games.items()}
        out["hint_within_1s_pyodide"] = {k: v["pyodide_hint_answered"]
                                         for k, v in games.items()}
        out["hint_detail_pyodide"] = {k: v["pyodide_hint"] for k, v in games.items()}
    out["hint_within_1s_cpython"] = {k: v["cpython_hint_answered"] for k, v in games.items()}
    out["hint_short_of_90_percent"] = res["short_of_goal"]
    out["hint_short_judged_by"] = res["short_of_goal_by"]
    return out


def scans_section() -> dict[str, Any] | None:
    if not (BENCH / "scans_bench.py").is_file():
        return None
    try:
        mod = importlib.import_module("scans_bench")
        return dict(mod.run())
    except Exception as e:  # noqa: BLE001 - the scans benchmark is another part's: report, do not fail
        return {"error": f"{type(e).__name__}: {e}"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Benchmark the edition; prints JSON.")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="engine,browser,scans,verdicts,solver,odds")
    args = ap.parse_args(argv)
    parts = set(args.only.split(","))
    t0 = time.time()
    out: dict[str, Any] = {"machine": {"python": platform.python_version(),
                                       "cpus": __import__("os").cpu_count()}}
    if "engine" in parts:
        out["engine"] = engine_section(0.5 if args.quick else 2.0)
    if "browser" in parts:
        import browser_bench
        out["browser"] = browser_bench.run(1 if args.quick else 3, every_chapter=not args.quick)
    if "scans" in parts:
        s = scans_section()
        if s is not None:
            out["scans"] = s
    if "verdicts" in parts:
        out["verdicts"] = verdict_bench.run(300 if args.quick else 2000)
    if "solver" in parts:
        out["solver"] = solver_section(0.5 if args.quick else 2.0, 6 if args.quick else 20)
    if "odds" in parts:
        out["odds"] = odds_bench.run()
    out["seconds"] = round(time.time() - t0, 1)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
