"""mkdocs hook: the hint's speed, game by game, on the page ``solver.md``.

Replaces ``<div class="cadogan-hint-speed"></div>`` with a table made from the newest
committed measure of the solver's benchmark, ``bench/results/solver-DATE.json`` (written by
``python bench/solver_bench.py all --out ...``; the build never runs the benchmark): for each
game, the share of positions of random games on which the hint answers (won or lost) within a
second in the browser's Python, the positions the player who sees every card examines in a
second there, and whether the goal is met; then one sentence naming the games that meet it.
A game the measure does not cover is listed as not measured, never as zero. The same file
gives the same HTML.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from mkdocs.utils import get_relative_url

import engine

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
PAGE = "solver.md"
PLACEHOLDER = '<div class="cadogan-hint-speed"></div>'
#: The hint's goal (bench/solver_bench.py GOAL): answered on this share of positions.
GOAL = 0.9


def latest(results: Path = RESULTS) -> tuple[str, dict[str, Any]] | None:
    """The newest measure: (its date, its data), or None when there is none."""
    files = sorted(results.glob("solver-????-??-??.json"))
    if not files:
        return None
    newest = files[-1]
    data: dict[str, Any] = json.loads(newest.read_text(encoding="utf-8"))
    return newest.stem.removeprefix("solver-"), data


def _figure(row: dict[str, Any]) -> tuple[float | None, float | None, str]:
    """The share answered, the positions a second, and where they were measured: in the
    browser's Python (Pyodide) when the measure has it, else in CPython."""
    if "pyodide_hint_answered" in row:
        return row["pyodide_hint_answered"], row.get("pyodide_nodes_per_s"), "pyodide"
    return row.get("cpython_hint_answered"), row.get("cpython_nodes_per_s"), "cpython"


def _percent(x: float) -> str:
    return f"{round(x * 100)}%"


def _names(titles: list[str]) -> str:
    if len(titles) <= 1:
        return "".join(titles)
    return ", ".join(titles[:-1]) + " and " + titles[-1]


def table_html(measure: tuple[str, dict[str, Any]] | None, page_url: str) -> str:
    if measure is None:
        return ("<p>The hint’s speed has not been measured yet "
                "(<code>python bench/solver_bench.py all</code>).</p>")
    date, data = measure
    games: dict[str, Any] = data.get("games", {})
    book = list(engine.GAMES)
    measured = [s for s in book if s in games and _figure(games[s])[0] is not None]
    missing = [s for s in book if s not in measured]
    order = sorted(measured, key=lambda s: (-float(_figure(games[s])[0] or 0.0), book.index(s)))
    where = {_figure(games[s])[2] for s in measured}
    runtime = ("the browser’s Python (Pyodide) run by Node" if where == {"pyodide"}
               else "CPython" if where == {"cpython"} else "Pyodide, or CPython where marked")
    rows = []
    for slug in order + missing:
        cls = engine.GAMES[slug]
        url = get_relative_url(f"{cls.chapter()}/", page_url)
        if cls.chapter() != slug:
            url += f"#{cls.board_rule()}"
        head = f'<th scope="row"><a href="{html.escape(url)}">{html.escape(cls.title)}</a></th>'
        if slug in missing:
            rows.append(f"<tr>{head}<td>not measured</td><td>not measured</td>"
                        "<td>—</td></tr>")
            continue
        share, speed, at = _figure(games[slug])
        assert share is not None
        mark = " (CPython)" if at == "cpython" and where != {"cpython"} else ""
        speed_text = "—" if speed is None else f"{round(speed):,}"
        rows.append(f"<tr>{head}<td>{_percent(share)}{mark}</td><td>{speed_text}</td>"
                    f"<td>{'met' if share >= GOAL else 'not met'}</td></tr>")
    met = [engine.GAMES[s].title for s in order if float(_figure(games[s])[0] or 0) >= GOAL]
    count = len(met)
    words = ("", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten")
    many = words[count] if count < len(words) else f"{count:,}"
    sentence = ("No game meets the goal yet." if not met else
                f"{'One game meets' if count == 1 else f'{many} games meet'} the goal: "
                f"{html.escape(_names(met))}.")
    machine = data.get("machine") or ""
    load = data.get("load_average_1min_at_start_and_end")
    note = f" {html.escape(machine)}" if machine else ""
    if load:
        note += (f" The machine’s load average was {load[0]:.1f} at the start and "
                 f"{load[-1]:.1f} at the end.")
    return (f'<p class="cadogan-hint-speed__when">Measured on {html.escape(date)}, in '
            f"{runtime}, on {data.get('positions', 20)} positions a game.{note}</p>"
            '<table class="cadogan-hint-speed"><thead><tr><th scope="col">Game</th>'
            '<th scope="col">Answered within a second</th>'
            '<th scope="col">Positions examined a second</th>'
            '<th scope="col">Goal</th></tr></thead><tbody>' + "".join(rows)
            + f"</tbody></table><p>{sentence}</p>")


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri != PAGE or PLACEHOLDER not in html_text:
        return html_text
    return html_text.replace(PLACEHOLDER, table_html(latest(), page.url))
