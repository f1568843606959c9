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


def test_the_compiled_runtime_is_byte_identical_from_scratch(tmp_path: Path) -> None:
    """The compiled standard library and engine archives (made with Pyodide under Node, then
    cached) come out byte for byte the same from two runs that share nothing, and the same
    as what the cache holds: a clean clone builds the bytes this machine ships."""
    from build_scripts import pyodide_runtime

    one = pyodide_runtime.compile_into(tmp_path / "one")
    two = pyodide_runtime.compile_into(tmp_path / "two")
    cached = pyodide_runtime.compiled()

    def files(c: pyodide_runtime.Compiled) -> dict[str, bytes]:
        return {p.relative_to(c.folder).as_posix(): p.read_bytes()
                for p in sorted(c.folder.rglob("*")) if p.is_file()}

    a, b = files(one), files(two)
    assert sorted(a) == sorted(b) and "stdlib.zip" in a and "engine/engine.zip" in a
    assert [n for n in a if a[n] != b[n]] == []
    assert files(cached) == a
