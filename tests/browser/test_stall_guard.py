"""The browser tests' guard against a page headless Chromium stops drawing (conftest's
``reload_if_stalled``): such a page is reloaded, what the test did before is done again, and
the reload is reported; a page that never draws fails its test."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import STALLS_ALLOWED, drawing, reload_if_stalled, scroll_in

pytestmark = pytest.mark.browser

#: The page's frames never come, as in a stalled compositor (timers still run).
NO_FRAMES = "window.requestAnimationFrame = () => 0;"
#: Only the first load of the tab is stalled.
FIRST_LOAD_STALLS = f"""if (!sessionStorage.getItem('stalled')) {{
  sessionStorage.setItem('stalled', '1'); {NO_FRAMES} }}"""


def test_a_page_that_stopped_drawing_is_reloaded_and_the_step_redone(context: Any,
                                                                    site: str) -> None:
    page = context.new_page()
    page.add_init_script(FIRST_LOAD_STALLS)
    page.goto(site)
    assert not drawing(page, 300)
    redone: list[str] = []
    with pytest.warns(UserWarning, match="stopped drawing"):
        reload_if_stalled(page, "footer", lambda: redone.append(page.url))
    assert redone == [site]
    assert drawing(page)
    reload_if_stalled(page, "footer", lambda: redone.append("again"))  # drawing: nothing done
    assert redone == [site]


def test_scrolled_in_again_after_the_reload(context: Any, site: str) -> None:
    page = context.new_page()
    page.add_init_script(FIRST_LOAD_STALLS)
    page.add_init_script("history.scrollRestoration = 'manual';")  # a reload opens at the top
    page.goto(site)
    with pytest.warns(UserWarning, match="stopped drawing"):
        scroll_in(page, ".md-footer", "footer", block="end")
    assert page.evaluate("scrollY") > 0
    assert page.evaluate("document.querySelector('.md-footer').getBoundingClientRect().bottom"
                         " <= innerHeight + 1")


def test_a_page_that_never_draws_fails(context: Any, site: str) -> None:
    page = context.new_page()
    page.add_init_script(NO_FRAMES)
    page.goto(site)
    redone: list[int] = []
    with pytest.warns(UserWarning), pytest.raises(pytest.fail.Exception, match="stopped drawing"):
        reload_if_stalled(page, "footer", lambda: redone.append(1))
    assert len(redone) == STALLS_ALLOWED
