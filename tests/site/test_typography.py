"""The typographic build check (build_scripts/typography_check.py): what it catches, what it
leaves alone, and the built site passing it. Also the conventions' rendering
(build_scripts/conventions.py), which writes the marks the check reads."""

from __future__ import annotations

import re

import pytest
from _built import ROOT, built_site, pages

from build_scripts import conventions
from build_scripts.htmlwalk import text_of, tokenize
from build_scripts.typography_check import check_html, check_site

ARTIFACTS = conventions.artifact_patterns()


def page(body: str) -> str:
    """A page shaped like Material's: only the article is prose to check."""
    return ('<html><head><title>x</title><script>var a = "b";</script></head><body>'
            '<nav class="md-nav" aria-label="it\'s the nav">Nav "quoted"</nav>'
            f'<article class="md-content__inner md-typeset">{body}</article></body></html>')


def kinds(body: str) -> list[str]:
    return [p.kind for p in check_html(page(body), "t.html", ARTIFACTS)]


# ------------------------------------------------------------------ what fails

@pytest.mark.parametrize("text", [
    "Lady Cadogan's text",
    'the "Constitution"',
    "it&#39;s an entity",
    "a &quot;quoted&quot; entity",
])
def test_straight_quotes_in_text_fail(text: str) -> None:
    assert "straight-quote" in kinds(f"<p>{text}</p>")


def test_straight_quotes_in_notes_fail() -> None:
    body = ('<div class="admonition editorial"><p class="admonition-title">NI-1</p>'
            "<p>the player's choice</p></div>")
    assert kinds(body) == ["straight-quote"]


def test_double_hyphen_for_a_dash_fails() -> None:
    assert kinds("<p>is released--<em>the card</em></p>") == ["double-hyphen"]
    assert kinds("<p>is released—<em>the card</em></p>") == []


@pytest.mark.parametrize("artifact", [
    "These const.i.tute the Divan.", "leaving s.p.a.ce in the centre", "must first pa.s.s",
    "[Ill.u.s.tration: THE ZODIAC.]", "[Illustration: THE SULTAN.]", "the CONST.I.TUTION",
])
def test_scraping_artifacts_fail(artifact: str) -> None:
    assert "artifact" in kinds(f"<p>{artifact}</p>")


def test_artifact_in_alt_text_fails() -> None:
    assert "artifact" in kinds('<img src="a.png" alt="[Ill.u.s.tration: LA NIVERNAISE.]">')


@pytest.mark.parametrize("img", ['<img src="a.png">', '<img src="a.png" alt="">',
                                 '<img src="a.png" alt="  ">'])
def test_image_without_alt_fails(img: str) -> None:
    assert "no-alt" in kinds(img)


def test_image_without_alt_fails_outside_the_article_too() -> None:
    html = page("<p>fine</p>").replace("<body>", '<body><img src="logo.png">')
    assert [p.kind for p in check_html(html, "t.html", ARTIFACTS)] == ["no-alt"]


def test_figure_without_described_image_fails() -> None:
    assert kinds('<figure id="f"><figcaption>A plate.</figcaption></figure>') == ["no-alt"]
    assert kinds('<figure id="f"><img src="a.png"></figure>') == ["no-alt", "no-alt"]


# ------------------------------------------------------------------ what passes

def test_curly_text_and_described_figures_pass() -> None:
    body = ("<p>Lady Cadogan’s “Constitution”—<em>vice versâ</em>.</p>"
            '<figure id="f"><picture><img src="a.png" alt="The plate."></picture>'
            "<figcaption>The plate.</figcaption></figure>"
            '<figure id="g"><svg aria-label="A drawn tableau"></svg></figure>')
    assert kinds(body) == []


def test_code_attributes_and_scripts_are_not_text() -> None:
    body = ('<p title="it\'s an attribute" data-x=\'"\'>fine</p>'
            "<p><code>\"'s.p.a.ce'\" --</code></p><pre><code>[Illustration: X.]</code></pre>"
            '<script type="application/json">{"a": "it\'s"}</script>'
            "<style>a::before { content: '\"'; }</style><kbd>'</kbd>")
    assert kinds(body) == []


def test_only_the_article_is_prose() -> None:
    # The nav of page() has straight quotes: outside the article, they are Material's.
    assert kinds("<p>fine</p>") == []


def test_every_artifact_of_the_table_is_checked() -> None:
    assert {"const.i.t", "s.p.a.c", "pa.s.s", "Ill.u.s.t", "[Illustration"} <= set(ARTIFACTS)


# ------------------------------------------------------------------ the conventions' marks

DATA = conventions.load()


def test_page_marker_gets_its_label_and_anchor() -> None:
    html = ('<div class="transcription" data-chapter="the-sultan"><p>'
            '<span class="pb" data-page="33"></span>Text.</p></div>')
    out = conventions.render(html, DATA, "x")
    assert 'id="tx-the-sultan-p33"' in out
    assert text_of(out) == "[p.\u00a033]Text."


def test_page_marker_already_written_by_another_hook_is_kept() -> None:
    html = '<p><span class="pb" data-page="33">[p. 33]</span></p>'
    assert conventions.render(html, DATA) == html


def test_supplied_sic_and_gap_are_rendered_from_the_table() -> None:
    html = ('<div class="supplied" data-source="1914 printing, p. 38">'
            '<p>in the same <span class="sic" data-correction="manner">maner</span>, so'
            ' <span class="gap" title="torn">[…]</span>.</p></div>')
    out = conventions.render(html, DATA)
    text = text_of(out)
    assert "Supplied from the 1914 printing, p. 38; missing from our source text." in text
    assert "maner[sic, for manner]" in text
    assert "Gap in the text: torn." in text
    gap = re.search(r'<span class="[^"]*\bgap\b[^"]*"[^>]*>', out)
    assert gap and 'tabindex="0"' in gap.group(0) and "title=" not in gap.group(0)
    tip = re.search(r'aria-describedby="([^"]+)"', gap.group(0))
    assert tip and f'id="{tip.group(1)}"' in out
    assert conventions.render(out, DATA) == out  # idempotent


def test_rendering_changes_no_other_tag() -> None:
    for path in pages(built_site())[:3]:
        html = path.read_text(encoding="utf-8")
        assert "".join(t.raw for t in tokenize(html)) == html


# ------------------------------------------------------------------ the built site

def test_built_site_passes_the_check() -> None:
    problems = check_site(built_site())
    assert not problems, "\n".join(map(str, problems))


def test_no_artifact_in_the_sources_of_the_pages() -> None:
    for md in sorted((ROOT / "docs").glob("*.md")):
        if md.name == "principles.md":
            continue  # it lists them, generated into code spans
        low = md.read_text(encoding="utf-8").lower()
        found = [a for a in ARTIFACTS if a.lower() in low]
        assert not found, f"{md.name} contains {found}"


MARKER = re.compile(r'<(a|span) class="[^"]*\bpb\b[^"]*"[^>]*data-page="(\w+)"[^>]*>(.*?)</\1>')


def test_chapter_page_markers_read_as_the_convention_says() -> None:
    label = conventions.convention(DATA, "page-number")["template"]["label"]
    site = built_site()
    seen = 0
    for path in pages(site):
        html = path.read_text(encoding="utf-8")
        for m in MARKER.finditer(html):
            seen += 1
            assert text_of(m.group(3)) == text_of(label.format(page=m.group(2))), \
                f"{path.relative_to(site)}: page marker reads {text_of(m.group(3))!r}"
    assert seen >= 3
