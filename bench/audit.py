"""Lighthouse (npm ``lighthouse``, pinned in package.json) on the home page and every chapter,
mobile and desktop, against the built site served as a real host would serve it; prints the
four category scores of each page as JSON. ``make audit`` runs it (not part of ``make test``:
about 15 s a page and form factor on this machine).

    python bench/audit.py [--pages home,the-sultan] [--form mobile,desktop]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from build_scripts.serve import precompress, serve_in_thread  # noqa: E402

import engine  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --no-first-run"


def audit(url: str, form: str, out: Path) -> dict[str, int]:
    cmd = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
           f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"]
    if form == "desktop":
        cmd.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=300)
    report = json.loads(out.read_text(encoding="utf-8"))
    return {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", default="", help="comma-separated: home and chapter slugs")
    ap.add_argument("--form", default="mobile,desktop")
    ap.add_argument("--site", default=str(ROOT / "site"))
    args = ap.parse_args()
    pages = args.pages.split(",") if args.pages else [  # every chapter page, once
        "home", *dict.fromkeys(cls.chapter() for cls in engine.GAMES.values())]
    root = Path(args.site)
    if not (root / "index.html").exists():
        raise SystemExit("build the site first (make build)")
    precompress(root)
    server, base = serve_in_thread(root, port=0)
    results: dict[str, dict[str, dict[str, int]]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for page in pages:
                url = base if page == "home" else f"{base}{page}/"
                results[page] = {}
                for form in args.form.split(","):
                    results[page][form] = audit(url, form, Path(tmp) / "report.json")
                print(json.dumps({page: results[page]}), file=sys.stderr)
    finally:
        server.shutdown()
        server.server_close()
    worst = {c: min(r[f][c] for r in results.values() for f in r) for c in CATEGORIES}
    print(json.dumps({"lighthouse": results, "worst": worst}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
