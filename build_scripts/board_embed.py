"""Build hook: turn the chapter's placeholders into the playable board and its option controls.

``<div class="cadogan-board" data-game="SLUG"></div>`` (optionally ``data-deal="N"``, else
deal 1) becomes the board's markup: its controls (Undo, Redo, the engine's action buttons,
Restart, New deal) and message line, which stay in view above the table as the reader
scrolls; the table; a status line; the switches (auto-play, playable cards), the deal number,
Copy link and the statistics; an ARIA live region; the runtime's paths; and the view of the
deal's first position as JSON (attribute ``data-initial``), which ``board.js`` draws at once,
before Pyodide is ready. Without JavaScript only a ``<noscript>`` shows: the chapter's drawn
diagram and one sentence saying the board needs JavaScript.

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
from build_scripts import diagrams, engine_archive, pyodide_runtime

try:
    from mkdocs.exceptions import PluginError as _BuildError
except ImportError:  # pragma: no cover
    _BuildError = RuntimeError  # type: ignore[misc,assignment]

DEFAULT_DEAL = 1
#: Largest deal number (as in the engine).
MAX_DEAL = 2**53 - 1
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
    """What the board's worker needs: paths relative to the site root (the Pyodide folder,
    the standard library, the engine's shared archive, each game's archive and module), the
    lock file's ``info``, and the size of each file the worker downloads (uncompressed,
    ``wasm`` for Pyodide's WebAssembly) for its progress."""

    def __init__(self, pyodide: str, archive: str, stdlib: str = "",
                 games: dict[str, tuple[str, str]] | None = None,
                 lock: dict[str, str] | None = None, sizes: dict[str, int] | None = None) -> None:
        self.pyodide = pyodide
        self.archive = archive
        self.stdlib = stdlib
        self.games = games or {}
        self.lock = lock or {}
        self.sizes = sizes or {}

    @classmethod
    def current(cls) -> Runtime:
        rt = pyodide_runtime.current()
        arch = engine_archive.current_archives()
        games = {slug: (arch.game(slug), module) for slug, module in arch.game_module.items()}
        sizes = {"wasm": rt.wasm_size, rt.stdlib: len(rt.stdlib_data)}
        sizes.update({name: len(data) for name, data in arch.files.values()})
        return cls(rt.pyodide, arch.shared, rt.stdlib, games, rt.lock_info, sizes)

    def config(self, slug: str) -> dict[str, Any]:
        """The worker's boot settings for a board of the game ``slug`` (``data-runtime``)."""
        game = self.games.get(slug)
        files = ["wasm", self.stdlib, self.archive] + ([game[0]] if game else [])
        return {
            "pyodide": self.pyodide, "stdlib": self.stdlib, "engine": self.archive,
            "game": {"archive": game[0], "module": game[1]} if game else None,
            "lock": self.lock, "bytes": sum(self.sizes.get(f, 0) for f in files),
            "wasmBytes": self.sizes.get("wasm", 0),
        }


def _game_class(slug: str, where: str) -> type[engine.Game]:
    cls = engine.GAMES.get(slug)
    if cls is None:
        raise _BuildError(f"{where}: no game {slug!r} in engine.GAMES "
                          f"(known: {', '.join(sorted(engine.GAMES))})")
    return cls


def _fallback(cls: type[engine.Game], diagram: str | None) -> str:
    """What a browser without JavaScript shows in the board's place: the chapter's drawn
    diagram (the deal as it begins) and one sentence, and nothing to click."""
    img = ""
    if diagram is not None:
        figure = diagrams.figures_of(cls)[0]
        src, src2 = f"{diagram}{cls.slug}.png", f"{diagram}{cls.slug}@2x.png"
        img = diagrams.picture(_e(src), _e(src2), f'alt="{_e(figure.alt)}" loading="lazy"')
    return ('<noscript><div class="cb-nojs">' + img +
            '<p>The drawing shows the game’s tableau. Playing it on the board needs '
            'JavaScript, which this browser is not running; the rest of the page reads '
            'without it.</p>'
            '</div></noscript>')


def board_html(attrs: dict[str, str], runtime: Runtime, board_id: str, where: str = "",
               diagram: str | None = None) -> str:
    """The board's markup. ``diagram`` is the URL (relative to the page) of the folder of
    the drawn diagrams, for the no-JavaScript fallback (None: no picture)."""
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

    # No title attributes: Material turns them into tooltips of its own, outside the page's
    # landmarks; the keys are in aria-keyshortcuts and in the help line.
    def button(cmd: str, label: str, key: str) -> str:
        ks = f' aria-keyshortcuts="{key}"' if key else ""
        return f'<button type="button" class="cb-btn" data-cb-cmd="{cmd}"{ks}>{_e(label)}</button>'

    acts = []
    enabled = {a["move"] for a in view["actions"] if a["enabled"]}
    for a in cls.ACTIONS:
        sc = shortcut(a.key)
        # an occasional action is shown only while it can be played (the board keeps it so)
        hidden = " hidden" if a.occasional and a.move not in enabled else ""
        acts.append(f'<button type="button" class="cb-btn cb-action" data-cb-action="{_e(a.move)}"'
                    f' data-rule="{_e(a.rule)}" data-key="{_e(sc)}" aria-keyshortcuts="{_e(sc)}"'
                    f'{hidden}>{_e(a.label)}</button>')
    sep = '<span class="cb-sep" aria-hidden="true"></span>'
    controls = (button("undo", "Undo", "U") + button("redo", "Redo", "R")
                + (sep + "".join(acts) if acts else "") + sep
                + button("restart", "Restart", "") + button("new", "New deal", "N") + sep
                + '<button type="button" class="cb-btn cb-help-btn" data-cb-help="hint"'
                ' aria-keyshortcuts="H">Hint</button>'
                '<button type="button" class="cb-btn cb-help-btn" data-cb-help="winnable">'
                'Can this deal still be won?</button>')
    label = f"{cls.title}: playable board"
    return (
        f'<div class="cadogan-board" id="{_e("board-" + board_id)}" data-game="{_e(slug)}"'
        f' data-board="{_e(board_id)}" data-deal="{deal}" data-engine="static"'
        f' data-pyodide="{_e(runtime.pyodide)}" data-engine-archive="{_e(runtime.archive)}"'
        f" data-runtime='{_json_attribute(runtime.config(slug))}'"
        f" data-initial='{_json_attribute(initial)}'"
        f' role="region" aria-label="{_e(label)}">'
        + _fallback(cls, diagram) +
        '<div class="cb-head">'
        f'<span class="cb-deal">Deal <span class="cb-deal-n" data-cb="deal">{deal}</span></span>'
        '<span class="cb-moves" data-cb="moves">0 moves played</span>'
        '<span class="cb-engine" data-cb="engine" role="status">'
        'Engine loading… the board becomes playable when it is ready.</span>'
        '</div>'
        '<div class="cb-bar" data-cb="bar">'
        '<div class="cb-controls" role="toolbar" aria-label="Board controls">' + controls +
        '</div>'
        '<div class="cb-outcome" data-cb="outcome" hidden>'
        '<p class="cb-outcome-text" data-cb="outcome-text"></p>'
        '<button type="button" class="cb-btn" data-cb-cmd="again">Play this deal again</button>'
        '<button type="button" class="cb-btn" data-cb-cmd="fresh">New deal</button>'
        '</div>'
        '<div class="cb-message cb-info" data-cb="message"><p>Engine loading… the board '
        'becomes playable when it is ready.</p></div>'
        '<div class="cb-helpbox" data-cb="helpbox" hidden>'
        '<p data-cb-help-part="text"></p>'
        '<button type="button" class="cb-btn" data-cb-help="cancel" data-cb-help-part="cancel">'
        'Cancel</button>'
        '<button type="button" class="cb-btn" data-cb-help="line" data-cb-help-part="line" hidden>'
        'Play the winning line, move by move</button>'
        '</div>'
        '</div>'
        '<div class="cb-scroll" data-cb="scroll">'
        '<div class="cb-table" data-cb="table" role="group" '
        f'aria-label="{_e(cls.title)}: the cards on the table"'
        f' aria-describedby="{_e("help-" + board_id)}">'
        '</div></div>'
        '<p class="cb-scroll-cue" data-cb="cue" hidden><span aria-hidden="true">↔ </span>'
        'The table is wider than the screen: scroll it sideways to see the rest.</p>'
        f'<p class="cb-status" data-cb="status">{_e(view["status"])}</p>'
        '<div class="cb-tools">'
        '<p class="cb-switches">'
        '<label><input type="checkbox" data-cb-switch="autoplay"> Auto-play: safe cards go to '
        'the foundations by themselves</label>'
        '<label><input type="checkbox" data-cb-switch="hints"> Show playable cards</label></p>'
        '<form class="cb-dealform" data-cb="dealform">'
        f'<label>Deal number <input type="number" name="deal" min="0" max="{MAX_DEAL}" step="1"'
        ' inputmode="numeric" required></label> '
        '<button type="submit" class="cb-btn">Play this deal</button></form>'
        '<p class="cb-share"><button type="button" class="cb-btn" data-cb-cmd="copy">'
        'Copy link</button> <a data-cb="link" href="#">Link to this game</a></p>'
        '<p class="cb-stats"><span data-cb="stats">No deal of this game played on this device '
        'yet.</span> <button type="button" class="cb-btn" data-cb-cmd="clear-stats">'
        'Clear statistics</button></p>'
        '</div>'
        '<div class="cb-live" data-cb="live" aria-live="polite" aria-atomic="true"></div>'
        f'<p class="cb-help" id="{_e("help-" + board_id)}">Click or drag a card, then its '
        'destination; click it again (or double-click) to send it to its only foundation; '
        'click the pack to deal. Keys: Tab reaches the table, arrows move in it, Enter picks '
        'up and puts down, Esc cancels, U undo, R redo, N new deal, H hint.</p>'
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
    # A page holding the boards of several games names the one a control switches.
    which = f"the board of {cls.title}" if len(board_ids) > 1 else "the board"
    head = (f'<fieldset class="cadogan-option" data-game="{_e(slug)}" data-board="{_e(board)}"'
            f' data-option="{_e(name)}" data-default="{_e(d["default"])}"'
            f' data-note="{_e(d["note"])}">'
            f'<legend>Try it on {_e(which)}: {_e(d["label"])}</legend>')
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
              script: str = "assets/javascripts/board.js",
              diagram: str | None = None) -> str:
    """Replace every board and option placeholder in one page's HTML. ``script`` is the URL
    of board.js relative to the page: an ``async`` module script right after each board,
    which runs in a task of its own as soon as it arrives, not in the parser's last task with
    Material's start (only pages with a board load it). ``diagram``: the URL of the
    drawn diagrams' folder relative to the page, for the no-JavaScript fallback."""
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
        return (board_html(attrs, runtime, bid, where, diagram)
                + f'<script type="module" async src="{_e(script)}"></script>')

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
    diagram = get_relative_url(diagrams.OUT_DIR + "/", page.url)
    if not diagram.endswith("/"):
        diagram += "/"
    return transform(html_text, runtime, where, script, diagram)


# ---- the page's head: the engine starts while the page is still arriving -----------------

WORKER_SCRIPT = "assets/javascripts/board-worker.mjs"

#: Starts the tab's engine worker from the head of a page with a board, before the page's
#: text and the board's modules have arrived; ``engine-client.js`` adopts it (with the
#: messages it sent meanwhile). Once per tab: a worker already running is kept.
_HEAD_SCRIPT = (
    "(function(){if(window.__cadoganEngine||!window.Worker)return;try{"
    "var r=new URL(ROOT,location.href).href,c=CONFIG;"
    # The boot message rides in the worker's address as well as in a message: the worker
    # starts booting as soon as its script has run, without waiting for this page's main
    # thread to pass the message on (board-worker.mjs).
    "var b={type:\"boot\",root:r};for(var k in c)b[k]=c[k];"
    "var w=new Worker(new URL(WORKER,r).href+\"#boot=\"+encodeURIComponent(JSON.stringify(b)),"
    "{type:\"module\",name:\"cadogan-engine\"});"
    "var e=window.__cadoganEngine={worker:w,startedAt:performance.now(),messages:[],"
    "game:c.game&&c.game.archive};"
    "w.onmessage=function(m){e.messages.push(m.data)};"
    "w.onerror=function(m){e.error=m.message||\"error\"};"
    "w.postMessage(b);"
    # Material's search requests its index (XMLHttpRequest) and builds it in a worker of its
    # own as the page loads (half a second of CPU, taken from the engine's start): its
    # request waits until the engine is ready (or has failed), the reader reaches for the
    # search, or HOLD_MS have passed.
    "var X=window.XMLHttpRequest,h=[],o=0,go=function(){if(o)return;o=1;"
    "h.forEach(function(g){g()});h=[]};"
    "if(X&&window.WeakMap){var P=X.prototype,O=P.open,S=P.send,U=new WeakMap();"
    "P.open=function(m,u){U.set(this,String(u));return O.apply(this,arguments)};"
    "P.send=function(){var x=this,a=arguments;"
    "if(!o&&/\\/search\\/search_index\\.json([?#]|$)/.test(U.get(x)||\"\")){"
    "h.push(function(){S.apply(x,a)});return}return S.apply(x,a)};"
    "w.addEventListener(\"message\",function(m){var t=m.data&&m.data.type;"
    "if(t==\"ready\"||t==\"failed\")go()});setTimeout(go,HOLD_MS);"
    "addEventListener(\"focusin\",function(v){var t=v.target;"
    "if(t&&t.closest&&t.closest(\".md-search\"))go()},true);"
    "addEventListener(\"change\",function(v){if(v.target&&v.target.id==\"__search\")go()},true);"
    "addEventListener(\"keydown\",function(v){if(/^[/sf]$/i.test(v.key))go()},true)}"
    "}catch(x){}})();"
)
#: Longest time Material's search index waits for the engine (see _HEAD_SCRIPT).
SEARCH_HOLD_MS = 10000


def _js(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def head_html(runtime: Runtime, slug: str, root: str) -> str:
    """What a page with a board of ``slug`` gets in its head: the script that starts the
    engine (``root``: the site root relative to the page, with a final slash). No preloads of
    the board's modules: the page's own ``board.js`` (async) asks for them when it arrives.
    Preloaded from the head, even at a low priority, they were eight requests more before the
    plate (the largest paint) on a slow connection: Lighthouse's simulated phone, three
    chapters, medians of 5 with and without them: largest contentful paint 2.28 / 2.12 /
    1.61 s -> 1.98 / 1.89 / 1.43 s; the board drawn no later here (cold, medians of 5 on three
    chapters: 307-343 ms from navigation with them, 325-331 ms without)."""
    script = (_HEAD_SCRIPT.replace("ROOT", _js(root)).replace("WORKER", _js(WORKER_SCRIPT))
              .replace("CONFIG", _js(runtime.config(slug)))
              .replace("HOLD_MS", str(SEARCH_HOLD_MS)))
    return f"<script>{script}</script>"


_CHARSET_RE = re.compile(r"<meta charset=[^>]*>", re.IGNORECASE)
_FIRST_BOARD_RE = re.compile(r'<div class="cadogan-board"[^>]*\bdata-game="([^"]+)"')


def on_post_page(output: str, page: Any, config: Any) -> str:
    m = _FIRST_BOARD_RE.search(output)
    if m is None or "</head>" not in output:
        return output
    runtime = _runtime or Runtime.current()
    script = get_relative_url(BOARD_SCRIPT, page.url)
    root = script[: -len(BOARD_SCRIPT)]
    head = head_html(runtime, html.unescape(m.group(1)), root)
    # First in the head (after the character set): the worker's request goes out before the
    # page's styles and scripts are even asked for.
    charset = _CHARSET_RE.search(output)
    if charset is not None and charset.start() < output.index("</head>"):
        return output[:charset.end()] + head + output[charset.end():]
    return output.replace("</head>", head + "</head>", 1)
