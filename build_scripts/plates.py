"""mkdocs hook: the 1914 plates, cleaned from the page scans, and the facsimile pages.

- `<div class="cadogan-plate" data-chapter="SLUG"></div>` becomes a `<figure>` of the cleaned
  plate (WebP with PNG fallback, 1x/2x, alt text and caption from scans/manifest, a link to the
  full-resolution plate), or a visible note when the scans are absent.
- `<div class="transcription" data-chapter="SLUG" data-pages="35 36" markdown>` gets a switch
  (transcription / facsimile / side by side) and a facsimile pane of the chapter's pages; each
  `<span class="pb" data-page="35"></span>` inside becomes a link "[p. 35]" (label and anchor
  from the `page-number` convention of conventions.toml) to its page, or, when the scans are
  absent, to the pane's note saying so.

The scans are read from `scans/` (or `$CADOGAN_SCANS_DIR`); the images come from
`build_scripts.scanlib.pipeline` (cached in `.cache/scans/`, or `$CADOGAN_SCANS_CACHE`) and are
written to `assets/plates/SLUG/` and `assets/facsimile/` after the build. Missing scans are
reported once per build on the `cadogan.scans` logger, which does not fail
`mkdocs build --strict`.
"""

from __future__ import annotations

import logging
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mkdocs.utils import get_relative_url

from build_scripts.scanlib import MANIFEST_PATH, REPO_ROOT, cache_dir, scans_dir
from build_scripts.scanlib.manifest import Manifest, load
from build_scripts.scanlib.markup import (
    PAGE_FILES,
    PLATE_FILES,
    PageMarker,
    SiteScans,
    Sizes,
    load_page_marker,
    page_path,
    plate_path,
    transform,
)
from build_scripts.scanlib.pipeline import RunResult, run

log = logging.getLogger("cadogan.scans")
if not log.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("WARNING -  [cadogan.scans] %(message)s"))
    log.addHandler(_handler)
    log.propagate = False

_state: dict[str, Any] = {"manifest": None, "result": None, "marker": None}


def _sizes(result: RunResult) -> dict[str, Sizes]:
    return {name: Sizes({f: (v["width"], v["height"]) for f, v in page.files.items()})
            for name, page in result.pages.items()}


def _shown(folder: Path) -> str:
    """A folder as the warning names it: relative to the repository when inside it."""
    try:
        return folder.relative_to(REPO_ROOT).as_posix() + "/"
    except ValueError:
        return str(folder)


def on_pre_build(config: Any) -> None:
    manifest = load(MANIFEST_PATH)
    started = time.perf_counter()
    folder = scans_dir()
    result = run(manifest, folder, cache_dir())
    _state["manifest"], _state["result"] = manifest, result
    _state["marker"] = load_page_marker()  # read each build: `mkdocs serve` sees edits
    if result.invalid:
        log.warning("%d scan(s) in %s do not match scans/manifest (%s): run `make scans` "
                    "to fetch them again; their plates and facsimiles are left out.",
                    len(result.invalid), _shown(folder), ", ".join(result.invalid[:4]))
    elif result.missing and not result.pages:
        log.warning("page scans absent (%d of %d missing in %s): the site shows the drawn "
                    "diagrams only, and notes where the plates and facsimiles would be. Run "
                    "`make scans` to get them.", len(result.missing), len(result.missing),
                    _shown(folder))
    elif result.missing:
        log.warning("%d of %d page scans missing in %s (%s): their plates and facsimiles are "
                    "left out. Run `make scans` to get them.", len(result.missing),
                    len(result.missing) + len(result.pages), _shown(folder),
                    ", ".join(result.missing[:4]))
    logging.getLogger("cadogan.scans.timing").debug(
        "scans: %d pages in %.2f s (%d steps run)", len(result.pages),
        time.perf_counter() - started, result.steps_run)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    if "cadogan-plate" not in html and 'class="transcription"' not in html:
        return html
    manifest: Manifest | None = _state["manifest"]
    result: RunResult | None = _state["result"]
    if manifest is None or result is None:
        on_pre_build(config)
        manifest, result = _state["manifest"], _state["result"]
    marker: PageMarker = _state["marker"]
    assert manifest is not None and result is not None
    scans = SiteScans(manifest, _sizes(result), lambda path: get_relative_url(path, page.url),
                      marker)
    return transform(html, scans)


def on_post_build(config: Any) -> None:
    result: RunResult | None = _state["result"]
    if result is None:
        return
    site = Path(config["site_dir"])
    for page in result.pages.values():
        entry = page.entry
        targets: list[tuple[str, str]] = []
        if entry.role == "plate" and entry.chapter and "plate-1x.webp" in page.files:
            targets += [(f, plate_path(entry.chapter, s)) for f, s in PLATE_FILES.items()]
        targets += [(f, page_path(entry.stem, s)) for f, s in PAGE_FILES.items()]
        for cache_name, site_path in targets:
            dest = site / site_path
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(page.path(cache_name), dest)
