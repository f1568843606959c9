"""A synthetic plate page, drawn clean and then degraded like the 1914 scans."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from build_scripts.scanlib.cc import BoolImage

W, H = 1400, 2100


@dataclass(frozen=True)
class Synthetic:
    clean: BoolImage  # the page as printed: plate, caption, page number
    plate_box: tuple[int, int, int, int]  # true bounding box of the plate's ink
    degraded: BoolImage
    specks: list[tuple[int, int, int]]  # (x, y, size) of each added speck, degraded coordinates
    skew: float  # degrees; lines run down to the right by tan(skew)


def draw_clean(seed: int = 1) -> tuple[BoolImage, tuple[int, int, int, int]]:
    rng = np.random.default_rng(seed)
    img = Image.new("L", (W, H), 255)
    d = ImageDraw.Draw(img)
    cw, ch, gx, gy = 150, 220, 70, 60
    x0, y0 = 260, 520
    for row in range(3):
        for col in range(4):
            x, y = x0 + col * (cw + gx), y0 + row * (ch + gy)
            d.rectangle([x, y, x + cw, y + ch], outline=0, width=3)
            if (row + col) % 2 == 0:  # an "engraved" court card: fine hatching and stipple
                for k in range(10, cw - 10, 4):
                    d.line([x + k, y + 12, x + k, y + ch - 12], fill=0, width=1)
                for k in range(14, ch - 14, 6):
                    d.line([x + 10, y + k, x + cw - 10, y + k + 3], fill=0, width=1)
            else:  # pips, with a few 2-pixel stipple dots three pixels apart
                for px, py in ((0.3, 0.25), (0.7, 0.25), (0.5, 0.5), (0.3, 0.75), (0.7, 0.75)):
                    cx, cy = x + px * cw, y + py * ch
                    d.ellipse([cx - 9, cy - 9, cx + 9, cy + 9], fill=0)
                sx, sy = x + 20, y + ch - 40
                for k in range(8):
                    d.rectangle([sx + 4 * k, sy, sx + 4 * k + 1, sy + 1], fill=0)
    # A sideways card on the left, a tilted one on the right.
    d.rectangle([120, 800, 120 + ch, 800 + cw], outline=0, width=3)
    d.polygon([(1260, 700), (1330, 770), (1200, 900), (1130, 830)], outline=0, width=3)
    plate = np.asarray(img) < 128
    ys, xs = np.nonzero(plate)
    box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
    # Caption and page number below the plate (text, not part of the plate).
    cap_y = box[3] + 22
    for k in range(14):
        d.rectangle([560 + k * 20, cap_y, 560 + k * 20 + 13, cap_y + 26], fill=0)
    d.rectangle([690, 1930, 700, 1960], fill=0)
    d.rectangle([706, 1930, 716, 1960], fill=0)
    del rng
    return np.asarray(img) < 128, box


def degrade(clean: BoolImage, skew: float = 1.2, n_specks: int = 400, seed: int = 2) -> Synthetic:
    rng = np.random.default_rng(seed)
    img = Image.fromarray(np.where(clean, 0, 255).astype(np.uint8))
    # Skew: rotate clockwise by `skew` degrees, so lines run down to the right.
    page = np.asarray(img.rotate(-skew, resample=Image.Resampling.BICUBIC, fillcolor=255)) < 128
    page = page.copy()
    # Gutter stripes along the left edge: dense, broken vertical lines over the whole height.
    for x in range(4, 90, 3):
        start = 0
        while start < H:
            length = int(rng.integers(60, 400))
            if rng.random() < 0.8:
                page[start:start + length, x:x + int(rng.integers(1, 3))] = True
            start += length + int(rng.integers(0, 30))
    # An edge smudge: a dark blob in the top right corner, with a dusty fringe.
    yy, xx = np.mgrid[0:H, 0:W]
    blob = ((xx - W) ** 2) / 140**2 + (yy ** 2) / 90**2 < 1
    page |= blob
    fringe = (((xx - W) ** 2) / 190**2 + (yy ** 2) / 130**2 < 1) & ~blob & (rng.random((H, W)) < 0.02)
    page |= fringe
    # Specks: isolated 1-3 pixel dots in clean paper, away from other ink.
    specks: list[tuple[int, int, int]] = []
    ink_near = page.copy()
    tries = 0
    while len(specks) < n_specks and tries < 100_000:
        tries += 1
        x, y = int(rng.integers(150, W - 250)), int(rng.integers(180, H - 60))
        size = int(rng.integers(1, 4))
        if ink_near[max(0, y - 8):y + size + 8, max(0, x - 8):x + size + 8].any():
            continue
        page[y:y + size, x:x + size] = True
        ink_near[y:y + size, x:x + size] = True
        specks.append((x, y, size))
    return Synthetic(clean=clean, plate_box=(0, 0, 0, 0), degraded=page, specks=specks, skew=skew)


def make(seed: int = 1) -> Synthetic:
    clean, box = draw_clean(seed)
    s = degrade(clean)
    return Synthetic(clean=s.clean, plate_box=box, degraded=s.degraded, specks=s.specks, skew=s.skew)
