"""Every chapter's board in headless Chromium, the same checks each on one page: a move
played by mouse, a refused move quoting the sentence it breaks, a reading switched by its
control; the pack dealt by a click; playable cards marked; and, at 1280 and at 390 pixels,
the table within its board, no card cut at its edge, cards at least 36 pixels wide (or the
table scrolling on purpose, with a cue), one tab stop, and every card of a fan showing an
upright index where the fan leaves it visible.

Parametrised over ``engine.GAMES``, so a new chapter is covered as soon as it is registered
(a game played on another chapter's page, such as The House in the Wood on La Belle Lucie's,
is checked there, its board among the page's others). The moves are chosen from the board's
own view: nothing here knows any game's rules.
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


# A point in the window where a click lands on the element `css` of board `sel` (or, given
# a pile, on anything of that pile), once the page has drawn its next frame; null when none
# of the points tried (the centre, then near each corner and edge: a fan leaves a buried
# card's corners in view) reaches it, as when it lies under the board's sticky controls.
SPOT = """async ([sel, css, pile]) => {
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const c = document.querySelector(sel + ' ' + css);
  if (!c) return null;
  const r = c.getBoundingClientRect();
  const reaches = (e) => !!e && (e === c || c.contains(e) || (pile !== null && !!e.closest(sel)
    && !!e.closest('[data-pile]') && e.closest('[data-pile]').dataset.pile === pile));
  const xs = [r.width / 2, 4, r.width - 4], ys = [r.height / 2, 4, r.height - 4];
  for (const dy of ys) for (const dx of xs) {
    const x = r.left + dx, y = r.top + dy;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    if (reaches(document.elementFromPoint(x, y))) return [x, y];
  }
  return null;
}"""


class Board:
    def __init__(self, page: Any, slug: str) -> None:
        self.page = page
        self.slug = slug
        self.chapter = engine.GAMES[slug].chapter()  # the page that plays the game
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

    def click_on(self, css: str, pile: str | None = None) -> None:
        """Click the element ``css`` of this board where a reader's click reaches it (with
        ``pile``, anything of that pile will do: its place or one of its cards), as the page
        is laid out now: not where it was when looked for. A click by coordinates alone (a
        forced click) once reached the board's sticky controls over a pile near the top of
        the window, or a card laid out elsewhere since."""
        loc = self.page.locator(f"{self.sel} {css}").first
        loc.wait_for(state="attached", timeout=10_000)
        for _ in range(4):
            spot = self.page.evaluate(SPOT, [self.sel, css, pile])
            if spot:
                self.page.mouse.click(spot[0], spot[1])
                return
            loc.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
        raise AssertionError(f"no click reaches {css} on {self.slug}'s board")

    def step(self, src: str, dst: str) -> None:
        self.click_on(f".cb-card[data-ref='{src}']")
        self.click_on(f".cb-pile[data-pile='{dst}']", pile=dst)

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
            # never the pack: a click on it deals
            pack = (v.get("pack") or {}).get("pile") if (v.get("pack") or {}).get("move") else None
            tops = {p["id"] for p in v["piles"] if p["cards"] and p["id"] != pack}
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
    page.goto(site + f"{engine.GAMES[slug].chapter()}/")
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
    src, dst = chapter.a_refused_step()
    before = page.evaluate(f"document.querySelector(\"{chapter.sel}\").cadoganBoard.position")
    chapter.step(src, dst)
    msg = page.locator(f"{chapter.sel} .cb-message.cb-refusal")
    msg.wait_for(state="visible", timeout=10_000)
    rule = msg.get_attribute("data-rule")
    assert rule and rule.startswith(chapter.chapter + "-"), rule
    assert page.evaluate(f"!!document.getElementById('{rule}')"), f"no anchor {rule}"
    quoted = msg.locator("blockquote.cb-quote")
    if rule != engine.GAMES[chapter.slug].board_rule():  # the board's own: no sentence
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


def test_the_pack_deals_when_clicked(chapter: Board) -> None:
    page = chapter.page
    v = chapter.view()
    pack = v.get("pack")
    if not pack or not pack["move"]:
        pytest.skip("this game has no pack to click")
    before = page.evaluate(f"document.querySelector(\"{chapter.sel}\").cadoganBoard.position")
    chapter.click_on(f".cb-pile[data-pile='{pack['pile']}']", pile=pack["pile"])
    if pack["legal"]:
        chapter.wait_played(v["played"] + 1)
        after = page.evaluate(
            f"document.querySelector(\"{chapter.sel}\").cadoganBoard.position")
        assert after.split("moves=")[1].split(";")[0].split(",")[-1] == pack["move"]
        assert page.locator(f"{chapter.sel} .cb-card[data-selected]").count() == 0
    else:  # refused: the board says why, and nothing changes
        page.locator(f"{chapter.sel} .cb-message.cb-refusal").wait_for(timeout=10_000)
        assert page.evaluate(
            f"document.querySelector(\"{chapter.sel}\").cadoganBoard.position") == before


def test_playable_cards_are_marked_when_asked(chapter: Board) -> None:
    page = chapter.page
    switch = page.locator(f"{chapter.sel} input[data-cb-switch=hints]")
    switch.check()
    try:
        v = chapter.view()
        marked = page.evaluate(f"""[...document.querySelectorAll("{chapter.sel} .cb-card")]
            .filter(c => getComputedStyle(c).boxShadow.includes('31, 111, 209'))
            .map(c => c.dataset.ref)""")
        drawn = set(page.evaluate(f"""[...document.querySelectorAll("{chapter.sel} .cb-card")]
            .map(c => c.dataset.ref)"""))
        movable = {ref for ref in v["movable"] if ref in drawn}
        pack = v.get("pack") or {}
        extra = {pack["pile"]} if pack.get("legal") and pack["pile"] in drawn else set()
        assert set(marked) == movable | extra
    finally:
        switch.uncheck()


GEOMETRY = """sel => {
  const root = document.querySelector(sel), table = root.querySelector('.cb-table');
  const scroll = root.querySelector('.cb-scroll'), t = table.getBoundingClientRect();
  const cut = [];
  let narrowest = Infinity;
  for (const e of table.querySelectorAll('.cb-card, .cb-pile')) {
    const r = e.getBoundingClientRect();
    if (e.classList.contains('cb-card')) narrowest = Math.min(narrowest, e.offsetWidth);
    const m = Math.min(r.left - t.left, r.top - t.top, t.right - r.right, t.bottom - r.bottom);
    if (m < 4) cut.push((e.dataset.ref || e.dataset.pile) + ': ' + m.toFixed(1) + ' px');
  }
  return {
    overflow: root.scrollWidth - root.clientWidth,
    scrolls: scroll.scrollWidth > scroll.clientWidth + 1,
    cue: !root.querySelector('.cb-scroll-cue').hidden,
    shade: [scroll.hasAttribute('data-more-left'), scroll.hasAttribute('data-more-right')],
    beyond: [scroll.scrollLeft > 2, scroll.scrollLeft + scroll.clientWidth < scroll.scrollWidth - 2],
    scrollClass: scroll.className,
    narrowest, cut, stops: table.querySelectorAll('[tabindex="0"]').length,
    items: table.querySelectorAll('[tabindex]').length,
  };
}"""

# Every card covered by the next of its fan (in play: not a pile thrown aside or for show): an
# upright index (not turned round), inside the card, at a point no later card of the pile
# covers.
UPRIGHT = """sel => {
  const table = document.querySelector(sel + ' .cb-table');
  const bad = [];
  let checked = 0;
  const inside = (x, y, r) => x > r.left && x < r.right && y > r.top && y < r.bottom;
  for (const pile of table.querySelectorAll('.cb-pile')) {
    // piles of cards out of play (thrown aside, or for show) may close up as they please
    if (!/fan-(down|up|left|right)/.test(pile.className) || pile.style.transform ||
        /role-(discard|figure)/.test(pile.className)) continue;
    const cards = [...table.querySelectorAll('.cb-card[data-pile="' + pile.dataset.pile + '"]')];
    cards.slice(0, -1).forEach((c, k) => {
      if (c.classList.contains('cb-back')) return;
      checked++;
      const cr = c.getBoundingClientRect();
      const later = cards.slice(k + 1).map(x => x.getBoundingClientRect());
      const ok = [...c.querySelectorAll('.cb-ix:not(.cb-turned)')].some(ix => {
        const r = ix.getBoundingClientRect();
        if (r.left < cr.left - 0.5 || r.right > cr.right + 0.5 || r.top < cr.top - 0.5 ||
            r.bottom > cr.bottom + 0.5) return false;
        const pts = [[r.left + 1, r.top + 1], [r.right - 1, r.top + 1], [r.left + 1, r.bottom - 1],
                     [r.right - 1, r.bottom - 1]];
        return pts.every(([x, y]) => !later.some(l => inside(x, y, l)));
      });
      if (!ok) bad.push(c.dataset.ref + ' ' + c.dataset.name);
    });
  }
  return {checked, bad};
}"""

# The text in every empty place (its mark, or its label) inside the place: on a phone a long
# label would be cut off by the card's edge. Every board of the page (La Belle Lucie's page
# holds three).
LABELS_FIT = """() => [...document.querySelectorAll('.cb-empty-label')]
  .filter(e => e.offsetParent).map(e => {
    const r = document.createRange(); r.selectNodeContents(e);
    const t = r.getBoundingClientRect(), b = e.getBoundingClientRect();
    const over = Math.max(t.left - b.left < -0.5 ? b.left - t.left : 0, t.right - b.right,
                          b.top - t.top, t.bottom - b.bottom);
    return over > 0.5 ? e.closest('.cb-pile').dataset.pile + ' "' + e.textContent + '" by ' +
                        over.toFixed(1) + ' px' : '';
  }).filter(Boolean)"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_table_fits_and_every_fanned_card_shows_its_index(chapter: Board, width: int) -> None:
    page = chapter.page
    height = 900 if width > 600 else 844
    page.set_viewport_size({"width": width, "height": height})
    try:
        page.wait_for_function(
            f"""Math.abs(document.querySelector("{chapter.sel} .cb-scroll").clientWidth -
                parseFloat(document.querySelector("{chapter.sel} .cb-table").style.width)) < 2
             || document.querySelector("{chapter.sel} .cb-scroll").scrollWidth >
                document.querySelector("{chapter.sel} .cb-scroll").clientWidth""",
            timeout=10_000)
        page.wait_for_timeout(200)
        g = page.evaluate(GEOMETRY, chapter.sel)
        assert g["overflow"] <= 1, f"the board is {g['overflow']} px narrower than its table"
        assert not g["cut"], f"cards or piles at the table's edge: {g['cut'][:6]}"
        assert g["narrowest"] >= 36 or (g["scrolls"] and g["cue"]), g
        assert g["scrolls"] == g["cue"], "a table that scrolls says so, and only then"
        # shaded at an edge with more table beyond it, and only there; by attributes: a class
        # change on the scroll box restyles every card in it
        assert g["shade"] == (g["beyond"] if g["scrolls"] else [False, False]), g
        assert g["scrollClass"] == "cb-scroll", g["scrollClass"]
        assert g["stops"] == 1 and g["items"] >= 1, g
        cut_labels = page.evaluate(LABELS_FIT)
        assert not cut_labels, f"empty places whose text is cut: {cut_labels[:6]}"
        u = page.evaluate(UPRIGHT, chapter.sel)
        assert not u["bad"], f"{len(u['bad'])} of {u['checked']} fanned cards hide their " \
            f"upright index: {u['bad'][:5]}"
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
