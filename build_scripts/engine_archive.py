"""Build hook: ship the ``engine`` package to the browser as one zip archive.

The archive holds ``engine/*.py`` (no caches), entries sorted and stamped with a fixed
time, so the same sources always give the same bytes. Its name carries the first 12 hex
digits of its SHA-256 (``assets/engine/engine-<hash>.zip``): a new engine is a new name,
so browsers may cache it for ever. The worker installs it with ``pyodide.unpackArchive``.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: 1980-01-01 00:00:00, the earliest time a zip entry can hold.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def engine_files(root: Path = ROOT) -> list[Path]:
    pkg = root / "engine"
    return sorted(p for p in pkg.rglob("*.py") if "__pycache__" not in p.parts)


def archive_bytes(root: Path = ROOT) -> bytes:
    """The zip of the engine package, deterministic."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for path in engine_files(root):
            name = path.relative_to(root).as_posix()
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, path.read_bytes(), compresslevel=9)
    return buf.getvalue()


def archive_name(data: bytes) -> str:
    """The archive's path in the site, relative to the site root."""
    return f"assets/engine/engine-{hashlib.sha256(data).hexdigest()[:12]}.zip"


def current_archive(root: Path = ROOT) -> tuple[str, bytes]:
    """The archive of this build: made once when the build starts (``on_config``), so the
    name embedded in the pages and the file written at the end always agree, even if the
    sources change during the build. Outside a build, made afresh."""
    shared = _shared()
    if shared._build is not None and root == ROOT:
        built: tuple[str, bytes] = shared._build
        return built
    data = archive_bytes(root)
    return archive_name(data), data


def write_archive(site_dir: Path, root: Path = ROOT) -> Path:
    """Write the archive into the built site (removing older engine archives)."""
    name, data = current_archive(root)
    target = site_dir / name
    target.parent.mkdir(parents=True, exist_ok=True)
    for old in target.parent.glob("engine-*.zip"):
        if old != target:
            old.unlink()
    target.write_bytes(data)
    return target


#: The archive of the build in progress (set on the package module, which every hook shares:
#: mkdocs loads each hook file as a separate module).
_build: tuple[str, bytes] | None = None


def _shared() -> Any:
    import build_scripts.engine_archive as shared  # noqa: PLW0406 - the shared instance
    return shared


# ---- mkdocs hook events ---------------------------------------------------------------

def on_config(config: Any) -> Any:
    shared = _shared()
    shared._build = None
    data = archive_bytes()
    shared._build = (archive_name(data), data)
    return config


def on_post_build(config: Any) -> None:
    write_archive(Path(config["site_dir"]))
    _shared()._build = None
