"""The chapter in headless Chromium: time to board visible and to ready, cold and warm, beside
a bare ``loadPyodide()`` in the same browser; bytes transferred.

Builds the site into a temporary folder (``SITE_URL`` = the bench server, so instant
navigation is on), adds a bare page that only boots Pyodide in a module worker, serves it on
127.0.0.1 and measures with a persistent browser profile (cold = a fresh profile, warm = the
same profile again: the HTTP cache keeps the runtime).
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

from build_scripts import pyodide_runtime
from build_scripts.serve import precompress, serve_in_thread

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
CHAPTER = "la-nivernaise/"
BOARD = ".cadogan-board[data-game='la-nivernaise']"

BARE_HTML = """<!doctype html><meta charset="utf-8"><title>bare Pyodide boot</title>
<p>Bare <code>loadPyodide()</code> in a module worker.</p>
<script type="module">
const w = new Worker(new URL("bare-worker.mjs", import.meta.url), {type: "module"});
const started = performance.now();
w.onmessage = (e) => { window.__bare = {ready: performance.now(), boot: e.data.ms, started}; };
w.postMessage({pyodide: new URL("../RUNTIME", location.href).href});
</script>
"""
BARE_WORKER = """self.onmessage = async (e) => {
  const t0 = performance.now();
  const {loadPyodide} = await import(e.data.pyodide + "pyodide.mjs");
  await loadPyodide({indexURL: e.data.pyodide});
  postMessage({ms: performance.now() - t0});
};
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def build(dest: Path, base: str) -> None:
    env = dict(os.environ, SITE_URL=base, NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(dest)],
                   cwd=ROOT, env=env, check=True, timeout=900)
    bare = dest / "__bench__"
    bare.mkdir()
    (bare / "bare.html").write_text(
        BARE_HTML.replace("RUNTIME", pyodide_runtime.runtime_path()), encoding="utf-8")
    (bare / "bare-worker.mjs").write_text(BARE_WORKER, encoding="utf-8")


def _category(url: str) -> str:
    path = url.split("?", 1)[0].split("#", 1)[0]
    if "/assets/pyodide/" in path:
        return "pyodide_runtime"
    if path.endswith((".png", ".webp", ".jpg", ".jpeg", ".gif", ".svg", ".ico")):
        return "images"
    if path.endswith("search_index.json"):
        return "search_index"
    return "chapter"


def _median(xs: list[float]) -> float:
    return round(statistics.median(xs), 1) if xs else float("nan")


class Visit:
    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.sizes: dict[str, int] = {}
        self.errors: list[str] = []
        ctx.on("requestfinished", self._finished)

    def _finished(self, req: Any) -> None:
        try:
            resp = req.response()
            if resp is None:
                return
            s = req.sizes()
            n = int(s.get("responseBodySize", 0)) + int(s.get("responseHeadersSize", 0))
            cat = _category(req.url)
            self.sizes[cat] = self.sizes.get(cat, 0) + n
        except Exception as e:  # noqa: BLE001 - a page closing under a request: not a measurement
            self.errors.append(str(e))


def chapter_once(ctx: Any, base: str) -> dict[str, float]:
    page = ctx.new_page()
    page.goto(base + CHAPTER)
    page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=120_000)
    t = page.evaluate(f"""(() => {{
        const b = document.querySelector("{BOARD}");
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        return {{drawn: +b.getAttribute('data-drawn'), ready: +b.getAttribute('data-ready-at'),
                 fcp: fcp ? fcp.startTime : null,
                 engine_started: +b.getAttribute('data-engine-started-at'),
                 worker_boot: +b.getAttribute('data-engine-boot-ms')}};
    }})()""")
    page.close()
    return t


def bare_once(ctx: Any, base: str) -> dict[str, float]:
    page = ctx.new_page()
    page.goto(base + "__bench__/bare.html")
    page.wait_for_function("window.__bare !== undefined", timeout=120_000)
    t = page.evaluate("window.__bare")
    page.close()
    return t


def instant_revisit(ctx: Any, base: str) -> dict[str, Any]:
    """Ready time of the chapter's board when reached again by instant navigation (the
    worker is kept: no new Pyodide boot)."""
    page = ctx.new_page()
    page.goto(base + CHAPTER)
    page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=120_000)
    page.evaluate("window.__sameDocument = true")
    links = page.evaluate("Array.from(document.querySelectorAll('a')).map(a => a.href)")
    home = next((h for h in links if h.rstrip("/") == base.rstrip("/")), None)
    if home is None:
        page.close()
        return {"skipped": "no link to the home page"}
    page.locator(f"a[href='{home}']").first.click()
    page.wait_for_function(f"!document.querySelector(\"{BOARD}\")", timeout=20_000)
    t0 = time.perf_counter()
    page.locator(f"nav a[href$='/{CHAPTER}']").first.click()
    page.wait_for_selector(f"{BOARD}[data-engine='ready']", timeout=60_000)
    ms = (time.perf_counter() - t0) * 1000
    same = bool(page.evaluate("window.__sameDocument === true"))
    page.close()
    return {"ready_ms": round(ms, 1), "instant_navigation": same}


def run(repeats: int = 3) -> dict[str, Any]:
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
    out: dict[str, Any] = {"name": "browser", "repeats": repeats}
    try:
        with sync_playwright() as p:
            cold_ch: list[dict[str, float]] = []
            warm_ch: list[dict[str, float]] = []
            cold_bare: list[dict[str, float]] = []
            warm_bare: list[dict[str, float]] = []
            bytes_cold: dict[str, int] = {}
            revisit: dict[str, Any] = {}
            for i in range(repeats):
                for kind in ("bare", "chapter"):
                    profile = tmp / f"profile-{kind}-{i}"
                    ctx = p.chromium.launch_persistent_context(
                        str(profile), executable_path=str(CHROMIUM), args=ARGS,
                        viewport={"width": 1280, "height": 900})
                    try:
                        visit = Visit(ctx)
                        if kind == "bare":
                            cold_bare.append(bare_once(ctx, base))
                            warm_bare.append(bare_once(ctx, base))
                        else:
                            cold_ch.append(chapter_once(ctx, base))
                            if i == 0:
                                time.sleep(0.5)
                                bytes_cold = dict(visit.sizes)
                            warm_ch.append(chapter_once(ctx, base))
                            if i == 0:
                                revisit = instant_revisit(ctx, base)
                    finally:
                        ctx.close()
            own = bytes_cold.get("chapter", 0)

            def med(runs: list[dict[str, float]], key: str) -> float:
                return _median([r[key] for r in runs if r.get(key) is not None])

            ready = {"cold": med(cold_ch, "ready"), "warm": med(warm_ch, "ready")}
            bare = {"cold": med(cold_bare, "ready"), "warm": med(warm_bare, "ready")}
            ratio = {k: round(ready[k] / bare[k], 2) for k in ready}
            out.update({
                "board_visible_ms": {"cold": med(cold_ch, "drawn"), "warm": med(warm_ch, "drawn")},
                "first_contentful_paint_ms": {"cold": med(cold_ch, "fcp"),
                                              "warm": med(warm_ch, "fcp")},
                "chapter_ready_ms": ready,
                "bare_pyodide_ready_ms": bare,
                "ready_ratio_to_bare": ratio,
                "where_the_time_goes": {
                    "chapter_engine_started_ms": {"cold": med(cold_ch, "engine_started"),
                                                  "warm": med(warm_ch, "engine_started")},
                    "chapter_worker_boot_ms": {"cold": med(cold_ch, "worker_boot"),
                                               "warm": med(warm_ch, "worker_boot")},
                    "bare_worker_boot_ms": {"cold": med(cold_bare, "boot"),
                                            "warm": med(warm_bare, "boot")},
                },
                "instant_navigation_revisit": revisit,
                "bytes_cold": {
                    "by_kind": bytes_cold,
                    "total": sum(bytes_cold.values()),
                    "without_pyodide_runtime": sum(v for k, v in bytes_cold.items()
                                                   if k != "pyodide_runtime"),
                    "chapter_own": own,
                    "note": "as transferred by build_scripts.serve (gzip, like a real host)",
                },
                "raw_runs": {"cold_chapter": cold_ch, "warm_chapter": warm_ch,
                             "cold_bare": cold_bare, "warm_bare": warm_bare},
                "targets": {
                    "board_visible_under_300_ms": med(cold_ch, "drawn") < 300,
                    "ready_within_1_3x_bare": ratio["cold"] <= 1.3 and ratio["warm"] <= 1.3,
                    "chapter_own_bytes_under_250_KB": own < 250 * 1024,
                },
            })
    finally:
        server.shutdown()
        server.server_close()
        shutil.rmtree(tmp, ignore_errors=True)
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
