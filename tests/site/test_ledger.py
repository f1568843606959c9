"""The rules ledger: every rule anchor of every chapter is described by its engine and enforced
by at least one engine test, and every test cites only anchors that exist."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

import engine
from build_scripts.ledger import citations, rule_anchors, rule_sentences

ROOT = Path(__file__).resolve().parents[2]
SLUGS = sorted(engine.GAMES)
#: The chapters: a game played on another chapter's page (The House in the Wood, on La Belle
#: Lucie's) shares that chapter's anchors and ledger.
CHAPTERS = sorted({cls.chapter() for cls in engine.GAMES.values()})
CITED = citations()
ENGINE_CITED = citations(sorted((ROOT / "tests" / "engine").glob("test_*.py")))


def anchors(slug: str) -> list[str]:
    return rule_anchors((ROOT / "docs" / f"{slug}.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("slug", SLUGS)
def test_the_engine_describes_every_rule_anchor(slug: str) -> None:
    page = anchors(engine.GAMES[slug].chapter())
    assert len(page) >= 4, "a chapter's rules carry anchors"
    assert len(page) == len(set(page)), "an anchor is used twice"
    ledger = engine.GAMES[slug].LEDGER
    assert set(page) - set(ledger) == set(), "rules the engine's LEDGER does not describe"
    assert set(ledger) - set(page) == set(), "LEDGER entries for anchors not on the page"
    assert all(len(text.split()) >= 4 for text in ledger.values())


@pytest.mark.parametrize("slug", CHAPTERS)
def test_every_rule_anchor_is_enforced_by_an_engine_test(slug: str) -> None:
    untested = [a for a in anchors(slug) if not ENGINE_CITED.get(a)]
    assert untested == [], "rule anchors no engine test cites"


def test_tests_cite_only_anchors_that_exist() -> None:
    known = {a for slug in CHAPTERS for a in anchors(slug)}
    unknown = {a: tests for a, tests in CITED.items() if a not in known}
    assert unknown == {}


def test_the_ledger_reader_sees_through_its_inputs(tmp_path: Path) -> None:
    """The parsers the ledger and the tests above rely on: spans, attribute lists, decorators
    on functions and classes; a non-literal argument is an error."""
    md = ('<span class="rule" id="g-a">One.</span> text\n\nPara.\n{ #g-b .rule }\n\n'
          "### Rules { #g-rules }\n")
    assert rule_anchors(md) == ["g-a", "g-b"]
    html = ('<p class="rule" id="g-b">The <span class="sc">rule</span> '
            '<span class="pb" data-page="5">[5]</span>goes on.</p>')
    assert rule_sentences(html) == {"g-b": "The rule goes on."}
    f = tmp_path / "test_x.py"
    f.write_text("import pytest\n"
                 "@pytest.mark.rules('g-a', 'g-b')\ndef test_one(): pass\n"
                 "@pytest.mark.rules('g-a')\nclass TestK:\n    def test_two(self): pass\n"
                 "def test_none(): pass\n")
    got = citations([f])
    assert got == {"g-a": ["test_x.py::test_one", "test_x.py::TestK::test_two"],
                   "g-b": ["test_x.py::test_one"]}
    f.write_text("import pytest\nX='g-a'\n@pytest.mark.rules(X)\ndef test_one(): pass\n")
    with pytest.raises(ValueError, match="string literals"):
        citations([f])


@pytest.mark.parametrize("slug", CHAPTERS)
def test_the_built_chapter_shows_its_ledger(slug: str) -> None:
    built = ROOT / "site" / slug / "index.html"
    if not built.exists():
        pytest.skip("site/ not built (make test builds it first)")
    text = built.read_text(encoding="utf-8")
    m = re.search(r'<div class="cadogan-ledger" data-chapter="%s"[^>]*>(.*?)</div>' % slug,
                  text, re.S)
    assert m, "the chapter has no rules ledger"
    rows = re.findall(r"<tr><td><a href=\"#([\w-]+)\">", m.group(1))
    assert rows == anchors(slug)


def test_the_ledgers_are_kept_out_of_the_search_index() -> None:
    """The site's search finds the rules in the chapters' text, not again in every ledger row
    (the rows were 28% of the index, which every page's search worker reads)."""
    index = ROOT / "site" / "search" / "search_index.json"
    if not index.exists():
        pytest.skip("site/ not built (make test builds it first)")
    docs = json.loads(index.read_text(encoding="utf-8"))["docs"]
    text = "\n".join(html.unescape(d["text"]) for d in docs)
    for slug in SLUGS:
        cls = engine.GAMES[slug]
        for rid, sentence in cls.LEDGER.items():
            assert sentence not in text, f"{slug}: the ledger row of {rid} is in the search index"
    assert "Rules ledger" in "\n".join(d["title"] for d in docs), "the ledger's heading is"
