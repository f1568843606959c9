"""Each chapter fetches first the image a phone shows largest at once (build_scripts/
first_image.py): laid out by Chromium at the size of Lighthouse's phone, the opening figure
with ``fetchpriority="high"`` is the one with the larger area in the first screen, and it is
not lazy. The build chooses from the images' sizes alone; this is the check of its estimate
against the page's real layout."""

from __future__ import annotations

from typing import Any

import pytest

from build_scripts import first_image

import engine

pytestmark = pytest.mark.browser

CHAPTERS = sorted(dict.fromkeys(cls.chapter() for cls in engine.GAMES.values()))

#: Two areas closer than this share are a tie: either image may come first.
TIE = 0.05

MEASURE = """() => {
  const figs = document.querySelector('.cadogan-figures');
  const img = (sel) => figs.querySelector(sel);
  const shown = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
    return {area: h * Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)),
            high: e.getAttribute('fetchpriority') === 'high', lazy: e.loading === 'lazy',
            top: r.top};
  };
  return {plate: shown(img('figure.cadogan-plate img')),
          diagram: shown(img('figure.cadogan-diagram-figure img')),
          high: document.querySelectorAll('img[fetchpriority=high]').length,
          width: innerWidth, height: innerHeight};
}"""


@pytest.fixture(scope="module")
def phone(browser: Any) -> Any:
    # Without scripts: the figures are laid out the same, and no engine starts 47 times.
    ctx = browser.new_context(viewport={"width": first_image.PHONE_WIDTH,
                                        "height": first_image.PHONE_HEIGHT},
                              device_scale_factor=1.75, is_mobile=True, has_touch=True,
                              java_script_enabled=False)
    yield ctx.new_page()
    ctx.close()


def test_the_estimates_constants_are_the_phones_layout(phone: Any, site: str) -> None:
    """Where the build thinks the figures begin on the phone is where they begin."""
    phone.goto(site + "the-kings/")
    got = phone.evaluate(MEASURE)
    assert got["width"] == first_image.PHONE_WIDTH and got["height"] == first_image.PHONE_HEIGHT
    assert abs(got["plate"]["top"] - first_image.FIGURES_TOP) <= 8, got


@pytest.mark.parametrize("slug", CHAPTERS)
def test_the_image_fetched_first_is_the_largest_in_view(phone: Any, site: str,
                                                        slug: str) -> None:
    phone.goto(site + f"{slug}/")
    got = phone.evaluate(MEASURE)
    plate, diagram = got["plate"], got["diagram"]
    assert diagram is not None and got["high"] == 1, got
    first, other = (plate, diagram) if plate and plate["high"] else (diagram, plate)
    assert first["high"] and not first["lazy"], got
    if other is not None:
        assert not other["high"], got
        assert first["area"] >= other["area"] * (1 - TIE), got
