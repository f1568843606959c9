"""Synthetic plate: draw it clean, degrade it (skew 1.2 degrees, specks, gutter stripes, an edge
smudge), clean it, and measure what the pipeline recovers."""

from __future__ import annotations

import numpy as np
import pytest
from scans_synthetic import Synthetic, make

from build_scripts.scanlib.manifest import PageEntry
from build_scripts.scanlib.pipeline import CLEAN_STEPS, settings_for
from build_scripts.scanlib.steps import Box, LayoutSettings, find_plate

ENTRY = PageEntry(file="synthetic.png", sha256="0" * 64, printed="1", role="plate",
                  chapter="synthetic", caption="Synthetic.", alt="A synthetic plate.")


def iou(a: Box, b: Box) -> float:
    l, t = max(a[0], b[0]), max(a[1], b[1])
    r, btm = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0, r - l) * max(0, btm - t)
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area


@pytest.fixture(scope="module")
def run() -> tuple[Synthetic, dict[str, np.ndarray], dict[str, object]]:
    syn = make()
    settings = settings_for(ENTRY)
    ink = syn.degraded
    images: dict[str, np.ndarray] = {}
    info: dict[str, object] = {}
    for name, fn in CLEAN_STEPS:
        out = fn(ink, settings[name], info)
        if out.image is not None:
            ink = out.image
        info = {**info, **out.info}
        images[name] = ink
    info.update(find_plate(ink, LayoutSettings()))
    return syn, images, info


def test_skew_recovered(run: tuple[Synthetic, dict[str, np.ndarray], dict[str, object]]) -> None:
    syn, _, info = run
    assert info["skew_sure"] is True
    assert abs(float(info["skew"]) - syn.skew) <= 0.15, info


def test_specks_removed(run: tuple[Synthetic, dict[str, np.ndarray], dict[str, object]]) -> None:
    syn, images, _ = run
    after = images["despeckle"]  # before deskew, so the specks are where they were put
    left = sum(bool(after[y:y + s, x:x + s].any()) for x, y, s in syn.specks)
    assert len(syn.specks) >= 300
    assert left <= 0.01 * len(syn.specks), f"{left} of {len(syn.specks)} specks left"


def test_gutter_and_smudge_removed(run: tuple[Synthetic, dict[str, np.ndarray], dict[str, object]]) -> None:
    _, images, info = run
    final = images["deskew"]
    assert int(info["gutter_left"]) >= 90
    assert not final[:, :100].any(), "gutter stripes left"
    assert not final[:200, -300:].any(), "edge smudge left"


def test_ink_kept(run: tuple[Synthetic, dict[str, np.ndarray], dict[str, object]]) -> None:
    syn, images, _ = run
    final = images["deskew"]
    orig = syn.clean
    kept = (orig & final).sum() / orig.sum()  # pixel for pixel, no tolerance
    assert kept >= 0.995, f"kept {kept:.4f} of the original ink"
    # And little is added. The degradation's own bicubic rotation thickens the hairlines by
    # about 9%, and straightening adds a little more, so allow 12%.
    assert abs(int(final.sum()) - int(orig.sum())) <= 0.12 * orig.sum()


def test_crop_box(run: tuple[Synthetic, dict[str, np.ndarray], dict[str, object]]) -> None:
    syn, _, info = run
    found = tuple(info["plate_box"])  # type: ignore[arg-type]
    assert iou(found, syn.plate_box) >= 0.95, (found, syn.plate_box)
    cap = info["caption_box"]
    assert cap is not None and cap[1] >= found[3], "caption found below the plate"


def test_unsure_skew_is_not_applied() -> None:
    """Pure noise has no direction: the step must not rotate."""
    rng = np.random.default_rng(5)
    noise = rng.random((600, 600)) < 0.02
    from build_scripts.scanlib.steps import DeskewSettings, deskew

    out = deskew(noise, DeskewSettings())
    assert out.info["skew"] == 0.0
    assert out.image is not None and np.array_equal(out.image, noise)


def test_fine_lines_survive_despeckle() -> None:
    """A dotted line with 1-pixel dots three pixels apart, and a 1-pixel hairline, are kept."""
    from build_scripts.scanlib.steps import DespeckleSettings, despeckle

    ink = np.zeros((100, 200), dtype=bool)
    ink[20, 10:190:3] = True
    ink[50, 10:190] = True
    ink[80, 100] = True  # a lone speck
    out = despeckle(ink, DespeckleSettings())
    assert out.image is not None
    assert out.image[20].sum() == ink[20].sum() and out.image[50].sum() == ink[50].sum()
    assert not out.image[80, 100] and out.info["specks"] == 1


def _text_line() -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A line of "letters" (blocks 14 x 20, x-height 20, with an ascender), and the small marks
    print puts in and around a line: full stops, an ellipsis, a colon, dots of i, an accent,
    quotation marks. Returns the image and the boxes (l, t, r, b) of the small marks."""
    ink = np.zeros((700, 1000), dtype=bool)
    marks: list[tuple[int, int, int, int]] = []

    def mark(l: int, t: int, w: int, h: int) -> None:
        ink[t:t + h, l:l + w] = True
        marks.append((l, t, l + w, t + h))

    x, base = 60, 200
    for word in range(6):
        if word == 2:  # quotation marks before the word, at cap height
            mark(x - 14, base - 30, 4, 8)
            mark(x - 8, base - 30, 4, 8)
        for letter in range(4):
            tall = 30 if letter == 1 else 20  # an ascender
            ink[base - tall:base, x:x + 14] = True
            if letter == 2 and word in (0, 3):  # an i: narrow stem and its dot above
                ink[base - 20:base, x + 16:x + 20] = True
                mark(x + 16, base - 27, 5, 5)
            x += 20
        if word == 1:
            mark(x, base - 5, 5, 5)  # full stop
        if word == 3:  # ellipsis: three dots, the last well past the word
            for k in range(3):
                mark(x + 2 + 10 * k, base - 5, 5, 5)
        if word == 4:  # colon
            mark(x + 1, base - 17, 5, 5)
            mark(x + 1, base - 5, 5, 5)
        if word == 5:  # an accent over the last letter
            mark(x - 16, base - 27, 8, 3)
        x += 30
    return ink, marks


def test_dust_rule_keeps_print_and_removes_a_cluster_of_dots() -> None:
    from build_scripts.scanlib.steps import DespeckleSettings, DustSettings, despeckle, remove_dust

    ink, marks = _text_line()
    rng = np.random.default_rng(7)
    dust: list[tuple[int, int, int, int]] = []
    x, y = 300, 420
    while len(dust) < 40:  # a trail of dots 5-8 px, a few pixels apart: despeckle keeps them
        s = int(rng.integers(5, 9))
        ink[y:y + s, x:x + s] = True
        dust.append((x, y, x + s, y + s))
        x += s + int(rng.integers(4, 12))
        if x > 800:
            x, y = 300 + int(rng.integers(0, 30)), y + int(rng.integers(14, 30))
    ink[600:628, 480:498] = True  # a page number, alone below the text, with dust around it
    for dx, dy in ((-70, 0), (70, 10), (0, 45)):
        ink[610 + dy:615 + dy, 486 + dx:491 + dx] = True
        dust.append((486 + dx, 610 + dy, 491 + dx, 615 + dy))
    after_speck = despeckle(ink, DespeckleSettings()).image
    assert after_speck is not None
    assert all(after_speck[t:b, l:r].any() for l, t, r, b in dust), "despeckle already took them"
    out = remove_dust(after_speck, DustSettings())
    assert out.image is not None
    for l, t, r, b in marks:
        assert out.image[t:b, l:r].sum() == (r - l) * (b - t), f"print mark at {(l, t)} removed"
    left = [d for d in dust if out.image[d[1]:d[3], d[0]:d[2]].any()]
    assert not left, f"dust left at {left}"
    assert out.image[600:628, 480:498].all(), "the page number was touched"
    assert out.info["dust"] == len(dust)
    # Everything else is exactly as it was.
    assert np.array_equal(out.image, after_speck & out.image)
    assert int(after_speck.sum() - out.image.sum()) == out.info["dust_pixels"]


def test_dust_rule_can_be_turned_off_and_erase_boxes_are_exact() -> None:
    from build_scripts.scanlib.steps import DustSettings, remove_dust

    ink = np.zeros((200, 200), dtype=bool)
    ink[20:26, 20:26] = True  # a lone dot
    ink[100:160, 100:104] = True  # a stroke, too large for the rule
    ink[100:104, 150:190] = True  # a rule crossing the erase box
    off = remove_dust(ink, DustSettings(max_area=0))
    assert off.image is not None and np.array_equal(off.image, ink)
    out = remove_dust(ink, DustSettings(erase=((95, 95, 110, 165), (140, 90, 170, 110))))
    assert out.image is not None
    assert not out.image[20:26, 20:26].any() and out.info["dust"] == 1
    assert not out.image[100:160, 100:104].any() and out.info["dust_erased"] == 1
    assert out.image[100:104, 150:190].all(), "a mark only partly inside a box must stay"
