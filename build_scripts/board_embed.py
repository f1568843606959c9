"""Build hook: turn the chapter's placeholders into the playable board and its option controls.

``<div class="cadogan-board" data-game="SLUG"></div>`` (optionally ``data-deal="N"``, else
deal 1) becomes the board's markup: its controls, the engine's action buttons, a status
line, an ARIA live region, the runtime's paths, and the view of the deal's first position
as JSON (attribute ``data-initial``), which ``board.js`` draws at once, before Pyodide is ready.

``<div class="cadogan-option" data-game="SLUG" data-option="FIELD"></div>`` becomes a
labelled control (radio buttons, or a select for many choices) for that engine option,
built from ``engine.describe_options``; choosing a reading switches the board.

Everything the board needs from the game comes from the engine; the markup is generic.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from mkdocs.utils import get_relative_url

import engine
from build_scripts import engine_archive, pyodide_runtime

try:
    from mkdocs.exceptions import PluginError as _BuildError
except ImportError:  # pragma: no cover
    _BuildError = RuntimeError  # type: ignore[misc,assignment]

DEFAULT_DEAL = 1
#: The board's script, relative to the site root (under docs/).
BOARD_SCRIPT = "assets/javascripts/board.js"
#: Keys the board keeps for itself; an action whose key is one of these takes Shift.
RESERVED_KEYS = {"u": "Undo", "r": "Redo", "n": "New deal"}
#: Above this many choices an option is a select rather than radio buttons.
MAX_RADIOS = 4

_BOARD_RE = re.compile(r'<div\b(?P<attrs>[^>]*\bclass="cadogan-board"[^>]*)>\s*</div>')
_OPTION_RE = re.compile(r'<div\b(?P<attrs>[^>]*\bclass="cadogan-option"[^>]*)>\s*</div>')
_ATTR_RE = re.compile(r'([a-zA-Z_:][-\w:.]*)\s*=\s*"([^"]*)"')


def _attrs(text: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in _ATTR_RE.findall(text)}


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _json_attribute(data: Any) -> str:
    """JSON as a single-quoted HTML attribute value (quotes left as they are: compact).

    Not a ``<script type="application/json">``: Material's instant navigation re-runs every
    inline script of a new page as JavaScript, type or no type."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;")
            .replace(">", "&gt;"))


def shortcut(key: str) -> str:
    """The keyboard shortcut of an action key, as ``aria-keyshortcuts`` writes it."""
    k = key.lower()
    return f"Shift+{k.upper()}" if k in RESERVED_KEYS else k.upper()


class Runtime:
    """The paths the board's worker needs, relative to the site root."""

    def __init__(self, pyodide: str, archive: str) -> None:
        self.pyodide = pyodide
        self.archive = archive

    @classmethod
    def current(cls) -> Runtime:
        name, _ = engine_archive.current_archive()
        return cls(pyodide_runtime.runtime_path(), name)


def _game_class(slug: str, where: str) -> type[engine.Game]:
    cls = engine.GAMES.get(slug)
    if cls is None:
        raise _BuildError(f"{where}: no game {slug!r} in engine.GAMES "
                          f"(known: {', '.join(sorted(engine.GAMES))})")
    return cls


def board_html(attrs: dict[str, str], runtime: Runtime, board_id: str, where: str = "") -> str:
    slug = attrs.get("data-game", "")
    cls = _game_class(slug, where)
    deal_text = attrs.get("data-deal", str(DEFAULT_DEAL))
    if not deal_text.isdigit():
        raise _BuildError(f"{where}: data-deal must be a whole number, not {deal_text!r}")
    deal = int(deal_text)
    game = engine.new_game(slug, deal)
    view = engine.view_of(game)
    initial = {"view": view, "position": game.position(compact=True),
               "url_state": game.position(compact=True)}
    buttons = [
        ("new", "New deal", "N", "Shuffle a new deal"),
        ("undo", "Undo", "U", "Take back the last move"),
        ("redo", "Redo", "R", "Play again the move taken back"),
        ("restart", "Restart", "", "Start this deal again"),
    ]
    ctl = []
    for cmd, label, key, title in buttons:
        ks = f' aria-keyshortcuts="{key}"' if key else ""
        hint = f" ({key})" if key else ""
        ctl.append(f'<button type="button" class="cb-btn" data-cb-cmd="{cmd}"{ks} '
                   f'title="{_e(title + hint)}">{_e(label)}</button>')
    acts = []
    for a in cls.ACTIONS:
        sc = shortcut(a.key)
        acts.append(f'<button type="button" class="cb-btn cb-action" data-cb-action="{_e(a.move)}"'
                    f' data-rule="{_e(a.rule)}" data-key="{_e(sc)}" aria-keyshortcuts="{_e(sc)}"'
                    f' title="{_e(a.label)} ({_e(sc)})">{_e(a.label)}</button>')
    label = f"{cls.title}: playable board"
    return (
        f'<div class="cadogan-board" id="{_e("board-" + board_id)}" data-game="{_e(slug)}"'
        f' data-board="{_e(board_id)}" data-deal="{deal}" data-engine="static"'
        f' data-pyodide="{_e(runtime.pyodide)}" data-engine-archive="{_e(runtime.archive)}"'
        f" data-initial='{_json_attribute(initial)}'"
        f' role="region" aria-label="{_e(label)}">'
        '<div class="cb-head">'
        f'<span class="cb-deal">Deal <span class="cb-deal-n" data-cb="deal">{deal}</span></span>'
        '<span class="cb-engine" data-cb="engine" role="status">'
        'Engine loading… the board becomes playable when it is ready.</span>'
        '</div>'
        '<div class="cb-controls" role="toolbar" aria-label="Board controls">'
        + "".join(ctl) + '<span class="cb-sep" aria-hidden="true"></span>' + "".join(acts) +
        '</div>'
        '<div class="cb-table" data-cb="table" role="group" '
        f'aria-label="{_e(cls.title)}: the cards on the table"></div>'
        f'<p class="cb-status" data-cb="status">{_e(view["status"])}</p>'
        '<div class="cb-message" data-cb="message" hidden></div>'
        '<div class="cb-live" data-cb="live" aria-live="polite" aria-atomic="true"></div>'
        '<p class="cb-share"><a data-cb="link" href="#">Link to this game</a>'
        '<span class="cb-help"> · Click or drag a card, then its destination; keys: arrows '
        'or Tab to move, Enter to pick up and put down, Esc to cancel, U undo, R redo, '
        'N new deal.</span></p>'
        '</div>'
    )


def option_html(attrs: dict[str, str], board_ids: dict[str, str], where: str = "") -> str:
    slug = attrs.get("data-game", "")
    cls = _game_class(slug, where)
    name = attrs.get("data-option", "")
    described = {d["name"]: d for d in engine.describe_options(cls.Options)}
    d = described.get(name)
    if d is None:
        raise _BuildError(f"{where}: {cls.title} has no option {name!r} "
                          f"(options: {', '.join(described)})")
    board = board_ids.get(slug, slug)
    field = f"opt-{board}-{name}"
    head = (f'<fieldset class="cadogan-option" data-game="{_e(slug)}" data-board="{_e(board)}"'
            f' data-option="{_e(name)}" data-default="{_e(d["default"])}"'
            f' data-note="{_e(d["note"])}">'
            f'<legend>Try it on the board: {_e(d["label"])}</legend>')
    choices = d["choices"]
    if len(choices) <= MAX_RADIOS:
        body = "".join(
            f'<label class="cb-choice"><input type="radio" name="{_e(field)}"'
            f' value="{_e(c["value"])}"{" checked" if c["value"] == d["default"] else ""}>'
            f' {_e(c["label"])}'
            + (' <span class="cb-default">(default)</span>' if c["value"] == d["default"]
               else "") + '</label>'
            for c in choices)
    else:
        opts = "".join(
            f'<option value="{_e(c["value"])}"{" selected" if c["value"] == d["default"] else ""}>'
            f'{_e(c["label"])}{" (default)" if c["value"] == d["default"] else ""}</option>'
            for c in choices)
        body = (f'<label class="cb-choice">{_e(d["label"])} '
                f'<select name="{_e(field)}">{opts}</select></label>')
    tail = (f'<a class="cb-goto" href="#board-{_e(board)}">Go to the board</a>'
            '<span class="cb-opt-status" aria-live="polite"></span></fieldset>')
    return head + body + tail


def transform(page_html: str, runtime: Runtime, where: str = "",
              script: str = "assets/javascripts/board.js") -> str:
    """Replace every board and option placeholder in one page's HTML. ``script`` is the URL
    of board.js relative to the page: it is loaded right after each board, so the board is
    drawn as soon as it is parsed (and only pages with a board load it)."""
    board_ids: dict[str, str] = {}
    used: set[str] = set()

    def board(m: re.Match[str]) -> str:
        attrs = _attrs(m.group("attrs"))
        slug = attrs.get("data-game", "")
        bid, n = slug, 1
        while bid in used:
            n += 1
            bid = f"{slug}-{n}"
        used.add(bid)
        board_ids.setdefault(slug, bid)
        return (board_html(attrs, runtime, bid, where)
                + f'<script src="{_e(script)}"></script>')

    out = _BOARD_RE.sub(board, page_html)
    return _OPTION_RE.sub(lambda m: option_html(_attrs(m.group("attrs")), board_ids, where), out)


# ---- mkdocs hook events ---------------------------------------------------------------

_runtime: Runtime | None = None


def on_config(config: Any) -> Any:
    global _runtime
    _runtime = Runtime.current()  # recomputed on every build (the engine may have changed)
    return config


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    if "cadogan-board" not in html_text and "cadogan-option" not in html_text:
        return html_text
    runtime = _runtime or Runtime.current()
    where = str(Path(page.file.src_uri)) if getattr(page, "file", None) else "page"
    script = get_relative_url(BOARD_SCRIPT, page.url)
    return transform(html_text, runtime, where, script)
