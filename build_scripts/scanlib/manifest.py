"""The scan manifest (`scans/manifest`, TOML): one `[[page]]` entry per page image.

Each entry: `file`, `sha256`, `printed` (the printed page label), `role` ("plate", "text",
"blank" or "other"), `chapter` (the slug whose plate or text it is), `chapters` (slugs whose
facsimile shows it; defaults to `[chapter]`), and for plates `caption` and `alt` (with
typographic quotes: ’ “ ”, never ' or "). A table `[page.settings.STEP]` overrides that step's
settings for this page only.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

ROLES = ("plate", "text", "blank", "other")
_SHA = re.compile(r"^[0-9a-f]{64}$")
STRAIGHT_QUOTES = re.compile(r"['\"`]")


class ManifestError(ValueError):
    """The manifest is malformed."""


@dataclass(frozen=True)
class PageEntry:
    file: str
    sha256: str
    printed: str
    role: str
    chapter: str | None = None
    chapters: tuple[str, ...] = ()
    caption: str | None = None
    alt: str | None = None
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def stem(self) -> str:
        return Path(self.file).stem

    @property
    def is_processed(self) -> bool:
        """Plates and text pages go through the cleaning pipeline."""
        return self.role in ("plate", "text")

    @property
    def page_label(self) -> str:
        """"p. 35" for numbered pages, the printed label otherwise."""
        return f"p. {self.printed}" if self.printed.isdigit() else self.printed


@dataclass(frozen=True)
class Manifest:
    source_url: str
    pages: tuple[PageEntry, ...]

    def by_file(self, name: str) -> PageEntry:
        for p in self.pages:
            if p.file == name:
                return p
        raise KeyError(name)

    def plate_for(self, slug: str) -> PageEntry | None:
        for p in self.pages:
            if p.role == "plate" and p.chapter == slug:
                return p
        return None

    def pages_for(self, slug: str) -> list[PageEntry]:
        """The pages shown in the facsimile of chapter `slug`, in book order."""
        return [p for p in self.pages if slug in p.chapters and p.is_processed]

    def page_by_printed(self, printed: str) -> PageEntry | None:
        for p in self.pages:
            if p.printed == printed and p.is_processed:
                return p
        return None


def _boxes(value: Any) -> bool:
    """`value` is a list of boxes [left, top, right, bottom] of non-negative integers."""
    return isinstance(value, list) and all(
        isinstance(b, list) and len(b) == 4 and all(isinstance(v, int) and v >= 0 for v in b)
        and b[0] < b[2] and b[1] < b[3] for b in value)


def _entry(raw: dict[str, Any], index: int, step_fields: dict[str, set[str]]) -> PageEntry:
    where = f"page entry {index + 1}"
    for key in ("file", "sha256", "printed", "role"):
        if not isinstance(raw.get(key), str):
            raise ManifestError(f"{where}: missing or non-text `{key}`")
    if not _SHA.match(raw["sha256"]):
        raise ManifestError(f"{where} ({raw['file']}): sha256 must be 64 lowercase hex digits")
    if raw["role"] not in ROLES:
        raise ManifestError(f"{where} ({raw['file']}): role must be one of {', '.join(ROLES)}")
    if "/" in raw["file"] or raw["file"].startswith("."):
        raise ManifestError(f"{where}: `file` must be a plain file name")
    chapter = raw.get("chapter")
    chapters = tuple(raw.get("chapters", [chapter] if chapter else []))
    if raw["role"] == "plate":
        for key in ("chapter", "caption", "alt"):
            if not isinstance(raw.get(key), str) or not raw[key].strip():
                raise ManifestError(f"{where} ({raw['file']}): a plate needs `{key}`")
    for key in ("caption", "alt"):
        straight = STRAIGHT_QUOTES.search(raw.get(key) or "")
        if straight:
            raise ManifestError(f"{where} ({raw['file']}): `{key}` has a straight quote "
                                f"({straight.group(0)}); write ’ for an apostrophe and “ ” ‘ ’ "
                                "for quotation marks")
    settings = raw.get("settings", {})
    for step, values in settings.items():
        if step not in step_fields:
            raise ManifestError(f"{where} ({raw['file']}): unknown step `{step}` in settings "
                                f"(known: {', '.join(sorted(step_fields))})")
        unknown = set(values) - step_fields[step]
        if unknown:
            raise ManifestError(f"{where} ({raw['file']}): unknown setting(s) "
                                f"{', '.join(sorted(unknown))} for step `{step}`")
        if step == "dust" and not _boxes(values.get("erase", [])):
            raise ManifestError(f"{where} ({raw['file']}): dust `erase` must be a list of boxes "
                                "[left, top, right, bottom] in scan pixels, left < right and "
                                "top < bottom")
    return PageEntry(file=raw["file"], sha256=raw["sha256"], printed=raw["printed"],
                     role=raw["role"], chapter=chapter, chapters=chapters,
                     caption=raw.get("caption"), alt=raw.get("alt"), settings=settings)


def parse(text: str) -> Manifest:
    from .pipeline import SETTINGS_TYPES  # the step names and their settings

    step_fields = {name: {f.name for f in fields(cls)} for name, cls in SETTINGS_TYPES.items()}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"scans/manifest is not valid TOML: {exc}") from exc
    source = data.get("source", {})
    url = source.get("url", "")
    if not isinstance(url, str) or not url:
        raise ManifestError("[source] needs `url`")
    pages = tuple(_entry(raw, i, step_fields) for i, raw in enumerate(data.get("page", [])))
    names = [p.file for p in pages]
    if len(set(names)) != len(names):
        raise ManifestError("a file is listed twice")
    return Manifest(source_url=url, pages=pages)


def load(path: Path) -> Manifest:
    return parse(path.read_text(encoding="utf-8"))
