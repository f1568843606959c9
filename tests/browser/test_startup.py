"""The board's start-up (issue 9): the engine started from the page's head on the precompiled
runtime, its progress shown and announced, and a pick-up that touches only what changed."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

import pytest

from .conftest import Watch, open_context

pytestmark = pytest.mark.browser

SLUG = "la-nivernaise"
BOARD = f".cadogan-board[data-game='{SLUG}']"
EMPRESS = ".cadogan-board[data-game='the-empress-of-india']"
BOOT_TIMEOUT = 120_000

# Every state of the board's start-up, as it happens (before any of the page's scripts).
RECORD = """
window.__steps = [];
new MutationObserver((list) => {
  for (const r of list) {
    const t = r.target;
    if (r.type === 'attributes' && (r.attributeName === 'data-progress' ||
        r.attributeName === 'data-engine')) {
      window.__steps.push({attr: r.attributeName, value: t.getAttribute(r.attributeName),
        line: (t.querySelector('[data-cb=message]') || {}).textContent || '',
        status: (t.querySelector('[data-cb=engine]') || {}).textContent || '',
        bar: !!t.querySelector('[data-cb=message] progress')});
    }
  }
}).observe(document, {subtree: true, attributes: true,
                      attributeFilter: ['data-progress', 'data-engine']});
"""


def test_progress_is_shown_and_announced_while_the_engine_loads(browser: Any, site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch)
    held: list[Any] = []
    # The WebAssembly waits until the page has shown part of the download.
    ctx.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    try:
        page = ctx.new_page()
        page.add_init_script(RECORD)
        page.goto(site + f"{SLUG}/")
        page.wait_for_function("window.__steps.some(s => s.attr === 'data-progress')",
                               timeout=BOOT_TIMEOUT)
        assert page.get_attribute(BOARD, "data-engine") == "loading"
        line = page.inner_text(f"{BOARD} [data-cb=message]")
        assert re.search(r"Downloading the engine: \d+\s%", line), line
        assert page.locator(f"{BOARD} [data-cb=message] progress").count() == 1
        # the engine's status is a polite live region: it changes once a step, not a percent
        status = page.locator(f"{BOARD} [data-cb=engine]")
        assert status.get_attribute("role") == "status"
        assert "downloading" in status.inner_text().lower()
        page.wait_for_timeout(300)
        for r in held:
            r.continue_()
        ctx.unroute("**/pyodide.asm.wasm")
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        steps = page.evaluate("window.__steps")
    finally:
        ctx.close()
    watch.check()
    progress = [s for s in steps if s["attr"] == "data-progress"]
    kinds = [s["value"].split()[0] for s in progress]
    # downloading (with a rising share), then starting Python, then the rules: in that order
    assert kinds[0] == "download" and "start" in kinds and kinds.index("start") > 0
    order = {"download": 0, "start": 1, "engine": 2}
    assert [order[k] for k in kinds] == sorted(order[k] for k in kinds), kinds
    shares = [int(s["value"].split()[1]) for s in progress if s["value"].startswith("download")]
    assert shares == sorted(shares) and shares[0] < 100, shares
    assert all(s["bar"] for s in progress if s["value"].startswith("download"))
    statuses = [s["status"] for s in progress]
    assert any("downloading" in t for t in statuses) and any("starting" in t for t in statuses)
    assert len(set(statuses)) <= 3  # announced once a step
    assert steps[-1]["attr"] == "data-engine" and steps[-1]["value"] == "ready"


def test_a_message_of_the_readers_own_is_not_overwritten_by_progress(browser: Any,
                                                                     site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch)
    held: list[Any] = []
    ctx.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    try:
        page = ctx.new_page()
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(f"{BOARD}[data-progress]", timeout=BOOT_TIMEOUT)
        page.locator(f"{BOARD} .cb-card[data-ref='l0']").click()
        before = page.inner_text(f"{BOARD} [data-cb=message]")
        assert "still loading" in before
        for r in held:
            r.continue_()
        ctx.unroute("**/pyodide.asm.wasm")
        page.wait_for_function(
            f"!/^download/.test(document.querySelector(\"{BOARD}\").getAttribute('data-progress'))"
            f" || document.querySelector(\"{BOARD}\").getAttribute('data-engine') === 'ready'",
            timeout=BOOT_TIMEOUT)
        if page.get_attribute(BOARD, "data-engine") != "ready":
            assert page.inner_text(f"{BOARD} [data-cb=message]") == before
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
    finally:
        ctx.close()
    watch.check()


def test_the_engine_starts_from_the_head_on_the_compiled_runtime(browser: Any,
                                                                 site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        started = page.evaluate(f"+document.querySelector(\"{BOARD}\")"
                                ".getAttribute('data-engine-started-at')")
        adopted = page.evaluate("!!(window.__cadoganEngine && window.__cadoganEngine.adopted)")
        workers = [w.url for w in page.workers if "board-worker" in w.url]
    finally:
        ctx.close()
    watch.check()
    assert adopted and len(workers) == 1
    # started while the page's head was read, before the board's own script ran
    assert started < 1000, started
    reqs = watch.requests
    assert any(re.search(r"/assets/pyodide/v[\d.]+/stdlib-[0-9a-f]{12}\.zip$", u) for u in reqs)
    assert any(re.search(r"/assets/engine/engine-[0-9a-f]{12}\.zip$", u) for u in reqs)
    assert any(re.search(r"/assets/engine/nivernaise-[0-9a-f]{12}\.zip$", u) for u in reqs)
    # neither the distribution's sources nor its lock file, nor another game's archive
    assert not any(u.endswith(("python_stdlib.zip", "pyodide-lock.json")) for u in reqs)
    assert not any("/assets/engine/empress-" in u for u in reqs)
    assert sum(1 for u in reqs if u.endswith("pyodide.asm.wasm")) == 1


def boot_in_address(url: str) -> dict[str, Any]:
    """The boot message a worker's address carries (``#boot=`` and URI-encoded JSON)."""
    assert "#boot=" in url, url
    msg: dict[str, Any] = json.loads(unquote(url.split("#boot=", 1)[1]))
    return msg


# A second engine worker in the page: booted by its address alone (no message posted), or,
# its address garbled, by the message. `how`: "address" or "garbled".
SECOND_WORKER = """async ([sel, how]) => {
  const root = document.querySelector(sel);
  const boot = Object.assign({type: 'boot', root: new URL('../', location.href).href},
                             JSON.parse(root.getAttribute('data-runtime')));
  const url = new URL('../assets/javascripts/board-worker.mjs', location.href).href;
  const hash = how === 'address' ? '#boot=' + encodeURIComponent(JSON.stringify(boot))
                                 : '#boot=%7Bgarbled';
  const w = new Worker(url + hash, {type: 'module'});
  const said = [];
  const heard = (type, ms) => new Promise((resolve) => {
    const t = setTimeout(() => resolve(null), ms);
    w.addEventListener('message', (e) => {
      said.push(e.data.type);
      if (e.data.type === type) { clearTimeout(t); resolve(e.data); }
    });
  });
  let ready = await heard('ready', how === 'address' ? 120000 : 4000);
  const unasked = !!ready;
  if (!ready) { w.postMessage(boot); ready = await heard('ready', 120000); }
  w.postMessage({type: 'request', text: JSON.stringify({id: 7, op: 'ping'})});
  const answer = await heard('response', 30000);
  w.terminate();
  return {unasked, ready: !!ready, said, games: answer && JSON.parse(answer.text).games};
}"""


@pytest.mark.parametrize("how", ["address", "garbled"])
def test_the_worker_boots_from_its_address_or_else_from_the_message(browser: Any, site: str,
                                                                    how: str) -> None:
    """The head starts the worker with its boot message in its address as well as posted
    (board-worker.mjs): the boot then needs no message, and a garbled address still boots
    on the message."""
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        first = [w.url for w in page.workers if "board-worker" in w.url]
        r = page.evaluate(SECOND_WORKER, [BOARD, how])
    finally:
        ctx.close()
    watch.check()
    # the head's own worker carries its boot message in its address
    assert len(first) == 1 and boot_in_address(first[0])["type"] == "boot", first
    assert r["ready"] and SLUG in (r["games"] or []), r
    assert r["unasked"] is (how == "address"), r


def test_a_chapter_reached_from_a_page_without_a_board_starts_its_own_worker(
        browser: Any, site: str) -> None:
    """Instant navigation from the home page (no board, no worker) to a chapter: no head
    script ran, so the board's engine client starts the worker, with its boot message in the
    worker's address too, and the board becomes ready in the same document."""
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site)
        page.evaluate("window.__sameDocument = true")
        assert not [w for w in page.workers if "board-worker" in w.url]
        page.locator(f"nav a[href$='/{SLUG}/']").first.click()
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        same = page.evaluate("window.__sameDocument === true")
        workers = [w.url for w in page.workers if "board-worker" in w.url]
    finally:
        ctx.close()
    watch.check()
    assert same, "instant navigation is off"
    assert len(workers) == 1, workers
    boot = boot_in_address(workers[0])
    assert boot["type"] == "boot" and boot["game"]["module"] == "nivernaise", boot


def test_another_chapter_by_instant_navigation_loads_only_its_game(browser: Any,
                                                                   site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch)
    said: list[str] = []
    try:
        page = ctx.new_page()
        page.on("worker", lambda w: w.on("console", lambda m: said.append(m.text)))
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        page.evaluate("window.__same = true")
        page.locator("nav a[href$='/the-empress-of-india/']").first.click()
        page.wait_for_selector(f"{EMPRESS}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        assert page.evaluate("window.__same === true"), "not an instant navigation"
        ok = page.evaluate(f"""document.querySelector("{EMPRESS}").cadoganBoard
                               .play(document.querySelector("{EMPRESS}").cadoganBoard
                               .view.moves[0].m).then(r => r.ok)""")
        assert ok
    finally:
        ctx.close()
    watch.check()
    assert sum(1 for u in watch.requests if u.endswith("pyodide.asm.wasm")) == 1
    assert any("/assets/engine/empress-" in u for u in watch.requests)
    # the game's modules were imported as they arrived (no warning from the worker)
    assert not [t for t in said if "could not load" in t], said


def test_a_board_that_starts_before_materials_deferred_bundle_still_follows_its_pages(
        browser: Any, site: str) -> None:
    """Material's bundle is deferred (build_scripts/deferred_scripts.py): the board's module
    (async) may run with the page parsed and the bundle still to come, so no ``document$``
    yet. Held here until the board is mounted: the board then subscribes once the bundle has
    run, and the chapter instant navigation shows next gets its board (fails when the board
    gives up on ``document$`` as soon as the page is parsed)."""
    watch = Watch()
    ctx = open_context(browser, watch)
    held: list[Any] = []
    ctx.route(re.compile(r".*/assets/javascripts/bundle\.[0-9a-f]+\.min\.js$"),
              lambda route: held.append(route))
    try:
        page = ctx.new_page()
        page.goto(site + f"{SLUG}/", wait_until="commit")
        page.wait_for_selector(f"{BOARD}[data-mounted]", timeout=BOOT_TIMEOUT)
        page.wait_for_function("document.readyState !== 'loading'")
        before = page.evaluate("typeof window.document$")
        page.wait_for_timeout(200)  # the board's wait for the page to be parsed has passed
        assert held, "the bundle was not requested"
        for route in held:
            route.continue_()
        page.wait_for_function("typeof window.document$ === 'object'")
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        page.evaluate("window.__same = true")
        page.locator("nav a[href$='/the-empress-of-india/']").first.click()
        page.wait_for_selector(f"{EMPRESS}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        same = page.evaluate("window.__same === true")
    finally:
        ctx.close()
    watch.check()
    assert before == "undefined"
    assert same, "not an instant navigation"


# Nodes a change touches: one per attribute or text change, one per node added or removed.
PICK = """async (sel) => {
  const b = document.querySelector(sel).cadoganBoard;
  const table = b.parts.table;
  const refs = Object.keys(b.view.movable).filter((r) => b.view.movable[r].length);
  const touched = (l) => l.reduce((n, r) => n + (r.type === 'childList' ?
    r.addedNodes.length + r.removedNodes.length : 1), 0);
  const out = [];
  for (const ref of refs.slice(0, 6)) {
    const mo = new MutationObserver(() => {});
    mo.observe(table, {subtree: true, attributes: true, childList: true, characterData: true});
    b.pickUp(ref);
    const pick = touched(mo.takeRecords());
    b.cancel('Put back.');
    const put = touched(mo.takeRecords());
    mo.disconnect();
    out.push({ref, pick, put, targets: b.view.movable[ref].length,
              elements: table.querySelectorAll('*').length});
  }
  return out;
}"""


def test_a_pick_up_touches_only_what_changed(browser: Any, site: str) -> None:
    """The Empress: 208 cards, 600 elements; a pick-up changes the card picked up, its pile and
    the piles it may go to, and a put-back the same back."""
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site + "the-empress-of-india/")
        page.wait_for_selector(f"{EMPRESS}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        runs = page.evaluate(PICK, EMPRESS)
        # the card elements survive a move: the same nodes before and after
        same = page.evaluate(f"""(async () => {{
            const b = document.querySelector("{EMPRESS}").cadoganBoard;
            const t = b.parts.table;
            const before = new Set(t.querySelectorAll('.cb-card'));
            await b.play(b.view.moves[0].m);
            const after = [...t.querySelectorAll('.cb-card')];
            return {{kept: after.filter((e) => before.has(e)).length, now: after.length}};
        }})()""")
    finally:
        ctx.close()
    watch.check()
    assert runs, "no card may move on the Empress's first deal"
    for r in runs:
        assert r["elements"] > 500
        assert r["pick"] <= r["targets"] + 3, r  # the card, its pile, each target pile
        assert r["put"] <= r["targets"] + 3, r
    assert same["kept"] >= same["now"] - 2, same


# The board of `sel`, its table, and whole(): whether the table is exactly (every element,
# attribute, style and text) what a drawing of every pile from the same view makes.
WHOLE = """
  const b = document.querySelector(sel).cadoganBoard;
  const table = b.parts.table;
  const whole = () => {
    const seen = table.innerHTML;
    table._cb.piles = null;  // nothing left as last drawn: every pile drawn again
    b.draw();
    return seen === table.innerHTML;
  };"""

# Moves on the Empress, each after a pick-up and a put-back as a reader's click would make
# them: the groups of the table compared with their specs by each move's drawing, and
# whether the table was then whole().
MOVES_DRAWN = """async (sel) => {""" + WHOLE + """
  const out = [];
  for (let i = 0; i < 8; i++) {
    const v = b.view;
    if (v.outcome) break;
    const refs = Object.keys(v.movable || {}).filter((r) => v.movable[r].length);
    const ref = refs.length ? refs[i % refs.length] : null;
    let m = ref ? (v.moves.find((x) => x.m.startsWith(ref + '-')) || {}).m : null;
    if (!m) m = v.moves.length ? v.moves[0].m : (v.pack && v.pack.legal ? v.pack.move : null);
    if (!m) break;
    if (ref) { b.pickUp(ref); b.cancel('Put back.'); }
    if (i % 3 === 2 && b.keys.length > 1) b.setCursor(b.keys[b.keys.length - 1]);
    const r = await b.play(m);
    out.push({m, ok: !!(r && r.ok), placed: table._cb.placedGroups, whole: whole()});
  }
  // Each input of a pile's drawing changed by a drawing, not by a move: a card picked up
  // then let go, the tab stop given to another item, a card no longer free to move.
  const checks = {};
  const v = b.view;
  const refs = Object.keys(v.movable || {}).filter((r) => v.movable[r].length);
  b.pickUp(refs[0]);  // its marks alone written (draw.js remark)
  b.pick = null;
  b.draw();
  checks.put_back_by_drawing = whole();
  b.pickUp(refs[0]);
  b.draw();
  b.pick = null;
  b.draw();
  checks.drawn_held_then_put_back = whole();
  b.cursor = b.keys[b.keys.length - 1];
  b.draw();
  b.cursor = b.keys[0];
  b.draw();
  checks.tab_stop_by_drawing = whole();
  const fewer = JSON.parse(JSON.stringify(v));
  delete fewer.movable[refs[0]];
  b.show(fewer);
  checks.no_longer_movable = whole() && !table.querySelector('[data-ref="' + refs[0] + '"][data-movable]');
  b.show(v);
  checks.movable_again = whole() && !!table.querySelector('[data-ref="' + refs[0] + '"][data-movable]');
  return {out, checks, groups: table._cb.groups.size};
}"""


def on_drawn_empress(browser: Any, site: str, script: str) -> Any:
    """`script` run on the Empress's page once its engine is ready and its table drawn
    whole; the page's console and requests checked."""
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site + "the-empress-of-india/")
        page.wait_for_selector(f"{EMPRESS}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        page.wait_for_selector(f"{EMPRESS} .cb-table[data-complete='1']", timeout=BOOT_TIMEOUT)
        r = page.evaluate(script, EMPRESS)
    finally:
        ctx.close()
    watch.check()
    return r


def test_a_move_draws_only_the_piles_it_changed(browser: Any, site: str) -> None:
    """The Empress: after a move only the groups whose piles changed (and the regions) are
    compared with their specs again, the rest left as they were drawn; and the table is
    then exactly as drawing every pile again would leave it, pick-ups, put-backs and a moved
    tab stop included (draw.js pileSignature; fails when a pile is left as it was although
    an input of its drawing changed)."""
    r = on_drawn_empress(browser, site, MOVES_DRAWN)
    assert len(r["out"]) >= 5 and all(x["ok"] for x in r["out"]), r
    assert [x for x in r["out"] if not x["whole"]] == [], r
    assert r["checks"] == dict.fromkeys(("put_back_by_drawing", "drawn_held_then_put_back",
                                         "tab_stop_by_drawing",
                                         "no_longer_movable", "movable_again"), True), r
    assert r["groups"] > 50, r
    # a move touches a few piles (from, to, the talon's and the waste's): never the table
    assert max(x["placed"] for x in r["out"]) <= 12, r


# The Empress's table drawn afresh, as at a page's first drawing (spread over frames), and
# views shown while it is still incomplete: the same view again (as the engine's first
# answer most often is), then, a frame later, one that changes a single pile's marks.
MID_DRAW = """async (sel) => {""" + WHOLE + """
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const v = b.view;
  table._cb = null;
  table.textContent = "";
  table.removeAttribute("data-complete");
  b.draw();
  const first = [...table.querySelectorAll(".cb-card")];
  const out = {incomplete: table.getAttribute("data-complete") === "0", made: first.length};
  b.show(JSON.parse(JSON.stringify(v)));
  out.same_compared = table._cb.comparedGroups;
  out.kept = first.every((e) => e.isConnected);
  await frame();
  const refs = Object.keys(v.movable || {}).filter((r) => v.movable[r].length);
  const fewer = JSON.parse(JSON.stringify(v));
  delete fewer.movable[refs[0]];
  out.still_incomplete = table.getAttribute("data-complete") === "0";
  b.show(fewer);
  out.fewer_compared = table._cb.comparedGroups;
  for (let i = 0; i < 600 && table.getAttribute("data-complete") !== "1"; i++) await frame();
  out.whole = whole();
  out.no_longer_movable = !!table.querySelector('[data-ref="' + refs[0] + '"]') &&
    !table.querySelector('[data-ref="' + refs[0] + '"][data-movable]');
  out.cards = table.querySelectorAll(".cb-card").length;
  b.show(v);
  out.movable_again = whole() && !!table.querySelector('[data-ref="' + refs[0] + '"][data-movable]');
  out.groups = table._cb.groups.size;
  return out;
}"""


def test_a_view_shown_mid_drawing_compares_only_the_piles_it_changed(browser: Any,
                                                                     site: str) -> None:
    """While the table's first drawing is still spread over frames, a view shown again
    leaves the piles drawn from the same inputs as they are (their missing elements are
    still made, frame by frame), and a view that changes one pile compares that pile; the
    finished table is then exactly what a drawing of every pile makes (draw.js passAll;
    fails when an incomplete table compares every pile again)."""
    r = on_drawn_empress(browser, site, MID_DRAW)
    assert r["incomplete"] and r["still_incomplete"] and 0 < r["made"] < 208, r
    assert r["kept"] and r["groups"] > 50, r
    # the regions (not a pile) and nothing else; then the pile changed, and the regions
    assert r["same_compared"] <= 1 and r["fewer_compared"] <= 2, r
    assert r["whole"] and r["no_longer_movable"] and r["movable_again"], r
    assert r["cards"] == 208, r


# When Material's search asked for its index (ms from navigation), or null.
INDEX_ASKED = """(() => {
  const e = performance.getEntriesByType('resource')
    .find((r) => r.name.includes('/search/search_index.json'));
  return e ? e.startTime : null;
})()"""


def _search(page: Any, words: str) -> int:
    """Type `words` into Material's search as a reader does; the number of results shown."""
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(words, delay=20)
    page.wait_for_selector(".md-search-result__item", timeout=30_000)
    return int(page.locator(".md-search-result__item").count())


def test_the_search_index_waits_for_the_engine_and_still_answers(browser: Any,
                                                                 site: str) -> None:
    """Material's search builds its index in a worker as the page loads: on a board page its
    request waits until the engine is ready, and the search still finds the chapters."""
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        page.wait_for_function(f"{INDEX_ASKED} !== null", timeout=30_000)
        asked = page.evaluate(INDEX_ASKED)
        # the engine's boot: from the worker's start (page clock) for as long as it took
        started = float(page.get_attribute(BOARD, "data-engine-started-at") or 0)
        boot = float(page.get_attribute(BOARD, "data-engine-boot-ms") or 0)
        found = _search(page, "Nivernaise")
        # a page without a board asks for it at once
        page.goto(site + "glossary/")
        page.wait_for_function(f"{INDEX_ASKED} !== null", timeout=30_000)
    finally:
        ctx.close()
    watch.check()
    assert boot > 0 and asked >= started + boot, (asked, started, boot)  # not during it
    assert found >= 1


def test_the_search_reached_for_before_the_engine_is_ready_has_its_index(browser: Any,
                                                                          site: str) -> None:
    """A reader who opens the search while the engine is still loading is not kept waiting
    for it: reaching for the search lets its index come."""
    watch = Watch()
    ctx = open_context(browser, watch)
    held: list[Any] = []
    try:
        page = ctx.new_page()
        # the engine never gets its WebAssembly while the reader searches
        page.route("**/pyodide.asm.wasm", lambda r: held.append(r))
        page.goto(site + f"{SLUG}/")
        page.wait_for_selector(f"{BOARD}[data-engine='loading']", timeout=BOOT_TIMEOUT)
        page.wait_for_timeout(500)
        assert page.evaluate(INDEX_ASKED) is None  # still held
        found = _search(page, "Nivernaise")
        loading = page.get_attribute(BOARD, "data-engine")
        for r in held:
            r.continue_()
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
    finally:
        ctx.close()
    watch.check()
    assert held, "the WebAssembly was never asked for"
    assert loading == "loading"
    assert found >= 1


@pytest.mark.parametrize("network", ["fast", "slow"])
def test_a_webassembly_that_fails_to_compile_is_fetched_again(browser: Any, site: str,
                                                              network: str) -> None:
    """A damaged first download of the WebAssembly is fetched once more and the board starts
    all the same, whichever compiled it: the worker, ahead of Pyodide as its bytes arrive
    (a fast download, though a busy machine may make it look slow), or Pyodide itself (a
    download that looks slow: here 2 MB a second)."""
    watch = Watch()
    ctx = open_context(browser, watch)
    served: list[str] = []
    warnings: list[str] = []

    def wasm(route: Any) -> None:
        if not served:
            served.append("damaged")
            route.fulfill(status=200, body=b"\0asm\x01\0\0\0 not a module",
                          headers={"content-type": "application/wasm"})
        else:
            served.append("whole")
            route.continue_()

    try:
        ctx.route("**/pyodide.asm.wasm", wasm)
        page = ctx.new_page()
        if network == "slow":
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": 0, "downloadThroughput": 2_000_000,
                "uploadThroughput": 2_000_000})
        page.on("worker", lambda w: w.on("console", lambda m: warnings.append(m.text)))
        # Not waiting for the page's load: on the slow network its images share the 2 MB a
        # second with the runtime's download (once over 30 s, on a machine busy with the
        # other tests); the board's readiness has a timeout of its own.
        page.goto(site + f"{SLUG}/", wait_until="domcontentloaded")
        page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        ok = page.evaluate(f"""(async () => {{
            const b = document.querySelector("{BOARD}").cadoganBoard;
            const r = await b.play(b.view.moves[0].m);
            return !!(r && r.ok);
        }})()""")
    finally:
        ctx.close()
    watch.check()
    assert served == ["damaged", "whole"], served
    said = {"ahead": any("early compile failed" in w for w in warnings),
            "by Pyodide": any("could not be compiled" in w for w in warnings)}
    assert said["by Pyodide"] if network == "slow" else any(said.values()), (said, warnings)
    assert ok


# Each class and mark of the table after a pick-up (or a put-back) by its marks alone, then
# after the whole table drawn again in the same state: they must be the same. And no class
# of the table changes on a pick-up or a put-back: the marks are attributes (draw.js).
MARKS = """async (sel) => {
  const b = document.querySelector(sel).cadoganBoard;
  const table = b.parts.table;
  const MARK = ['data-selected', 'data-chosen', 'data-target'];
  const classes = () => Array.from(table.querySelectorAll('*'),
    (e) => e.className + '|' + MARK.map((a) => e.getAttribute(a)).join(',')).join('\\n');
  const refs = Object.keys(b.view.movable).filter((r) => b.view.movable[r].length);
  const before = table._cb.remarks || 0;
  const out = [];
  let classChanges = 0, marked = 0;
  const mo = new MutationObserver((l) => { classChanges += l.length; });
  const mark = (fn) => {
    mo.observe(table, {subtree: true, attributes: true, attributeFilter: ['class']});
    fn();
    classChanges += mo.takeRecords().length;
    mo.disconnect();
    marked += table.querySelectorAll('[data-selected], [data-target]').length;
  };
  const check = (what) => {
    const seen = classes();
    table._cb.piles = null;  // no pile left as last drawn (draw.js render): all compared
    b.draw();  // the whole table, from the view
    out.push({what, same: seen === classes()});
  };
  for (const ref of refs.slice(0, 8)) {
    mark(() => b.pickUp(ref));
    check('pick ' + ref);
    if (b.view.movable[ref].length > 1) {  // another card while one is held: put back first
      mark(() => b.cancel('Put back.'));
      check('put back ' + ref);
      mark(() => b.pickUp(ref));
    }
    mark(() => b.cancel('Put back.'));
    check('put back ' + ref);
  }
  return {out, remarks: (table._cb.remarks || 0) - before, targets: refs.length, classChanges, marked};
}"""


@pytest.mark.parametrize("hints", [False, True])
def test_a_pick_up_marks_what_the_whole_drawing_would(browser: Any, site: str,
                                                     hints: bool) -> None:
    """The Empress: a pick-up and a put-back write only the marks that change (draw.js
    remark), and leave every class and mark of the table as drawing it all again would;
    they change no class in the table (a class change restyles far more, see draw.js)."""
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        page = ctx.new_page()
        page.goto(site + "the-empress-of-india/")
        page.wait_for_selector(f"{EMPRESS}[data-engine='ready']", timeout=BOOT_TIMEOUT)
        if hints:
            page.evaluate(f"document.querySelector(\"{EMPRESS}\").cadoganBoard"
                          ".setSwitch('hints', true)")
        r = page.evaluate(MARKS, EMPRESS)
    finally:
        ctx.close()
    watch.check()
    assert r["targets"], "no card may move on the Empress's first deal"
    assert [c for c in r["out"] if not c["same"]] == [], r
    # the marks alone were written (not the whole table) on each pick-up and put-back
    assert r["remarks"] >= len(r["out"]), r
    assert r["classChanges"] == 0 and r["marked"] > 0, r
