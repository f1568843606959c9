"""Run the cleaning steps over the manifest's pages, with a cache, and render the outputs.

Every step's result is cached under `.cache/scans/` on a key made of its input's key, the step's
name, its settings and the code version; the first input key is the scan's sha256. A page
whose final key is already cached is not opened at all, so a rebuild with nothing changed does
no image work.

Outputs per page (in `.cache/scans/out/<key>/`):
- plates: `plate-1x.webp`, `plate-1x.png`, `plate-2x.webp`, `plate-2x.png`, `plate-full.png`;
- every plate or text page: `page-1x.webp` and `page-full.png` (the facsimile);
- `meta.json`: sizes, bytes and everything the steps measured (see `report.py`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from . import cache_dir
from .cc import BoolImage
from .fetch import sha256_file
from .manifest import Manifest, PageEntry
from .steps import (
    Box,
    CropSettings,
    DeskewSettings,
    DespeckleSettings,
    DustSettings,
    EdgeSettings,
    GutterSettings,
    Info,
    LayoutSettings,
    StepOutput,
    content_box,
    crop_even,
    deskew,
    despeckle,
    find_plate,
    grow,
    keep_within,
    remove_dust,
    remove_edge_smudges,
    remove_gutter,
)


@dataclass(frozen=True)
class OutputSettings:
    plate_width: int = 480  # 1x plate fits in plate_width x plate_height CSS pixels
    plate_height: int = 620
    page_width: int = 640  # 1x facsimile page width
    gray_levels: int = 8  # grey levels kept when scaling down 1-bit art


SETTINGS_TYPES: dict[str, type] = {
    "gutter": GutterSettings,
    "edges": EdgeSettings,
    "despeckle": DespeckleSettings,
    "dust": DustSettings,
    "deskew": DeskewSettings,
    "layout": LayoutSettings,
    "crop": CropSettings,
    "output": OutputSettings,
}

Settings = dict[str, Any]
StepFn = Callable[[BoolImage, Any, Info], StepOutput]

# The cleaning steps, in order: each maps the page image to a cleaner one.
CLEAN_STEPS: tuple[tuple[str, StepFn], ...] = (
    ("gutter", lambda ink, s, info: remove_gutter(ink, s)),
    ("edges", lambda ink, s, info: remove_edge_smudges(
        ink, s, info.get("gutter_left", 0), info.get("gutter_right", 0))),
    ("despeckle", lambda ink, s, info: despeckle(ink, s)),
    ("dust", lambda ink, s, info: remove_dust(ink, s)),
    ("deskew", lambda ink, s, info: deskew(ink, s)),
)


def _code_version() -> str:
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in ("cc.py", "steps.py", "pipeline.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


CODE_VERSION = _code_version()


def settings_for(entry: PageEntry) -> Settings:
    """Default settings for every step, with the page's manifest overrides applied."""
    out: Settings = {}
    for name, cls in SETTINGS_TYPES.items():
        base = cls()
        over = entry.settings.get(name, {})
        out[name] = replace(base, **over) if over else base
    return out


def _hash(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:32]


def step_keys(source_sha: str, settings: Settings) -> list[str]:
    """Cache keys of the cleaning steps' outputs, in order (no image work)."""
    keys: list[str] = []
    prev = source_sha
    for name, _ in CLEAN_STEPS:
        prev = _hash(prev, name, asdict(settings[name]), CODE_VERSION)
        keys.append(prev)
    return keys


def output_key(entry: PageEntry, settings: Settings) -> str:
    last = step_keys(entry.sha256, settings)[-1]
    return _hash(last, entry.role, asdict(settings["layout"]), asdict(settings["crop"]),
                 asdict(settings["output"]), CODE_VERSION)


# --------------------------------------------------------------------------------------------
# Image I/O and rendering (pure apart from the cache files).


def load_ink(path: Path) -> BoolImage:
    """A scan as a boolean ink array (True = black), whatever its mode."""
    with Image.open(path) as im:
        grey = np.asarray(im.convert("L"))
    return grey < 128


def png_1bit(ink: BoolImage, fast: bool = False) -> bytes:
    img = Image.fromarray(~ink)  # mode "1", white paper
    buf = io.BytesIO()
    if fast:
        img.save(buf, format="PNG", compress_level=1)
    else:
        img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def scaled_grey(ink: BoolImage, size: tuple[int, int], levels: int) -> Image.Image:
    """Scale 1-bit art down with antialiasing, keeping `levels` evenly spaced greys."""
    img = Image.fromarray(np.where(ink, 0, 255).astype(np.uint8))
    small = img.resize(size, Image.Resampling.LANCZOS) if size != img.size else img
    step = 255 / (levels - 1)
    lut = [round(round(v / step) * step) for v in range(256)]
    return small.point(lut)


def webp_bytes(grey: Image.Image) -> bytes:
    buf = io.BytesIO()
    grey.save(buf, format="WEBP", lossless=True, quality=80, method=4, exact=True)
    return buf.getvalue()


def png_palette_bytes(grey: Image.Image, levels: int) -> bytes:
    """A grey image with few levels as a small palette PNG."""
    step = 255 / (levels - 1)
    idx = np.rint(np.asarray(grey, dtype=np.float64) / step).astype(np.uint8)
    pal = Image.new("P", grey.size)
    pal.frombytes(idx.tobytes())
    palette: list[int] = []
    for i in range(levels):
        v = round(i * step)
        palette += [v, v, v]
    pal.putpalette(palette)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", optimize=True, bits=4 if levels <= 16 else 8)
    return buf.getvalue()


def fit(size: tuple[int, int], max_w: int, max_h: int) -> tuple[int, int]:
    """`size` scaled down (never up) to fit in max_w x max_h, keeping the aspect ratio."""
    w, h = size
    scale = min(1.0, max_w / w, max_h / h)
    return max(1, round(w * scale)), max(1, round(h * scale))


def render_plate(plate: BoolImage, s: OutputSettings) -> dict[str, bytes]:
    h, w = plate.shape
    one = fit((w, h), s.plate_width, s.plate_height)
    two = fit((w, h), 2 * one[0], 2 * one[1])
    out: dict[str, bytes] = {}
    for tag, size in (("1x", one), ("2x", two)):
        grey = scaled_grey(plate, size, s.gray_levels)
        out[f"plate-{tag}.webp"] = webp_bytes(grey)
        out[f"plate-{tag}.png"] = png_palette_bytes(grey, s.gray_levels)
    out["plate-full.png"] = png_1bit(plate)
    return out


def render_page(page: BoolImage, s: OutputSettings) -> dict[str, bytes]:
    h, w = page.shape
    size = fit((w, h), s.page_width, 10**6)
    return {"page-1x.webp": webp_bytes(scaled_grey(page, size, s.gray_levels)),
            "page-full.png": png_1bit(page)}


def image_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as im:
        return im.size


# --------------------------------------------------------------------------------------------
# The cache.


@dataclass(frozen=True)
class PageOutput:
    """A processed page: where its files are and what the steps measured."""

    entry: PageEntry
    directory: Path
    meta: dict[str, Any]

    def path(self, name: str) -> Path:
        return self.directory / name

    @property
    def files(self) -> dict[str, dict[str, int]]:
        files: dict[str, dict[str, int]] = self.meta["files"]
        return files

    @property
    def info(self) -> Info:
        info: Info = self.meta["info"]
        return info


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def _step_paths(cache: Path, name: str, key: str) -> tuple[Path, Path]:
    base = cache / "steps" / name
    return base / f"{key}.png", base / f"{key}.json"


def _cached_step(cache: Path, name: str, key: str) -> tuple[BoolImage, Info] | None:
    png, meta = _step_paths(cache, name, key)
    if not (png.is_file() and meta.is_file()):
        return None
    info: Info = json.loads(meta.read_text())
    return load_ink(png), info


def _store_step(cache: Path, name: str, key: str, ink: BoolImage, info: Info) -> None:
    png, meta = _step_paths(cache, name, key)
    _write_atomic(png, png_1bit(ink, fast=True))
    _write_atomic(meta, json.dumps(info, sort_keys=True).encode())


def clean(entry: PageEntry, scan: Path, settings: Settings, cache: Path) -> tuple[BoolImage, Info, int]:
    """The page after all cleaning steps, its cumulative info, and how many steps ran."""
    keys = step_keys(entry.sha256, settings)
    start = 0
    ink: BoolImage | None = None
    info: Info = {}
    for i in range(len(keys) - 1, -1, -1):
        hit = _cached_step(cache, CLEAN_STEPS[i][0], keys[i])
        if hit is not None:
            ink, info = hit
            start = i + 1
            break
    if ink is None:
        ink = load_ink(scan)
        info = {"width": int(ink.shape[1]), "height": int(ink.shape[0]),
                "ink_in": int(ink.sum())}
    for i in range(start, len(keys)):
        name, fn = CLEAN_STEPS[i]
        result = fn(ink, settings[name], info)
        if result.image is not None:
            ink = result.image
        info = {**info, **result.info}
        _store_step(cache, name, keys[i], ink, info)
    return ink, info, len(keys) - start


def lay_out(ink: BoolImage, entry: PageEntry, settings: Settings) -> tuple[Info, dict[str, BoolImage]]:
    """Find the plate (for plates) and the printed area, and crop both with even margins."""
    crop: CropSettings = settings["crop"]
    info: Info = {}
    images: dict[str, BoolImage] = {}
    if entry.role == "plate":
        found = find_plate(ink, settings["layout"])
        info.update(found)
        if found["plate_box"] is not None:
            box: Box = tuple(found["plate_box"])
            images["plate"] = crop_even(keep_within(ink, box), box, crop.margin)
            info["crop_box"] = list(grow(box, crop.margin))
    page_box = content_box(ink, settings["layout"].noise_area)
    if page_box is None:
        page_box = (0, 0, ink.shape[1], ink.shape[0])
    info["page_box"] = list(grow(page_box, crop.page_margin))
    images["page"] = crop_even(ink, page_box, crop.page_margin)
    info["ink_out"] = int(ink.sum())
    return info, images


def process_page(entry: PageEntry, scan: Path, cache: Path | None = None) -> tuple[PageOutput, int]:
    """Clean and render one page, using the cache (default: `cache_dir()`); returns the output
    and the number of steps run (0 if cached)."""
    cache = cache_dir() if cache is None else cache
    settings = settings_for(entry)
    key = output_key(entry, settings)
    out_dir = cache / "out" / key
    meta_path = out_dir / "meta.json"
    if meta_path.is_file():
        return PageOutput(entry, out_dir, json.loads(meta_path.read_text())), 0
    ink, info, ran = clean(entry, scan, settings, cache)
    more, images = lay_out(ink, entry, settings)
    info = {**info, **more}
    out: dict[str, bytes] = {}
    if "plate" in images:
        out.update(render_plate(images["plate"], settings["output"]))
    out.update(render_page(images["page"], settings["output"]))
    files = {}
    for name, data in sorted(out.items()):
        w, h = image_size(data)
        files[name] = {"width": w, "height": h, "bytes": len(data)}
    meta = {"file": entry.file, "key": key, "files": files, "info": info}
    tmp = Path(tempfile.mkdtemp(dir=cache, prefix=".out-"))
    try:
        for name, data in out.items():
            (tmp / name).write_bytes(data)
        (tmp / "meta.json").write_text(json.dumps(meta, sort_keys=True, indent=1))
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.replace(tmp, out_dir)
        except OSError:  # another build wrote it first: theirs is identical
            pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return PageOutput(entry, out_dir, meta), ran + 1


@dataclass
class RunResult:
    pages: dict[str, PageOutput]  # file name -> output
    missing: list[str]  # processed pages whose scan is absent
    invalid: list[str]  # present but with the wrong checksum
    steps_run: int  # 0 when everything came from the cache

    @property
    def complete(self) -> bool:
        return not self.missing and not self.invalid


def run(manifest: Manifest, scans: Path, cache: Path | None = None,
        only: Iterable[str] | None = None) -> RunResult:
    """Process every plate and text page whose scan is present and verified (cache: default
    `cache_dir()`)."""
    cache = cache_dir() if cache is None else cache
    wanted = set(only) if only is not None else None
    result = RunResult({}, [], [], 0)
    cache.mkdir(parents=True, exist_ok=True)
    for entry in manifest.pages:
        if not entry.is_processed or (wanted is not None and entry.file not in wanted):
            continue
        path = scans / entry.file
        if not path.is_file():
            result.missing.append(entry.file)
            continue
        if sha256_file(path) != entry.sha256:
            result.invalid.append(entry.file)
            continue
        page, ran = process_page(entry, path, cache)
        result.pages[entry.file] = page
        result.steps_run += ran
    return result


def settings_fields() -> dict[str, list[str]]:
    """Step name -> its setting names (for documentation and the report)."""
    return {name: [f.name for f in fields(cls)] for name, cls in SETTINGS_TYPES.items()}
