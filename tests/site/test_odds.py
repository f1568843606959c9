"""The odds of every reading on the built site (build_scripts/odds_pages.py, from the committed
docs/data/odds/summary.json): the page exists, with an accessible table and a chart with a
text alternative; each reading's line appears in its note and the default's in the board
section; a game or reading without data says so in words; the statistics are right."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

import engine
from build_scripts import odds, odds_pages

from _built import built_site

SUMMARY = odds.load_summary()


def section(page: str, anchor: str) -> str:
    """The HTML of one note (from its id to the next note or heading)."""
    start = page.index(f'id="{anchor}"')
    ends = [i for i in (page.find('id="note-', start + 5), page.find("<h2", start)) if i > 0]
    return page[start:min(ends) if ends else len(page)]


# ---- the statistics and the words --------------------------------------------------------

@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (1, 20, 0.0089, 0.2361),
])
def test_the_wilson_interval_matches_known_values(k: int, n: int, lo: float, hi: float) -> None:
    got = odds.wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_the_wilson_interval_of_no_deals_is_everything() -> None:
    assert odds.wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        odds.wilson(3, 2)


def test_a_share_is_never_rounded_to_nothing_or_to_everything() -> None:
    assert odds_pages.percent(0.001) == "under 1%"
    assert odds_pages.percent(0.999) == "over 99%"
    assert odds_pages.percent(0.0) == "0%" and odds_pages.percent(1.0) == "100%"
    assert odds_pages.percent(0.414) == "41%"


def reading(won: int, lost: int, undecided: int, careful: int) -> dict[str, Any]:
    n = won + lost + undecided
    return {"deals": n, "won": won, "lost": lost, "undecided": undecided,
            "careful_won": careful, "last_deal": n, "first_deal": 1}


def test_a_reading_line_gives_n_the_margins_and_the_undecided() -> None:
    line = odds_pages.reading_sentence(reading(410, 590, 0, 230), "With this reading")
    assert line == ("With this reading, 41% of deals can be won (±3); a careful player wins "
                    "23% (±3), over 1,000 deals.")
    line = odds_pages.reading_sentence(reading(82, 108, 10, 40), "With this reading")
    assert "41% of deals can be won (±7) and 5% are undecided" in line
    assert "over 200 deals" in line


def test_missing_data_is_said_in_words() -> None:
    empty: dict[str, Any] = {"games": {}}
    slug = "la-nivernaise"
    note = odds_pages.note_line(slug, "examined_use", empty, "../odds/")
    assert note.count("no odds have been computed yet") == 3  # the default and two others
    assert "%" not in note
    board = odds_pages.board_line(slug, empty, "../odds/")
    assert "No odds have been computed for this game yet" in board and "%" not in board
    table = odds_pages.games_table(empty, "odds/")
    assert table.count("No odds computed yet.") == len(engine.GAMES)
    home = odds_pages.home_html(
        '<form class="chapter-filter" hidden><fieldset><legend>x</legend></fieldset></form>'
        f'<ul class="chapter-list"><li class="chapter-entry" data-chapter="{slug}" '
        'data-packs="2"><div class="chapter-entry__text"><p>t</p></div></li></ul>', empty)
    assert 'data-odds="unknown"' in home and "not yet measured" in home
    assert 'name="chapter-odds" value="unknown"' in home


def test_the_bands_follow_the_careful_players_share() -> None:
    assert odds_pages.band(reading(50, 50, 0, 45)) == "often"
    assert odds_pages.band(reading(50, 50, 0, 20)) == "sometimes"
    assert odds_pages.band(reading(50, 50, 0, 5)) == "seldom"
    assert odds_pages.band(None) == "unknown"


def test_the_chart_is_reproducible_and_has_a_text_alternative() -> None:
    one, two = odds_pages.chart_svg(SUMMARY), odds_pages.chart_svg(SUMMARY)
    assert one == two
    text = one.decode()
    assert re.search(r'<svg role="img" aria-label="[^"]+"', text)
    assert "<title>" in text and "<dc:date>" not in text
    for slug in engine.GAMES:  # the game names are text, not paths
        title = engine.GAMES[slug].title
        assert title.replace("’", "&#8217;") in text or title in text, title


# ---- the built site ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site() -> Path:
    return built_site()


def test_the_odds_page_has_its_table_chart_and_every_reading(site: Path) -> None:
    page = (site / "odds" / "index.html").read_text(encoding="utf-8")
    assert "How often does each patience come out?" in page
    games = page[page.index('id="odds-games"'):page.index("</table>", page.index('id="odds-games"'))]
    assert games.count('<th scope="col"') == 6
    assert games.count('<th scope="row"') == len(engine.GAMES)
    assert "<caption>" in games
    img = re.search(r'<figure class="cadogan-odds-chart" id="odds-chart"><img src="([^"]+)" '
                    r'alt="([^"]+)"', page)
    assert img and "table" in img.group(2)
    svg = (site / "odds" / img.group(1)).resolve().read_text(encoding="utf-8")
    assert 'role="img"' in svg and "<title>" in svg
    every = page[page.index('id="odds-readings"'):]
    n_readings = sum(len(odds.readings(s)) for s in engine.GAMES)
    assert every.count("<tr data-game=") == n_readings
    nav = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="odds/"' in nav


@pytest.mark.parametrize("slug", sorted(engine.GAMES))
def test_each_reading_has_its_odds_in_its_note(site: Path, slug: str) -> None:
    # the page that plays the game (The House in the Wood is played on La Belle Lucie's)
    page = (site / engine.GAMES[slug].chapter() / "index.html").read_text(encoding="utf-8")
    data = SUMMARY.get("games", {}).get(slug, {}).get("readings", {})
    controls = re.findall(rf'<fieldset class="cadogan-option" data-game="{slug}" '
                          r'data-board="[^"]+" data-option="([^"]+)"', page)
    for d in engine.describe_options(engine.GAMES[slug].Options):
        if d["name"] not in controls:
            continue
        note = section(page, d["note"])
        m = re.search(rf'<p class="cadogan-odds" data-game="{slug}" data-option="{d["name"]}">'
                      r"([\s\S]*?)</p>", note)
        assert m, f'{slug}: no odds line in {d["note"]}'
        line = m.group(1)
        alternatives = [c for c in d["choices"] if c["value"] != d["default"]]
        for c in alternatives:
            r = data.get(f'{d["name"]}:{c["value"]}')
            assert html.escape(c["label"]) in line
            if r is None:
                assert "no odds have been computed yet" in line
            else:
                assert f'over {r["deals"]:,} deal' in line
    board = re.search(rf'<p class="cadogan-odds cadogan-odds--board" data-game="{slug}">'
                      r'([\s\S]*?)</p><div class="cadogan-board"', page)
    assert board, f"{slug}: no odds line before the board"
    if "" in data:
        assert f'over {data[""]["deals"]:,} deal' in board.group(1)
    else:
        assert "No odds have been computed for this game yet" in board.group(1)


def test_the_summary_records_what_the_pages_need() -> None:
    path = odds.DATA / odds.SUMMARY
    assert path.is_file(), "make odds writes docs/data/odds/summary.json"
    summary = json.loads(path.read_text(encoding="utf-8"))
    for slug, game in summary["games"].items():
        assert slug in engine.GAMES
        for opts, r in game["readings"].items():
            assert r["won"] + r["lost"] + r["undecided"] == r["deals"] > 0
            assert r["budget_nodes"] and r["engine"] and r["date"]
            assert r["won_interval"] == [round(x, 4) for x in odds.wilson(r["won"], r["deals"])]


def test_figures_from_another_engine_are_marked() -> None:
    current = odds.engine_hash("nestor")
    assert odds_pages.stale({"engine": [current]}, "nestor") == ""
    assert "earlier version" in odds_pages.stale({"engine": ["0123456789ab"]}, "nestor")
    assert "earlier version" in odds_pages.stale({"engine": ["0123456789ab", current]}, "nestor")


def test_the_page_says_how_the_figures_were_made() -> None:
    one = {"games": {"nestor": {"readings": {"": {
        "budget_nodes": [1000], "budget_seconds": [15.0, None], "date": "2026-11-30"}}}}}
    text = odds_pages.budget_html(one)
    assert "on 30 November 2026" in text and "1,000 positions and at most 15 seconds" in text
    assert "No odds have been computed yet" in odds_pages.budget_html({"games": {}})
