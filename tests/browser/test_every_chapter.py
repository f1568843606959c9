"""Every chapter's board in headless Chromium, the same three checks each: a move played by
mouse, a refused move quoting the sentence it breaks, and a reading switched by its control.

Parametrised over ``engine.GAMES``, so a new chapter is covered as soon as it is registered.
The moves are chosen from the board's own view: nothing here knows any game's rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import engine

from .conftest import Watch, open_context

pytestmark = pytest.mark.browser

SLUGS = list(engine.GAMES)
BOOT_TIMEOUT = 90_000


class Board:
    def __init__(self, page: Any, slug: str) -> None:
        self.page = page
        self.slug = slug
        self.sel = f".cadogan-board[data-game='{slug}']"

    def view(self) -> dict[str, Any]:
        v: dict[str, Any] = self.page.evaluate(
            f"document.querySelector(\"{self.sel}\").cadoganBoard.view")
        return v

    def wait_played(self, n: int) -> None:
        self.page.wait_for_function(
            f"document.querySelector(\"{self.sel}\").cadoganBoard.view.played === {n}",
            timeout=10_000)

    def card(self, ref: str) -> Any:
        return self.page.locator(f"{self.sel} .cb-card[data-ref='{ref}']")

    def target(self, pile: str) -> Any:
        top = self.card(pile)
        return top if top.count() else self.page.locator(
            f"{self.sel} .cb-pile[data-pile='{pile}']")

    def step(self, src: str, dst: str) -> None:
        self.card(src).click()
        self.target(dst).click(force=True)

    def play_some_move(self) -> str:
        """Play one legal move the way a reader would; return how it was played."""
        v = self.view()
        singles = [m for m in v["moves"] if len(m["steps"]) == 1]
        multi = [m for m in v["moves"] if len(m["steps"]) > 1]
        actions = [a for a in v["actions"] if a["enabled"]]
        n = v["played"]
        if singles:
            src, dst = singles[0]["steps"][0]
            self.step(src, dst)
            how = f"{src}-{dst}"
        elif multi:
            for src, dst in multi[0]["steps"]:
                self.step(src, dst)
            how = multi[0]["m"]
        else:
            assert actions, "no legal move at the start of deal 1"
            self.page.locator(
                f"{self.sel} button[data-cb-action='{actions[0]['move']}']").click()
            how = actions[0]["move"]
        self.wait_played(n + 1)
        return how


@pytest.fixture(scope="module", params=SLUGS)
def chapter(request: Any, browser: Any, site: str) -> Iterator[Board]:
    watch = Watch()
    ctx = open_context(browser, watch)
    page = ctx.new_page()
    slug = request.param
    page.goto(site + f"{slug}/")
    board = Board(page, slug)
    page.wait_for_selector(f"{board.sel}[data-engine='ready']", timeout=BOOT_TIMEOUT)
    yield board
    ctx.close()
    watch.check()


def test_a_move_is_played_by_mouse(chapter: Board) -> None:
    how = chapter.play_some_move()
    v = chapter.view()
    assert v["played"] == 1 and v["can_undo"] is True
    link = chapter.page.get_attribute(f"{chapter.sel} [data-cb=link]", "href") or ""
    assert how in link.replace("%2B", "+")
    assert chapter.page.evaluate("location.search") == ""


def test_a_refused_move_quotes_the_sentence_it_breaks(chapter: Board) -> None:
    page = chapter.page
    for _ in range(6):  # find a card that can move somewhere, playing on if none can yet
        v = chapter.view()
        tops = {p["id"] for p in v["piles"] if p["cards"]}
        sources = [s for s in v["movable"] if s in tops]
        if sources:
            break
        chapter.play_some_move()
    else:
        pytest.fail("no movable card in the first moves of deal 1")
    v = chapter.view()
    before = page.evaluate(f"document.querySelector(\"{chapter.sel}\").cadoganBoard.position")
    src = sources[0]
    shown = [p["id"] for p in v["piles"]
             if page.locator(f"{chapter.sel} .cb-pile[data-pile='{p['id']}']").is_visible()]
    dst = next(d for d in shown if d != src and d not in v["movable"][src])
    chapter.step(src, dst)
    msg = page.locator(f"{chapter.sel} .cb-message.cb-refusal")
    msg.wait_for(state="visible", timeout=10_000)
    rule = msg.get_attribute("data-rule")
    assert rule and rule.startswith(chapter.slug + "-"), rule
    assert page.evaluate(f"!!document.getElementById('{rule}')"), f"no anchor {rule}"
    quoted = msg.locator("blockquote.cb-quote")
    if rule != f"{chapter.slug}-board":  # the board's own refusals quote no sentence
        sentence = page.evaluate(
            f"document.getElementById('{rule}').textContent.replace(/\\s+/g,' ').trim()")
        text = quoted.inner_text()
        assert text and sentence.startswith(text.rstrip("…").strip()[:40]), (text, sentence)
    after = page.evaluate(f"document.querySelector(\"{chapter.sel}\").cadoganBoard.position")
    assert after == before, "a refused move changed the game"


def test_a_reading_is_switched_by_its_control(chapter: Board) -> None:
    page = chapter.page
    options = engine.describe_options(engine.GAMES[chapter.slug].Options)
    if not options:
        pytest.skip("this chapter offers no reading to switch")
    d = options[0]
    other = next(c["value"] for c in d["choices"] if c["value"] != d["default"])
    control = page.locator(f"fieldset.cadogan-option[data-game='{chapter.slug}']"
                           f"[data-option='{d['name']}']")
    radio = control.locator(f"input[value='{other}']")
    if radio.count():
        radio.check()
    else:
        control.locator("select").select_option(str(other))
    want = f"{d['name']}:{other}"
    page.wait_for_function(
        f"document.querySelector(\"{chapter.sel}\").cadoganBoard.view.options === '{want}'",
        timeout=10_000)
    link = page.get_attribute(f"{chapter.sel} [data-cb=link]", "href") or ""
    assert f"opts={want}" in link
