"""The apparatus in the built site: the principles page made from the conventions table, the
glossary and its marks in the chapters, the list of illustrations, the home page's list of
games, and the offline search index."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from _built import ROOT, built_site

import engine
from build_scripts import conventions, glossary
from build_scripts.htmlwalk import Element, text_of, tokenize

DATA = conventions.load()
TERMS = glossary.load()
DOCS = ROOT / "docs"
CHAPTERS = sorted(p.stem for p in DOCS.glob("*.md")
                  if 'class="transcription" data-chapter="' in p.read_text(encoding="utf-8"))


def read(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def article(html: str) -> str:
    start = html.index('<article class="md-content__inner')
    return html[start:html.index("</article>", start)]


# ------------------------------------------------------------------ conventions

def test_chapters_exist() -> None:
    assert "la-nivernaise" in CHAPTERS and len(CHAPTERS) >= 2


def test_each_example_is_the_chapters_own_markup() -> None:
    assert conventions.check_examples(DATA, DOCS) == []


def test_check_examples_sees_a_mismatch(tmp_path: Path) -> None:
    (tmp_path / "la-nivernaise.md").write_text("nothing here", encoding="utf-8")
    problems = conventions.check_examples(DATA, tmp_path)
    assert problems and all("la-nivernaise.md" in p for p in problems)


def test_principles_page_states_every_convention_with_its_example() -> None:
    html = read(built_site(), "principles")
    for c in DATA["convention"]:
        assert f'id="convention-{c["id"]}"' in html, c["id"]
        assert f'href="#convention-{c["id"]}"' in html, c["id"]  # in the summary table
        if c["context"] == "transcription":
            section = html[html.index(f'data-convention="{c["id"]}"'):]
            assert 'class="transcription convention-example"' in section.split(
                'class="convention"')[0], c["id"]
    text = text_of(html)
    for a in DATA["artifact"]:
        assert a["reading"].split(" (")[0] in text
    assert "maner[sic, for manner]" in text  # the example is rendered, not described


def test_principles_page_lists_every_board_option() -> None:
    html = read(built_site(), "principles")
    for cls in engine.GAMES.values():
        slug = cls.chapter()  # the page that plays the game
        if not (DOCS / f"{slug}.md").exists():
            continue
        for opt in engine.describe_options(cls.Options):
            assert f'href="../{slug}/#{opt["note"]}"' in html, (slug, opt["note"])
            for choice in opt["choices"]:
                assert f'{opt["name"]}:{choice["value"]}' in html


def test_supplied_text_in_a_chapter_carries_the_tables_label() -> None:
    site = built_site()
    template = conventions.convention(DATA, "supplied")["template"]["label"]
    found = 0
    for slug in CHAPTERS:
        html = read(site, slug)
        for m in re.finditer(r'<div class="[^"]*\bsupplied\b[^"]*" data-source="([^"]+)">', html):
            found += 1
            label = text_of(template.format(source=m.group(1)))
            assert text_of(html[m.end():m.end() + 400]).lstrip().startswith(label)
    assert found >= 1


# ------------------------------------------------------------------ glossary

def _marks(html: str) -> list[tuple[str, tuple[Element, ...], dict[str, str]]]:
    return [(t.attrs["data-term"], t.stack, t.attrs) for t in tokenize(html)
            if t.kind == "start" and t.name == "a" and "gloss" in t.attrs.get("class", "")]


@pytest.mark.parametrize("slug", CHAPTERS)
def test_chapter_terms_are_marked_with_an_accessible_definition(slug: str) -> None:
    html = read(built_site(), slug)
    marks = _marks(html)
    assert len(marks) >= 20
    known = {t.id for t in TERMS}
    for term, stack, attrs in marks:
        assert term in known
        assert attrs["href"] == f"../glossary/#term-{term}"
        assert attrs["aria-describedby"] == f"gloss-def-{term}"
        assert f'<span id="gloss-def-{term}">' in html
        names = {e.name for e in stack}
        classes = set().union(*(e.classes for e in stack))
        assert not names & {"a", "h1", "h2", "h3", "h4", "code", "pre", "figcaption"}
        assert not classes & {"cadogan-board", "cadogan-option", "admonition-title"}
        assert classes & {"transcription", "editorial"}


def test_every_use_is_marked_in_the_authors_text() -> None:
    """No word the glossary defines is left unmarked in a transcription."""
    site = built_site()
    for slug in CHAPTERS:
        matcher = glossary.Matcher(TERMS, slug)
        assert matcher.regex is not None
        for t in tokenize(read(site, slug)):
            if t.kind != "text" or not any("transcription" in e.classes for e in t.stack):
                continue
            if glossary.inside(t.stack, names=glossary.SKIP_NAMES,
                               classes=glossary.SKIP_CLASSES):
                continue
            left = matcher.uses(t.raw)
            assert not left, f"{slug}: {left[0][0].group(0)!r} unmarked in {t.raw[:80]!r}"


def test_marking_respects_case_scope_and_markup() -> None:
    terms = TERMS
    html = ('<div class="transcription" data-chapter="la-nivernaise">'
            '<h3 id="x">Foundations</h3><p class="rule" id="r">the Line and a line; the '
            'foundation cards; <a href="#y">talon</a> <code>talon</code> the Divan</p>'
            '<div class="cadogan-board"><p>Talon</p></div></div>'
            '<p>talon outside the text</p>')
    out = glossary.mark(html, terms, "la-nivernaise", "../glossary/")
    marked = [(m[0], text) for m, text in zip(_marks(out), re.findall(
        r'<a class="gloss[^>]*>([^<]*)</a>', out))]
    assert marked == [("line", "Line"), ("foundation", "foundation cards")]
    assert 'id="r"' in out and '<h3 id="x">Foundations</h3>' in out
    stripped = re.sub(r'<a class="gloss[^>]*>([^<]*)</a>', r"\1", out)
    assert stripped.split("<aside")[0] == html


def test_a_word_in_another_sense_is_not_marked() -> None:
    html = ('<div class="transcription" data-chapter="the-empress-of-india"><p>the knaves '
            "stand guard round the Empress; deal a second round, and each round after</p></div>")
    out = glossary.mark(html, TERMS, "the-empress-of-india", "../glossary/")
    assert re.findall(r'<a class="gloss[^>]*>([^<]*)</a>', out) == ["round", "round"]
    assert "guard round the" in out


def test_glossary_page_has_every_term_of_the_chapters() -> None:
    site = built_site()
    html = read(site, "glossary")
    used = {term for slug in CHAPTERS for term, _, _ in _marks(read(site, slug))}
    for term in used:
        assert f'id="term-{term}"' in html
    for t in TERMS:
        if t.group == "book":
            assert f'id="term-{t.id}"' in html
    # Each entry says where it is used, with a link to the first use.
    uses = re.findall(r'<p class="glossary-uses" data-term="([\w-]+)">(.*?)</p>', html, re.DOTALL)
    assert uses and all(text for _, text in uses)
    for term in used:
        entry = dict(uses)[term]
        assert f"#gloss-first-{term}" in entry


def test_book_terms_follow_the_books_order() -> None:
    book = [t.term.split()[-1].lower() for t in TERMS if t.group == "book"]
    assert book == ["available", "released", "suitable", "foundation", "marriage",
                    "sequence", "value", "suit", "lane", "talon", "play", "re-deal"]


# ------------------------------------------------------------------ illustrations and home

def test_list_of_illustrations_links_to_every_figure() -> None:
    site = built_site()
    listing = read(site, "illustrations")
    figure_ids: list[str] = []
    for slug in CHAPTERS:
        for t in tokenize(read(site, slug)):
            if t.kind == "start" and t.name == "figure" and \
                    not any("facsimile" in e.classes for e in t.stack) and \
                    "facsimile__page" not in t.attrs.get("class", ""):
                assert t.attrs.get("id"), f"{slug}: figure without id"
                figure_ids.append(t.attrs["id"])
                assert f'href="../{slug}/#{t.attrs["id"]}"' in listing, t.attrs["id"]
    assert len(figure_ids) >= 2 * len(CHAPTERS) - 1
    numbers = re.findall(r'illustrations__number">Fig\. (\d+)<', listing)
    assert numbers == [str(i) for i in range(1, len(numbers) + 1)]


def test_home_page_lists_the_games_with_thumbnails() -> None:
    site = built_site()
    home = article(read(site, "."))
    entries = re.findall(r'<li class="chapter-entry[^"]*" data-chapter="([\w-]+)" '
                         r'data-packs="(\d)"(?: data-odds="\w+")?>(.*?)</li>', home, re.DOTALL)
    slugs = [s for s, _, _ in entries]
    chapters = [s for s, cls in engine.GAMES.items() if cls.chapter() == s]
    assert [s for s in slugs if s in engine.GAMES] == chapters  # the book's order
    for slug, packs_n, body in entries:
        if (DOCS / f"{slug}.md").exists():
            assert f'href="{slug}/"' in body
            if slug in engine.GAMES:
                # the plate cleaned from the scans, or the drawn tableau without them
                src = re.search(r'<img src="([^"]+)"', body)
                assert src, slug
                assert src.group(1) in (f"assets/diagrams/{slug}.png",
                                        f"assets/plates/{slug}/{slug}-1x.png"), src.group(1)
                assert (site / src.group(1)).exists()
                assert int(packs_n) == engine.GAMES[slug].packs
                packs = {1: "One", 2: "Two", 3: "Three", 4: "Four"}[engine.GAMES[slug].packs]
                assert f"{packs} packs" in body or f"{packs} pack" in body
        else:
            assert "href=" not in body and "in preparation" in body
    assert 'id="plate-title-page"' in home
    # the filter by packs offers exactly the numbers of packs listed, hidden until scripted
    form = re.search(r'<form class="chapter-filter" hidden>(.*?)</form>', home, re.DOTALL)
    assert form
    offered = re.findall(r'name="chapter-packs" value="(\w+)"', form.group(1))
    assert offered == ["all"] + sorted({p for _, p, _ in entries})


# ------------------------------------------------------------------ search

def test_search_index_has_the_authors_text_and_the_notes_offline() -> None:
    site = built_site()
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    by_page: dict[str, str] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#")[0]
        by_page[page] = by_page.get(page, "") + " " + doc["text"]
    niv = by_page["la-nivernaise/"]
    assert "scarcely worth while to continue the game" in niv  # the author's Note
    assert "privilege of information" in niv  # editorial note NI-1
    # The tooltips' definitions are not the chapter's text and are not indexed with it.
    assert "Free to be used" not in niv
    assert "Free to be used" in by_page["glossary/"]
    # The search runs in the browser from the site's own files.
    workers = list((site / "assets" / "javascripts" / "workers").glob("search.*.js"))
    assert workers


#: The games of the book, in its order: its forty-seven chapters, from La Belle Lucie (p. 7)
#: to Anna (p. 121), each title as the chapter heading prints it.
THE_BOOK = (
    "La Belle Lucie", "Napoleon at St. Helena", "The Fifteen", "The Salic Law",
    "The Four Corners", "The Mill", "The Shah", "The Blockade", "The Clock", "Fortress",
    "The Fourteenth", "The Sultan", "La Nivernaise", "The Empress of India",
    "The Besieged City", "The Flower-Garden", "The Hemispheres", "Napoleon’s Square",
    "The Constitution", "The Zodiac", "The Kings", "Babette", "Nestor", "Light and Shade",
    "The Labyrinth", "Spenser’s Fairie Queen", "The Terrace", "General Sedgewick",
    "The Queens", "The Herring-bone", "The Olga", "Cæsar", "Red and Black", "The Square",
    "Margarethe", "Mount Olympus", "The Wheel", "Two Rings", "The Nation", "The Carpet",
    "The Fish-bone", "The Congress", "The “Louis” Patience", "Sly", "The Great Thirteen",
    "Canfield or Klondike", "Anna",
)


def test_the_edition_holds_every_game_of_the_book() -> None:
    """Every one of the book's forty-seven games has its chapter, listed on the home page in
    the book's order, with its text, its plate and a board: none is left in preparation."""
    site = built_site()
    home = article(read(site, "."))
    titles = re.findall(r'<p class="chapter-entry__title"><a href="([\w-]+)/">(.*?)</a>'
                        r'(.*?)</p>', home, re.DOTALL)
    assert [html.unescape(t) for _, t, _ in titles] == list(THE_BOOK)
    assert "chapter-entry--preparing" not in home and "board to come" not in home
    chapters = [s for s, cls in engine.GAMES.items() if cls.chapter() == s]
    assert [s for s, _, _ in titles] == chapters


def test_each_drawn_diagram_is_offered_as_a_lossless_webp_of_the_same_pixels() -> None:
    """Every drawn figure of every chapter is a <picture>: its WebP files first (a third of
    the PNG's bytes), then the <img> on the PNG; the WebP holds exactly the PNG's pixels."""
    from PIL import Image

    site = built_site()
    seen = 0
    for slug in dict.fromkeys(cls.chapter() for cls in engine.GAMES.values()):
        text = read(site, slug)
        pictures = re.findall(r'<figure class="cadogan-diagram-figure" id="[\w-]+">'
                              r'<picture><source type="image/webp" srcset="([^"]+)">'
                              r'<img src="[^"]+" srcset="([^"]+)"', text)
        assert pictures and len(pictures) == text.count('class="cadogan-diagram-figure"'), slug
        for webps, pngs in pictures:
            pairs = list(zip((u.split()[0] for u in webps.split(", ")),
                             (u.split()[0] for u in pngs.split(", ")), strict=True))
            assert [w.removesuffix(".webp") for w, _ in pairs] == [
                p.removesuffix(".png") for _, p in pairs]
            for webp, png in pairs:
                w, p = (site / slug / u for u in (webp, png))
                assert w.stat().st_size < p.stat().st_size, webp
                with Image.open(w) as a, Image.open(p) as b:
                    assert a.format == "WEBP" and a.size == b.size
                    assert a.convert("RGB").tobytes() == b.convert("RGB").tobytes(), webp
                seen += 1
    assert seen >= 2 * len(engine.GAMES)
