"""A real build with no page scans (an empty scans folder and an empty cache): it succeeds, warns
once on `cadogan.scans`, shows the drawn diagrams, says where the plates and the facsimile would
be and how to get them, and leaves no broken link or anchor (the site's own link crawl).

One `python -m mkdocs build --strict` into a temporary folder (a few seconds).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from build_scripts.htmlwalk import Token, tokenize
from build_scripts.scanlib import CACHE_ENV, REPO_ROOT, SCANS_ENV

SITE_TESTS = REPO_ROOT / "tests" / "site"
DOCS = REPO_ROOT / "docs"


def chapters() -> list[str]:
    """The chapter pages: those with a drawn diagram and a transcription."""
    return sorted(p.stem for p in DOCS.glob("*.md")
                  if 'class="cadogan-diagram"' in (text := p.read_text(encoding="utf-8"))
                  and 'class="transcription"' in text)


@dataclass(frozen=True)
class Build:
    site: Path
    returncode: int
    output: str  # stdout and stderr


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    tmp = tmp_path_factory.mktemp("no-scans")
    (tmp / "scans").mkdir()
    env = {**os.environ, SCANS_ENV: str(tmp / "scans"), CACHE_ENV: str(tmp / "cache"),
           "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp / "site")],
        check=False, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
    return Build(tmp / "site", proc.returncode, proc.stdout + proc.stderr)


def page(build: Build, slug: str) -> str:
    return (build.site / slug / "index.html").read_text(encoding="utf-8")


def test_build_succeeds_and_warns_once(build: Build) -> None:
    assert build.returncode == 0, build.output[-3000:]
    warnings = [line for line in build.output.splitlines() if "WARNING" in line]
    assert len(warnings) == 1, warnings
    assert "[cadogan.scans]" in warnings[0] and "absent" in warnings[0]
    assert "make scans" in warnings[0]
    assert not (build.site / "assets" / "plates").exists()
    assert not (build.site / "assets" / "facsimile").exists()


@pytest.mark.parametrize("slug", chapters())
def test_chapter_shows_the_diagram_and_says_the_plate_is_absent(build: Build, slug: str) -> None:
    html = page(build, slug)
    assert f'id="diagram-{slug}"' in html
    note = _element(html, f"plate-{slug}")
    assert note is not None, f"{slug}: no plate note"
    attrs, text = note
    assert "cadogan-plate--missing" in attrs.get("class", "") and "hidden" not in attrs
    assert "not available in this build" in text and "make scans" in text
    assert not re.search(r'<img[^>]+(?:assets/plates|assets/facsimile)', html), "broken image"
    # With no plate, the diagram is the chapter's first image: fetched at once, first.
    diagram = re.search(r'<figure class="cadogan-diagram-figure"[^>]*>.*?(<img [^>]*>)', html, re.S)
    assert diagram and 'fetchpriority="high"' in diagram.group(1), slug
    assert 'loading="lazy"' not in diagram.group(1), slug


@pytest.mark.parametrize("slug", chapters())
def test_facsimile_view_says_the_scans_are_absent(build: Build, slug: str) -> None:
    html = page(build, slug)
    pane = _element(html, f"facsimile-{slug}")
    assert pane is not None, f"{slug}: no facsimile pane"
    attrs, text = pane
    assert "facsimile--missing" in attrs.get("class", "")
    assert "page scans are absent" in text and "make scans" in text
    assert 'class="cadogan-reader__switch"' in html  # the Facsimile view is there to choose
    markers = re.findall(r'<a class="pb" [^>]*href="#([^"]+)"', html)
    assert markers and set(markers) == {f"facsimile-{slug}"}, markers


def test_home_page_says_the_title_page_is_absent(build: Build) -> None:
    note = _element((build.site / "index.html").read_text(encoding="utf-8"), "plate-title-page")
    assert note is not None and "not available in this build" in note[1]


def test_no_broken_link_or_anchor(build: Build, monkeypatch: pytest.MonkeyPatch) -> None:
    """The site's own crawl (tests/site/test_links.py) over the site built without scans."""
    monkeypatch.syspath_prepend(str(SITE_TESTS))
    import test_links  # from tests/site, on the path only here

    monkeypatch.setenv("CADOGAN_TEST_SITE", str(build.site))
    test_links.test_every_internal_link_and_anchor_resolves()


def _element(html: str, element_id: str) -> tuple[dict[str, str], str] | None:
    """(attributes, text) of the element with id `element_id`, or None. An element inside a
    `hidden` one counts as hidden itself (attribute `hidden` in the result)."""
    tokens = list(tokenize(html))
    for i, t in enumerate(tokens):
        if t.kind == "start" and t.attrs.get("id") == element_id:
            attrs = dict(t.attrs)
            if any("hidden" in e.attrs for e in t.stack):
                attrs["hidden"] = "inherited"
            return attrs, "".join(_text(tokens[i + 1:], len(t.stack)))
    return None


def _text(tokens: list[Token], depth: int) -> Iterator[str]:
    for t in tokens:
        if t.kind == "end" and len(t.stack) <= depth:
            return
        if t.kind == "text":
            yield t.raw
