"""Build hook: the odds of every reading, on the pages, from the committed data only.

Reads ``docs/data/odds/summary.json`` (written by ``make odds``, ``build_scripts/odds.py``;
the build never runs the solver) and makes:

- in each editorial note that offers a reading (after its ``cadogan-option`` control), one
  line with the odds of the edition's reading and of each other value of that option;
- in each chapter's board section, just before the board, the odds of the default reading;
- on the page ``odds.md``: the table of every game (``<div class="cadogan-odds-table">``),
  sorted from the game that comes out most often to the one that comes out least (a small
  script, ``odds-table.js``, lets a reader sort it by any column; without it the table keeps
  that order), the table of every reading (``cadogan-odds-readings``), and the chart
  (``cadogan-odds-chart``): an SVG drawn with matplotlib at build time into
  ``assets/odds/odds-chart.svg``, its text alternative the table;
- on the home page, each game's band, "often", "sometimes" or "seldom" (from the careful
  player's share of wins), as ``data-odds`` and a line on its entry, and a second set of
  choices in the games' filter (``chapter-filter.js``).

Where a game or a reading has no data yet, the pages say so in words: no zero stands for a
figure not measured. The same data give byte-identical pages and SVG (no dates of the build;
matplotlib's ``svg.hashsalt`` fixed, its Date metadata removed, text kept as text).
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

import engine
from build_scripts import odds

ODDS_PAGE = "odds.md"
HOME = "index.md"
CHART = "assets/odds/odds-chart.svg"
#: The careful player's share of wins that makes a game come out "often" (at least this),
#: or "seldom" (below SELDOM); in between, "sometimes".
OFTEN = 0.40
SELDOM = 0.10
BANDS = [("often", "Often"), ("sometimes", "Sometimes"), ("seldom", "Seldom"),
         ("unknown", "Not yet measured")]
BAND_WORDS = {
    "often": f"a careful player wins at least {round(OFTEN * 100)}% of deals",
    "sometimes": (f"a careful player wins between {round(SELDOM * 100)}% and "
                  f"{round(OFTEN * 100)}% of deals"),
    "seldom": f"a careful player wins fewer than {round(SELDOM * 100)}% of deals",
    "unknown": "no odds computed yet",
}

_OPTION_RE = re.compile(
    r'<fieldset\b(?P<attrs>[^>]*\bclass="cadogan-option"[^>]*)>[\s\S]*?</fieldset>'
    r'|<div\b(?P<dattrs>[^>]*\bclass="cadogan-option"[^>]*)>\s*</div>')
_BOARD_RE = re.compile(r'<div\b[^>]*\bclass="cadogan-board"[^>]*\bdata-game="(?P<slug>[^"]+)"')
_ATTR_RE = re.compile(r'([a-zA-Z_:][-\w:.]*)\s*=\s*"([^"]*)"')
_ENTRY_RE = re.compile(r'<li class="chapter-entry(?P<cls>[^"]*)" data-chapter="(?P<slug>[^"]+)"'
                       r'(?P<rest>[^>]*)>(?P<body>[\s\S]*?)</li>')


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


# ---- figures in words ------------------------------------------------------------------------

def percent(share: float) -> str:
    """A share as a whole percentage, never rounding a non-zero share to 0% or an incomplete
    one to 100%."""
    if 0 < share < 0.005:
        return "under 1%"
    if 0.995 < share < 1:
        return "over 99%"
    return f"{round(share * 100)}%"


def margin(k: int, n: int) -> str:
    """The Wilson 95% interval's larger half-width, in percentage points (at least 1)."""
    lo, hi = odds.wilson(k, n)
    p = k / n
    return f"±{max(1, round(max(p - lo, hi - p) * 100))}"


def deals(n: int) -> str:
    return f"{n:,} deal" + ("" if n == 1 else "s")


def figures(r: dict[str, Any]) -> dict[str, str]:
    """The words and numbers of one reading's summary."""
    n = r["deals"]
    return {
        "won": percent(r["won"] / n), "won_pm": margin(r["won"], n),
        "winnable": percent((r["won"] + r["undecided"]) / n),
        "undecided": percent(r["undecided"] / n),
        "careful": percent(r["careful_won"] / n), "careful_pm": margin(r["careful_won"], n),
        "deals": deals(n),
    }


def solver_words(r: dict[str, Any]) -> str:
    """What perfect play wins: "41% of deals can be won (±3)", and the share undecided when
    there is one (those deals are neither won nor lost in the figures)."""
    f = figures(r)
    und = f' and {f["undecided"]} are undecided' if r["undecided"] else ""
    return f'{f["won"]} of deals can be won ({f["won_pm"]}){und}'


def reading_sentence(r: dict[str, Any] | None, lead: str) -> str:
    """``lead`` ("With this reading") followed by the odds of one reading, as a sentence:
    "With this reading, 41% of deals can be won (±3); a careful player wins 23% (±3), over
    1,000 deals."."""
    if r is None:
        return f"{lead}, no odds have been computed yet."
    f = figures(r)
    return (f'{lead}, {solver_words(r)}; a careful player wins {f["careful"]} '
            f'({f["careful_pm"]}), over {f["deals"]}.')


def band(r: dict[str, Any] | None) -> str:
    if r is None:
        return "unknown"
    share = r["careful_won"] / r["deals"]
    return "often" if share >= OFTEN else ("seldom" if share < SELDOM else "sometimes")


def game_summary(summary: dict[str, Any], slug: str) -> dict[str, Any]:
    """The summary's readings of ``slug`` (empty when the game has none)."""
    got: dict[str, Any] = summary.get("games", {}).get(slug, {}).get("readings", {})
    return got


# ---- the chapter pages -----------------------------------------------------------------------

def note_line(slug: str, option: str, summary: dict[str, Any], odds_url: str) -> str:
    """The note's line: the odds of the edition's reading and of each other value of
    ``option``."""
    data = game_summary(summary, slug)
    alts = [r for r in odds.readings(slug) if r.option == option]
    default = data.get("")
    parts = [reading_sentence(default, "With the edition’s reading (" +
                              _e(odds.default_choice_label(slug, option)) + ")")]
    for r in alts:
        parts.append(reading_sentence(data.get(r.options), f"With “{_e(r.label)}”"))
    return (f'<p class="cadogan-odds" data-game="{_e(slug)}" data-option="{_e(option)}">'
            f'<span class="cadogan-odds__head">The odds.</span> ' + " ".join(parts) +
            f' <a href="{_e(odds_url)}">How often each game comes out</a>.</p>')


def board_line(slug: str, summary: dict[str, Any], odds_url: str) -> str:
    r = game_summary(summary, slug).get("")
    if r is None:
        body = ("No odds have been computed for this game yet: how often it comes out is "
                "still to be measured.")
    else:
        f = figures(r)
        body = (f'With the edition’s readings, {solver_words(r)}; a careful player, who never '
                f'looks at a hidden card, wins {f["careful"]} ({f["careful_pm"]}), over '
                f'{f["deals"]}.')
    return (f'<p class="cadogan-odds cadogan-odds--board" data-game="{_e(slug)}">'
            f'<span class="cadogan-odds__head">How often it comes out.</span> {body} '
            f'<a href="{_e(odds_url)}">Every game compared</a>.</p>')


def _attrs(text: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in _ATTR_RE.findall(text)}


def chapter_html(page_html: str, summary: dict[str, Any], odds_url: str) -> str:
    def option(m: re.Match[str]) -> str:
        attrs = _attrs(m.group("attrs") or m.group("dattrs"))
        slug, name = attrs.get("data-game", ""), attrs.get("data-option", "")
        if slug not in engine.GAMES:
            return m.group(0)
        return m.group(0) + note_line(slug, name, summary, odds_url)

    out = _OPTION_RE.sub(option, page_html)
    # each board of the page (La Belle Lucie's page has three), the last first
    for m in reversed(list(_BOARD_RE.finditer(out))):
        if m.group("slug") in engine.GAMES:
            out = (out[:m.start()] + board_line(m.group("slug"), summary, odds_url)
                   + out[m.start():])
    return out


# ---- the odds page ---------------------------------------------------------------------------

def _difficulty_key(slug: str, summary: dict[str, Any]) -> tuple[int, float, float, int]:
    r = game_summary(summary, slug).get("")
    order = list(engine.GAMES).index(slug)
    if r is None:
        return (1, 0.0, 0.0, order)
    return (0, -r["careful_won"] / r["deals"], -r["won"] / r["deals"], order)


def games_by_difficulty(summary: dict[str, Any]) -> list[str]:
    """The games from the one a careful player wins most often to the one the player wins
    least (then by the share perfect play wins; games without data last, in the book's
    order)."""
    return sorted(engine.GAMES, key=lambda s: _difficulty_key(s, summary))


def stale(r: dict[str, Any], slug: str) -> str:
    """A mark on figures computed by another version of the game's engine code than the
    one this build ships (the hash is recomputed here; ``make odds`` recomputes the
    figures)."""
    if r.get("engine") in (None, [odds.engine_hash(slug)]):
        return ""
    return (' <span class="cadogan-odds__stale">(by an earlier version of the rules engine)'
            '</span>')


def _cell(value: float | None, text: str) -> str:
    sort = "" if value is None else f' data-sort="{value:.6f}"'
    return f"<td{sort}>{text}</td>"


def _share_cell(k: int, n: int) -> str:
    lo, hi = odds.wilson(k, n)
    return _cell(k / n, f'{percent(k / n)} <span class="cadogan-odds__ci">'
                        f'({percent(lo)}–{percent(hi)})</span>')


def _chapter_url(slug: str, page_url: str) -> str:
    """The page that plays the game ``slug`` (its chapter's)."""
    return get_relative_url(f"{engine.GAMES[slug].chapter()}/", page_url)


def _game_url(slug: str, page_url: str) -> str:
    """Where to read about the game: its chapter, or for a game played on another chapter's
    page (The House in the Wood, on La Belle Lucie's), the heading of its board there."""
    cls = engine.GAMES[slug]
    url = _chapter_url(slug, page_url)
    return url if cls.chapter() == slug else f"{url}#{cls.board_rule()}"


def games_table(summary: dict[str, Any], page_url: str) -> str:
    rows = []
    for rank, slug in enumerate(games_by_difficulty(summary), 1):
        cls = engine.GAMES[slug]
        r = game_summary(summary, slug).get("")
        head = (f'<th scope="row" data-sort="{_e(cls.title)}">'
                f'<a href="{_e(_game_url(slug, page_url))}">{_e(cls.title)}</a></th>')
        if r is None:
            rows.append(f'<tr data-game="{_e(slug)}">{head}<td data-sort="">—</td>'
                        '<td colspan="4" class="cadogan-odds__none">No odds computed yet.</td>'
                        '</tr>')
            continue
        n = r["deals"]
        rows.append(
            f'<tr data-game="{_e(slug)}">{head}{_cell(rank, str(rank))}'
            f'{_cell(n, f"{n:,}" + stale(r, slug))}'
            f'{_share_cell(r["careful_won"], n)}{_share_cell(r["won"], n)}'
            f'{_cell(r["undecided"] / n, percent(r["undecided"] / n))}</tr>')
    head = ("<thead><tr>"
            '<th scope="col" data-type="text">Game</th>'
            '<th scope="col" data-type="number" aria-sort="ascending">Rank</th>'
            '<th scope="col" data-type="number">Deals</th>'
            '<th scope="col" data-type="number">A careful player wins (95% interval)</th>'
            '<th scope="col" data-type="number">Perfect play wins (95% interval)</th>'
            '<th scope="col" data-type="number">Undecided</th>'
            "</tr></thead>")
    return ('<div class="cadogan-odds-wrap"><table class="cadogan-odds-table" '
            'data-sortable="1" id="odds-games">'
            '<caption>Each game at the edition’s readings, from the game that comes out most '
            'often to the one that comes out least (rank 1: a careful player wins most '
            'often).</caption>' + head + "<tbody>" + "".join(rows) + "</tbody></table></div>")


def readings_table(summary: dict[str, Any], page_url: str) -> str:
    body = []
    for slug in engine.GAMES:
        cls = engine.GAMES[slug]
        data = game_summary(summary, slug)
        rs = odds.readings(slug)
        for i, r in enumerate(rs):
            game = (f'<th scope="rowgroup" rowspan="{len(rs)}">'
                    f'<a href="{_e(_game_url(slug, page_url))}">{_e(cls.title)}</a></th>'
                    if i == 0 else "")
            if r.options:
                label = engine.describe_options(cls.Options)
                name = next(d["label"] for d in label if d["name"] == r.option)
                href = _chapter_url(slug, page_url) + "#" + r.note
                what = (f'<a href="{_e(href)}">{_e(name)}</a>: {_e(r.label)}')
            else:
                what = "The edition’s readings"
            s = data.get(r.options)
            if s is None:
                cells = '<td colspan="4" class="cadogan-odds__none">No odds computed yet.</td>'
            else:
                n = s["deals"]
                lo, hi = odds.wilson(s["careful_won"], n)
                wlo, whi = odds.wilson(s["won"], n)
                cells = (f'<td>{n:,}{stale(s, slug)}</td>'
                         f'<td>{percent(s["careful_won"] / n)} <span class="cadogan-odds__ci">'
                         f'({percent(lo)}–{percent(hi)})</span></td>'
                         f'<td>{percent(s["won"] / n)} <span class="cadogan-odds__ci">'
                         f'({percent(wlo)}–{percent(whi)})</span></td>'
                         f'<td>{percent(s["undecided"] / n)}</td>')
            body.append(f'<tr data-game="{_e(slug)}" data-options="{_e(r.options)}">{game}'
                        f'<th scope="row">{what}</th>{cells}</tr>')
    head = ('<thead><tr><th scope="col">Game</th><th scope="col">Reading</th>'
            '<th scope="col">Deals</th><th scope="col">A careful player wins</th>'
            '<th scope="col">Perfect play wins</th><th scope="col">Undecided</th></tr></thead>')
    return ('<div class="cadogan-odds-wrap"><table class="cadogan-odds-table cadogan-odds-readings"'
            ' id="odds-readings"><caption>Every reading: the edition’s, and each other reading '
            'offered in the notes, changed alone.</caption>' + head + "<tbody>" + "".join(body)
            + "</tbody></table></div>")


CHART_ALT = ("Bar chart of how often each game comes out at the edition’s readings: for each "
             "game, the share of deals that perfect play wins and the share a careful player "
             "wins, with their 95% intervals. The table below gives the same figures.")


def chart_svg(summary: dict[str, Any]) -> bytes:
    """The chart, deterministic SVG: one row per game in the table's order; a bar for the
    share perfect play wins (a paler extension for the undecided), a bar for the careful
    player's, each with its Wilson interval."""
    import matplotlib

    matplotlib.use("svg")
    from matplotlib import pyplot as plt

    slugs = games_by_difficulty(summary)
    titles = [engine.GAMES[s].title for s in slugs]
    rc: Any = {"svg.hashsalt": "cadogan-odds", "svg.fonttype": "none",
          "font.family": "DejaVu Sans", "font.size": 9, "axes.unicode_minus": False}
    with plt.rc_context(rc):
        height = 0.34 * len(slugs) + 1.3
        fig, ax = plt.subplots(figsize=(7.2, height), dpi=100)
        fig.patch.set_facecolor("white")
        ys = list(range(len(slugs)))
        for y, slug in zip(ys, slugs):
            r = game_summary(summary, slug).get("")
            if r is None:
                ax.text(1, y, "no odds computed yet", va="center", ha="left",
                        color="#555555", fontsize=8)
                continue
            n = r["deals"]
            won, und, car = r["won"] / n, r["undecided"] / n, r["careful_won"] / n
            ax.barh(y - 0.17, won * 100, height=0.32, color="#6d4c41",
                    label="Perfect play wins" if y == 0 else None)
            if und:
                ax.barh(y - 0.17, und * 100, left=won * 100, height=0.32, color="#d7ccc8",
                        hatch="///", edgecolor="#8d6e63", linewidth=0,
                        label="Undecided" if y == 0 else None)
            ax.barh(y + 0.17, car * 100, height=0.32, color="#e65100",
                    label="A careful player wins" if y == 0 else None)
            for k, dy in ((r["won"], -0.17), (r["careful_won"], 0.17)):
                lo, hi = odds.wilson(k, n)
                ax.plot([lo * 100, hi * 100], [y + dy, y + dy], color="black", linewidth=0.9)
        ax.set_yticks(ys)
        ax.set_yticklabels(titles)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel("Share of deals won (%); the black lines are 95% intervals")
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        handles, labels = ax.get_legend_handles_labels()
        if handles:
            ax.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3,
                      frameon=False)
        fig.tight_layout()
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
        plt.close(fig)
    svg = buf.getvalue()
    # The picture speaks for itself when opened alone: role, name and title.
    svg = re.sub(r"<svg\b", f'<svg role="img" aria-label="{_e(CHART_ALT)}"', svg, count=1)
    svg = re.sub(r"(<svg\b[^>]*>)", r"\1<title>" + _e(CHART_ALT) + "</title>", svg, count=1)
    return svg.encode("utf-8")


def chart_html(page_url: str) -> str:
    src = get_relative_url(CHART, page_url)
    return (f'<figure class="cadogan-odds-chart" id="odds-chart"><img src="{_e(src)}" alt="{_e(CHART_ALT)}" '
            'loading="lazy"><figcaption>How often each game comes out at the edition’s '
            'readings: perfect play (dark), the careful player (orange), and, in pale '
            'hatching, the deals the solver left undecided. The table gives the same '
            'figures.</figcaption></figure>')


def _date(iso: str) -> str:
    import datetime

    d = datetime.date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


def budget_html(summary: dict[str, Any]) -> str:
    """One sentence on how the figures were made: the solver's budgets and the dates, from
    the summary."""
    nodes: set[int] = set()
    limits: set[float] = set()
    dates: set[str] = set()
    for game in summary.get("games", {}).values():
        for r in game.get("readings", {}).values():
            nodes.update(r.get("budget_nodes", []))
            limits.update(x for x in r.get("budget_seconds", []) if x is not None)
            if r.get("date"):
                dates.add(r["date"])
    if not nodes:
        return ('<p class="cadogan-odds-budget">No odds have been computed yet: the tables '
                'say so for every game.</p>')
    budget = " or ".join(f"{n:,}" for n in sorted(nodes)) + " positions"
    if limits:
        budget += " and at most " + " or ".join(f"{x:g}" for x in sorted(limits)) + " seconds"
    when = ("on " + _date(min(dates)) if len(dates) == 1
            else f"between {_date(min(dates))} and {_date(max(dates))}")
    return (f'<p class="cadogan-odds-budget">These figures were computed {when}. The solver '
            f'was allowed {budget} per deal: a deal it could neither win nor prove lost within '
            'that budget is counted as undecided, so the share of deals that can be won lies '
            'somewhere between the share won and that share plus the undecided.</p>')


def odds_page_html(page_html: str, summary: dict[str, Any], page_url: str) -> str:
    return (page_html
            .replace('<div class="cadogan-odds-budget"></div>', budget_html(summary))
            .replace('<div class="cadogan-odds-chart"></div>', chart_html(page_url))
            .replace('<div class="cadogan-odds-table"></div>', games_table(summary, page_url))
            .replace('<div class="cadogan-odds-readings"></div>',
                     readings_table(summary, page_url)))


# ---- the home page ---------------------------------------------------------------------------

def home_html(page_html: str, summary: dict[str, Any]) -> str:
    """Each game's entry gets its band (``data-odds``) and a line; the games' filter gets a
    second set of choices, by how often the game comes out."""
    seen: list[str] = []

    def entry(m: re.Match[str]) -> str:
        slug = m.group("slug")
        r = game_summary(summary, slug).get("") if slug in engine.GAMES else None
        b = band(r)
        seen.append(b)
        if r is None:
            words = "How often it comes out: not yet measured."
        else:
            words = (f'Comes out {b}: a careful player wins {percent(r["careful_won"] / r["deals"])}'
                     f' of deals, perfect play {percent(r["won"] / r["deals"])}.')
        body = m.group("body")
        line = f'<p class="chapter-entry__odds">{words}</p>'
        body = (body[:-len("</div>")] + line + "</div>") if body.endswith("</div>") else body + line
        return (f'<li class="chapter-entry{m.group("cls")}" data-chapter="{slug}"'
                f'{m.group("rest")} data-odds="{b}">{body}</li>')

    out = _ENTRY_RE.sub(entry, page_html)
    present = [(v, label) for v, label in BANDS if v in seen]
    if not present:
        return out
    radios = "".join(
        f'<label><input type="radio" name="chapter-odds" value="{v}"'
        f'{" checked" if v == "any" else ""}> {_e(label)}'
        + (f' <span class="chapter-filter__hint">({_e(BAND_WORDS[v])})</span>' if v in BAND_WORDS
           else "") + "</label>"
        for v, label in [("any", "Any")] + present)
    fieldset = ('<fieldset class="chapter-filter__odds"><legend>How often the game comes out'
                f'</legend>{radios}</fieldset>')
    return re.sub(r'(<form class="chapter-filter"[^>]*>[\s\S]*?</fieldset>)',
                  lambda m: m.group(1) + fieldset, out, count=1)


# ---- mkdocs hook events ----------------------------------------------------------------------

_state: dict[str, Any] = {}


def on_config(config: Any) -> Any:
    _state.clear()
    _state["summary"] = odds.load_summary(Path(config["docs_dir"]) / "data" / "odds")
    return config


def _summary() -> dict[str, Any]:
    if "summary" not in _state:
        _state["summary"] = odds.load_summary()
    got: dict[str, Any] = _state["summary"]
    return got


@event_priority(-10)  # after board_embed, which writes the option controls and the board
def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    src = page.file.src_uri
    odds_url = get_relative_url(ODDS_PAGE.replace(".md", "/"), page.url)
    if src == ODDS_PAGE:
        _state["odds_page"] = True
        return odds_page_html(html_text, _summary(), page.url)
    if "cadogan-option" in html_text or "cadogan-board" in html_text:
        return chapter_html(html_text, _summary(), odds_url)
    return html_text


@event_priority(-60)  # after illustrations.py has written the home page's list of games
def on_env(env: Any, config: Any, files: Any) -> Any:
    for f in files.documentation_pages():
        if f.src_uri == HOME and f.page is not None and f.page.content:
            f.page.content = home_html(f.page.content, _summary())
    if _state.get("odds_page"):
        # Written before the other hooks' checks of the built site (on_post_build).
        target = Path(config["site_dir"]) / CHART
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(chart_svg(_summary()))
    return env
