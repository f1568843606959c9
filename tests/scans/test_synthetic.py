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
