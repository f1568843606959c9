"""Runs inside Pyodide, under Node, at build time (driven by ``pyodide_compile.mjs``): finds
the standard-library modules the engine needs and compiles them, and the engine, to bytecode
with Pyodide's own Python, so that the browser never compiles a line at start-up.

Not imported by the build itself (CPython): ``pyodide_runtime.py`` runs Node, which loads
Pyodide from ``node_modules`` and calls, in a first interpreter, :func:`exercise` and then
:func:`needed_files` (which modules of ``python_stdlib.zip`` are loaded once Pyodide has
booted and the engine has played every game through ``engine.web``), and, in a second,
fresh interpreter (so that the bytes depend only on the list of files, never on what the
first one did), :func:`build`.

The bytecode: docstrings removed (nothing reads them; asserts stay, unlike ``-OO``),
unchecked hash-based ``.pyc`` (header: ``importlib.util.MAGIC_NUMBER``, flags 1,
``importlib.util.source_hash`` of the source; ``zipimport`` loads it without the source),
each code object named after the path the module has in the browser. Files are compiled
and zipped in sorted order, deflated at level 9 (hosts serve ``application/zip`` as it is;
gzip over an uncompressed zip would save only 6 %), with a fixed date, by Pyodide's own
``zipfile`` and ``zlib``: the same inputs give the same bytes.

The engine goes in several archives (:func:`groups`): the modules every game shares, and one
per game, so that a chapter downloads only its own game.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import json
import marshal
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

#: Where Pyodide keeps its standard library in its file system (the browser's too).
STDLIB_ZIP = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip"
#: Where the worker unpacks the engine's compiled modules (a folder on ``sys.path``).
ENGINE_DIR = "/lib/cadogan"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def stdlib_file(module: ModuleType) -> str | None:
    """The module's file inside the standard library's zip, or None (built in, frozen into
    the interpreter, or not from the zip)."""
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) if spec is not None else None
    if not isinstance(origin, str) or not origin.startswith(STDLIB_ZIP + "/"):
        return None
    return origin[len(STDLIB_ZIP) + 1:]


def static_imports(package: Path) -> list[str]:
    """Every absolute module name the engine's sources import, at any depth (an import in a
    function body counts), with ``from M import N`` also naming ``M.N`` (it may be a
    submodule); the engine's own modules are left out."""
    names: set[str] = set()
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_bytes(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names if a.name != "*")
    return sorted(n for n in names if n.split(".")[0] not in ("engine", "__future__"))


def _import_all(names: list[str]) -> None:
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            parent, _, _ = name.rpartition(".")
            if parent and e.name == name:
                continue  # ``from M import N`` where N is a name, not a submodule
            raise


def exercise(sources: str) -> str:
    """Import the engine (from wherever ``sys.path`` finds it) and every game, and play each
    through ``engine.web.handle`` the way the board does, after importing every module the
    engine's sources (``sources``/engine) name; returns the JSON of those names."""
    declared = static_imports(Path(sources) / "engine")
    _import_all(declared)
    import engine
    import engine.web

    def ask(**req: Any) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(engine.web.handle(json.dumps(req)))
        return answer

    ask(id=0, op="ping", board="b")
    for slug in engine.GAMES:
        game = engine.new_game(slug, 1)
        engine.view_of(game)
        engine.load_position(game.position())
        engine.describe_options(type(game).Options)
        board = f"b-{slug}"
        r = ask(id=1, op="new", board=board, game=slug, deal=7, options="")
        moves = r["view"].get("moves") or []
        if moves:
            ask(id=2, op="play", board=board, move=moves[0]["m"])
            ask(id=3, op="undo", board=board)
            ask(id=4, op="redo", board=board)
        ask(id=5, op="play", board=board, move="no-such-move")
        ask(id=6, op="restart", board=board)
        ask(id=10, op="set_options", board=board, options="")
        ask(id=7, op="load", board=board, game=slug, position=r["position"])
        ask(id=8, op="load", board=board, game=slug, position="corrupt;;")
        ask(id=9, op="view", board=board)
    return json.dumps(declared)


def source_zip(engine_parent: str) -> bytes:
    """The engine's sources as a zip (packed as the build packs the compiled archives), for
    the first interpreter to unpack as the worker unpacks those."""
    root = Path(engine_parent)
    return _zip([(p.relative_to(root).as_posix(), p.read_bytes())
                 for p in sorted((root / "engine").rglob("*.py"))])


def needed_files() -> str:
    """JSON: the sorted files of the stdlib zip that the modules now loaded came from."""
    files = {f for m in list(sys.modules.values()) if (f := stdlib_file(m)) is not None}
    return json.dumps(sorted(files))


class _NoDocstrings(ast.NodeTransformer):
    """Remove the docstrings of modules, classes and functions (a body left empty gets a
    ``pass`` on the docstring's line)."""

    def _strip(self, node: Any) -> Any:
        self.generic_visit(node)
        body = node.body
        if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            if len(body) > 1:
                node.body = body[1:]
            else:
                node.body = [ast.copy_location(ast.Pass(), body[0])]
        return node

    visit_Module = _strip
    visit_ClassDef = _strip
    visit_FunctionDef = _strip
    visit_AsyncFunctionDef = _strip


def pyc(source: bytes, filename: str) -> bytes:
    """An unchecked hash-based ``.pyc`` of ``source``, its code named ``filename``."""
    tree = _NoDocstrings().visit(ast.parse(source, filename))
    code = compile(tree, filename, "exec", dont_inherit=True, optimize=0)
    flags = (1).to_bytes(4, "little")  # hash-based, source not checked
    return (importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source)
            + marshal.dumps(code))


def _zip(entries: list[tuple[str, bytes]]) -> bytes:
    """A zip of ``entries``, sorted, deflated at level 9 (a host serves zips as they are:
    few compress ``application/zip``), with a fixed date and mode."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, data, compresslevel=9)
    return buf.getvalue()


# ---- the engine's archives: what every game shares, and one per game ---------------------

#: The archive of the modules every game shares.
SHARED = "engine"


def game_modules(engine_parent: Path) -> dict[str, str]:
    """The module of each game, by slug (``the-empress-of-india`` → ``empress``), read from
    the table in ``engine/__init__.py`` (without importing the engine)."""
    tree = ast.parse((engine_parent / "engine" / "__init__.py").read_bytes())
    for node in ast.walk(tree):
        target: ast.expr
        value: ast.expr | None
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and node.targets:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "_GAME_CLASSES" and value is not None:
            table = ast.literal_eval(value)
            if isinstance(table, dict):
                return {str(slug): str(entry[0]) for slug, entry in table.items()}
    raise ValueError("engine/__init__.py has no _GAME_CLASSES table")


def _relative_imports(path: Path) -> set[str]:
    """The engine modules a module imports (``from .core import …``, ``from . import x``)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
    return out


def groups(engine_parent: Path) -> dict[str, list[str]]:
    """Which compiled modules go in which archive: ``engine`` (every module that is not a
    game's, and what they import) and one per game module (the module, and any engine module
    only it imports); each a sorted list of paths (``engine/core.pyc``)."""
    pkg = engine_parent / "engine"
    if any(p.parent != pkg for p in pkg.rglob("*.py") if "__pycache__" not in p.parts):
        raise ValueError("the engine has subpackages: groups() packs a flat package only")
    modules = sorted(p.stem for p in pkg.glob("*.py"))
    deps = {m: _relative_imports(pkg / f"{m}.py") & set(modules) for m in modules}

    def closure(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo.extend(deps[m])
        return seen

    games = sorted(set(game_modules(engine_parent).values()))
    shared: set[str] = set()
    for m in modules:
        if m not in games:
            shared |= closure(m)
    out = {SHARED: sorted(f"engine/{m}.pyc" for m in shared)}
    for g in games:
        out[g] = sorted(f"engine/{m}.pyc" for m in closure(g) - shared)
    return out


def build(files_json: str, engine_parent: str, out_dir: str) -> str:
    """Write ``stdlib.zip`` (the listed stdlib files, compiled) and ``engine/<group>.zip``
    (the engine's modules, compiled, packed by :func:`groups`) into ``out_dir``; returns a
    JSON manifest."""
    files = sorted(json.loads(files_json))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stdlib: list[tuple[str, bytes]] = []
    with zipfile.ZipFile(STDLIB_ZIP) as zf:
        for name in files:
            if not name.endswith(".py"):
                raise ValueError(f"not a Python source: {name}")
            stdlib.append((name + "c", pyc(zf.read(name), f"{STDLIB_ZIP}/{name}")))
    engine_root = Path(engine_parent)
    compiled: dict[str, bytes] = {}
    for path in sorted((engine_root / "engine").rglob("*.py")):
        rel = path.relative_to(engine_root).as_posix()
        compiled[rel + "c"] = pyc(path.read_bytes(), f"{ENGINE_DIR}/{rel}")
    packed = groups(engine_root)
    left = set(compiled) - {n for names in packed.values() for n in names}
    if left:
        raise ValueError(f"compiled engine modules in no archive: {sorted(left)}")
    (out / "stdlib.zip").write_bytes(_zip(stdlib))
    (out / "engine").mkdir(exist_ok=True)
    for group, names in packed.items():
        (out / "engine" / f"{group}.zip").write_bytes(_zip([(n, compiled[n]) for n in names]))
    return json.dumps({
        "python": ".".join(map(str, sys.version_info[:3])),
        "magic": importlib.util.MAGIC_NUMBER.hex(),
        "stdlib_zip": STDLIB_ZIP,
        "engine_dir": ENGINE_DIR,
        "stdlib_files": files,
        "engine_groups": packed,
        "game_modules": game_modules(engine_root),
    })
