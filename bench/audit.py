"""Lighthouse (npm ``lighthouse``, pinned in package.json) on the home page and every chapter,
mobile and desktop, against the built site served as a real host would serve it; prints the
four category scores of each page as JSON. ``make audit`` runs it (not part of ``make test``:
about 15 s a page and form factor on this machine).

    python bench/audit.py [--pages home,the-sultan] [--form mobile,desktop] [--runs 3]
                          [--without-board]

``--runs N``: the median of N audits of each page (one audit's performance score varies by
ten points here). ``--without-board``: each chapter audited again as the same page without
its board's scripts (the engine's start in the head and ``board.js``; the
board stays its static diagram), in a copy of the site, with the difference: what the board
itself costs a page, apart from the text and the theme around it. Performance also reports
its metrics (ms; CLS unitless) and the LCP element, as Lighthouse's selector.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from build_scripts import board_embed  # noqa: E402
from build_scripts.serve import precompress, serve_in_thread  # noqa: E402

import engine  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --no-first-run"


METRICS = {"first-contentful-paint": "fcp", "largest-contentful-paint": "lcp",
           "total-blocking-time": "tbt", "speed-index": "si", "cumulative-layout-shift": "cls"}


def lcp_element(report: dict[str, Any]) -> str:
    """The page's LCP element as Lighthouse names it (a CSS selector), or "" if none."""
    details = report["audits"].get("largest-contentful-paint-element", {}).get("details", {})
    for table in details.get("items", []):
        for row in table.get("items", []):
            node = row.get("node") if isinstance(row, dict) else None
            if isinstance(node, dict) and node.get("selector"):
                return str(node["selector"])
    return ""


def audit(url: str, form: str, out: Path) -> dict[str, Any]:
    cmd = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
           f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"]
    if form == "desktop":
        cmd.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=300)
    report = json.loads(out.read_text(encoding="utf-8"))
    scores: dict[str, Any] = {c: round(100 * (report["categories"][c]["score"] or 0))
                              for c in CATEGORIES}
    for key, name in METRICS.items():
        value = report["audits"].get(key, {}).get("numericValue")
        if value is not None:
            scores[name] = round(value, 3) if name == "cls" else round(value)
    scores["lcp_element"] = lcp_element(report)
    return scores


#: What a chapter page carries for its board's engine and scripts (board_embed.py writes
#: them): the head's script that starts the engine, and ``board.js``.
_HEAD_START = re.compile(re.escape("<script>" + board_embed._HEAD_SCRIPT.split("ROOT", 1)[0])
                         + r".*?</script>", re.S)
_BOARD_JS = re.compile(r'<script type="module" async src="[^"]*'
                       + re.escape(board_embed.BOARD_SCRIPT.rsplit("/", 1)[-1]) + r'"></script>')


def without_board(html: str) -> str:
    """A chapter page without its board's scripts: the same text, theme and diagram."""
    for pattern in (_HEAD_START, _BOARD_JS):
        html = pattern.sub("", html)
    return html


def copy_without_boards(src: Path, dst: Path) -> int:
    """Copy the built site ``src`` to ``dst`` with every page's board scripts removed; the
    number of pages changed."""
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("*.gz", "*.br"))
    changed = 0
    for page in dst.glob("**/index.html"):
        text = page.read_text(encoding="utf-8")
        stripped = without_board(text)
        if stripped != text:
            page.write_text(stripped, encoding="utf-8")
            changed += 1
    return changed


def median_audit(url: str, form: str, out: Path, runs: int) -> dict[str, Any]:
    """The median of each score and metric over `runs` audits; the LCP element the one
    named most often."""
    results = [audit(url, form, out) for _ in range(runs)]
    merged: dict[str, Any] = {k: statistics.median(r[k] for r in results)
                              for k in results[0] if k != "lcp_element"}
    merged["lcp_element"] = statistics.mode(r["lcp_element"] for r in results)
    return merged


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", default="", help="comma-separated: home and chapter slugs")
    ap.add_argument("--form", default="mobile,desktop")
    ap.add_argument("--site", default=str(ROOT / "site"))
    ap.add_argument("--runs", default=1, type=int, help="audits of each page (their median)")
    ap.add_argument("--without-board", action="store_true",
                    help="each chapter also without its board's scripts, and the difference")
    args = ap.parse_args()
    pages = args.pages.split(",") if args.pages else [  # every chapter page, once
        "home", *dict.fromkeys(cls.chapter() for cls in engine.GAMES.values())]
    root = Path(args.site)
    if not (root / "index.html").exists():
        raise SystemExit("build the site first (make build)")
    results: dict[str, dict[str, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sites = {"": root}
        if args.without_board:
            sites[" without board"] = Path(tmp) / "without-board"
            copy_without_boards(root, sites[" without board"])
        servers = []
        try:
            bases = {}
            for name, site in sites.items():
                precompress(site)
                server, bases[name] = serve_in_thread(site, port=0)
                servers.append(server)
            for page in pages:
                for name, base in bases.items():
                    if name and page == "home":
                        continue
                    url = base if page == "home" else f"{base}{page}/"
                    key = page + name
                    results[key] = {form: median_audit(url, form, Path(tmp) / "report.json",
                                                       args.runs)
                                    for form in args.form.split(",")}
                    print(json.dumps({key: results[key]}), file=sys.stderr)
        finally:
            for server in servers:
                server.shutdown()
                server.server_close()
    worst = {c: min(r[f][c] for k, r in results.items() for f in r if " " not in k)
             for c in CATEGORIES}
    out: dict[str, object] = {"lighthouse": results, "runs": args.runs, "worst": worst}
    if args.without_board:
        # with the board minus without: a lower score, or more ms, is what the board costs
        out["board_costs"] = {
            page: {form: {c: results[page][form][c] - results[page + " without board"][form][c]
                          for c in ("performance", *METRICS.values())}
                   for form in results[page]}
            for page in pages if page + " without board" in results}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
