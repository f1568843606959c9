"""Benchmark of the scan pipeline: the whole set cold (empty cache) and warm, and plate sizes.

    .venv/bin/python bench/scans_bench.py

Prints one JSON object. `run()` returns it, for an aggregator. Targets (issue 4): cold under
30 s on two cores, warm under 1 s, each plate at 1x under 80 KB.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from build_scripts.scanlib import MANIFEST_PATH, scans_dir
from build_scripts.scanlib.fetch import verified
from build_scripts.scanlib.manifest import load
from build_scripts.scanlib.pipeline import run as run_pipeline


def _scans_folder() -> Path | None:
    manifest = load(MANIFEST_PATH)
    for folder in (scans_dir(), (ROOT / ".." / "shared" / "scans").resolve()):
        if all(verified(folder / p.file, p) for p in manifest.pages if p.is_processed):
            return folder
    return None


def run() -> dict[str, Any]:
    manifest = load(MANIFEST_PATH)
    folder = _scans_folder()
    if folder is None:
        return {"name": "scans", "skipped": "no verified scans in scans/ or ../shared/scans"}
    with tempfile.TemporaryDirectory(prefix="scans-bench-") as tmp:
        cache = Path(tmp)
        t0 = time.perf_counter()
        cold = run_pipeline(manifest, folder, cache)
        t1 = time.perf_counter()
        warm = run_pipeline(manifest, folder, cache)
        t2 = time.perf_counter()
    plates = {p.entry.chapter: {"webp": p.files["plate-1x.webp"]["bytes"],
                                "png": p.files["plate-1x.png"]["bytes"]}
              for p in cold.pages.values() if "plate-1x.webp" in p.files}
    return {
        "name": "scans",
        "pages": len(cold.pages),
        "cold_s": round(t1 - t0, 3),
        "warm_s": round(t2 - t1, 3),
        "warm_steps_run": warm.steps_run,
        "plate_1x_bytes": plates,
        "targets": {"cold_s": 30, "warm_s": 1, "plate_1x_bytes": 80_000},
        "ok": (t1 - t0) < 30 and (t2 - t1) < 1 and warm.steps_run == 0
        and all(max(v.values()) < 80_000 for v in plates.values()),
    }


if __name__ == "__main__":
    print(json.dumps(run()))
