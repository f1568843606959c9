"""The build hooks that ship the board: runtime copy, engine archive, board markup."""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import shutil
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

import engine
from build_scripts import board_embed, engine_archive, pyodide_runtime

ROOT = Path(__file__).resolve().parents[2]
SLUG = "la-nivernaise"


# ---- Pyodide runtime ------------------------------------------------------------------

def test_runtime_copies_exactly_the_five_files(tmp_path: Path) -> None:
    if not (ROOT / "node_modules" / "pyodide" / "package.json").is_file():
        pytest.skip("node_modules/pyodide is not installed")
    written = pyodide_runtime.copy_runtime(tmp_path)
    version = json.loads((ROOT / "node_modules/pyodide/package.json").read_text())["version"]
    dest = tmp_path / "assets" / "pyodide" / f"v{version}"
    assert sorted(p.name for p in dest.iterdir()) == sorted(pyodide_runtime.RUNTIME_FILES)
    assert sorted(written) == sorted(dest / n for n in pyodide_runtime.RUNTIME_FILES)
    for n in pyodide_runtime.RUNTIME_FILES:
        assert (dest / n).read_bytes() == (ROOT / "node_modules/pyodide" / n).read_bytes()
    assert pyodide_runtime.runtime_path() == f"assets/pyodide/v{version}/"


def test_runtime_missing_node_modules_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="npm ci"):
        pyodide_runtime.version(tmp_path)
    fake = tmp_path / "node_modules" / "pyodide"
    fake.mkdir(parents=True)
    (fake / "package.json").write_text('{"version": "1.2.3"}')
    (fake / "pyodide.mjs").write_text("")
    with pytest.raises(Exception, match="pyodide.asm.wasm"):
        pyodide_runtime.copy_runtime(tmp_path / "site", root=tmp_path)


# ---- engine archive -------------------------------------------------------------------

def test_engine_archive_is_deterministic_and_complete() -> None:
    a = engine_archive.archive_bytes()
    b = engine_archive.archive_bytes()
    assert a == b
    name = engine_archive.archive_name(a)
    assert name == f"assets/engine/engine-{hashlib.sha256(a).hexdigest()[:12]}.zip"
    with zipfile.ZipFile(io.BytesIO(a)) as zf:
        names = zf.namelist()
        assert names == sorted(names)
        expected = sorted(p.relative_to(ROOT).as_posix()
                          for p in (ROOT / "engine").rglob("*.py")
                          if "__pycache__" not in p.parts)
        assert names == expected
        assert "engine/__init__.py" in names and "engine/web.py" in names
        assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in zf.infolist())
        assert zf.read("engine/web.py") == (ROOT / "engine/web.py").read_bytes()


def test_engine_archive_changes_with_the_sources(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    first = engine_archive.archive_bytes(tmp_path)
    (tmp_path / "engine" / "__pycache__").mkdir(exist_ok=True)
    (tmp_path / "engine" / "__pycache__" / "x.py").write_text("ignored")
    assert engine_archive.archive_bytes(tmp_path) == first
    with (tmp_path / "engine" / "web.py").open("a") as f:
        f.write("\n# changed\n")
    second = engine_archive.archive_bytes(tmp_path)
    assert engine_archive.archive_name(second) != engine_archive.archive_name(first)
    out = engine_archive.write_archive(tmp_path / "site", tmp_path)
    assert out.read_bytes() == second
    assert [p.name for p in (tmp_path / "site/assets/engine").iterdir()] == [out.name]


# ---- board markup ---------------------------------------------------------------------

RUNTIME = board_embed.Runtime("assets/pyodide/v9.9.9/", "assets/engine/engine-0123456789ab.zip")


class _Attrs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.boards: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        d = dict(attrs)
        if "data-initial" in d:
            self.boards.append(d)


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
    assert re.findall(r"<script[^>]*>", out) == ['<script src="../assets/javascripts/board.js">']
    assert out.endswith('<script src="../assets/javascripts/board.js"></script>')


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
