"""Build hook: the boards' Python runtime, precompiled, under versioned and content-named paths.

Into ``site/assets/pyodide/v<version>/`` (the version of the npm ``pyodide`` package):

- the three files of the distribution the browser needs (``DIST_FILES``): ``pyodide.mjs``,
  ``pyodide.asm.mjs``, ``pyodide.asm.wasm``, copied as they are;
- ``stdlib-<sha256[:12]>.zip``: instead of the distribution's ``python_stdlib.zip`` (2.5 MB of
  ``.py`` sources, compiled at every start), only the standard library's modules that are
  loaded once Pyodide has booted and the engine has played every game, compiled to ``.pyc``
  by Pyodide's own Python (1.1 MB, deflated). The worker names it in
  ``loadPyodide({stdLibURL})`` and passes the lock file's ``info`` as ``lockFileContents``
  (no package is ever loaded), both public options.

The engine, compiled by the same run, is packed by ``engine_archive.py``.

The compiling is done by ``pyodide_compile.mjs`` (Node, Pyodide from ``node_modules``; see
``pyodide_compile.py``) and cached in ``.cache/pyodide-runtime/<key>/``, the key a hash of the
Pyodide version, its ``python_stdlib.zip``, the engine's sources and the two compile scripts:
an unchanged rebuild runs no Node. The output is byte-identical from one run to the next
(``tests/site/test_runtime_build.py``); nothing of it is committed.

A missing ``node_modules`` or ``node`` is a build error that says what to run. The board
finds the runtime through :func:`runtime_path` and :func:`current` (embedded by
``board_embed``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    from mkdocs.exceptions import PluginError as _BuildError
except ImportError:  # pragma: no cover - mkdocs is always there when this runs as a hook
    _BuildError = RuntimeError  # type: ignore[misc,assignment]

ROOT = Path(__file__).resolve().parent.parent
#: The distribution's files the browser fetches (the standard library is ours).
DIST_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
#: What the compile step reads from the distribution, besides its version.
DIST_INPUTS = ("python_stdlib.zip", "pyodide-lock.json")
COMPILE_SCRIPTS = ("pyodide_compile.mjs", "pyodide_compile.py")
#: Cached runs kept (the newest).
KEEP_CACHED = 6
COMPILE_TIMEOUT_S = 900


def package_dir(root: Path = ROOT) -> Path:
    return root / "node_modules" / "pyodide"


def version(root: Path = ROOT) -> str:
    """The version of the npm ``pyodide`` package installed (e.g. ``314.0.7``)."""
    pkg = package_dir(root) / "package.json"
    if not pkg.is_file():
        raise _BuildError(
            f"The Pyodide runtime is missing: {pkg} not found. Run `npm ci` (or `make deps`) "
            "in the repository root to install the pinned `pyodide` npm package.")
    v = json.loads(pkg.read_text(encoding="utf-8")).get("version")
    if not isinstance(v, str) or not v:
        raise _BuildError(f"{pkg} names no version")
    return v


def runtime_path(root: Path = ROOT) -> str:
    """Where the runtime lives in the site, relative to the site root, with a final slash."""
    return f"assets/pyodide/v{version(root)}/"


def engine_sources(root: Path = ROOT) -> list[Path]:
    return sorted(p for p in (root / "engine").rglob("*.py") if "__pycache__" not in p.parts)


def build_key(root: Path = ROOT) -> str:
    """What the compiled runtime depends on, hashed: Pyodide's version and the files the
    compile step reads, the engine's sources, the compile scripts."""
    h = hashlib.sha256()
    h.update(version(root).encode())
    for name in DIST_INPUTS:
        h.update(hashlib.sha256((package_dir(root) / name).read_bytes()).digest())
    for name in COMPILE_SCRIPTS:
        h.update(name.encode() + b"\0" + (ROOT / "build_scripts" / name).read_bytes())
    for p in engine_sources(root):
        h.update(p.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(p.read_bytes()).digest())
    return f"{version(root)}-{h.hexdigest()[:16]}"


@dataclass(frozen=True)
class Compiled:
    """One run of the compile step: ``stdlib.zip``, ``engine/<group>.zip`` and
    ``manifest.json`` in ``folder``."""

    folder: Path

    @property
    def manifest(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.folder / "manifest.json").read_text("utf-8"))
        return data

    def stdlib(self) -> bytes:
        return (self.folder / "stdlib.zip").read_bytes()

    def engine_archives(self) -> dict[str, bytes]:
        """The engine's archives by group (``engine``: the shared modules; one per game
        module, e.g. ``empress``)."""
        return {group: (self.folder / "engine" / f"{group}.zip").read_bytes()
                for group in self.manifest["engine_groups"]}


def compile_into(out: Path, root: Path = ROOT) -> Compiled:
    """Run the compile step (no cache) into the empty folder ``out``."""
    node = shutil.which("node")
    if node is None:
        raise _BuildError("Building the board's runtime needs Node.js (`node`), which is not "
                          "on PATH: install Node 20+.")
    for name in DIST_INPUTS + DIST_FILES:
        if not (package_dir(root) / name).is_file():
            raise _BuildError(f"The Pyodide runtime in {package_dir(root)} lacks {name}. Run "
                              "`npm ci` in the repository root.")
    r = subprocess.run([node, str(ROOT / "build_scripts" / "pyodide_compile.mjs"), str(root),
                        str(out)], cwd=ROOT, capture_output=True, text=True,
                       timeout=COMPILE_TIMEOUT_S, check=False)
    if r.returncode != 0:
        raise _BuildError("Compiling the board's runtime with Pyodide failed:\n"
                          + (r.stdout + r.stderr)[-4000:])
    return Compiled(out)


def compiled(root: Path = ROOT, cache: Path | None = None) -> Compiled:
    """The compiled runtime for the current sources, from the cache or made now."""
    cache = cache or root / ".cache" / "pyodide-runtime"
    folder = cache / build_key(root)
    if (folder / "manifest.json").is_file():
        return Compiled(folder)
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="tmp-", dir=cache))
    try:
        compile_into(tmp, root)
        try:
            os.replace(tmp, folder)
        except OSError:  # another build got there first: same inputs, same bytes
            pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    entries = sorted((p for p in cache.iterdir() if p.is_dir() and not p.name.startswith("tmp-")),
                     key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[KEEP_CACHED:]:
        if old != folder:
            shutil.rmtree(old, ignore_errors=True)
    return Compiled(folder)


def stdlib_name(data: bytes, root: Path = ROOT) -> str:
    return f"{runtime_path(root)}stdlib-{hashlib.sha256(data).hexdigest()[:12]}.zip"


@dataclass(frozen=True)
class Runtime:
    """What the site ships of the runtime: paths relative to the site root."""

    pyodide: str
    stdlib: str
    stdlib_data: bytes
    #: The lock file's ``info`` (the worker passes it as ``lockFileContents``).
    lock_info: dict[str, str]
    #: Bytes of the files the worker downloads itself, uncompressed (for its progress).
    wasm_size: int


def current(root: Path = ROOT) -> Runtime:
    """The runtime of this build: made once when the build starts (``on_config``), so that
    the names embedded in the pages and the files written at the end agree. Outside a
    build, made afresh (from the cache)."""
    shared = _shared()
    if shared._build is not None and root == ROOT:
        built: Runtime = shared._build
        return built
    data = compiled(root).stdlib()
    lock = json.loads((package_dir(root) / "pyodide-lock.json").read_text("utf-8"))
    return Runtime(pyodide=runtime_path(root), stdlib=stdlib_name(data, root), stdlib_data=data,
                   lock_info=dict(lock["info"]),
                   wasm_size=(package_dir(root) / "pyodide.asm.wasm").stat().st_size)


def copy_runtime(site_dir: Path, root: Path = ROOT) -> list[Path]:
    """Write the runtime into ``site_dir``: the distribution's files and our standard
    library (older ones removed); returns the files written."""
    src = package_dir(root)
    runtime = current(root)
    dest = site_dir / runtime.pyodide
    missing = [n for n in DIST_FILES if not (src / n).is_file()]
    if missing:
        raise _BuildError(
            f"The Pyodide runtime in {src} lacks {', '.join(missing)}. Run `npm ci` in the "
            "repository root.")
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for name in DIST_FILES:
        target = dest / name
        s = src / name
        st = s.stat()
        if not (target.is_file() and target.stat().st_size == st.st_size
                and target.stat().st_mtime >= st.st_mtime):
            shutil.copy2(s, target)
        out.append(target)
    std = site_dir / runtime.stdlib
    for old in dest.glob("stdlib-*.zip"):
        if old != std:
            old.unlink()
    if not (std.is_file() and std.read_bytes() == runtime.stdlib_data):
        std.write_bytes(runtime.stdlib_data)
    out.append(std)
    return out


#: The runtime of the build in progress (set on the package module, which every hook
#: shares: mkdocs loads each hook file as a separate module).
_build: Runtime | None = None


def _shared() -> Any:
    import build_scripts.pyodide_runtime as shared  # noqa: PLW0406 - the shared instance
    return shared


# ---- mkdocs hook events ---------------------------------------------------------------

def on_config(config: Any) -> Any:
    shared = _shared()
    shared._build = None
    version()  # fail early, before any page is built, when node_modules is missing
    shared._build = current()
    return config


def on_post_build(config: Any) -> None:
    copy_runtime(Path(config["site_dir"]))
    _shared()._build = None
