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
        card = self.card(src)
        if ":" in src:  # a card under others: click the corner its fan leaves in view
            card.scroll_into_view_if_needed()
            box = card.bounding_box()
            spot = self.page.evaluate(
                """([sel, ref]) => { const c = document.querySelector(sel + ` .cb-card[data-ref='${ref}']`);
                  const r = c.getBoundingClientRect();
                  for (const [x, y] of [[4, 4], [r.width - 4, 4], [4, r.height - 4],
                                        [r.width - 4, r.height - 4]]) {
                    const e = document.elementFromPoint(r.left + x, r.top + y);
                    if (e && (e === c || c.contains(e))) return [x, y];
                  }
                  return [r.width / 2, r.height / 2]; }""", [self.sel, src])
            assert box
            card.click(position={"x": spot[0], "y": spot[1]})
        else:
            card.click()
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

    def a_refused_step(self, tries: int = 150) -> tuple[str, str]:
        """A card that can move somewhere and a place on the table it may not go to,
        playing on (as a reader would) until some card can move."""
        for _ in range(tries):
            v = self.view()
            tops = {p["id"] for p in v["piles"] if p["cards"]}
            sources = [s for s in v["movable"] if s in tops]
            if sources:
                src = sources[0]
                for p in v["piles"]:
                    pid = p["id"]
                    if pid != src and pid not in v["movable"][src] and self.page.locator(
                            f"{self.sel} .cb-pile[data-pile='{pid}']").is_visible():
                        return src, pid
            self.play_some_move()
        raise AssertionError(f"no card could move in the first {tries} moves of deal 1")


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
    assert how in chapter.page.evaluate("location.search").replace("%2B", "+")


def test_a_refused_move_quotes_the_sentence_it_breaks(chapter: Board) -> None:
    page = chapter.page
    src, dst = chapter.a_refused_step()
    before = page.evaluate(f"document.querySelector(\"{chapter.sel}\").cadoganBoard.position")
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
    assert f"opts={want}" in page.evaluate("location.search")
