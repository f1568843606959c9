"""`make scans-report`: per page, what the cleaning found, and pages that stand out.

    python -m build_scripts.scanlib.report [--json]

For every plate and text page: skew found (and whether it was applied), crop box, specks and
dust removed, gutter columns and edge marks cleared, size of the 1x plate. A page is flagged for a
human to look at when the skew was unsure or at the search limit, no plate or caption was found,
or one of its measures lies far from the other pages' (robust z-score over 3.5, using the median
and the median absolute deviation).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from . import MANIFEST_PATH, cache_dir, scans_dir
from .manifest import load
from .pipeline import PageOutput, run

# Measure -> the smallest spread taken as normal (so that pages do not stand out by a hair when
# most pages measure the same, e.g. a skew of 0).
MEASURES = {"abs_skew": 0.25, "specks": 40.0, "gutter_pixels": 20_000.0,
            "edge_pixels": 10_000.0, "ink_ratio": 0.03}
Z_LIMIT = 3.5


def row(page: PageOutput) -> dict[str, Any]:
    i = page.info
    return {
        "file": page.entry.file,
        "role": page.entry.role,
        "chapter": page.entry.chapter,
        "skew": i.get("skew", 0.0),
        "skew_estimate": i.get("skew_estimate"),
        "skew_sure": i.get("skew_sure", False),
        "crop_box": i.get("crop_box") or i.get("page_box"),
        "caption_box": i.get("caption_box"),
        "specks": i.get("specks", 0),
        "dust": i.get("dust", 0),
        "gutter": [i.get("gutter_left", 0), i.get("gutter_right", 0)],
        "gutter_pixels": i.get("gutter_pixels", 0),
        "edge_pixels": i.get("edge_pixels", 0),
        "abs_skew": abs(i.get("skew_estimate") or 0.0),
        "ink_ratio": round(i.get("ink_out", 0) / max(1, i.get("ink_in", 1)), 4),
        "plate_1x_bytes": page.files.get("plate-1x.webp", {}).get("bytes"),
    }


def robust_z(values: list[float], floor: float) -> list[float]:
    """(value - median) / spread, the spread being 1.4826 MAD but at least `floor`."""
    a = np.asarray(values, dtype=np.float64)
    med = float(np.median(a))
    spread = max(1.4826 * float(np.median(np.abs(a - med))), floor)
    return [(v - med) / spread for v in a.tolist()]


def flag(rows: list[dict[str, Any]]) -> None:
    """Add a `flags` list to every row."""
    for r in rows:
        r["flags"] = []
        if not r["skew_sure"]:
            r["flags"].append("skew unsure: not rotated")
        if r["role"] == "plate" and not r.get("crop_box"):
            r["flags"].append("no plate found")
        if r["role"] == "plate" and r["chapter"] != "title-page" and not r.get("caption_box"):
            r["flags"].append("no caption found")
    for m, floor in MEASURES.items():
        zs = robust_z([float(r[m]) for r in rows], floor)
        for r, z in zip(rows, zs):
            if abs(z) > Z_LIMIT:
                r["flags"].append(f"{m} stands out ({r[m]})")


def table(rows: list[dict[str, Any]]) -> str:
    head = f"{'page':<9}{'role':<6}{'skew':>7} {'sure':<5}{'crop box (l, t, r, b)':<26}" \
           f"{'specks':>7}{'dust':>6}{'gutter':>10}{'1x bytes':>10}  flags"
    lines = [head, "-" * len(head)]
    for r in rows:
        box = ", ".join(str(v) for v in r["crop_box"]) if r["crop_box"] else "-"
        gut = f"{r['gutter'][0]}/{r['gutter'][1]}"
        size = str(r["plate_1x_bytes"]) if r["plate_1x_bytes"] else "-"
        lines.append(f"{r['file']:<9}{r['role']:<6}{r['skew']:>7.2f} {r['skew_sure']!s:<5}"
                     f"{box:<26}{r['specks']:>7}{r['dust']:>6}{gut:>10}{size:>10}  {'; '.join(r['flags'])}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Per-page report of the scan cleaning.")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    folder = scans_dir()
    result = run(load(MANIFEST_PATH), folder, cache_dir())
    if not result.pages:
        print(f"scans-report: no scans in {folder} (run `make scans`).", file=sys.stderr)
        return 1
    rows = [row(p) for p in result.pages.values()]
    flag(rows)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(table(rows))
        flagged = [r["file"] for r in rows if r["flags"]]
        print(f"\n{len(rows)} pages; {len(flagged)} flagged for a look: {', '.join(flagged) or 'none'}")
        if result.missing or result.invalid:
            print(f"missing: {', '.join(result.missing) or '-'}; wrong checksum: "
                  f"{', '.join(result.invalid) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
