"""The engine's memory snapshot (board-worker.mjs, engine-snapshot.mjs): made in the reader's
browser once the board is idle, restored on a later visit, and never a broken board: a
damaged, refused or stale snapshot gives the ordinary boot."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import engine

from .conftest import Watch, open_context

pytestmark = pytest.mark.browser

SLUG = "la-nivernaise"
BOARD = f".cadogan-board[data-game='{SLUG}']"
READY = f"{BOARD}[data-engine='ready']"
BOOT_TIMEOUT = 120_000
CACHE = "cadogan-engine-snapshot"

#: The snapshots stored: [{url, sha, length, failed, size}].
STORED = """async (name) => {
  const c = await caches.open(name);
  const out = [];
  for (const k of await c.keys()) {
    const r = await c.match(k);
    if (!r) continue;  // deleted since listed (an older snapshot, as a new one is stored)
    out.push({url: k.url, sha: r.headers.get('x-snapshot-sha256'),
              length: r.headers.get('x-snapshot-length'),
              failed: r.headers.get('x-snapshot-failed'), size: (await r.arrayBuffer()).byteLength});
  }
  return out;
}"""

#: Rewrites the stored snapshot: "damaged" (64 KiB overwritten, its digest kept), "refused"
#: (Pyodide's build ID in it changed, its digest made anew: Pyodide refuses it) or "stale"
#: (moved under the key of another build's engine).
SPOIL = """async ([name, how]) => {
  const c = await caches.open(name);
  const keys = await c.keys();
  const k = keys[0], r = keys.length === 1 ? await c.match(k) : null;
  if (!r) throw new Error('not one snapshot stored: ' + keys.map((x) => x.url).join(' ') + ' ' + keys.length);
  const body = new Uint8Array(await r.arrayBuffer());
  const headers = {};
  r.headers.forEach((v, n) => { headers[n] = v; });
  let key = k.url;
  if (how === 'damaged') {
    const mid = Math.floor(body.length / 2);
    body.fill(0xff, mid, mid + 65536);
  } else if (how === 'refused') {
    const words = new Uint32Array(body.buffer, 0, 2);
    if (words[0] < 1 || words[1] !== 0) throw new Error('the heap\\'s first page is not stored first');
    const head = 4 * (1 + words[0]);
    const data = Math.ceil(head / 4096) * 4096;
    body[data + 16] ^= 0xff;  // the snapshot's header: magic, offsets, then the build ID
    const d = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
    headers['x-snapshot-sha256'] = Array.from(d, (b) => b.toString(16).padStart(2, '0')).join('');
  } else if (how === 'stale') {
    const u = new URL(key);
    u.searchParams.set('engine', 'assets/engine/engine-000000000000.zip');
    key = u.href;
    await c.delete(k);
  }
  await c.put(key, new Response(body, {headers}));
  return key;
}"""

#: The views of the first deals, as the board's engine deals them.
DEALS = """async ([sel, n]) => {
  const b = document.querySelector(sel).cadoganBoard;
  const out = [];
  for (let d = 0; d < n; d++) {
    const r = await b.request({op: 'new', game: b.game, deal: d, options: ''});
    out.push(JSON.stringify(r.view));
  }
  return out;
}"""


def open_board(ctx: Any, site: str) -> Any:
    page = ctx.new_page()
    page.goto(site + f"{SLUG}/")
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    return page


def snapshot_state(page: Any) -> str | None:
    return page.get_attribute(BOARD, "data-engine-snapshot")


def plays(page: Any) -> bool:
    return bool(page.evaluate(f"""(async () => {{
        const b = document.querySelector("{BOARD}").cadoganBoard;
        const r = await b.play(b.view.moves[0].m);
        return r && r.ok;
    }})()"""))


def wait_stored(page: Any, url: str | None = None, timeout: float = 90) -> dict[str, Any]:
    """The snapshot the board's idle engine makes (under `url`, if given), once stored."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for s in page.evaluate(STORED, CACHE):
            if s["sha"] and url in (None, s["url"]):
                return dict(s)
        time.sleep(0.25)
    raise AssertionError(f"no snapshot stored within {timeout} s")


def wasm_requests(watch: Watch) -> int:
    return sum(1 for u in watch.requests if u.endswith("pyodide.asm.wasm"))


def test_a_later_visit_is_restored_from_the_snapshot_and_deals_the_same(browser: Any,
                                                                        site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        first = open_board(ctx, site)
        assert snapshot_state(first) == "none"
        ordinary = first.evaluate(DEALS, [BOARD, 12])
        stored = wait_stored(first)
        # made from what the engine worker had: the WebAssembly was requested once
        assert wasm_requests(watch) == 1
        # the heap is 30 MiB; its non-zero pages are stored, with their digest
        assert int(stored["length"]) >= 30 * 2**20 > stored["size"] > 2**20
        assert "format=" in stored["url"] and "stdlib-" in stored["url"]
        first.close()

        second = open_board(ctx, site)
        assert snapshot_state(second) == "restored"
        assert plays(second)
        restored = second.evaluate(DEALS, [BOARD, 12])
    finally:
        ctx.close()
    watch.check()
    assert restored == ordinary
    # and both are the engine's own deals
    expected = [engine.new_game(SLUG, seed=d) for d in range(12)]
    assert [json.loads(v) for v in restored] == [
        json.loads(json.dumps(engine.view_of(g))) for g in expected]


@pytest.mark.parametrize("how,state", [("damaged", "damaged"), ("refused", "failed"),
                                       ("stale", "none")])
def test_a_bad_snapshot_gives_the_ordinary_boot(browser: Any, site: str, how: str,
                                                state: str) -> None:
    """Damaged (its digest fails): deleted, the board boots as without one, and a new
    snapshot is made. Refused by Pyodide: a marker replaces it, never tried again, none made.
    Stale (another build's): not used, and deleted when this build's is stored."""
    watch = Watch()
    ctx = open_context(browser, watch)
    try:
        first = open_board(ctx, site)
        stored = wait_stored(first)
        key = first.evaluate(SPOIL, [CACHE, how])
        first.close()

        second = open_board(ctx, site)
        assert snapshot_state(second) == state
        assert plays(second)
        left = second.evaluate(STORED, CACHE)
        if how == "damaged":
            assert left == [], left
            again = wait_stored(second)
            assert again["url"] == stored["url"]
        elif how == "refused":
            assert [(s["url"], s["failed"]) for s in left] == [(stored["url"], "failed")]
            second.wait_for_timeout(5000)  # longer than the idle time before a snapshot
            assert [s["failed"] for s in second.evaluate(STORED, CACHE)] == ["failed"]
        else:
            wait_stored(second, url=stored["url"])
            assert stored["url"] != key
            # the other build's is deleted just after this build's is stored
            end = time.monotonic() + 30
            while (urls := [s["url"] for s in second.evaluate(STORED, CACHE)]) != [stored["url"]]:
                assert time.monotonic() < end, urls
                time.sleep(0.25)
        second.close()

        third = open_board(ctx, site)
        assert snapshot_state(third) == ("failed" if how == "refused" else "restored")
        assert plays(third)
    finally:
        ctx.close()
    watch.check()
