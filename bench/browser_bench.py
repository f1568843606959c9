"""The boards in headless Chromium, beside a bare ``loadPyodide()`` in the same browser.

Builds the site into a temporary folder (``SITE_URL`` = the bench server, so instant
navigation is on), adds a bare page that only boots the pinned Pyodide, as distributed, in a
module worker (its own copy of the five distribution files, under ``__bench__/pyodide/``),
serves it with ``build_scripts.serve`` (gzip, long caching of versioned files) on 127.0.0.1
and measures, each time from navigation start:

- ``playable``: the board's first move accepted (an init script plays the first legal move
  as soon as the board says it is ready), and the bare page's ``loadPyodide()`` resolved;
  ``cold`` (a fresh profile), ``warm`` (the browser relaunched on that profile: HTTP and code
  caches on disk) and ``hot`` (a new tab in the same browser); medians of the repeats,
  bare and board runs interleaved, and their ratios; these visits close the page at once,
  so the engine never makes its memory snapshot and ``warm`` is a warm visit without one;
- ``warm_snapshot``: a first visit left open until its idle engine has stored its memory
  snapshot (board-worker.mjs), then the browser relaunched on that profile: playable from
  the restored snapshot (and how long after ready it was stored, and its size);
- where the engine's boot spends its time: when the worker began it (``boot_began_ms``, from
  navigation: its script fetched and run, the head's worker made at ``engine_started_ms``),
  and the worker's own record of when each step ended (Pyodide imported, downloads over,
  Python started, engine unpacked, ready), cold and warm;
- bytes transferred by kind (runtime, stdlib, engine, page), cold and warm;
- at a 4x CPU slowdown (CDP ``Emulation.setCPUThrottlingRate``) on the Empress (208 cards):
  the main thread's long tasks during start-up and during moves, the long animation frames
  in which the board's own scripts ran (and what ran them: a module, a timer, a worker's
  message, a frame callback), and the time a pick-up and a put-back take (script, style and
  layout), with the DOM mutations each makes;
- every chapter once, cold and warm, against the bare boot's medians.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine
from build_scripts.serve import precompress, serve_in_thread

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
#: Chapters measured with every repeat: a small one, the largest table, a long text.
CHAPTERS = ("la-nivernaise", "the-empress-of-india", "the-kings")
EMPRESS = "the-empress-of-india"
#: The files of the Pyodide distribution a bare loadPyodide() fetches.
DISTRIBUTION = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                "pyodide-lock.json")

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare Pyodide boot</title>
<p>Bare <code>loadPyodide()</code> in a module worker.</p>
<script type="module">
const w = new Worker(new URL("bare-worker.mjs", import.meta.url), {type: "module"});
w.onmessage = (e) => { window.__bare = {ready: performance.now(), boot: e.data.ms}; };
w.postMessage({pyodide: new URL("pyodide/", location.href).href});
</script>
"""
BARE_WORKER = """self.onmessage = async (e) => {
  const t0 = performance.now();
  const {loadPyodide} = await import(e.data.pyodide + "pyodide.mjs");
  await loadPyodide({indexURL: e.data.pyodide});
  postMessage({ms: performance.now() - t0});
};
"""

#: Runs in every page before its scripts: records long tasks, and plays the board's first
#: legal move the moment the board is ready ("playable" = that move accepted).
INIT_SCRIPT = """(() => {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    }).observe({type: "longtask", buffered: true});
  } catch (e) { /* no long task timing */ }
  // Long animation frames (over 50 ms: the tasks before a frame and its rendering), with the
  // scripts that ran in each: [start, duration, [[file, invoker, ms], ...]].
  window.__longFrames = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__longFrames.push([e.startTime, e.duration, (e.scripts || []).map((s) =>
          [String(s.sourceURL || "").split("/").pop(), String(s.invoker || ""), s.duration])]);
      }
    }).observe({type: "long-animation-frame", buffered: true});
  } catch (e) { /* no long animation frame timing */ }
  const firstMove = (b) => {
    const v = b.view || {};
    if (v.moves && v.moves.length) return v.moves[0].m;
    if (v.pack && v.pack.move && v.pack.legal) return v.pack.move;
    return null;
  };
  const watch = () => {
    if (window.__cbPlayable) return;
    const root = document.querySelector(".cadogan-board[data-engine='ready']");
    if (!root || !root.cadoganBoard) return;
    const b = root.cadoganBoard, ready = performance.now(), m = firstMove(b);
    window.__cbPlayable = {ready, pending: true};
    if (!m || window.__cbNoMove) { window.__cbPlayable = {ready, played: ready, ok: !m ? null : true}; return; }
    b.play(m).then((r) => {
      window.__cbPlayable = {ready, played: performance.now(), ok: !!(r && r.ok), move: m};
    });
  };
  new MutationObserver(watch).observe(document, {subtree: true, attributes: true,
    attributeFilter: ["data-engine"]});
})();
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def build(dest: Path, base: str) -> None:
    env = dict(os.environ, SITE_URL=base, NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(dest)],
                   cwd=ROOT, env=env, check=True, timeout=1800)
    bare = dest / "__bench__"
    (bare / "pyodide").mkdir(parents=True)
    dist = ROOT / "node_modules" / "pyodide"
    for name in DISTRIBUTION:
        shutil.copy2(dist / name, bare / "pyodide" / name)
    (bare / "bare.html").write_text(BARE_HTML, encoding="utf-8")
    (bare / "bare-worker.mjs").write_text(BARE_WORKER, encoding="utf-8")


def category(url: str) -> str:
    """What a request is for: the Python runtime (Pyodide's JavaScript and WebAssembly), its
    standard library, the engine, the site's shared files (styles, scripts, search index), or
    the chapter's own (its page and pictures)."""
    path = "/" + url.split("://", 1)[-1].split("/", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    name = path.rsplit("/", 1)[-1]
    if path.startswith("/assets/engine/"):
        return "engine"
    if "/pyodide/" in path and name.endswith(".zip"):
        return "stdlib"
    if "/pyodide/" in path:
        return "runtime"
    if path.startswith(("/assets/", "/search/")):
        return "site"
    return "chapter"


def _median(xs: list[float]) -> float | None:
    xs = [x for x in xs if x is not None]
    return round(statistics.median(xs), 1) if xs else None


def _p95(xs: list[float]) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return round(s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))], 2)


class Bytes:
    """Bytes transferred (headers and encoded body) by kind, for one browser context."""

    def __init__(self, ctx: Any) -> None:
        self.by_kind: dict[str, int] = {}
        self.requests: dict[str, int] = {}
        ctx.on("requestfinished", self._finished)

    def reset(self) -> None:
        self.by_kind = {}
        self.requests = {}

    def _finished(self, req: Any) -> None:
        try:
            if req.response() is None:
                return
            s = req.sizes()
            n = int(s.get("responseBodySize", 0)) + int(s.get("responseHeadersSize", 0))
        except Exception:  # noqa: BLE001 - a page closing under a request: not a measurement
            return
        kind = category(req.url)
        self.by_kind[kind] = self.by_kind.get(kind, 0) + n
        self.requests[kind] = self.requests.get(kind, 0) + 1

    def summary(self) -> dict[str, Any]:
        return {"by_kind": dict(sorted(self.by_kind.items())),
                "total": sum(self.by_kind.values()),
                "requests": dict(sorted(self.requests.items()))}


def launch(p: Any, profile: Path) -> Any:
    ctx = p.chromium.launch_persistent_context(
        str(profile), executable_path=str(CHROMIUM), args=ARGS,
        viewport={"width": 1280, "height": 900})
    ctx.add_init_script(INIT_SCRIPT)
    return ctx


def board_visit(ctx: Any, url: str, throttle: float | None = None,
                settle: float = 0.0) -> dict[str, Any]:
    page = ctx.new_page()
    if throttle:
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url)
    page.wait_for_function("window.__cbPlayable && !window.__cbPlayable.pending",
                           timeout=180_000)
    if settle:
        time.sleep(settle)
    t = page.evaluate("""(() => {
        const b = document.querySelector('.cadogan-board');
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        const p = window.__cbPlayable;
        return {drawn: +b.getAttribute('data-drawn'), ready: p.ready, playable: p.played,
                ok: p.ok, fcp: fcp ? fcp.startTime : null,
                engine_started: +b.getAttribute('data-engine-started-at') || null,
                snapshot: b.getAttribute('data-engine-snapshot'),
                worker_boot: +b.getAttribute('data-engine-boot-ms') || null,
                long_tasks: window.__longTasks};
    })()""")
    workers = [w for w in page.workers if "board-worker" in w.url]
    try:  # when each step of the engine's boot ended, ms from its boot message
        t["steps"] = workers[0].evaluate("self.__bootTimes || null") if workers else None
        # when the worker began its boot, in the page's milliseconds: its script fetched and
        # run, and its boot message in hand (the address carries it: board-worker.mjs)
        began = workers[0].evaluate("self.__bootBeganAt || null") if workers else None
        t["boot_began"] = (round(began - page.evaluate("performance.timeOrigin"))
                           if began else None)
    except Exception:  # noqa: BLE001 - a worker gone with its page: no steps, not a failure
        t["steps"] = t["boot_began"] = None
    t["page"] = page
    return t


def bare_visit(ctx: Any, base: str) -> dict[str, Any]:
    page = ctx.new_page()
    page.goto(base + "__bench__/bare.html")
    page.wait_for_function("window.__bare !== undefined", timeout=180_000)
    t: dict[str, Any] = page.evaluate("window.__bare")
    page.close()
    return {"playable": t["ready"], "worker_boot": t["boot"]}


def _close(t: dict[str, Any]) -> dict[str, Any]:
    page = t.pop("page", None)
    if page is not None:
        page.close()
    return t


def three_visits(p: Any, profile: Path, url_or_bare: str, base: str,
                 bytes_too: bool = False) -> dict[str, Any]:
    """Cold (fresh profile), hot (a new tab, same browser), warm (browser relaunched)."""
    out: dict[str, Any] = {}
    bare = url_or_bare == "bare"
    ctx = launch(p, profile)
    meter = Bytes(ctx)
    try:
        out["cold"] = bare_visit(ctx, base) if bare else _close(board_visit(ctx, url_or_bare))
        time.sleep(0.3)
        out["bytes_cold"] = meter.summary()
        meter.reset()
        out["hot"] = bare_visit(ctx, base) if bare else _close(board_visit(ctx, url_or_bare))
    finally:
        ctx.close()
    ctx = launch(p, profile)
    meter = Bytes(ctx)
    try:
        out["warm"] = bare_visit(ctx, base) if bare else _close(board_visit(ctx, url_or_bare))
        time.sleep(0.3)
        out["bytes_warm"] = meter.summary()
    finally:
        ctx.close()
    if not bytes_too:
        out.pop("bytes_cold")
        out.pop("bytes_warm")
    return out


#: The engine's memory snapshot stored in the page's origin: [heap bytes, bytes stored].
SNAPSHOT_STORED = """async () => {
  if (!self.caches) return null;
  const c = await caches.open('cadogan-engine-snapshot');
  for (const k of await c.keys()) {
    const r = await c.match(k);
    if (r && r.headers.get('x-snapshot-sha256')) {
      return [+r.headers.get('x-snapshot-length'), (await r.arrayBuffer()).byteLength];
    }
  }
  return null;
}"""


def snapshot_visits(p: Any, profile: Path, url: str) -> dict[str, Any]:
    """A first visit left open until the board's idle engine has stored its snapshot, then
    the browser relaunched on that profile: a warm visit restored from it."""
    out: dict[str, Any] = {}
    ctx = launch(p, profile)
    try:
        t = board_visit(ctx, url)
        page = t.pop("page")
        t0 = time.perf_counter()
        stored = None
        while stored is None and time.perf_counter() - t0 < 120:
            time.sleep(0.25)
            stored = page.evaluate(SNAPSHOT_STORED)
        out["stored_after_ready_s"] = round(time.perf_counter() - t0, 1) if stored else None
        out["heap_bytes"], out["stored_bytes"] = stored or (None, None)
        page.close()
    finally:
        ctx.close()
    ctx = launch(p, profile)
    try:
        out["warm_snapshot"] = _close(board_visit(ctx, url))
    finally:
        ctx.close()
    return out


def instant_revisit(p: Any, profile: Path, base: str, slug: str) -> dict[str, Any]:
    """Playable again after leaving the chapter and coming back by instant navigation (the
    tab's worker is kept: no new Pyodide boot)."""
    ctx = launch(p, profile)
    try:
        page = ctx.new_page()
        page.goto(base + slug + "/")
        page.wait_for_selector(".cadogan-board[data-engine='ready']", timeout=180_000)
        page.evaluate("window.__sameDocument = true")
        links = page.evaluate("Array.from(document.querySelectorAll('a')).map(a => a.href)")
        home = next((h for h in links if h.rstrip("/") == base.rstrip("/")), None)
        if home is None:
            return {"skipped": "no link to the home page"}
        page.locator(f"a[href='{home}']").first.click()
        page.wait_for_function("!document.querySelector('.cadogan-board')", timeout=30_000)
        t0 = time.perf_counter()
        page.locator(f"nav a[href$='/{slug}/']").first.click()
        page.wait_for_selector(".cadogan-board[data-engine='ready']", timeout=60_000)
        ms = (time.perf_counter() - t0) * 1000
        same = bool(page.evaluate("window.__sameDocument === true"))
        return {"ready_ms": round(ms, 1), "instant_navigation": same}
    except Exception as e:  # noqa: BLE001 - reported, not fatal
        return {"error": f"{type(e).__name__}: {e}"[:300]}
    finally:
        ctx.close()


PICK_SCRIPT = """async (n) => {
  const b = document.querySelector('.cadogan-board').cadoganBoard;
  const table = b.parts.table;
  const refs = Object.keys(b.view.movable || {}).filter((r) => (b.view.movable[r] || []).length);
  const pick = [], put = [], mPick = [], mPut = [];
  // Nodes touched: one per attribute or text change, one per node added or removed.
  const touched = (l) => l.reduce((n, r) => n + (r.type === "childList" ?
    r.addedNodes.length + r.removedNodes.length : 1), 0);
  let count = 0;
  const mo = new MutationObserver((l) => { count += touched(l); });
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  for (let i = 0; i < n && refs.length; i++) {
    const ref = refs[i % refs.length];
    await frame();
    mo.observe(table, {subtree: true, attributes: true, childList: true, characterData: true});
    let t0 = performance.now();
    b.pickUp(ref);
    void document.body.offsetHeight;
    pick.push(performance.now() - t0);
    mPick.push(count + touched(mo.takeRecords())); count = 0;
    await frame();
    t0 = performance.now();
    b.cancel("Put back.");
    void document.body.offsetHeight;
    put.push(performance.now() - t0);
    mPut.push(count + touched(mo.takeRecords())); count = 0;
    mo.disconnect();
  }
  return {pick, put, mPick, mPut, cards: table.querySelectorAll('.cb-card').length};
}"""

MOVES_SCRIPT = """async (n) => {
  const b = document.querySelector('.cadogan-board').cadoganBoard;
  const since = performance.now();
  const times = [];
  for (let i = 0; i < n; i++) {
    const v = b.view;
    const m = (v.moves && v.moves.length) ? v.moves[i % v.moves.length].m :
      (v.pack && v.pack.legal ? v.pack.move : null);
    if (!m || v.outcome) break;
    const t0 = performance.now();
    await b.play(m);
    times.push(performance.now() - t0);
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
  }
  await new Promise((r) => setTimeout(r, 200));
  return {since, times, long_tasks: window.__longTasks.filter((t) => t[0] >= since),
          long_frames: window.__longFrames.filter((t) => t[0] >= since)};
}"""


def table_complete(page: Any) -> float:
    """When the board's table was last seen complete (a large table's first draw is spread
    over frames: the moves and pick-ups are measured after it, and its frames count as
    start-up), in the page's milliseconds."""
    page.wait_for_function(
        "document.querySelector('.cadogan-board .cb-table[data-complete=\"1\"]')",
        timeout=60_000)
    page.wait_for_timeout(200)
    return float(page.evaluate("performance.now()"))


def throttled(p: Any, profile: Path, base: str, slug: str, rate: float = 4.0) -> dict[str, Any]:
    """Start-up, moves and pick-ups of one chapter at a CPU slowdown of `rate`: long tasks of
    the main thread, and the pick-up's cost."""
    ctx = launch(p, profile)
    try:
        t = board_visit(ctx, base + slug + "/", throttle=rate, settle=0.5)
        page = t.pop("page")
        complete = table_complete(page)
        start_tasks = page.evaluate("window.__longTasks")
        start_frames = page.evaluate("window.__longFrames")
        moves = page.evaluate(MOVES_SCRIPT, 5)
        picks = page.evaluate(PICK_SCRIPT, 20)
        page.close()
    finally:
        ctx.close()
    # Start-up: until the first move is accepted and the table's first draw is complete.
    until = max((t["playable"] or 0) + 500, complete)
    startup = [d for s, d in start_tasks if s <= until]
    return {
        "cpu_slowdown": rate,
        "playable_ms": round(t["playable"] or 0, 1),
        "startup_long_tasks_ms": [round(d) for d in startup],
        "startup_longest_task_ms": round(max(startup), 1) if startup else 0,
        "move_ms": [round(x, 1) for x in moves["times"]],
        "move_long_tasks_ms": [round(d) for _, d in moves["long_tasks"]],
        "move_longest_task_ms": round(max((d for _, d in moves["long_tasks"]), default=0), 1),
        "long_frames_with_board_scripts": {
            "startup": board_frames([f for f in start_frames if f[0] <= until]),
            "moves": board_frames(moves["long_frames"])},
        "pick_up_ms": {"median": _median(picks["pick"]), "p95": _p95(picks["pick"])},
        "put_back_ms": {"median": _median(picks["put"]), "p95": _p95(picks["put"])},
        "dom_mutations": {"pick_up_median": _median(picks["mPick"]),
                          "put_back_median": _median(picks["mPut"]),
                          "cards_on_table": picks["cards"]},
    }


#: The board's scripts, by file name (the long animation frames' scripts name them so).
BOARD_FILES = frozenset(["board.js"] + [p.name for p in (
    ROOT / "docs" / "assets" / "javascripts" / "board").glob("*.js")])


def board_frames(frames: list[Any]) -> dict[str, Any]:
    """Long animation frames (over 50 ms) in which the board's scripts ran: how many of how
    many, and the longest five as [frame ms, the board's script ms, what ran the board's
    longest script (a worker's message, a timer, an animation frame, a module)]."""
    mine = []
    for _, duration, scripts in frames:
        board = [s for s in scripts if s[0] in BOARD_FILES]
        if board:
            top = max(board, key=lambda s: s[2])
            mine.append([round(duration), round(sum(s[2] for s in board)),
                         f"{top[0]} {top[1].split('/')[-1]}"])
    mine.sort(key=lambda f: -f[0])
    return {"frames_over_50ms": len(frames), "with_board_scripts": len(mine),
            "longest": mine[:5]}


class Trace:
    """Chromium's trace of a page (CDP ``Tracing``): the main thread's tasks with their CPU
    time (``tdur``), which a loaded machine inflates far less than their wall time."""

    CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]

    def __init__(self, ctx: Any, page: Any, extra: list[str] | None = None) -> None:
        self.categories = self.CATEGORIES + (extra or [])
        self.cdp = ctx.new_cdp_session(page)
        self.events: list[dict[str, Any]] = []
        self.done = False
        self.cdp.on("Tracing.dataCollected", lambda e: self.events.extend(e["value"]))
        self.cdp.on("Tracing.tracingComplete", self._complete)

    def _complete(self, _: Any) -> None:
        self.done = True

    def start(self) -> None:
        self.events, self.done = [], False
        self.cdp.send("Tracing.start", {"traceConfig": {"includedCategories": self.categories},
                                        "transferMode": "ReportEvents"})

    def stop(self, page: Any, base: str) -> list[dict[str, Any]]:
        """The tasks of the page's main thread: {cpu, wall, board} (ms; ``board``: the
        board's scripts ran in it)."""
        self.cdp.send("Tracing.end")
        for _ in range(300):
            if self.done:
                break
            page.wait_for_timeout(100)
        return main_thread_tasks(self.events, base)


def _url(e: dict[str, Any]) -> str:
    a = e.get("args") or {}
    d = a.get("data") if isinstance(a.get("data"), dict) else {}
    return str(d.get("url") or d.get("scriptName") or a.get("url") or "")


def main_thread_tasks(events: list[dict[str, Any]], base: str) -> list[dict[str, Any]]:
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("name") == "thread_name"}
    mains = {k for k, v in names.items() if v == "CrRendererMain"}
    pids = {e["pid"] for e in events
            if (e.get("pid"), e.get("tid")) in mains and _url(e).startswith(base)}
    xs = sorted((e for e in events if (e.get("pid"), e.get("tid")) in mains and e["pid"] in pids
                 and e.get("ph") == "X"), key=lambda e: e["ts"])
    out = []
    for i, t in enumerate(xs):
        if t["name"] != "RunTask":
            continue
        end = t["ts"] + t.get("dur", 0)
        board = False
        for c in xs[i + 1:]:
            if c["ts"] >= end:
                break
            if c["name"] == "v8.evaluateModule" or "/javascripts/board" in _url(c):
                board = True
                break
        out.append({"cpu": t.get("tdur", 0) / 1000, "wall": t.get("dur", 0) / 1000,
                    "board": board})
    return out


#: Where start-up CPU goes (boot_cpu): top-level tasks by thread, and the WebAssembly
#: compilers' work inside the browser's background threads.
BOOT_CPU_PARTS: dict[str, Any] = {"RunTask": {"CrRendererMain": "page_main_thread",
                              "DedicatedWorker thread": "workers_engine_and_search"},
                  "ThreadPool_RunTask": "background_threads_all",
                  "wasm.TopTierCompilation": "of_which_wasm_top_tier_compile",
                  "wasm.BaselineCompilation": "of_which_wasm_baseline_compile"}


def boot_cpu(p: Any, profile: Path, base: str, slug: str) -> dict[str, Any]:
    """A cold and a warm visit, traced from navigation to the first move accepted: the CPU
    time of the page's main thread, of the workers (the engine's and Material's search) and of
    the browser's background threads, with the part of the latter spent compiling the
    WebAssembly (V8 compiles Pyodide's hot functions again at its top tier while Python
    starts). On a 2-core machine these compete with the engine's start for the same cores.
    Tracing slows the visit; the shares matter, not the totals."""
    out: dict[str, Any] = {}
    for visit in ("cold", "warm"):
        ctx = launch(p, profile)
        try:
            page = ctx.new_page()
            trace = Trace(ctx, page, extra=["toplevel", "v8.wasm"])
            trace.start()
            page.goto(base + slug + "/")
            page.wait_for_function("window.__cbPlayable && !window.__cbPlayable.pending",
                                   timeout=180_000)
            playable = page.evaluate("window.__cbPlayable.played")
            trace.stop(page, base)
            events = trace.events
        finally:
            ctx.close()
        names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
                 if e.get("name") == "thread_name"}
        ms: dict[str, float] = {}
        for e in events:
            part: Any = BOOT_CPU_PARTS.get(e.get("name", "")) if e.get("ph") == "X" else None
            if isinstance(part, dict):
                part = part.get(names.get((e["pid"], e["tid"]), ""))
            if part:
                ms[part] = ms.get(part, 0.0) + e.get("tdur", e.get("dur", 0)) / 1000
        out[visit] = {"playable_ms_traced": round(playable or 0),
                      **{k: round(v) for k, v in sorted(ms.items())}}
    return out


def cpu_tasks(p: Any, profile: Path, base: str, slug: str) -> dict[str, Any]:
    """An unthrottled visit, traced: the main thread's longest tasks by CPU time, start-up
    and moves, those where the board's scripts ran apart; times 4 they estimate the tasks
    at a 4x slowdown of an unloaded machine."""
    ctx = launch(p, profile)
    try:
        page = ctx.new_page()
        trace = Trace(ctx, page)
        trace.start()
        page.goto(base + slug + "/")
        page.wait_for_function("window.__cbPlayable && !window.__cbPlayable.pending",
                               timeout=180_000)
        page.wait_for_timeout(500)
        table_complete(page)
        startup = trace.stop(page, base)
        trace.start()
        page.evaluate(MOVES_SCRIPT, 5)
        page.evaluate(PICK_SCRIPT, 20)
        moves = trace.stop(page, base)
    finally:
        ctx.close()

    def summary(tasks: list[dict[str, Any]]) -> dict[str, Any]:
        board = sorted((t["cpu"] for t in tasks if t["board"]), reverse=True)
        other = sorted((t["cpu"] for t in tasks if not t["board"]), reverse=True)
        return {"board_tasks_longest_cpu_ms": [round(x, 1) for x in board[:5]],
                "other_tasks_longest_cpu_ms": [round(x, 1) for x in other[:5]],
                "board_over_12.5ms_cpu": sum(1 for x in board if x > 12.5)}

    return {"startup": summary(startup), "moves_and_pick_ups": summary(moves),
            "note": "CPU time of each main-thread task, unthrottled; 12.5 ms here is 50 ms at "
                    "4x. 'board': tasks in which the board's scripts ran; 'other': Material's "
                    "and the browser's own (style, layout and paint after any change included)"}


def _steps(runs: list[dict[str, Any] | None]) -> dict[str, Any]:
    """Medians of the engine worker's boot steps (board-worker.mjs ``times``): the Pyodide
    module imported, every download over, Python started, the engine unpacked, ready."""
    keys = ("imported", "downloaded", "python", "unpacked", "ready")
    return {k: _median([r[k] for r in runs if r and r.get(k) is not None]) for k in keys}


def _kinds(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {k: _median([r[k]["playable"] for r in runs]) for k in ("cold", "warm", "hot")}


def run(repeats: int = 3, every_chapter: bool = True) -> dict[str, Any]:
    if not CHROMIUM.exists():
        return {"name": "browser", "skipped": f"no Chromium at {CHROMIUM}"}
    from playwright.sync_api import sync_playwright

    port = _free_port()
    base = f"http://127.0.0.1:{port}/"
    tmp = Path(tempfile.mkdtemp(prefix="cadogan-bench-"))
    site = tmp / "site"
    build(site, base)
    server, _ = serve_in_thread(site, port=port)
    precompress(site)  # as a host that stores compressed files: no first-request penalty
    out: dict[str, Any] = {"name": "browser", "repeats": repeats, "chapters": list(CHAPTERS)}
    n = 0

    def profile() -> Path:
        nonlocal n
        n += 1
        return tmp / f"profile-{n}"

    try:
        with sync_playwright() as p:
            bare: list[dict[str, Any]] = []
            boards: dict[str, list[dict[str, Any]]] = {s: [] for s in CHAPTERS}
            snaps: dict[str, list[dict[str, Any]]] = {s: [] for s in CHAPTERS}
            for i in range(repeats):
                bare.append(three_visits(p, profile(), "bare", base))
                for s in CHAPTERS:
                    boards[s].append(three_visits(p, profile(), base + s + "/", base,
                                                  bytes_too=(i == 0)))
                    snaps[s].append(snapshot_visits(p, profile(), base + s + "/"))
            bare_med = _kinds(bare)
            playable = {s: _kinds(boards[s]) for s in CHAPTERS}
            for s in CHAPTERS:
                playable[s]["warm_snapshot"] = _median([r["warm_snapshot"]["playable"]
                                                        for r in snaps[s]])
            ratio = {s: {k: (round(playable[s][k] / bare_med[k.split("_")[0]], 2)
                             if playable[s][k] and bare_med[k.split("_")[0]] else None)
                         for k in ("cold", "warm", "hot", "warm_snapshot")} for s in CHAPTERS}
            out["snapshot"] = {s: {
                "restored": [r["warm_snapshot"]["snapshot"] for r in snaps[s]],
                "stored_after_ready_s": _median([r["stored_after_ready_s"] for r in snaps[s]]),
                "heap_bytes": snaps[s][0]["heap_bytes"], "stored_bytes": snaps[s][0]["stored_bytes"],
                "worker_boot_ms": _median([r["warm_snapshot"]["worker_boot"] for r in snaps[s]]),
            } for s in CHAPTERS}
            out["bare_pyodide_ready_ms"] = bare_med
            out["playable_ms"] = playable
            out["ready_ms"] = {s: {k: _median([r[k]["ready"] for r in boards[s]])
                                   for k in ("cold", "warm", "hot")} for s in CHAPTERS}
            out["board_visible_ms"] = {s: {k: _median([r[k]["drawn"] for r in boards[s]])
                                           for k in ("cold", "warm")} for s in CHAPTERS}
            out["ratio_to_bare"] = ratio
            out["where_the_time_goes"] = {
                s: {"engine_started_ms": _median([r["cold"]["engine_started"]
                                                  for r in boards[s]]),
                    "boot_began_ms": {k: _median([r[k].get("boot_began") for r in boards[s]])
                                      for k in ("cold", "warm")},
                    "worker_boot_ms": {k: _median([r[k]["worker_boot"] for r in boards[s]])
                                       for k in ("cold", "warm", "hot")},
                    "boot_steps_ms": {k: _steps([r[k].get("steps") for r in boards[s]])
                                      for k in ("cold", "warm")}}
                for s in CHAPTERS}
            out["where_the_time_goes"]["bare_worker_boot_ms"] = {
                k: _median([r[k]["worker_boot"] for r in bare]) for k in ("cold", "warm", "hot")}
            out["bytes"] = {s: {"cold": boards[s][0]["bytes_cold"],
                                "warm": boards[s][0]["bytes_warm"]} for s in CHAPTERS}
            out["instant_navigation_revisit"] = instant_revisit(p, profile(), base,
                                                                "la-nivernaise")
            out["throttled_4x"] = {EMPRESS: throttled(p, profile(), base, EMPRESS)}
            out["main_thread_cpu"] = {s: cpu_tasks(p, profile(), base, s) for s in CHAPTERS}
            out["boot_cpu"] = {"la-nivernaise": boot_cpu(p, profile(), base, "la-nivernaise")}
            if every_chapter:
                each: dict[str, Any] = {}
                for slug in dict.fromkeys(c.chapter() for c in engine.GAMES.values()):
                    r = three_visits(p, profile(), base + slug + "/", base)  # each page once
                    each[slug] = {k: round(r[k]["playable"], 1) for k in ("cold", "warm")}
                    each[slug]["ratio"] = {k: round(r[k]["playable"] / bare_med[k], 2)
                                           for k in ("cold", "warm")}
                out["every_chapter_once"] = each
                out["every_chapter_worst_ratio"] = {
                    k: max(v["ratio"][k] for v in each.values()) for k in ("cold", "warm")}
            out["raw_runs"] = {"bare": bare, **{s: [{k: {kk: vv for kk, vv in r[k].items()
                                                          if kk != "long_tasks"}
                                                      for k in ("cold", "warm", "hot")}
                                                     for r in boards[s]] for s in CHAPTERS}}
            out["raw_runs"]["warm_snapshot"] = {
                s: [{kk: vv for kk, vv in r["warm_snapshot"].items() if kk != "long_tasks"}
                    for r in snaps[s]] for s in CHAPTERS}
            worst = {k: max(ratio[s][k] or 99 for s in CHAPTERS)
                     for k in ("cold", "warm", "warm_snapshot")}
            big = out["throttled_4x"][EMPRESS]
            cold_bytes = max(out["bytes"][s]["cold"]["total"] for s in CHAPTERS)
            warm_runtime = max(sum(v for k, v in out["bytes"][s]["warm"]["by_kind"].items()
                                   if k in ("runtime", "stdlib", "engine")) for s in CHAPTERS)
            own = max(out["bytes"][s]["cold"]["by_kind"].get("chapter", 0) for s in CHAPTERS)
            out["goals"] = {
                "playable_cold_le_0.5x_bare": worst["cold"] <= 0.5,
                "playable_warm_le_0.4x_bare": worst["warm"] <= 0.4,
                "playable_warm_from_snapshot_le_0.4x_bare": worst["warm_snapshot"] <= 0.4,
                "cold_bytes_le_5.5MB": cold_bytes <= 5.5e6,
                "chapter_own_bytes_le_100KB": own <= 100 * 1024,
                "warm_runtime_bytes_zero": warm_runtime == 0,
                "no_long_task_over_50ms_at_4x": max(big["startup_longest_task_ms"],
                                                    big["move_longest_task_ms"]) <= 50,
                "pick_up_p95_under_16ms_at_4x": (big["pick_up_ms"]["p95"] or 99) < 16,
            }
    finally:
        server.shutdown()
        server.server_close()
        shutil.rmtree(tmp, ignore_errors=True)
    return out


if __name__ == "__main__":
    import json

    quick = "--quick" in sys.argv
    print(json.dumps(run(1 if quick else 3, every_chapter=not quick), indent=2))
