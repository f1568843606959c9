"""No script holds a page's parsing (build_scripts/deferred_scripts.py and ``extra_javascript``
in mkdocs.yml): Material's bundle and the edition's scripts are deferred, the bundle first
(the others subscribe to its ``document$``); the board's module stays ``async``."""

from __future__ import annotations

import re

import pytest
from _built import ROOT, built_site, pages
from mkdocs.exceptions import PluginError

from build_scripts.deferred_scripts import defer_bundle

SCRIPT = re.compile(r"<script\b([^>]*)>")
#: The edition's own scripts, as mkdocs.yml lists them.
EXTRA = set(re.findall(r"- path: assets/javascripts/(\S+\.js)",
                       (ROOT / "mkdocs.yml").read_text(encoding="utf-8")))


def test_every_external_script_of_every_page_is_deferred_the_bundle_first() -> None:
    assert "facsimile.js" in EXTRA, EXTRA  # the list was read
    site = built_site()
    checked = 0
    for page in pages(site):
        html = page.read_text(encoding="utf-8")
        external = [attrs for attrs in SCRIPT.findall(html) if "src=" in attrs]
        classic = [a for a in external if 'type="module"' not in a]
        names = [re.search(r'src="[^"]*/([^"/]+)"', a).group(1)  # type: ignore[union-attr]
                 for a in classic]
        assert names and re.fullmatch(r"bundle\.[0-9a-f]+\.min\.js", names[0]), (page, names)
        assert EXTRA <= set(names), (page, names)
        for a in classic:
            assert re.search(r"\bdefer\b", a), (page, a)
        for a in external:
            if 'type="module"' in a:
                assert re.search(r"\basync\b", a), (page, a)
        checked += 1
    assert checked >= 50, checked


def test_a_page_without_the_bundle_fails_the_build() -> None:
    page = '<body><script src="../assets/javascripts/bundle.0123abcd.min.js"></script></body>'
    assert defer_bundle(page) == page.replace("<script src", "<script defer src")
    with pytest.raises(PluginError):
        defer_bundle("<body></body>")
    with pytest.raises(PluginError):  # twice: not the theme's page as this hook knows it
        defer_bundle(page + page)
