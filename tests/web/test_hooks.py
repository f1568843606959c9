"""The build hooks that ship the board: runtime copy, engine archive, board markup."""

from __future__ import annotations

import hashlib
import html
import importlib.util
import io
import json
import re
import shutil
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

import engine
from build_scripts import board_embed, engine_archive, pyodide_compile, pyodide_runtime

ROOT = Path(__file__).resolve().parents[2]
SLUG = "la-nivernaise"


# ---- Pyodide runtime ------------------------------------------------------------------

def _have_pyodide() -> None:
    if not (ROOT / "node_modules" / "pyodide" / "package.json").is_file():
        pytest.skip("node_modules/pyodide is not installed")


def test_runtime_ships_three_distribution_files_and_our_stdlib(tmp_path: Path) -> None:
    _have_pyodide()
    written = pyodide_runtime.copy_runtime(tmp_path)
    version = json.loads((ROOT / "node_modules/pyodide/package.json").read_text())["version"]
    dest = tmp_path / "assets" / "pyodide" / f"v{version}"
    rt = pyodide_runtime.current()
    names = sorted(p.name for p in dest.iterdir())
    assert names == sorted([*pyodide_runtime.DIST_FILES, rt.stdlib.rsplit("/", 1)[1]])
    assert sorted(written) == sorted(tmp_path / n for n in
                                     [rt.pyodide + f for f in pyodide_runtime.DIST_FILES]
                                     + [rt.stdlib])
    for n in pyodide_runtime.DIST_FILES:
        assert (dest / n).read_bytes() == (ROOT / "node_modules/pyodide" / n).read_bytes()
    # neither the distribution's sources nor its lock file: ours replace them
    assert not (dest / "python_stdlib.zip").exists() and not (dest / "pyodide-lock.json").exists()
    assert pyodide_runtime.runtime_path() == f"assets/pyodide/v{version}/"
    assert re.fullmatch(rf"assets/pyodide/v{re.escape(version)}/stdlib-[0-9a-f]{{12}}\.zip",
                        rt.stdlib)
    assert rt.stdlib == pyodide_runtime.stdlib_name(rt.stdlib_data)
    assert rt.lock_info["abi_version"] and rt.lock_info["python"].startswith("3.")


def test_compiled_stdlib_holds_only_bytecode_of_what_the_engine_needs() -> None:
    _have_pyodide()
    rt = pyodide_runtime.current()
    manifest = pyodide_runtime.compiled().manifest
    with zipfile.ZipFile(io.BytesIO(rt.stdlib_data)) as zf:
        infos = zf.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names) and all(n.endswith(".pyc") for n in names)
    assert names == [f + "c" for f in manifest["stdlib_files"]]
    assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in infos)
    assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in infos)
    # what Pyodide needs to boot and the engine imports, and not the rest of the library
    for needed in ("json/__init__.pyc", "dataclasses.pyc", "enum.pyc", "heapq.pyc",
                   "_pyodide/_base.pyc", "encodings/cp437.pyc"):
        assert needed in names, needed
    for absent in ("unittest/__init__.pyc", "pydoc.pyc", "tkinter/__init__.pyc", "doctest.pyc"):
        assert absent not in names, absent
    # smaller than the distribution's sources
    assert len(rt.stdlib_data) < (ROOT / "node_modules/pyodide/python_stdlib.zip").stat().st_size


def test_pyc_header_is_unchecked_hash_of_pyodides_python() -> None:
    _have_pyodide()
    rt = pyodide_runtime.current()
    magic = bytes.fromhex(pyodide_runtime.compiled().manifest["magic"])
    with zipfile.ZipFile(io.BytesIO(rt.stdlib_data)) as zf:
        data = zf.read("json/__init__.pyc")
    assert data[:4] == magic
    assert int.from_bytes(data[4:8], "little") == 1  # hash-based, not checked against a source


def test_docstrings_go_and_code_stays() -> None:
    src = b'"""Module doc."""\nfrom __future__ import annotations\n\n' \
        b'def f():\n    """Only a docstring."""\n\nclass C:\n    """Doc."""\n    x = 1\n' \
        b'    def g(self):\n        """Doc."""\n        assert self.x == 1\n        return 2\n'
    tree = pyodide_compile._NoDocstrings().visit(__import__("ast").parse(src))
    ns: dict[str, object] = {}
    exec(compile(tree, "m.py", "exec"), ns)  # noqa: S102 - our own test source
    assert ns.get("__doc__") is None and ns["f"].__doc__ is None  # type: ignore[attr-defined]
    assert ns["C"]().g() == 2  # type: ignore[operator]
    # the pyc of it starts with the running interpreter's magic number and an unchecked hash
    data = pyodide_compile.pyc(src, "/lib/x/m.py")
    assert data[:4] == importlib.util.MAGIC_NUMBER and data[4:8] == b"\1\0\0\0"
    assert data[8:16] == importlib.util.source_hash(src)
    assert b"Only a docstring" not in data and b"Module doc" not in data


def test_runtime_missing_node_modules_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="npm ci"):
        pyodide_runtime.version(tmp_path)
    fake = tmp_path / "node_modules" / "pyodide"
    fake.mkdir(parents=True)
    (fake / "package.json").write_text('{"version": "1.2.3"}')
    (fake / "pyodide.mjs").write_text("")
    with pytest.raises(Exception, match="python_stdlib.zip"):
        pyodide_runtime.compile_into(tmp_path / "out", root=tmp_path)


# ---- engine archives ------------------------------------------------------------------

def test_engine_goes_in_a_shared_archive_and_one_per_game() -> None:
    groups = pyodide_compile.groups(ROOT)
    modules = pyodide_compile.game_modules(ROOT)
    assert set(modules) == set(engine.GAMES)
    for slug, cls in engine.GAMES.items():
        assert cls.__module__ == f"engine.{modules[slug]}"
    shared = set(groups["engine"])
    assert {"engine/__init__.pyc", "engine/core.pyc", "engine/web.pyc"} <= shared
    everything = sorted(p.relative_to(ROOT).as_posix() + "c"
                        for p in (ROOT / "engine").glob("*.py"))
    assert sorted(n for names in groups.values() for n in names) == everything  # each once
    for module in set(modules.values()):
        assert groups[module] == [f"engine/{module}.pyc"]


def test_engine_archives_are_named_by_content_and_hold_compiled_modules() -> None:
    _have_pyodide()
    arch = engine_archive.current_archives()
    assert arch.shared.startswith("assets/engine/engine-")
    for group, (name, data) in arch.files.items():
        assert name == f"assets/engine/{group}-{hashlib.sha256(data).hexdigest()[:12]}.zip"
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = zf.namelist()
            assert names == sorted(names) and all(n.endswith(".pyc") for n in names)
            assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in zf.infolist())
    assert re.fullmatch(r"assets/engine/empress-[0-9a-f]{12}\.zip",
                        arch.game("the-empress-of-india"))


def test_engine_archives_change_with_the_sources(tmp_path: Path) -> None:
    _have_pyodide()
    before = engine_archive.current_archives()
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "node_modules" / "pyodide", tmp_path / "node_modules" / "pyodide")
    with (tmp_path / "engine" / "empress.py").open("a") as f:
        f.write("\n# changed\n")
    key = pyodide_runtime.build_key(tmp_path)
    assert key != pyodide_runtime.build_key(ROOT)
    after = engine_archive.make_archives(tmp_path)
    assert after.game("the-empress-of-india") != before.game("the-empress-of-india")
    assert after.shared == before.shared  # the other archives keep their names
    assert after.game("la-nivernaise") == before.game("la-nivernaise")
    out = engine_archive.write_archives(tmp_path / "site", tmp_path)
    assert sorted(p.name for p in (tmp_path / "site/assets/engine").iterdir()) == sorted(
        p.name for p in out)


# ---- board markup ---------------------------------------------------------------------

RUNTIME = board_embed.Runtime(
    "assets/pyodide/v9.9.9/", "assets/engine/engine-0123456789ab.zip",
    "assets/pyodide/v9.9.9/stdlib-0123456789ab.zip",
    {SLUG: ("assets/engine/nivernaise-0123456789ab.zip", "nivernaise")},
    {"abi_version": "2026_0"},
    {"wasm": 1000, "assets/pyodide/v9.9.9/stdlib-0123456789ab.zip": 200,
     "assets/engine/engine-0123456789ab.zip": 30, "assets/engine/nivernaise-0123456789ab.zip": 4})


class _Attrs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.boards: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        d = dict(attrs)
        if "data-initial" in d:
            self.boards.append(d)


def _runtime_config(page: str) -> dict:
    p = _Attrs()
    p.feed(page)
    text = p.boards[0]["data-runtime"]
    assert text is not None
    return json.loads(text)


def _initial(page: str) -> dict:
    """The embedded view, read as a browser would (an HTML parser, then JSON)."""
    p = _Attrs()
    p.feed(page)
    assert len(p.boards) == 1
    text = p.boards[0]["data-initial"]
    assert text is not None
    return json.loads(text)


def test_board_placeholder_becomes_the_board() -> None:
    out = board_embed.transform(
        f'<p>Before</p>\n<div class="cadogan-board" data-game="{SLUG}"></div>\n<p>After</p>',
        RUNTIME)
    assert out.startswith("<p>Before</p>") and out.endswith("<p>After</p>")
    assert 'data-pyodide="assets/pyodide/v9.9.9/"' in out
    assert 'data-engine-archive="assets/engine/engine-0123456789ab.zip"' in out
    assert _runtime_config(out) == {
        "pyodide": "assets/pyodide/v9.9.9/", "stdlib": "assets/pyodide/v9.9.9/stdlib-0123456789ab.zip",
        "engine": "assets/engine/engine-0123456789ab.zip",
        "game": {"archive": "assets/engine/nivernaise-0123456789ab.zip", "module": "nivernaise"},
        "lock": {"abi_version": "2026_0"}, "bytes": 1234, "wasmBytes": 1000}
    assert 'id="board-la-nivernaise"' in out and 'data-engine="static"' in out
    init = _initial(out)
    game = engine.new_game(SLUG, 1)
    assert init["view"] == engine.view_of(game)
    assert init["position"] == game.position(compact=True)  # the pack's order stays hidden
    for cmd in ("new", "undo", "redo", "restart"):
        assert f'data-cb-cmd="{cmd}"' in out
    for a in engine.GAMES[SLUG].ACTIONS:
        assert f'data-cb-action="{a.move}"' in out and f'data-rule="{a.rule}"' in out
    assert 'aria-live="polite"' in out and 'data-cb="status"' in out
    assert html.escape(init["view"]["status"]) in out
    assert "Engine loading" in out


def test_board_deal_attribute_and_key_clashes() -> None:
    out = board_embed.transform(
        f'<div class="cadogan-board" data-game="{SLUG}" data-deal="77"></div>', RUNTIME)
    assert _initial(out)["view"]["deal"] == 77
    # An action key that is one of the board's own (u, r, n) takes Shift.
    assert board_embed.shortcut("r") == "Shift+R" and board_embed.shortcut("d") == "D"


def test_embedded_json_survives_any_text() -> None:
    data = {"s": "</script><!-- ' \" & &amp; >"}
    text = board_embed._json_attribute(data)
    assert "'" not in text and "<" not in text and ">" not in text
    p = _Attrs()
    p.feed(f"<div data-initial='{text}'></div>")
    assert json.loads(p.boards[0]["data-initial"] or "") == data


def test_no_inline_script_in_the_board_and_board_js_follows_it() -> None:
    # Material's instant navigation re-runs inline scripts as JavaScript, whatever their type.
    out = board_embed.transform(f'<div class="cadogan-board" data-game="{SLUG}"></div>', RUNTIME,
                                script="../assets/javascripts/board.js")
    tag = '<script type="module" async src="../assets/javascripts/board.js">'
    assert re.findall(r"<script[^>]*>", out) == [tag]
    assert out.endswith(tag + "</script>")


def test_without_javascript_the_board_is_its_diagram_and_one_sentence() -> None:
    out = board_embed.transform(f'<div class="cadogan-board" data-game="{SLUG}"></div>', RUNTIME,
                                diagram="../assets/diagrams/")
    m = re.search(r"<noscript>(.*?)</noscript>", out, re.DOTALL)
    assert m, "no fallback for browsers without JavaScript"
    fallback = m.group(1)
    assert f'src="../assets/diagrams/{SLUG}.png"' in fallback and 'alt="' in fallback
    assert "needs JavaScript" in fallback and "<button" not in fallback
    assert out.index("<noscript>") < out.index('class="cb-head"')


def test_board_markup_offers_every_control_once() -> None:
    out = board_embed.transform(f'<div class="cadogan-board" data-game="{SLUG}"></div>', RUNTIME)
    for cmd in ("undo", "redo", "restart", "new", "again", "fresh", "copy", "clear-stats"):
        assert out.count(f'data-cb-cmd="{cmd}"') == 1, cmd
    for name in ("autoplay", "hints"):
        assert f'data-cb-switch="{name}"' in out
    assert 'data-cb="dealform"' in out and f'max="{2**53 - 1}"' in out
    # the controls and the message line share the bar that stays in view above the table
    bar = out.index('class="cb-bar"')
    assert bar < out.index('data-cb="message"') < out.index('class="cb-table"')
    assert bar < out.index('data-cb-cmd="undo"') < out.index('data-cb="message"')


def test_unknown_game_or_option_fails_the_build() -> None:
    with pytest.raises(Exception, match="no game"):
        board_embed.transform('<div class="cadogan-board" data-game="nope"></div>', RUNTIME)
    with pytest.raises(Exception, match="no option"):
        board_embed.transform(
            f'<div class="cadogan-option" data-game="{SLUG}" data-option="nope"></div>', RUNTIME)
    with pytest.raises(Exception, match="data-deal"):
        board_embed.transform(
            f'<div class="cadogan-board" data-game="{SLUG}" data-deal="x"></div>', RUNTIME)


@pytest.mark.parametrize("opt", engine.describe_options(engine.GAMES[SLUG].Options),
                         ids=lambda o: o["name"])
def test_option_placeholder_becomes_a_labelled_control(opt: dict) -> None:
    out = board_embed.transform(
        f'<div class="cadogan-board" data-game="{SLUG}"></div>'
        f'<div class="cadogan-option" data-game="{SLUG}" data-option="{opt["name"]}"></div>',
        RUNTIME)
    m = re.search(r'<fieldset class="cadogan-option".*?</fieldset>', out, re.DOTALL)
    assert m
    f = m.group(0)
    assert f'data-option="{opt["name"]}"' in f and f'data-default="{opt["default"]}"' in f
    assert 'data-board="la-nivernaise"' in f and f'data-note="{opt["note"]}"' in f
    assert f"<legend>Try it on the board: {html.escape(opt['label'])}</legend>" in f
    values = re.findall(r'value="([^"]*)"', f)
    assert values == [c["value"] for c in opt["choices"]]
    checked = re.findall(r'value="([^"]*)"(?: checked| selected)', f)
    assert checked == [opt["default"]]
    for c in opt["choices"]:
        assert html.escape(c["label"]) in f
    assert f.count("(default)") == 1
    assert 'href="#board-la-nivernaise"' in f


def test_two_boards_of_one_game_get_distinct_ids() -> None:
    out = board_embed.transform(
        f'<div class="cadogan-board" data-game="{SLUG}"></div>'
        f'<div class="cadogan-board" data-game="{SLUG}" data-deal="2"></div>', RUNTIME)
    assert 'data-board="la-nivernaise"' in out and 'data-board="la-nivernaise-2"' in out


def test_every_chapter_placeholder_in_docs_transforms() -> None:
    """The chapter pages' placeholders all name a game and option the engine has."""
    for md in sorted((ROOT / "docs").glob("*.md")):
        text = md.read_text(encoding="utf-8")
        for m in re.finditer(r'<div class="cadogan-(board|option)"[^>]*></div>', text):
            if 'data-game="' not in m.group(0):
                continue
            slug = re.search(r'data-game="([^"]+)"', m.group(0)).group(1)
            if slug not in engine.GAMES:
                pytest.fail(f"{md.name}: board or option for unregistered game {slug!r}")
            board_embed.transform(m.group(0), RUNTIME, md.name)


def test_head_starts_the_engine_and_preloads_nothing() -> None:
    head = board_embed.head_html(RUNTIME, SLUG, "../")
    m = re.fullmatch(r"<script>(.*)</script>", head, re.DOTALL)
    assert m
    script = m.group(1)
    assert "window.__cadoganEngine" in script and 'new URL("../",location.href)' in script
    assert '"assets/javascripts/board-worker.mjs"' in script
    assert json.dumps(RUNTIME.config(SLUG), separators=(",", ":")) in script
    # no preloads of the board's modules: board.js asks for them (board_embed.head_html)
    assert "<link" not in head and "preload" not in head
    # no way out of the script, whatever the settings hold
    odd = board_embed.Runtime("a</script><b>/", "x", "y", {}, {"k": "</script>"}, {})
    assert "</script>" not in board_embed.head_html(odd, SLUG, "")[len("<script>"):-len("</script>")]


def test_only_pages_with_a_board_get_the_head(tmp_path: Path) -> None:
    class Page:
        url = "la-nivernaise/"

    config = {"docs_dir": str(ROOT / "docs")}
    plain = "<html><head><title>x</title></head><body><p>text</p></body></html>"
    assert board_embed.on_post_page(plain, Page(), config) == plain
    old = board_embed._runtime
    board_embed._runtime = RUNTIME
    try:
        page = plain.replace("<p>text</p>", board_embed.transform(
            f'<div class="cadogan-board" data-game="{SLUG}"></div>', RUNTIME))
        out = board_embed.on_post_page(page, Page(), config)
    finally:
        board_embed._runtime = old
    head = out[:out.index("</head>")]
    assert head.count("<script>") == 1 and "__cadoganEngine" in head
    # first in the head, right after the character set, when there is one
    with_charset = page.replace("<head>", '<head><meta charset="utf-8">')
    board_embed._runtime = RUNTIME
    try:
        out2 = board_embed.on_post_page(with_charset, Page(), config)
    finally:
        board_embed._runtime = old
    assert out2.index('<meta charset="utf-8">') < out2.index("<script>") < out2.index("<title>")
    assert "modulepreload" not in out  # board.js asks for its modules itself
    assert re.search(r'<script type="module" async src="[^"]*assets/javascripts/board\.js">', out)
