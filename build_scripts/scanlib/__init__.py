"""Page scans of the 1914 printing: manifest, fetch, cleaning pipeline, cache and report.

Modules: `manifest` (scans/manifest), `fetch` (CLI: copy or download the scans, verified),
`cc` (connected components), `steps` (the cleaning steps), `pipeline` (runs the steps with a
cache and writes the outputs), `markup` (HTML for the mkdocs hook), `report` (CLI: per-page
measurements and outliers).
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
MANIFEST_PATH = REPO_ROOT / "scans" / "manifest"
SCANS_DIR = REPO_ROOT / "scans"
CACHE_DIR = REPO_ROOT / ".cache" / "scans"
