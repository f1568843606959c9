"""Builds are reproducible: the same sources give a byte-identical site."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _build(dest: Path) -> None:
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000", NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(dest)],
                   cwd=ROOT, env=env, check=True, timeout=600)


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    _build(one)
    _build(two)
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    changed = [str(f) for f in files if (one / f).read_bytes() != (two / f).read_bytes()]
    assert not changed, changed
    # the build date comes from SOURCE_DATE_EPOCH, not from the clock
    assert "<lastmod>2023-11-14</lastmod>" in (one / "sitemap.xml").read_text(encoding="utf-8")
