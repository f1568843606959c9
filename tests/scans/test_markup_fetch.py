"""The hook's HTML transformation, the manifest, the verified fetch and the cache."""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from build_scripts.scanlib import REPO_ROOT
from build_scripts.scanlib import fetch as fetch_mod
from build_scripts.scanlib.manifest import Manifest, ManifestError, parse
from build_scripts.scanlib.markup import (
    ConventionsError,
    SiteScans,
    Sizes,
    load_page_marker,
    transform,
)
from build_scripts.scanlib.pipeline import process_page, run

PAGE = """<h1>La Nivernaise</h1>
<div class="cadogan-figures">
<div class="cadogan-plate" data-chapter="la-nivernaise"></div>
<div class="cadogan-diagram" data-chapter="la-nivernaise"></div>
</div>
<div class="transcription" data-chapter="la-nivernaise" data-pages="35 36">
<p><span class="pb" data-page="35"></span></p>
<div class="note"><p>nested</p></div>
<p>text <span class="pb" data-page="36"></span>more</p>
</div>
<p>after</p>"""

SIZES = {"plate-1x.png": (480, 497), "plate-1x.webp": (480, 497), "plate-2x.png": (960, 994),
         "plate-2x.webp": (960, 994), "plate-full.png": (1100, 1140),
         "page-1x.webp": (640, 900), "page-full.png": (1400, 1970)}


def scans(manifest: Manifest, present: bool) -> SiteScans:
    processed = {p.file: Sizes(SIZES) for p in manifest.pages if p.is_processed} if present else {}
    return SiteScans(manifest, processed, lambda path: "../" + path)


def test_with_scans(manifest: Manifest) -> None:
    html = transform(PAGE, scans(manifest, True))
    fig = re.search(r'<figure class="cadogan-plate".*?</figure>', html, re.DOTALL)
    assert fig is not None
    f = fig.group(0)
    assert '<source type="image/webp" srcset="../assets/plates/la-nivernaise/la-nivernaise-1x.webp 1x' in f
    assert 'width="480" height="497"' in f and 'alt="The tableau of La Nivernaise' in f
    assert "<figcaption>" in f and "La Nivernaise." in f
    assert 'href="../assets/plates/la-nivernaise/la-nivernaise-full.png"' in f
    assert 'class="cadogan-diagram"' in html  # not ours: left alone
    # Markers become links to their facsimile pages, which exist.
    assert '<a class="pb" id="tx-la-nivernaise-p35" href="#fx-la-nivernaise-p35"' in html
    assert "[p.&nbsp;36]" in html and 'class="pb" data-page' not in html
    for page in ("34", "35", "36"):
        assert f'id="fx-la-nivernaise-p{page}"' in html
    assert "../assets/facsimile/p036-1x.webp" in html
    # Structure: the reader wraps the transcription (with its nested div) and the pane.
    assert html.count("<div") == html.count("</div>")
    assert html.index('class="facsimile"') > html.index("nested")
    assert html.rstrip().endswith("<p>after</p>")
    assert "http" not in html  # nothing external


def _anchors(html: str) -> tuple[set[str], list[str]]:
    """(ids, in-page link targets) of an HTML fragment."""
    return set(re.findall(r'\bid="([^"]+)"', html)), re.findall(r'href="#([^"]+)"', html)


def test_without_scans(manifest: Manifest) -> None:
    html = transform(PAGE, scans(manifest, False))
    assert "<img" not in html and "<picture" not in html
    assert "not available in this build" in html and "make scans" in html
    assert "page scans are absent" in html
    assert "[p.&nbsp;35]" in html
    assert html.count("<div") == html.count("</div>")
    # Every marker links to the pane's note (which has the id), none to a page not drawn.
    ids, targets = _anchors(html)
    assert targets == ["facsimile-la-nivernaise", "facsimile-la-nivernaise"]
    assert set(targets) <= ids and "tx-la-nivernaise-p36" in ids
    assert "absent from this build" in re.search(r'<a class="pb"[^>]*>', html).group(0)  # type: ignore[union-attr]


def test_every_in_page_link_resolves(manifest: Manifest) -> None:
    """With or without scans, and with a marker for a page the pane does not show."""
    page = PAGE.replace('<span class="pb" data-page="35"></span>',
                        '<span class="pb" data-page="35"></span><span class="pb" data-page="99">'
                        "</span>")
    for present in (True, False):
        ids, targets = _anchors(transform(page, scans(manifest, present)))
        assert targets and not [t for t in targets if t not in ids], (present, targets)
    html = transform(page, scans(manifest, True))
    assert 'href="#facsimile-la-nivernaise" data-page="99"' in html
    assert 'href="#fx-la-nivernaise-p36"' in html


def test_marker_label_and_anchor_come_from_the_conventions(manifest: Manifest, tmp_path: Path
                                                           ) -> None:
    table = tomllib.loads((REPO_ROOT / "build_scripts" / "conventions.toml").read_text())
    conv = next(c for c in table["convention"] if c["id"] == "page-number")
    label = conv["template"]["label"].format(page="35")
    anchor = conv["template"]["id"].format(chapter="la-nivernaise", page="35")
    html = transform(PAGE, scans(manifest, True))
    assert f'id="{anchor}"' in html and f">{label}</a>" in html
    # Another table, another label: nothing is hard-coded.
    other = tmp_path / "conventions.toml"
    other.write_text('[[convention]]\nid = "page-number"\n[convention.template]\n'
                     'label = "<b>{page}</b>"\nid = "page-{chapter}-{page}"\n')
    marker = load_page_marker(other)
    html = transform(PAGE, replace(scans(manifest, True), marker=marker))
    assert '<a class="pb" id="page-la-nivernaise-35"' in html and "><b>35</b></a>" in html
    assert 'href="#page-la-nivernaise-36" class="facsimile__back"' in html
    other.write_text('[[convention]]\nid = "gap"\n')
    with pytest.raises(ConventionsError, match="page-number"):
        load_page_marker(other)


def test_plate_captions(manifest: Manifest) -> None:
    title = transform('<div class="cadogan-plate" data-chapter="title-page"></div>',
                      scans(manifest, True))
    assert "Title page of the 1914 revised edition." in title and "(title)" not in title
    assert "Cleaned from the page scan." in title and "’s Illustrated" in title
    html = transform(PAGE, scans(manifest, True))
    assert "The plate on p.\u00a034 of the 1914 edition, cleaned from the page scan." in html


def test_manifest_texts_use_typographic_quotes(manifest: Manifest) -> None:
    for p in manifest.pages:
        for text in (p.caption or "", p.alt or ""):
            assert not re.search(r"['\"`]", text), (p.file, text)
    base = ('[source]\nurl = "https://example.org/"\n[[page]]\nfile = "a.png"\nsha256 = "%s"\n'
            'printed = "1"\nrole = "plate"\nchapter = "x"\ncaption = "X."\n' % ("a" * 64))
    parse(base + 'alt = "Lady Cadogan’s plate."\n')
    with pytest.raises(ManifestError, match="straight quote"):
        parse(base + 'alt = "Lady Cadogan\'s plate."\n')


def test_manifest_lists_every_chapter(manifest: Manifest) -> None:
    for slug in ("the-sultan", "la-nivernaise", "the-empress-of-india", "the-constitution",
                 "the-zodiac", "the-kings", "title-page"):
        plate = manifest.plate_for(slug)
        assert plate is not None and plate.alt and plate.alt.endswith(".")
    assert [p.printed for p in manifest.pages_for("the-empress-of-india")] == ["36", "37", "38"]
    assert [p.printed for p in manifest.pages_for("la-nivernaise")] == ["34", "35", "36"]


def test_manifest_rejects_bad_overrides() -> None:
    base = '[source]\nurl = "https://example.org/"\n[[page]]\nfile = "a.png"\nsha256 = "%s"\n' \
           'printed = "1"\nrole = "text"\n' % ("a" * 64)
    parse(base + "[page.settings.deskew]\nmax_angle = 1.0\n")
    with pytest.raises(ManifestError, match="unknown setting"):
        parse(base + "[page.settings.deskew]\nmax_angel = 1.0\n")
    with pytest.raises(ManifestError, match="unknown step"):
        parse(base + "[page.settings.blur]\nx = 1\n")
    parse(base + "[page.settings.dust]\nerase = [[1, 2, 30, 40]]\n")
    with pytest.raises(ManifestError, match="erase"):
        parse(base + "[page.settings.dust]\nerase = [[30, 2, 1, 40]]\n")


def _tiny_manifest(tmp: Path, data: bytes, sha: str | None = None) -> Manifest:
    digest = sha or hashlib.sha256(data).hexdigest()
    return parse('[source]\nurl = "http://127.0.0.1:9/none/"\n[[page]]\nfile = "p001.png"\n'
                 f'sha256 = "{digest}"\nprinted = "1"\nrole = "text"\n')


def test_fetch_from_folder_verifies(tmp_path: Path) -> None:
    src, dest = tmp_path / "src", tmp_path / "dest"
    src.mkdir()
    (src / "p001.png").write_bytes(b"scan bytes")
    good = _tiny_manifest(tmp_path, b"scan bytes")
    result = fetch_mod.fetch(good, str(src), dest)
    assert result.ok and result.fetched == ["p001.png"]
    assert fetch_mod.fetch(good, str(src), dest).present == ["p001.png"]
    bad = _tiny_manifest(tmp_path, b"", sha="b" * 64)
    dest2 = tmp_path / "dest2"
    result = fetch_mod.fetch(bad, str(src), dest2)
    assert not result.ok and "does not match" in result.failed["p001.png"]
    assert not (dest2 / "p001.png").exists()  # refused, not written


def test_fetch_cli_fails_cleanly_without_network(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    man = tmp_path / "manifest"
    man.write_text('[source]\nurl = "http://127.0.0.1:9/none/"\n[[page]]\nfile = "p001.png"\n'
                   f'sha256 = "{"c" * 64}"\nprinted = "1"\nrole = "text"\n')
    code = fetch_mod.main(["--source", str(tmp_path / "no-such-folder"), "--dest",
                           str(tmp_path / "d"), "--manifest", str(man)])
    err = capsys.readouterr().err
    assert code == 1 and "could not download" in err and "make scans" in err


def test_cache_and_reproducibility(tmp_path: Path) -> None:
    """A warm run does no image work, and two cold runs give identical bytes."""
    rng = np.random.default_rng(0)
    ink = np.zeros((600, 420), dtype=bool)
    ink[100:300, 100:250] = False
    ink[100:103, 100:250] = ink[297:300, 100:250] = True
    ink[100:300, 100:103] = ink[100:300, 247:250] = True
    ink[400:420, 150:300] = rng.random((20, 150)) < 0.5
    scan = tmp_path / "p001.png"
    Image.fromarray(~ink).save(scan)
    data = scan.read_bytes()
    man = parse('[source]\nurl = "https://example.org/"\n[[page]]\nfile = "p001.png"\n'
                f'sha256 = "{hashlib.sha256(data).hexdigest()}"\nprinted = "1"\nrole = "plate"\n'
                'chapter = "x"\ncaption = "X."\nalt = "A card."\n')
    first = run(man, tmp_path, tmp_path / "c1")
    assert first.steps_run > 0 and "p001.png" in first.pages
    assert run(man, tmp_path, tmp_path / "c1").steps_run == 0
    second = run(man, tmp_path, tmp_path / "c2")
    a, b = first.pages["p001.png"], second.pages["p001.png"]
    for name in a.files:
        assert a.path(name).read_bytes() == b.path(name).read_bytes(), name
    assert process_page(man.pages[0], scan, tmp_path / "c1")[1] == 0
