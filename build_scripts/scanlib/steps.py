"""The cleaning steps, in order. Each is a small pure function of a 1-bit image and its settings.

Images are 2-D numpy boolean arrays, True where there is ink (black). Every step returns a
`StepOutput`: the new image (or None when the step only measures) and a JSON-able dict of what
it found, for the report. Settings are frozen dataclasses; a page's manifest entry may override
any field by name (see `manifest.py`).

Order (see `pipeline.CLEAN_STEPS`): gutter -> edges -> despeckle -> dust -> deskew -> layout
-> crop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from .cc import BoolImage, Components, label_components, paint

Box = tuple[int, int, int, int]  # left, top, right, bottom (right/bottom exclusive)
Info = dict[str, Any]


@dataclass(frozen=True)
class StepOutput:
    image: BoolImage | None
    info: Info


# ---------------------------------------------------------------------------------------------
# 1. Gutter stripes: the dark vertical stripes left by the binding on one side of the page.


@dataclass(frozen=True)
class GutterSettings:
    band_frac: float = 0.14  # look for stripes only this far in from each side (fraction of width)
    start_max: int = 40  # the stripes must begin within this many pixels of the page edge
    smooth: int = 9  # columns averaged when measuring a column's ink
    min_col_frac: float = 0.04  # a stripe column has at least this fraction of its height inked
    max_gap: int = 8  # clean columns allowed between stripes
    min_row_span: float = 0.55  # the stripes together cover at least this fraction of rows
    pad: int = 6  # extra columns cleared beyond the last stripe


def _stripe_extent(col_frac: NDArray[np.float64], s: GutterSettings, limit: int) -> int:
    """Number of columns, counted from index 0, that belong to a stripe band (0 if none)."""
    first = -1
    last = -1
    gap = 0
    for i in range(min(limit, col_frac.shape[0])):
        if col_frac[i] >= s.min_col_frac:
            if first < 0:
                if i > s.start_max:
                    return 0
                first = i
            last = i
            gap = 0
        elif first >= 0:
            gap += 1
            if gap > s.max_gap:
                break
    return last + 1 if last >= 0 else 0


def _row_span(ink: BoolImage) -> float:
    """Fraction of rows that hold any ink."""
    return float(ink.any(axis=1).mean()) if ink.size else 0.0


def remove_gutter(ink: BoolImage, s: GutterSettings) -> StepOutput:
    w = ink.shape[1]
    frac = ink.mean(axis=0)
    kernel = np.ones(s.smooth) / s.smooth
    smooth = np.convolve(frac, kernel, mode="same")
    limit = int(w * s.band_frac)
    out = ink.copy()
    cleared: dict[str, int] = {"left": 0, "right": 0}
    left = _stripe_extent(smooth, s, limit)
    if left and _row_span(ink[:, :left]) >= s.min_row_span:
        cleared["left"] = min(w, left + s.pad)
        out[:, : cleared["left"]] = False
    right = _stripe_extent(smooth[::-1], s, limit)
    if right and _row_span(ink[:, w - right :]) >= s.min_row_span:
        cleared["right"] = min(w, right + s.pad)
        out[:, w - cleared["right"] :] = False
    removed = int(ink.sum() - out.sum())
    return StepOutput(out, {"gutter_left": cleared["left"], "gutter_right": cleared["right"],
                            "gutter_pixels": removed})


# ---------------------------------------------------------------------------------------------
# 2. Edge smudges: marks that lie wholly in a thin zone along the page edges or in a corner.


@dataclass(frozen=True)
class EdgeSettings:
    side_zone: float = 0.05  # thin zone along the left/right edges (fraction of width)
    end_zone: float = 0.025  # thin zone along the top/bottom edges (fraction of height)
    touch: int = 16  # a corner smudge reaches within this many pixels of the page edge...
    corner_w: float = 0.25  # ...and lies wholly within a corner box this big (fraction of page)
    corner_h: float = 0.2
    halo: int = 30  # specks this close to a removed smudge go with it


def _within(comps: Components, box: Box) -> NDArray[np.bool_]:
    l, t, r, b = box
    return (comps.left >= l) & (comps.top >= t) & (comps.right <= r) & (comps.bottom <= b)


def edge_smudges(comps: Components, shape: tuple[int, int], s: EdgeSettings,
                 left0: int = 0, right0: int = 0) -> NDArray[np.bool_]:
    """Flags for components that are edge smudges.

    `left0`/`right0` are columns already cleared by the gutter step: the page edge is taken to
    start there. A smudge lies wholly in a thin zone along an edge, or touches the edge and lies
    wholly in a corner box; small marks around a removed corner smudge go with it.
    """
    h, w = shape
    lo, hi = left0, w - right0
    sz, ez = int(w * s.side_zone), int(h * s.end_zone)
    cw, ch = int(w * s.corner_w), int(h * s.corner_h)
    thin = np.zeros(comps.count, dtype=np.bool_)
    for box in [(0, 0, lo + sz, h), (hi - sz, 0, w, h), (0, 0, w, ez), (0, h - ez, w, h)]:
        thin |= _within(comps, box)
    touches = ((comps.left <= lo + s.touch) | (comps.right >= hi - s.touch)
               | (comps.top <= s.touch) | (comps.bottom >= h - s.touch))
    corner = np.zeros(comps.count, dtype=np.bool_)
    for box in [(0, 0, lo + cw, ch), (hi - cw, 0, w, ch), (0, h - ch, lo + cw, h),
                (hi - cw, h - ch, w, h)]:
        corner |= _within(comps, box)
    corner &= touches
    smudge = thin | corner
    for i in np.nonzero(corner)[0].tolist():
        halo = (int(comps.left[i]) - s.halo, int(comps.top[i]) - s.halo,
                int(comps.right[i]) + s.halo, int(comps.bottom[i]) + s.halo)
        smudge |= _within(comps, halo) & (comps.area < comps.area[i])
    return smudge


def remove_edge_smudges(ink: BoolImage, s: EdgeSettings, left0: int = 0, right0: int = 0) -> StepOutput:
    comps = label_components(ink)
    smudge = edge_smudges(comps, ink.shape, s, left0, right0)
    out = paint(ink.shape, comps, ~smudge)
    return StepOutput(out, {"edge_components": int(smudge.sum()),
                            "edge_pixels": int(comps.area[smudge].sum())})


# ---------------------------------------------------------------------------------------------
# 3. Despeckle: remove small components that have no other ink near them.


@dataclass(frozen=True)
class DespeckleSettings:
    max_area: int = 16  # pixels
    max_size: int = 6  # bounding-box side, pixels
    isolation: int = 4  # no other ink within this many pixels


def _box_sums(integral: NDArray[np.int64], box: tuple[NDArray[np.int64], ...]) -> NDArray[np.int64]:
    l, t, r, b = box
    return integral[b, r] - integral[t, r] - integral[b, l] + integral[t, l]


def integral_image(ink: BoolImage) -> NDArray[np.int64]:
    h, w = ink.shape
    out = np.zeros((h + 1, w + 1), dtype=np.int64)
    out[1:, 1:] = ink.astype(np.int64).cumsum(0).cumsum(1)
    return out


def isolated_specks(ink: BoolImage, s: DespeckleSettings) -> tuple[Components, NDArray[np.bool_]]:
    """Components small enough to be specks and with no other ink within `isolation` pixels."""
    comps = label_components(ink)
    h, w = ink.shape
    small = (comps.area <= s.max_area) & (comps.width <= s.max_size) & (comps.height <= s.max_size)
    d = s.isolation
    box = (np.clip(comps.left - d, 0, w), np.clip(comps.top - d, 0, h),
           np.clip(comps.right + d, 0, w), np.clip(comps.bottom + d, 0, h))
    around = _box_sums(integral_image(ink), box)
    own = _box_sums(integral_image(ink), (comps.left, comps.top, comps.right, comps.bottom))
    # Only this component's ink in its bounding box grown by d (its own box may hold others).
    speck = small & (around == comps.area) & (own == comps.area)
    return comps, speck


def despeckle(ink: BoolImage, s: DespeckleSettings) -> StepOutput:
    comps, speck = isolated_specks(ink, s)
    out = paint(ink.shape, comps, ~speck)
    return StepOutput(out, {"specks": int(speck.sum()), "speck_pixels": int(comps.area[speck].sum())})


# ---------------------------------------------------------------------------------------------
# 4. Dust: marks the size of a full stop, in clusters far from any line of text or engraving.
#
# Despeckle keeps every mark that has other ink within a few pixels, so a cluster of dust
# (dots a few pixels apart, as on p. 5 and the title page) survives it. Real small marks
# (full stops, commas, the dots of i and j, accents, quotes, ellipses, stipple) always sit in a
# line of text or on an engraving: within a word space beside larger ink, or a little above or
# below it. A small mark stays when larger ink lies within `reach_x` pixels sideways and
# `reach_y` pixels up or down, or when it lies within `link` pixels of a small mark that stays
# (the dots of an ellipsis, a row of stipple); every other small mark is dust. Larger marks are
# never touched by the rule. `max_area = 0` turns the rule off for a page.
#
# What no rule can tell from print (a speck just above a capital, where an accent could be) is
# listed by hand in the manifest, after looking at the page: `erase` boxes, in scan pixels;
# every mark lying wholly inside one is removed, whatever its size.


@dataclass(frozen=True)
class DustSettings:
    max_area: int = 80  # a mark of at most this many pixels...
    max_size: int = 24  # ...and at most this wide and tall may be dust
    reach_x: int = 40  # it stays with larger ink this close beside it (a word space and more)
    reach_y: int = 12  # or this close above or below it (accents, dots of i, quotes)
    link: int = 14  # or this close to a small mark that stays (ellipses, stipple)
    erase: tuple[tuple[int, int, int, int], ...] = ()  # boxes (l, t, r, b) cleared by hand


def _near(comps: Components, integral: NDArray[np.int64], shape: tuple[int, int],
          dx: int, dy: int) -> NDArray[np.bool_]:
    """Flags: the integral image's ink lies within dx columns and dy rows of the component."""
    h, w = shape
    box = (np.clip(comps.left - dx, 0, w), np.clip(comps.top - dy, 0, h),
           np.clip(comps.right + dx, 0, w), np.clip(comps.bottom + dy, 0, h))
    return _box_sums(integral, box) > 0


def find_dust(ink: BoolImage, s: DustSettings) -> tuple[Components, NDArray[np.bool_],
                                                      NDArray[np.bool_]]:
    """The page's components, flags for the dust found by the rule, and flags for the marks
    inside the `erase` boxes."""
    comps = label_components(ink)
    erased = np.zeros(comps.count, dtype=np.bool_)
    for l, t, r, b in s.erase:
        erased |= _within(comps, (int(l), int(t), int(r), int(b)))
    small = (comps.area <= s.max_area) & (comps.width <= s.max_size) & (comps.height <= s.max_size)
    if not small.any():
        return comps, small, erased
    larger = integral_image(paint(ink.shape, comps, ~small))
    kept = small & _near(comps, larger, ink.shape, s.reach_x, s.reach_y)
    while True:  # grow the kept marks through their neighbours (a few rounds at most)
        more = small & ~kept & _near(comps, integral_image(paint(ink.shape, comps, kept)),
                                     ink.shape, s.link, s.link)
        if not more.any():
            return comps, small & ~kept, erased
        kept |= more


def remove_dust(ink: BoolImage, s: DustSettings) -> StepOutput:
    comps, dust, erased = find_dust(ink, s)
    gone = dust | erased
    out = paint(ink.shape, comps, ~gone)
    return StepOutput(out, {"dust": int(dust.sum()), "dust_pixels": int(comps.area[dust].sum()),
                            "dust_erased": int((erased & ~dust).sum())})


# ---------------------------------------------------------------------------------------------
# 5. Skew: projection profiles over a small range of angles; no rotation when unsure.


@dataclass(frozen=True)
class DeskewSettings:
    max_angle: float = 2.5  # search -max..+max degrees
    coarse_step: float = 0.1
    fine_step: float = 0.01
    min_angle: float = 0.1  # smaller estimates are left alone (under 2.5 px across a page)
    min_sharpness: float = 0.03  # the best score must beat those 0.5 degrees either side by this
    max_points: int = 400_000  # ink pixels sampled (deterministically) for the estimate


def _profile_score(ys: NDArray[np.float64], xs: NDArray[np.float64], angle: float, h: int) -> float:
    """Sharpness of the row profile after undoing a skew of `angle` degrees."""
    t = np.tan(np.radians(angle))
    rows = np.round(ys - xs * t).astype(np.int64) + h  # offset keeps indices non-negative
    prof = np.bincount(rows, minlength=3 * h).astype(np.float64)
    return float(np.sum(np.diff(prof) ** 2))


def estimate_skew(ink: BoolImage, s: DeskewSettings) -> tuple[float, bool, Info]:
    """(angle, sure, details). Positive angle: lines run down to the right by tan(angle)."""
    ys, xs = np.nonzero(ink)
    if ys.size < 500:
        return 0.0, False, {"skew_reason": "too little ink"}
    step = max(1, ys.size // s.max_points)
    ysf, xsf = ys[::step].astype(np.float64), xs[::step].astype(np.float64)
    xsf -= ink.shape[1] / 2
    h = ink.shape[0]
    coarse = np.round(np.arange(-s.max_angle, s.max_angle + 1e-9, s.coarse_step), 4)
    scores = np.array([_profile_score(ysf, xsf, float(a), h) for a in coarse])
    a0 = float(coarse[int(np.argmax(scores))])
    fine = np.round(np.arange(a0 - s.coarse_step, a0 + s.coarse_step + 1e-9, s.fine_step), 4)
    fscores = np.array([_profile_score(ysf, xsf, float(a), h) for a in fine])
    best = float(fine[int(np.argmax(fscores))])
    top = float(fscores.max())
    zero = _profile_score(ysf, xsf, 0.0, h)
    side = max(_profile_score(ysf, xsf, best - 0.5, h), _profile_score(ysf, xsf, best + 0.5, h))
    gain = top / zero - 1.0 if zero > 0 else 0.0
    sharp = 1.0 - side / top if top > 0 else 0.0
    at_limit = abs(a0) >= s.max_angle - 1e-9
    sure = (sharp >= s.min_sharpness) and not at_limit
    details = {"skew_estimate": round(best, 3), "skew_gain": round(gain, 4),
               "skew_sharpness": round(sharp, 4)}
    return best, sure, details


def rotate(ink: BoolImage, angle: float) -> BoolImage:
    """Rotate about the centre by `angle` degrees counter-clockwise, keeping the size."""
    img = Image.fromarray(np.where(ink, 0, 255).astype(np.uint8), mode="L")
    turned = img.rotate(angle, resample=Image.Resampling.BILINEAR, fillcolor=255)
    return np.asarray(turned) < 128


def deskew(ink: BoolImage, s: DeskewSettings) -> StepOutput:
    angle, sure, details = estimate_skew(ink, s)
    applied = angle if (sure and abs(angle) >= s.min_angle) else 0.0
    out = rotate(ink, applied) if applied else ink.copy()
    return StepOutput(out, {"skew": round(applied, 3), "skew_sure": sure, **details})


# ---------------------------------------------------------------------------------------------
# 6. Layout: the plate (the engraved figure) and its caption, apart from text and page furniture.


@dataclass(frozen=True)
class LayoutSettings:
    figure_min_h: int = 70  # a component this tall (or wide and half as tall) is part of a figure
    plate_gap: int = 170  # figure components closer than this (vertically) form one plate
    caption_gap: int = 110  # the caption starts within this distance below the plate
    noise_area: int = 12  # components this small are ignored when measuring bands


def _is_figure(comps: Components, s: LayoutSettings) -> NDArray[np.bool_]:
    return (comps.height >= s.figure_min_h) | (
        (comps.width >= s.figure_min_h) & (comps.height >= s.figure_min_h // 2)
    )


def row_bands(ink_rows: NDArray[np.bool_], min_gap: int = 1) -> list[tuple[int, int]]:
    """Runs of rows that contain ink, as (top, bottom) with bottom exclusive."""
    padded = np.concatenate([[False], ink_rows, [False]]).astype(np.int8)
    d = np.diff(padded)
    starts, ends = np.nonzero(d == 1)[0], np.nonzero(d == -1)[0]
    bands: list[tuple[int, int]] = []
    for a, b in zip(starts.tolist(), ends.tolist()):
        if bands and a - bands[-1][1] < min_gap:
            bands[-1] = (bands[-1][0], b)
        else:
            bands.append((a, b))
    return bands


def _union(comps: Components, sel: NDArray[np.bool_]) -> Box:
    return (int(comps.left[sel].min()), int(comps.top[sel].min()),
            int(comps.right[sel].max()), int(comps.bottom[sel].max()))


def find_plate(ink: BoolImage, s: LayoutSettings) -> Info:
    """Locate the plate and its caption. Boxes are (left, top, right, bottom)."""
    comps = label_components(ink)
    if comps.count == 0:
        return {"plate_box": None, "caption_box": None}
    fig = _is_figure(comps, s)
    if not fig.any():
        return {"plate_box": None, "caption_box": None}
    idx = np.nonzero(fig)[0]
    order = idx[np.argsort(comps.top[idx], kind="stable")]
    clusters: list[list[int]] = []
    bottom = -1
    for i in order.tolist():
        if clusters and comps.top[i] <= bottom + s.plate_gap:
            clusters[-1].append(i)
            bottom = max(bottom, int(comps.bottom[i]))
        else:
            clusters.append([i])
            bottom = int(comps.bottom[i])
    best = max(clusters, key=lambda c: int(comps.area[c].sum()))
    sel = np.zeros(comps.count, dtype=np.bool_)
    sel[best] = True
    l, t, r, b = _union(comps, sel)
    # Everything that is not noise and lies within the plate's rows and columns belongs to it.
    inside = (comps.area > s.noise_area) & _within(comps, (l, t, r, b))
    plate = _union(comps, sel | inside)
    # Caption: the first band of ink below the plate, if it starts close enough.
    below = (comps.top >= plate[3]) & (comps.area > s.noise_area)
    caption: Box | None = None
    if below.any():
        rows = np.zeros(ink.shape[0], dtype=np.bool_)
        for i in np.nonzero(below)[0].tolist():
            rows[comps.top[i]:comps.bottom[i]] = True
        bands = row_bands(rows, min_gap=4)
        if bands and bands[0][0] - plate[3] <= s.caption_gap:
            t0, b0 = bands[0]
            cap = below & (comps.top >= t0) & (comps.bottom <= b0)
            caption = _union(comps, cap)
    return {"plate_box": list(plate), "caption_box": list(caption) if caption else None,
            "figure_components": int(fig.sum())}


def content_box(ink: BoolImage, noise_area: int = 12) -> Box | None:
    """Bounding box of all components larger than `noise_area` (the printed page area)."""
    comps = label_components(ink)
    keep = comps.area > noise_area
    if not keep.any():
        return None
    return _union(comps, keep)


# ---------------------------------------------------------------------------------------------
# 7. Crop with an even margin (the canvas is padded with white if the margin leaves the page).


@dataclass(frozen=True)
class CropSettings:
    margin: int = 24  # pixels of white on every side of the plate
    page_margin: int = 60  # pixels of white around the printed area of a facsimile page


def keep_within(ink: BoolImage, box: Box) -> BoolImage:
    """Only the components lying wholly inside `box` (so a margin shows nothing else)."""
    comps = label_components(ink)
    return paint(ink.shape, comps, _within(comps, box))


def crop_even(ink: BoolImage, box: Box, margin: int) -> BoolImage:
    l, t, r, b = box
    out = np.zeros((b - t + 2 * margin, r - l + 2 * margin), dtype=np.bool_)
    h, w = ink.shape
    sl, st, sr, sb = max(l - margin, 0), max(t - margin, 0), min(r + margin, w), min(b + margin, h)
    out[st - (t - margin): sb - (t - margin), sl - (l - margin): sr - (l - margin)] = ink[st:sb, sl:sr]
    return out


def grow(box: Box, margin: int) -> Box:
    l, t, r, b = box
    return (l - margin, t - margin, r + margin, b + margin)
