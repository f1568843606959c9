"""The six plates of the real scans: complete, and with nothing else in the crop.

Points are read by eye from the scans (in 1/1000 of the page height, x and y) and checked
against the pipeline's plate box: card centres must be inside, the caption, page number,
running head, text and gutter stripes outside. Skipped, loudly, when the scans are absent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from build_scripts.scanlib.cc import label_components
from build_scripts.scanlib.manifest import Manifest
from build_scripts.scanlib.pipeline import PageOutput, clean, process_page, settings_for
from build_scripts.scanlib.steps import LayoutSettings

# file -> (inside: card centres, outside: caption, page number, head, text, gutter)
POINTS: dict[str, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {
    "p032.png": ([(128, 300), (610, 300), (128, 635), (610, 635), (372, 470)],
                 [(370, 688), (365, 905), (30, 500)]),
    "p034.png": ([(232, 250), (512, 250), (150, 680), (585, 680)],
                 [(363, 742), (340, 905), (40, 500)]),
    "p036.png": ([(372, 355), (160, 582), (590, 582), (372, 800)],
                 [(380, 845), (300, 295), (380, 62), (155, 65), (40, 600)]),
    "p050.png": ([(400, 78), (200, 275), (600, 275), (185, 820), (620, 820)],
                 [(380, 875), (405, 905), (60, 500)]),
    "p054.png": ([(390, 235), (150, 450), (600, 460), (380, 670)],
                 [(375, 722), (368, 895), (40, 500)]),
    "p056.png": ([(190, 230), (545, 230), (190, 680), (545, 680)],
                 [(370, 745), (370, 885), (30, 500)]),
}


@pytest.fixture(scope="module")
def outputs(real_scans: Path, manifest: Manifest, tmp_path_factory: pytest.TempPathFactory
            ) -> dict[str, PageOutput]:
    cache = tmp_path_factory.mktemp("scan-cache")
    return {name: process_page(manifest.by_file(name), real_scans / name, cache)[0]
            for name in POINTS}


def _inside(box: list[int], x: float, y: float) -> bool:
    return box[0] <= x < box[2] and box[1] <= y < box[3]


@pytest.mark.parametrize("name", sorted(POINTS))
def test_plate_box_holds_the_cards_and_nothing_else(name: str, outputs: dict[str, PageOutput]) -> None:
    out = outputs[name]
    box = out.info["plate_box"]
    h = out.info["height"]
    inside, outside = POINTS[name]
    for x, y in inside:
        assert _inside(box, x * h / 1000, y * h / 1000), f"{name}: card at {(x, y)} outside {box}"
    for x, y in outside:
        assert not _inside(box, x * h / 1000, y * h / 1000), f"{name}: {(x, y)} inside {box}"
    cap = out.info["caption_box"]
    assert cap is not None and cap[1] >= box[3], f"{name}: caption not found below the plate"


@pytest.mark.parametrize("name", sorted(POINTS))
def test_no_card_cut_off(name: str, outputs: dict[str, PageOutput], manifest: Manifest,
                         real_scans: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every figure-sized mark of the cleaned page that touches the plate box lies wholly in it."""
    entry = manifest.by_file(name)
    ink, _, _ = clean(entry, real_scans / name, settings_for(entry), tmp_path_factory.mktemp("c"))
    comps = label_components(ink)
    l, t, r, b = outputs[name].info["plate_box"]
    s = LayoutSettings()
    big = (comps.height >= s.figure_min_h // 2) | (comps.width >= s.figure_min_h // 2)
    touches = (comps.right > l) & (comps.left < r) & (comps.bottom > t) & (comps.top < b)
    whole = (comps.left >= l) & (comps.right <= r) & (comps.top >= t) & (comps.bottom <= b)
    cut = np.nonzero(big & touches & ~whole)[0]
    assert cut.size == 0, f"{name}: cut components at " + str(
        [(int(comps.left[i]), int(comps.top[i]), int(comps.right[i]), int(comps.bottom[i])) for i in cut])


@pytest.mark.parametrize("name", sorted(POINTS))
def test_crop_has_an_empty_even_margin(name: str, outputs: dict[str, PageOutput]) -> None:
    out = outputs[name]
    with Image.open(out.path("plate-full.png")) as im:
        ink = np.asarray(im.convert("L")) < 128
    m = settings_for(out.entry)["crop"].margin
    assert ink[m:-m, m:-m].any()
    frame = ink.copy()
    frame[m:-m, m:-m] = False
    assert not frame.any(), f"{name}: ink in the margin (text, stripe or a cut card)"
    # Even: the ink reaches the margin on all four sides.
    ys, xs = np.nonzero(ink)
    assert (ys.min(), xs.min()) == (m, m)
    assert (ink.shape[0] - 1 - ys.max(), ink.shape[1] - 1 - xs.max()) == (m, m)


@pytest.mark.parametrize("name", sorted(POINTS))
def test_plate_sizes_within_budget(name: str, outputs: dict[str, PageOutput]) -> None:
    files = outputs[name].files
    for f in ("plate-1x.webp", "plate-1x.png"):
        assert files[f]["bytes"] < 80_000, f"{name}: {f} is {files[f]['bytes']} bytes"


def test_skews_are_small_and_sure(outputs: dict[str, PageOutput]) -> None:
    for name, out in outputs.items():
        assert abs(out.info["skew"]) <= 2.0, name
        assert out.info["skew_sure"], name
    # p054 (The Zodiac) is visibly turned, by about 1.6 degrees.
    assert 1.3 <= outputs["p054.png"].info["skew"] <= 1.8


# Dust (clusters of full-stop-sized dots) on p. 5 and the title page. Boxes (l, t, r, b) in scan
# pixels, read by eye from the scans; both pages are straight (no rotation), so the cleaned
# page has the scan's coordinates.
PRINT_MARKS = {
    "p005.png": [(840, 582, 848, 596), (850, 582, 858, 596),  # “ before "blocked"
                 (487, 606, 494, 612),  # the full stop of "cards."
                 (316, 585, 322, 592)],  # the dot of the i of "Available"
    "f001.png": [(292, 1285, 301, 1298), (303, 1286, 312, 1298),  # “ before "How poor"
                 (946, 1287, 952, 1296), (957, 1287, 964, 1296),  # ” after "patience."
                 (935, 1306, 940, 1312), (1141, 1307, 1147, 1313),  # "patience." "OTHELLO."
                 (818, 1363, 825, 1370),  # "vincit."
                 (860, 1287, 866, 1293)],  # the dot of the i of "patience"
}
DUST = {
    "f001.png": [(454, 1769, 467, 1782),  # a speck above the A of DAVID (manifest: erase)
                 (150, 1726, 162, 1766),  # a stroke in the left margin (manifest: erase)
                 (630, 966, 650, 986),  # dots in the blank above INCLUDING
                 (1300, 200, 1360, 280)],  # marks right of the frame
}


Dusty = dict[str, tuple[np.ndarray, dict[str, Any]]]


@pytest.fixture(scope="module")
def dusty(real_scans: Path, manifest: Manifest, tmp_path_factory: pytest.TempPathFactory
          ) -> Dusty:
    cache = tmp_path_factory.mktemp("dust-cache")
    out = {}
    for name in ("p005.png", "f001.png"):
        entry = manifest.by_file(name)
        ink, info, _ = clean(entry, real_scans / name, settings_for(entry), cache)
        out[name] = (ink, info)
    return out


def test_dust_gone_below_the_text_of_p5(dusty: Dusty) -> None:
    ink, info = dusty["p005.png"]
    assert info["skew"] == 0.0 and int(info["dust"]) > 200
    comps = label_components(ink[1545:])
    # Below the last line (which ends by row 1545) only the page number is left.
    assert comps.count == 1, [(int(comps.left[i]), int(comps.top[i]) + 1545, int(comps.area[i]))
                              for i in range(comps.count)]
    assert (int(comps.left[0]), int(comps.top[0]) + 1545) == (725, 1920) and comps.area[0] > 250


def test_dust_gone_from_the_title_page(dusty: Dusty) -> None:
    ink, info = dusty["f001.png"]
    assert info["skew"] == 0.0 and int(info["dust_erased"]) >= 2
    for l, t, r, b in DUST["f001.png"]:
        assert not ink[t:b, l:r].any(), f"dust left in {(l, t, r, b)}"
    # Nothing outside the ruled frame (plate box 197..1247 x 114..1933, with 8 px to spare).
    outside = ink.copy()
    outside[106:1941, 189:1255] = False
    assert not outside.any(), np.argwhere(outside)[:5].tolist()


@pytest.mark.parametrize("name", ["p005.png", "f001.png"])
def test_dust_rule_keeps_punctuation(name: str, dusty: Dusty) -> None:
    ink, _ = dusty[name]
    for l, t, r, b in PRINT_MARKS[name]:
        assert ink[t:b, l:r].sum() >= 20, f"{name}: print mark in {(l, t, r, b)} removed"
