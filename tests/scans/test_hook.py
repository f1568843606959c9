"""The mkdocs hook without scans: one warning on `cadogan.scans`, notes instead of images."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace

import pytest

from build_scripts import plates


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_absent_scans_warn_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("CADOGAN_SCANS_DIR", str(tmp_path / "empty"))
    monkeypatch.setenv("CADOGAN_SCANS_CACHE", str(tmp_path / "cache"))
    handler = Collect()
    log = logging.getLogger("cadogan.scans")
    log.addHandler(handler)
    try:
        plates.on_pre_build({})
        page = SimpleNamespace(url="the-sultan/")
        html = plates.on_page_content(
            '<div class="cadogan-plate" data-chapter="the-sultan"></div>'
            '<div class="transcription" data-chapter="the-sultan" data-pages="33">'
            '<p><span class="pb" data-page="33"></span>x</p></div>', page, {}, None)
        site = tmp_path / "site"
        plates.on_post_build({"site_dir": str(site)})
    finally:
        log.removeHandler(handler)
    warnings = [r for r in handler.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "make scans" in warnings[0].getMessage()
    assert not logging.getLogger("cadogan.scans").name.startswith("mkdocs")
    assert "<img" not in html and "not available in this build" in html
    # The marker links to the pane's note, which exists, not to a page that is not there.
    assert 'href="#facsimile-the-sultan"' in html and 'id="facsimile-the-sultan"' in html
    assert "#fx-" not in html and str(tmp_path / "empty") in warnings[0].getMessage()
    assert not (site / "assets" / "plates").exists()
