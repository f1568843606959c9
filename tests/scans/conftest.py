"""Fixtures for the scan tests: where the real scans are (fetched into scans/, or ../shared/scans)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from build_scripts.scanlib import MANIFEST_PATH, REPO_ROOT, scans_dir
from build_scripts.scanlib.fetch import verified
from build_scripts.scanlib.manifest import Manifest, load

PLATES = ("p032.png", "p034.png", "p036.png", "p050.png", "p054.png", "p056.png")


@pytest.fixture(scope="session")
def manifest() -> Manifest:
    return load(MANIFEST_PATH)


def _complete(folder: Path, manifest: Manifest) -> bool:
    return all(verified(folder / p.file, p) for p in manifest.pages if p.is_processed)


@pytest.fixture(scope="session")
def real_scans(manifest: Manifest) -> Path:
    """A folder holding every processed scan with the right checksum, or a loud skip."""
    for folder in (scans_dir(), (REPO_ROOT / ".." / "shared" / "scans").resolve()):
        if folder.is_dir() and _complete(folder, manifest):
            return folder
    reason = ("REAL SCANS ABSENT: no verified page scans in scans/ or ../shared/scans; the "
              "real-scan tests did not run. Run `make scans` to fetch them.")
    warnings.warn(reason)
    if os.environ.get("CI"):  # CI has ../shared/scans beside the clone: absence is a failure
        pytest.fail(reason)
    pytest.skip(reason)
