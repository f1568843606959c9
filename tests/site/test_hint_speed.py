"""The hint's speed on the solver page comes from the newest committed benchmark measure,
covers every game, and says "not measured" rather than a zero (build_scripts/hint_speed.py)."""

from __future__ import annotations

import re

import engine
from build_scripts import hint_speed
from tests.site._built import built_site

ROW = re.compile(r'<tr><th scope="row"><a href="[^"]*">(?P<title>[^<]+)</a></th>'
                 r"<td>(?P<share>[^<]+)</td><td>(?P<speed>[^<]+)</td><td>(?P<goal>[^<]+)</td></tr>")


def _rows(text: str) -> list[dict[str, str]]:
    return [m.groupdict() for m in ROW.finditer(text)]


def test_the_table_orders_by_share_and_names_what_was_not_measured() -> None:
    slugs = list(engine.GAMES)
    fast, slow = slugs[3], slugs[1]
    measure = ("2030-01-02", {"positions": 20, "games": {
        slow: {"pyodide_hint_answered": 0.25, "pyodide_nodes_per_s": 812.4},
        fast: {"pyodide_hint_answered": 0.95, "pyodide_nodes_per_s": 4100.0},
    }})
    rows = _rows(hint_speed.table_html(measure, "solver/"))
    titles = [r["title"] for r in rows]
    assert titles[:2] == [engine.GAMES[fast].title, engine.GAMES[slow].title]
    assert rows[0]["share"] == "95%" and rows[0]["goal"] == "met"
    assert rows[0]["speed"] == "4,100"
    assert rows[1]["share"] == "25%" and rows[1]["goal"] == "not met"
    assert len(rows) == len(slugs)
    assert all(r["share"] == "not measured" for r in rows[2:])
    assert f"One game meets the goal: {engine.GAMES[fast].title}." in \
        hint_speed.table_html(measure, "solver/").replace("&#x27;", "'")


def test_no_measure_is_said_in_words() -> None:
    assert "has not been measured" in hint_speed.table_html(None, "solver/")


def test_the_solver_page_shows_the_newest_measure_for_every_game() -> None:
    found = hint_speed.latest()
    assert found is not None, "no bench/results/solver-DATE.json is committed"
    date, data = found
    page = (built_site() / "solver" / "index.html").read_text(encoding="utf-8")
    assert hint_speed.PLACEHOLDER not in page
    assert f"Measured on {date}" in page
    rows = {r["title"].replace("&#x27;", "'"): r for r in _rows(page)}
    assert len(rows) == len(engine.GAMES)
    for slug, cls in engine.GAMES.items():
        row = rows[cls.title]
        figure = data["games"].get(slug, {}).get("pyodide_hint_answered")
        if figure is None:
            assert row["share"] == "not measured", slug
        else:
            assert row["share"] == f"{round(figure * 100)}%", slug
            assert row["goal"] == ("met" if figure >= hint_speed.GOAL else "not met"), slug
