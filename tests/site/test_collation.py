"""The collation record: well formed, and rendered on the editorial principles page."""

from __future__ import annotations

from pathlib import Path

import pytest

from build_scripts.collation import FOLDER, chapters, collation_html, read

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("slug", chapters() or ["(none)"])
def test_every_record_is_well_formed(slug: str) -> None:
    if slug == "(none)":
        pytest.skip("no chapter transcribed from the scans yet")
    assert (ROOT / "docs" / f"{slug}.md").exists(), "a record for a chapter the edition lacks"
    for d in read(slug):
        assert d.print != d.gutenberg, d
        assert d.comment.strip() and d.page > 0, d
        assert "'" not in d.comment and '"' not in d.comment, "typographic quotes in comments"


def test_records_render_as_tables(tmp_path: Path) -> None:
    (tmp_path / "the-sultan.toml").write_text(
        '[[difference]]\npage = 33\nprint = "maner"\ngutenberg = "manner"\n'
        'comment = "a misprint, kept"\n', encoding="utf-8")
    (tmp_path / "the-kings.toml").write_text("# no difference\n", encoding="utf-8")
    out = collation_html(tmp_path)
    assert out.index("The Sultan") < out.index("The Kings")  # the book's order
    assert "<td>maner</td><td>manner</td>" in out and "1 difference<" in out
    assert "agree word for word" in out
    (tmp_path / "the-kings.toml").write_text("[[difference]]\npage = 57\n", encoding="utf-8")
    with pytest.raises(Exception, match="the-kings"):
        collation_html(tmp_path)


def test_the_principles_page_shows_the_record() -> None:
    built = ROOT / "site" / "principles" / "index.html"
    if not built.exists():
        pytest.skip("site/ not built (make test builds it first)")
    text = built.read_text(encoding="utf-8")
    assert 'class="cadogan-collation"' in text
    assert text.count('<table class="collation">') + text.count("agree word for word") == len(
        list(FOLDER.glob("*.toml")))
