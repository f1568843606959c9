"""Build hook: which of a chapter's two opening figures the browser fetches first.

A chapter opens with its plate and the tableau drawn in modern cards, side by side on a wide
screen, one above the other on a phone. The larger of the two in the first screenful is the
page's largest contentful paint (LCP), the measure by which a phone's reader sees the page
arrive. The plate comes with ``fetchpriority="high"`` (``scanlib/markup.py``) and the
diagram with ``loading="lazy"``, which is right when the plate is the larger: a lazy image
is asked for only once the page is laid out (on Lighthouse's simulated phone, 1.2 s after
the plate on the Clock). Where the diagram shows more of itself in a phone's first screen
(a plate printed sideways, so short, above a tall tableau: the Clock, Fortress, Red and
Black, the Great Thirteen; or no plate at all, in a build without the scans), this hook
moves the high priority to the diagram and fetches it at once, the plate at the default.

The estimate uses the sizes the two ``<img>`` tags carry and the phone Lighthouse emulates;
the constants are the layout measured at that size, and
``tests/browser/test_first_image.py`` lays every chapter out in Chromium and checks the
choice against the images' real areas, so a change of style that moves the figures fails
there rather than quietly slowing a page.
"""

from __future__ import annotations

import re
from typing import Any

#: Lighthouse's phone (a Moto G Power): its viewport in CSS pixels.
PHONE_WIDTH, PHONE_HEIGHT = 412, 823
#: The text column on that phone (Material's margins of 16 px each side).
COLUMN = PHONE_WIDTH - 2 * 16
#: Where the figures begin on it, below the header and the chapter's title.
FIGURES_TOP = 180
#: Below the plate and above the diagram: the plate's caption (three lines at that width),
#: its figure's bottom margin and the gap between the figures.
PLATE_BELOW = 145

FIGURES = re.compile(r'<div class="cadogan-figures">')
PLATE = re.compile(r'<figure class="cadogan-plate"[^>]*>.*?(<img [^>]*>)', re.S)
DIAGRAM = re.compile(r'<figure class="cadogan-diagram-figure"[^>]*>.*?(<img [^>]*>)', re.S)
SIZE = re.compile(r'\bwidth="(\d+)" height="(\d+)"')


def shown_height(width: int, height: int) -> float:
    """An image's height in the phone's column (never wider than its own CSS width)."""
    return min(COLUMN, width) * height / width


def shown_areas(plate: tuple[int, int] | None, diagram: tuple[int, int]) -> tuple[float, float]:
    """The area (CSS px²) of the plate and of the diagram below it in the phone's first
    screen, from their sizes (CSS px); a missing plate shows nothing and takes no room."""
    dw, dh = diagram
    top: float = FIGURES_TOP
    plate_area = 0.0
    if plate is not None:
        pw, ph = plate
        hp = shown_height(pw, ph)
        plate_area = min(COLUMN, pw) * max(0.0, min(hp, PHONE_HEIGHT - top))
        top += hp + PLATE_BELOW
    diagram_area = min(COLUMN, dw) * max(0.0, min(shown_height(dw, dh), PHONE_HEIGHT - top))
    return plate_area, diagram_area


def _size(tag: str) -> tuple[int, int]:
    m = SIZE.search(tag)
    if not m:
        raise ValueError(f"first_image: an opening figure's image without its size: {tag[:120]}")
    return int(m.group(1)), int(m.group(2))


def first_image(html: str) -> str:
    """The page with its opening diagram fetched first where it is the larger in view."""
    start = FIGURES.search(html)
    diagram = DIAGRAM.search(html, start.end()) if start else None
    if not start or not diagram:
        return html
    plate = PLATE.search(html, start.end(), diagram.start())
    plate_area, diagram_area = shown_areas(_size(plate.group(1)) if plate else None,
                                           _size(diagram.group(1)))
    if diagram_area <= plate_area:
        return html
    tag = diagram.group(1)
    eager = tag.replace(' loading="lazy"', "").removesuffix(">") + ' fetchpriority="high">'
    out = html[:diagram.start(1)] + eager + html[diagram.end(1):]
    if plate:  # before the diagram: its offsets are unchanged
        out = (out[:plate.start(1)] + plate.group(1).replace(' fetchpriority="high"', "")
               + out[plate.end(1):])
    return out


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return first_image(html)
