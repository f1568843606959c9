"""Where the site tests find the built site: ``$CADOGAN_TEST_SITE``, else ``site/`` (what
``make build`` / ``make test`` writes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def built_site() -> Path:
    site = Path(os.environ.get("CADOGAN_TEST_SITE") or ROOT / "site")
    if not (site / "index.html").exists():
        pytest.fail(f"no built site at {site}: run `make build` (or `python -m mkdocs build "
                    "--strict`) first, or set CADOGAN_TEST_SITE")
    return site


def pages(site: Path) -> list[Path]:
    """The HTML pages of the site (not the runtime files under assets/)."""
    return sorted(p for p in site.rglob("*.html")
                  if "assets" not in p.relative_to(site).parts)
