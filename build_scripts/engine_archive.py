"""Build hook: ship the ``engine`` package to the browser, compiled, one archive per game.

The engine's modules come compiled to ``.pyc`` by Pyodide's own Python and packed in zips
(deflated, entries sorted, a fixed time) by the same run that compiles the standard library
(``pyodide_runtime.py``, ``pyodide_compile.py``); this names them by content and writes them:

- ``assets/engine/engine-<sha256[:12]>.zip``: what every game shares (the package, ``core``,
  ``web``, ...: every module that is not a game's);
- ``assets/engine/<module>-<sha256[:12]>.zip``: one game's module (and any engine module only
  it imports), e.g. ``empress-…zip`` for The Empress of India.

A chapter downloads the shared archive and its own game's; a new engine is a new name, so
browsers may cache them for ever. The worker unpacks them with ``pyodide.unpackArchive`` into
a folder on ``sys.path`` (``pyodide_compile.ENGINE_DIR``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from build_scripts import pyodide_compile, pyodide_runtime

ROOT = Path(__file__).resolve().parent.parent
SHARED = pyodide_compile.SHARED


def archive_name(group: str, data: bytes) -> str:
    """An archive's path in the site, relative to the site root."""
    return f"assets/engine/{group}-{hashlib.sha256(data).hexdigest()[:12]}.zip"


@dataclass(frozen=True)
class Archives:
    """The engine's archives of one build: by group (``engine`` and each game module), their
    path in the site and bytes; and each game's module, by slug."""

    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    game_module: dict[str, str] = field(default_factory=dict)

    @property
    def shared(self) -> str:
        return self.files[SHARED][0]

    def game(self, slug: str) -> str:
        """The path of the archive of the game ``slug``."""
        return self.files[self.game_module[slug]][0]


def make_archives(root: Path = ROOT) -> Archives:
    compiled = pyodide_runtime.compiled(root)
    files = {group: (archive_name(group, data), data)
             for group, data in compiled.engine_archives().items()}
    return Archives(files, dict(compiled.manifest["game_modules"]))


def current_archives(root: Path = ROOT) -> Archives:
    """The archives of this build: made once when the build starts (``on_config``), so the
    names embedded in the pages and the files written at the end always agree, even if the
    sources change during the build. Outside a build, made afresh."""
    shared = _shared()
    if shared._build is not None and root == ROOT:
        built: Archives = shared._build
        return built
    return make_archives(root)


def write_archives(site_dir: Path, root: Path = ROOT) -> list[Path]:
    """Write the archives into the built site (removing older engine archives)."""
    archives = current_archives(root)
    out = [site_dir / name for name, _ in archives.files.values()]
    folder = site_dir / "assets" / "engine"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.zip"):
        if old not in out:
            old.unlink()
    for name, data in archives.files.values():
        target = site_dir / name
        if not (target.is_file() and target.read_bytes() == data):
            target.write_bytes(data)
    return out


#: The archives of the build in progress (set on the package module, which every hook
#: shares: mkdocs loads each hook file as a separate module).
_build: Archives | None = None


def _shared() -> Any:
    import build_scripts.engine_archive as shared  # noqa: PLW0406 - the shared instance
    return shared


# ---- mkdocs hook events ---------------------------------------------------------------

def on_config(config: Any) -> Any:
    shared = _shared()
    shared._build = None
    shared._build = make_archives()
    return config


def on_post_build(config: Any) -> None:
    write_archives(Path(config["site_dir"]))
    _shared()._build = None
