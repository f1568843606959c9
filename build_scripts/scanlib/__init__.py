"""Page scans of the 1914 printing: manifest, fetch, cleaning pipeline, cache and report.

Modules: `manifest` (scans/manifest), `fetch` (CLI: copy or download the scans, verified),
`cc` (connected components), `steps` (the cleaning steps), `pipeline` (runs the steps with a
cache and writes the outputs), `markup` (HTML for the mkdocs hook), `report` (CLI: per-page
measurements and outliers).

Where the scans and the cache are: `scans/` and `.cache/scans/` in the repository, unless the
environment names other folders (`CADOGAN_SCANS_DIR`, `CADOGAN_SCANS_CACHE`; a relative path is
taken from the current directory). Tests use them to build without scans. The manifest always
comes from the repository (`scans/manifest`).
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
MANIFEST_PATH = REPO_ROOT / "scans" / "manifest"
SCANS_DIR = REPO_ROOT / "scans"  # the default folder of the scans
CACHE_DIR = REPO_ROOT / ".cache" / "scans"  # the default cache
SCANS_ENV = "CADOGAN_SCANS_DIR"
CACHE_ENV = "CADOGAN_SCANS_CACHE"


def _from_env(name: str, default: Path) -> Path:
    value = os.environ.get(name, "").strip()
    return Path(value).expanduser().resolve() if value else default


def scans_dir() -> Path:
    """The folder holding the page scans: `$CADOGAN_SCANS_DIR`, else `scans/`."""
    return _from_env(SCANS_ENV, SCANS_DIR)


def cache_dir() -> Path:
    """The cache of cleaned pages: `$CADOGAN_SCANS_CACHE`, else `.cache/scans/`."""
    return _from_env(CACHE_ENV, CACHE_DIR)
