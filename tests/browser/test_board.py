"""The playable board in headless Chromium, against the built site on 127.0.0.1.

One page carries the main flow (drawn before the engine is ready, ready, moves by mouse,
drag and keyboard, a refusal quoting its rule, undo, an option, reload); separate pages
check recovery from a damaged save and a damaged address, and a shared address.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Watch, open_context, scroll_in, wait_drawn

pytestmark = pytest.mark.browser

SLUG = "la-nivernaise"
BOARD = f".cadogan-board[data-game='{SLUG}']"
READY = f"{BOARD}[data-engine='ready']"
STORE = f"cadogan:game:{SLUG}"
BOOT_TIMEOUT = 90_000

# Recorded before any of the page's scripts run: what was on screen once the table's first
# draw was complete (a large table is drawn over a few frames), and when.
AT_DCL = """
window.__atDCL = null;
const snapshot = () => {
  const b = document.querySelector('.cadogan-board');
  return b ? {
    cards: b.querySelectorAll('.cb-card').length,
    faceUp: b.querySelectorAll('.cb-card:not(.cb-back)').length,
    embedded: JSON.parse(b.getAttribute('data-initial')).view,
    engine: b.getAttribute('data-engine'),
    ready: b.getAttribute('data-engine') === 'ready',
    t: performance.now(),
  } : {cards: -1};
};
new MutationObserver((list, mo) => {
  const t = document.querySelector('.cadogan-board .cb-table[data-complete="1"]');
  if (t && window.__atDCL === null) { window.__atDCL = snapshot(); mo.disconnect(); }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-complete']});
"""


def view(page: Any) -> dict[str, Any]:
    return page.evaluate(f"document.querySelector(\"{BOARD}\").cadoganBoard.view")


def position(page: Any) -> str:
    return page.evaluate(f"document.querySelector(\"{BOARD}\").cadoganBoard.position")


def said(page: Any) -> str:
    return page.get_attribute(f"{BOARD} [data-cb=live]", "data-last") or ""


def share_link(page: Any) -> str:
    return page.get_attribute(f"{BOARD} [data-cb=link]", "href") or ""


def wait_played(page: Any, n: int) -> None:
    page.wait_for_function(
        f"document.querySelector(\"{BOARD}\").cadoganBoard.view.played === {n}", timeout=10_000)


def pile_click_target(page: Any, pile_id: str) -> Any:
    """What to click to designate a pile: its top card, or the empty pile."""
    top = page.locator(f"{BOARD} .cb-card[data-ref='{pile_id}']")
    return top if top.count() else page.locator(f"{BOARD} .cb-pile[data-pile='{pile_id}']")


def single_step_moves(v: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m["steps"][0][0], m["steps"][0][1]) for m in v["moves"] if len(m["steps"]) == 1
            and ":" not in m["steps"][0][0]]


@pytest.fixture(scope="module")
def flow(browser: Any, site: str) -> Iterator[tuple[Any, Watch]]:
    """One page through the main flow, shared by the tests of this module in order."""
    watch = Watch()
    ctx = open_context(browser, watch)
    # The runtime's wasm is held back until the table's first drawing is complete, so that
    # test_drawn_before_engine_is_ready sees the drawing the page makes on its own: on a busy
    # machine a warm engine could otherwise win the race and draw the table itself.
    held: list[Any] = []
    released = False

    def hold(route: Any) -> None:
        if released:
            route.fallback()
        else:
            held.append(route)

    ctx.route("**/pyodide.asm.wasm", hold)
    page = ctx.new_page()
    page.add_init_script(AT_DCL)
    page.goto(site + f"{SLUG}/")
    try:
        page.wait_for_function("window.__atDCL !== null", timeout=30_000)
    finally:
        released = True
        for route in held:
            route.fallback()
    yield page, watch
    ctx.close()
    watch.check()


def test_drawn_before_engine_is_ready(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    page.wait_for_function("window.__atDCL !== null", timeout=10_000)
    at = page.evaluate("window.__atDCL")
    # La Nivernaise's first position: 104 cards, every one drawn (the pack face down), the
    # ones face up exactly those of the view embedded at build time (deal 1).
    embedded = at.pop("embedded")
    assert embedded["deal"] == 1
    assert at["cards"] == 104, at
    assert at["faceUp"] == sum(1 for p in embedded["piles"] for c in p["cards"] if c["c"]), at
    assert at["faceUp"] >= 8 + 6, at
    assert at["ready"] is False and at["engine"] == "loading", at
    assert "loading" in page.inner_text(f"{BOARD} [data-cb=engine]").lower()


def test_becomes_ready(flow: tuple[Any, Watch]) -> None:
    page, watch = flow
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    assert "ready" in page.inner_text(f"{BOARD} [data-cb=engine]").lower()
    v = view(page)
    assert v["deal"] == 1 and v["played"] == 0 and v["moves"], v["deal"]
    # The runtime came from the site's own versioned copy, the engine as a hashed archive.
    assert any(re.search(r"/assets/pyodide/v[\d.]+/pyodide\.asm\.wasm$", u) for u in watch.requests)
    assert any(re.search(r"/assets/engine/engine-[0-9a-f]{12}\.zip$", u) for u in watch.requests)
    assert [w.url for w in page.workers if "board-worker" in w.url]


def test_move_by_mouse_clicks(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    src, dst = single_step_moves(v)[0]
    page.locator(f"{BOARD} .cb-card[data-ref='{src}']").click()
    assert page.locator(f"{BOARD} .cb-card[data-selected][data-ref='{src}']").count() == 1
    assert page.locator(f"{BOARD} .cb-pile[data-target][data-pile='{dst}']").count() == 1
    pile_click_target(page, dst).click(force=True)
    wait_played(page, 1)
    v2 = view(page)
    assert v2["can_undo"] is True
    assert said(page).endswith(".") and len(said(page)) > 10
    assert position(page).endswith(f"moves={src}-{dst};redo=") or f"moves={src}-{dst}" in position(page)
    saved = json.loads(page.evaluate(f"localStorage.getItem('{STORE}')"))
    assert saved["position"] == position(page) and saved["view"]["played"] == 1
    # The game is in the save and the share link, never in the page's address.
    assert page.evaluate("location.search") == ""
    assert f"moves={src}-{dst}" in share_link(page)


def test_move_by_drag_and_drop(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    moves = single_step_moves(v)
    assert moves, "deal 1 should still offer a move"
    src, dst = moves[0]
    scroll_in(page, f"{BOARD} .cb-table", READY)
    card = page.locator(f"{BOARD} .cb-card[data-ref='{src}']").bounding_box()
    target = pile_click_target(page, dst).bounding_box()
    drop = (target["x"] + target["width"] / 2, target["y"] + 15)
    # The drop point shows the target pile, clear of the sticky bar above the table.
    under = page.evaluate("""([x, y]) => { const e = document.elementFromPoint(x, y);
      const p = e && e.closest('[data-pile]'); return p ? p.getAttribute('data-pile') : e && e.className; }""",
                          list(drop))
    assert under == dst, f"the drop point on {dst} shows {under!r}"
    page.mouse.move(card["x"] + card["width"] / 2, card["y"] + 10)
    page.mouse.down()
    page.mouse.move(card["x"] + card["width"] / 2 + 20, card["y"] + 30, steps=3)
    assert page.locator(".cb-ghost").count() == 1  # the card follows the pointer
    page.mouse.move(*drop, steps=8)
    page.mouse.up()
    wait_played(page, 2)
    assert f"{src}-{dst}" in position(page)


def test_move_by_keyboard(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    moves = single_step_moves(v)
    if not moves:  # nothing left to play but a round: the keyboard deals it
        page.locator(f"{BOARD} .cb-pile").first.focus()
        page.keyboard.press("d")
        wait_played(page, 3)
        v = view(page)
        moves = single_step_moves(v)
    played = v["played"]
    src, dst = moves[0]
    page.locator(f"{BOARD} .cb-pile[data-pile='{src}']").focus()
    page.keyboard.press("Enter")
    assert page.locator(f"{BOARD} .cb-card[data-selected]").count() == 1
    # Escape cancels, Enter picks up again.
    page.keyboard.press("Escape")
    assert page.locator(f"{BOARD} .cb-card[data-selected]").count() == 0
    page.keyboard.press("Enter")
    page.locator(f"{BOARD} .cb-pile[data-pile='{dst}']").focus()
    page.keyboard.press("Enter")
    wait_played(page, played + 1)
    # Arrow keys move between piles.
    before = page.evaluate("document.activeElement.getAttribute('data-key')")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    after = page.evaluate("document.activeElement.getAttribute('data-key')")
    assert after and after != before


def test_refused_move_quotes_its_rule(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    v = view(page)
    before = position(page)
    legal = {(m["steps"][0][0], m["steps"][0][1]) for m in v["moves"]}
    # A Line packet's top card to a foundation of another suit: always refused.
    suits = {"S": 0, "H": 1, "D": 2, "C": 3}
    pile = next(p for p in v["piles"] if p["id"].startswith("l") and p["cards"])
    card = pile["cards"][-1]["c"]
    wrong = f"a{(suits[card[-1]] + 1) % 4}"
    assert (pile["id"], wrong) not in legal
    page.locator(f"{BOARD} .cb-card[data-ref='{pile['id']}']").click()
    pile_click_target(page, wrong).click(force=True)
    msg = page.locator(f"{BOARD} .cb-message.cb-refusal")
    msg.wait_for(state="visible", timeout=10_000)
    rule = msg.get_attribute("data-rule")
    assert rule == f"{SLUG}-rule-3", rule  # "All foundations must follow suit"
    assert "suit" in msg.locator("p").inner_text()
    quoted = msg.locator("blockquote.cb-quote").inner_text()
    sentence = page.evaluate(
        f"document.getElementById('{rule}').textContent.replace(/\\s+/g,' ').trim()")
    assert quoted and sentence.startswith(quoted.rstrip("…")[:40])
    assert msg.locator("a.cb-rule-link").get_attribute("href") == f"#{rule}"
    assert page.evaluate(f"document.getElementById('{rule}').classList.contains('rule-flash')")
    assert said(page).startswith("Not allowed")
    assert position(page) == before  # nothing changed


def test_undo_and_redo(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    n = view(page)["played"]
    page.locator(f"{BOARD} .cb-pile").first.focus()
    page.keyboard.press("u")
    wait_played(page, n - 1)
    assert said(page).startswith("Taken back")
    assert view(page)["can_redo"] is True
    page.locator(f"{BOARD} button[data-cb-cmd=redo]").click()
    wait_played(page, n)
    page.locator(f"{BOARD} button[data-cb-cmd=undo]").click()
    wait_played(page, n - 1)


def test_option_control_switches_the_reading(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    n = view(page)["played"]
    control = page.locator("fieldset.cadogan-option[data-option='examined_use']")
    assert control.locator("input[value=look]").is_checked()
    control.locator("input[value=play]").check()
    page.wait_for_function(
        f"document.querySelector(\"{BOARD}\").cadoganBoard.view.options === 'examined_use:play'",
        timeout=10_000)
    assert view(page)["played"] == n  # the moves played stay legal under the wider reading
    assert "opts=examined_use:play" in share_link(page)
    assert "follows" in control.locator(".cb-opt-status").inner_text()
    assert "examined_use:play" in position(page)


def test_print_hides_the_controls(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    page.emulate_media(media="print")
    try:
        assert not page.locator(f"{BOARD} .cb-controls").is_visible()
        assert not page.locator("fieldset.cadogan-option").first.is_visible()
    finally:
        page.emulate_media(media="screen")
    assert page.locator(f"{BOARD} .cb-controls").is_visible()


def test_reload_resumes_the_game(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    before_pos, before_view = position(page), view(page)
    page.evaluate("history.replaceState(null, '', location.pathname)")  # resume from storage
    page.reload()
    page.wait_for_function("window.__atDCL !== null", timeout=10_000)
    at = page.evaluate("window.__atDCL")
    assert at["ready"] is False and at["cards"] == 104
    # The saved game is drawn at once: the same cards in the same places.
    drawn = page.evaluate(f"""Array.from(document.querySelectorAll("{BOARD} .cb-card"))
        .map(c => c.getAttribute('data-ref') + '=' + (c.dataset.name || 'back'))""")
    expected = [f"{p['id'] if k == len(p['cards']) - 1 else p['id'] + ':' + str(k)}="
                for p in before_view["piles"] for k in range(len(p["cards"]))]
    assert [d.split("=")[0] for d in drawn] == [e.rstrip("=") for e in expected]
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    assert position(page) == before_pos
    assert view(page)["played"] == before_view["played"]
    assert page.locator("fieldset.cadogan-option[data-option='examined_use'] "
                        "input[value=play]").is_checked()


def _fresh(browser: Any, site: str, watch: Watch, *, storage: str | None = None,
           hash_: str = "", **kw: Any) -> tuple[Any, Any]:
    ctx = open_context(browser, watch, **kw)
    page = ctx.new_page()
    if storage is not None:
        page.add_init_script(f"localStorage.setItem({json.dumps(STORE)}, {json.dumps(storage)})")
    page.goto(site + f"{SLUG}/" + hash_)
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    return ctx, page


@pytest.mark.parametrize("damage", [
    "{not json",
    json.dumps({"v": 1, "position": f"game={SLUG};deal=1;opts=;moves=f0-a0,bogus;redo=",
                "view": {"game": SLUG, "piles": "oops"}}),
])
def test_damaged_save_gives_a_new_deal_and_says_so(browser: Any, site: str, watch: Watch,
                                                   damage: str) -> None:
    ctx, page = _fresh(browser, site, watch, storage=damage)
    try:
        note = page.locator(f"{BOARD} .cb-message.cb-notice")
        assert note.is_visible()
        assert "saved game" in note.inner_text() and "new deal" in note.inner_text()
        v = view(page)
        wait_drawn(page, BOARD)
        assert v["played"] == 0 and len(page.locator(f"{BOARD} .cb-card").all()) == 104
        saved = json.loads(page.evaluate(f"localStorage.getItem('{STORE}')"))
        assert saved["position"] == position(page)  # the damaged save was replaced
    finally:
        ctx.close()
    watch.check()


def test_damaged_address_gives_a_new_deal_and_says_so(browser: Any, site: str,
                                                      watch: Watch) -> None:
    ctx, page = _fresh(browser, site, watch, hash_=f"?game={SLUG}&deal=3&moves=l0-zz9,??")
    try:
        note = page.locator(f"{BOARD} .cb-message.cb-notice")
        assert note.is_visible() and "address" in note.inner_text()
        assert view(page)["played"] == 0
        assert "moves=l0-zz9" not in page.evaluate("location.href")
        assert page.evaluate("location.search") == ""  # the address gives the game up
        assert f"game={SLUG}&deal=" in share_link(page)
    finally:
        ctx.close()
    watch.check()


def test_shared_address_restores_deal_options_and_moves(browser: Any, site: str,
                                                       watch: Watch) -> None:
    import engine
    game = engine.new_game(SLUG, 7, "examined_use:play-and-fill")
    game.play(game.legal_moves()[0])
    fields = dict(f.split("=", 1) for f in game.position(compact=True).split(";"))
    hash_ = "#" + "&".join(f"{k}={v}" for k, v in fields.items() if v)
    ctx, page = _fresh(browser, site, watch, hash_=hash_, has_touch=True)
    try:
        v = view(page)
        assert v["deal"] == 7 and v["played"] == 1
        assert v["options"] == "examined_use:play-and-fill"
        assert page.inner_text(f"{BOARD} [data-cb=deal]") == "7"
        assert page.locator("fieldset.cadogan-option[data-option='examined_use'] "
                            "input[value=play-and-fill]").is_checked()
        assert position(page) == game.position(compact=True)
        # A move by touch: tap the card, tap its destination.
        src, dst = single_step_moves(v)[0]
        page.locator(f"{BOARD} .cb-card[data-ref='{src}']").tap()
        pile_click_target(page, dst).tap(force=True)
        wait_played(page, 2)
        game.play(f"{src}-{dst}")
        assert position(page) == game.position(compact=True)
    finally:
        ctx.close()
    watch.check()


def test_action_key_new_deal_and_restart(flow: tuple[Any, Watch]) -> None:
    page, _ = flow
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    old_deal = view(page)["deal"]
    page.locator(f"{BOARD} .cb-pile").first.focus()
    page.keyboard.press("n")
    page.wait_for_function(
        f"document.querySelector(\"{BOARD}\").cadoganBoard.view.deal !== {old_deal}",
        timeout=10_000)
    v = view(page)
    assert v["played"] == 0 and v["options"] == "examined_use:play"  # the reading is kept
    assert page.inner_text(f"{BOARD} [data-cb=deal]") == str(v["deal"])
    assert f"deal={v['deal']}" in share_link(page)
    stock = next(len(p["cards"]) for p in v["piles"] if p["role"] == "stock")
    # The action's own key ("d": deal a round) plays it.
    page.locator(f"{BOARD} .cb-pile").first.focus()
    page.keyboard.press("d")
    wait_played(page, 1)
    v2 = view(page)
    assert next(len(p["cards"]) for p in v2["piles"] if p["role"] == "stock") < stock
    page.locator(f"{BOARD} button[data-cb-cmd=restart]").click()
    wait_played(page, 0)
    assert view(page)["deal"] == v["deal"] and view(page)["can_redo"] is False


def test_instant_navigation_keeps_the_engine(flow: tuple[Any, Watch], site: str) -> None:
    page, watch = flow
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    played = view(page)["played"]
    page.evaluate("window.__sameDocument = true")
    page.locator(f"a[href='{site}']").first.click()
    page.wait_for_function(f"!document.querySelector(\"{BOARD}\")", timeout=20_000)
    assert page.locator("a.cb-skip").count() == 0  # no board: no "Skip to the board"
    wasm_before = sum(1 for u in watch.requests if u.endswith(".wasm"))
    page.locator(f"nav a[href$='/{SLUG}/']").first.click()
    page.wait_for_selector(READY, timeout=10_000)
    assert page.evaluate("window.__sameDocument === true"), "instant navigation is off"
    # One skip link, to this board, inside Material's skip component: a new child of <body>
    # would restyle the whole page (board.js, skipLink).
    assert page.evaluate("""[...document.querySelectorAll('a.cb-skip')].map((a) =>
        a.parentElement.getAttribute('data-md-component') + ' ' + a.getAttribute('href'))""") == [
        "skip #" + page.evaluate(f"document.querySelector(\"{BOARD}\").id")]
    assert view(page)["played"] == played  # the saved game, resumed
    assert len([w for w in page.workers if "board-worker" in w.url]) == 1
    assert sum(1 for u in watch.requests if u.endswith(".wasm")) == wasm_before


def test_a_move_of_several_steps(browser: Any, site: str, watch: Watch) -> None:
    """The generic board completes a move of several steps when its chosen steps equal a
    legal move's, in any order (The Empress of India plays a red and a black card at once)."""
    import engine
    multi = [(slug, cls) for slug, cls in engine.GAMES.items()
             if any(len(m.steps) > 1 for m in engine.new_game(slug, 1).legal_moves())]
    if not multi:
        pytest.skip("no registered game has a move of several steps on deal 1")
    slug, _ = multi[0]
    board = f".cadogan-board[data-game='{slug}']"
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site + f"{engine.GAMES[slug].chapter()}/")  # the page that plays it
        page.wait_for_selector(f"{board}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        v = page.evaluate(f"document.querySelector(\"{board}\").cadoganBoard.view")
        move = next(m for m in v["moves"] if len(m["steps"]) > 1)
        steps = list(reversed(move["steps"]))  # the other order than the engine lists
        for i, (src, dst) in enumerate(steps):
            page.locator(f"{board} .cb-card[data-ref='{src}']").click()
            top = page.locator(f"{board} .cb-card[data-ref='{dst}']")
            (top if top.count() else page.locator(f"{board} .cb-pile[data-pile='{dst}']")
             ).click(force=True)
            if i < len(steps) - 1:
                live = page.get_attribute(f"{board} [data-cb=live]", "data-last") or ""
                assert live.startswith(f"Step {i + 1} chosen"), live
                # shown on the board too, on the message line above the table
                line = page.locator(f"{board} [data-cb=message]")
                assert line.is_visible() and line.inner_text().startswith(f"Step {i + 1} chosen")
                assert page.evaluate(
                    f"document.querySelector(\"{board}\").cadoganBoard.view.played") == 0
        page.wait_for_function(
            f"document.querySelector(\"{board}\").cadoganBoard.view.played === 1",
            timeout=10_000)
        pos = page.evaluate(f"document.querySelector(\"{board}\").cadoganBoard.position")
        assert f"moves={move['m']}" in pos
    finally:
        ctx.close()
    watch.check()


#: Hides the board from the moment it is parsed, before its script runs: its first layout
#: reports nothing laid out (as on a busy machine, before the stylesheets arrive).
HIDDEN_AT_FIRST = """
new MutationObserver((list, mo) => {
  const b = document.querySelector('.cadogan-board');
  if (b) { b.style.display = 'none'; mo.disconnect(); }
}).observe(document, {childList: true, subtree: true});
"""


def test_board_first_laid_out_late_still_clears_its_bar(browser: Any, site: str,
                                                      watch: Watch) -> None:
    """The table's items scroll into view below the sticky bar (scroll-margin-top from the
    bar's measured height), even when the board's first layout found nothing laid out: the
    bar's height of 0 was once taken, and a table scrolled into view had its top row under
    the bar (a drag to it dropped on a button). Once shown, the table is drawn to the
    board's width."""
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.add_init_script(HIDDEN_AT_FIRST)
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT)
        hidden = page.evaluate(f"document.querySelector(\"{BOARD}\").style.getPropertyValue('--cb-bar-h')")
        assert hidden in ("", None), hidden  # nothing measured while nothing is laid out
        page.evaluate(f"document.querySelector(\"{BOARD}\").style.display = ''")
        page.wait_for_function(f"""() => {{ const b = document.querySelector("{BOARD}");
          return b.querySelector('.cb-table[data-complete="1"]') &&
            b.style.getPropertyValue('--cb-bar-h') === b.querySelector('.cb-bar').offsetHeight + 'px'; }}""",
                               timeout=10_000)
        page.evaluate(f"document.querySelector(\"{BOARD} .cb-table\").scrollIntoView()")
        top = page.evaluate(f"""() => {{ const b = document.querySelector("{BOARD}");
          return [b.querySelector('.cb-table').getBoundingClientRect().top,
                  b.querySelector('.cb-bar').getBoundingClientRect().bottom]; }}""")
        assert top[0] >= top[1], top  # the table's top clears the bar
        # Drawn to the board's width: no card beyond the scroll box.
        widths = page.evaluate(f"""() => {{ const b = document.querySelector("{BOARD}");
          const s = b.querySelector('.cb-scroll').getBoundingClientRect();
          return [s.right, Math.max(...Array.from(b.querySelectorAll('.cb-card'),
                                          (c) => c.getBoundingClientRect().right))]; }}""")
        assert widths[1] <= widths[0] + 1, widths
    finally:
        ctx.close()
    watch.check()


def test_engine_failure_is_shown_not_hung(browser: Any, site: str) -> None:
    """A wasm served with the wrong MIME type makes Pyodide log "wasm instantiation failed"
    and wait for ever: the worker's watchdog reports it and the board says so."""
    watch = Watch()
    ctx = open_context(browser, watch)

    def wrong_mime(route: Any) -> None:
        watch.requests.append(route.request.url)
        resp = route.fetch()
        route.fulfill(response=resp, headers={**resp.headers, "content-type": "text/plain",
                                              "content-encoding": ""},
                      body=resp.body())

    ctx.route("**/pyodide.asm.wasm", wrong_mime)
    try:
        page = ctx.new_page()
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(f"{BOARD}[data-engine='failed']", timeout=BOOT_TIMEOUT)
        text = page.inner_text(f"{BOARD} [data-cb=engine]")
        assert "could not start" in text and "WebAssembly" in text, text
        wait_drawn(page, BOARD)
        assert page.locator(f"{BOARD} .cb-card").count() == 104  # the position stays drawn
        page.locator(f"{BOARD} .cb-card").last.click()
        assert "cannot be played" in said(page)
    finally:
        ctx.close()
    assert not watch.off_origin
    assert any("wasm instantiation failed" in e.lower() for e in watch.console_errors)


def test_works_under_a_base_path(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The site served below a path (https://host/edition/): every URL the board and its
    worker use is derived from where the site is, not from the server's root."""
    from build_scripts.serve import precompress, serve_in_thread

    from .conftest import _free_port, build_site

    port = _free_port()
    root = tmp_path_factory.mktemp("based")
    build_site(root / "edition", f"http://127.0.0.1:{port}/edition/")
    server, base = serve_in_thread(root, port=port)
    precompress(root)
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(base + f"edition/{SLUG}/")
        page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
        assert all("/edition/" in u for u in watch.requests
                   if "/assets/pyodide/" in u or "/assets/engine/" in u or "board" in u)
        assert any(u.endswith(".wasm") for u in watch.requests)
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()
    watch.check()
