"""Build hook: copy the Pyodide runtime into the site, under a versioned path.

Exactly the five files the browser needs (``RUNTIME_FILES``) are copied from
``node_modules/pyodide`` into ``site/assets/pyodide/v<version>/``; the version comes from the
npm package's ``package.json``. A missing ``node_modules`` is a build error that says what to
run. The board finds the runtime by :func:`runtime_path` (embedded by ``board_embed``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

try:
    from mkdocs.exceptions import PluginError as _BuildError
except ImportError:  # pragma: no cover - mkdocs is always there when this runs as a hook
    _BuildError = RuntimeError  # type: ignore[misc,assignment]

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_FILES = (
    "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
    "pyodide-lock.json",
)


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


def copy_runtime(site_dir: Path, root: Path = ROOT) -> list[Path]:
    """Copy the five runtime files into ``site_dir``; returns the files written."""
    src = package_dir(root)
    dest = site_dir / runtime_path(root)
    missing = [n for n in RUNTIME_FILES if not (src / n).is_file()]
    if missing:
        raise _BuildError(
            f"The Pyodide runtime in {src} lacks {', '.join(missing)}. Run `npm ci` in the "
            "repository root.")
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for name in RUNTIME_FILES:
        target = dest / name
        s = src / name
        st = s.stat()
        if not (target.is_file() and target.stat().st_size == st.st_size
                and target.stat().st_mtime >= st.st_mtime):
            shutil.copy2(s, target)
        out.append(target)
    return out


# ---- mkdocs hook events ---------------------------------------------------------------

def on_config(config: Any) -> Any:
    version()  # fail early, before any page is built, when node_modules is missing
    return config


def on_post_build(config: Any) -> None:
    copy_runtime(Path(config["site_dir"]))
