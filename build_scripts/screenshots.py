"""Screenshots of every chapter's board, mid-game, at 1280 and 390 CSS pixels wide.

``python -m build_scripts.screenshots [--site site] [--out .cache/screenshots] [--moves 12]``
(``make screenshots``): serves the built site on a free port of 127.0.0.1, and for each game
of ``engine.GAMES`` plays a few legal moves of deal 1 with the engine (chosen by a fixed
random generator, so the same position each time), opens the chapter with that game's share
link, waits for the engine, and saves a PNG of the board at each width, plus one of the
whole window. Not a test: pictures for a reader to look at (``SLUG-1280.png``,
``SLUG-390.png``, ``SLUG-1280-window.png``, ``SLUG-390-window.png``). Needs Chromium at
``/usr/bin/chromium`` (or ``$CADOGAN_CHROMIUM``).
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import sys
from pathlib import Path
from typing import Any

import engine

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = {1280: 900, 390: 844}


def mid_game(slug: str, moves: int, seed: int = 1) -> engine.Game:
    """Deal 1 after up to ``moves`` legal moves chosen by a seeded generator (card moves
    preferred to actions, so the position shows play rather than only dealing)."""
    game = engine.new_game(slug, 1)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.outcome() is not None:
            break
        steps = [m for m in legal if m.steps]
        pool = steps if steps and rng.random() < 0.8 else legal
        game.play(rng.choice(pool))
    return game


def share_query(game: engine.Game) -> str:
    fields = [f for f in game.position(compact=True).split(";")
              if not f.endswith("=")]
    return "?" + "&".join(fields)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, default=ROOT / "site")
    ap.add_argument("--out", type=Path, default=ROOT / ".cache" / "screenshots")
    ap.add_argument("--moves", type=int, default=12)
    ap.add_argument("--only", nargs="*", default=None, help="slugs (default: every game)")
    ap.add_argument("--port", type=int, default=0)
    args = ap.parse_args(argv)
    if not (args.site / "index.html").exists():
        print(f"no built site at {args.site}: run `make build` first", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from build_scripts.serve import serve_in_thread

    args.out.mkdir(parents=True, exist_ok=True)
    server, base = serve_in_thread(args.site, port=args.port or _free_port())
    chromium = os.environ.get("CADOGAN_CHROMIUM", "/usr/bin/chromium")
    slugs = args.only or list(engine.GAMES)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium,
                                        args=["--headless", "--no-sandbox", "--disable-gpu"])
            for width, height in WIDTHS.items():
                ctx = browser.new_context(viewport={"width": width, "height": height},
                                          device_scale_factor=1)
                page = ctx.new_page()
                for n, slug in enumerate(slugs):
                    game = mid_game(slug, args.moves)
                    shot(page, base, slug, game, width, args.out, first=n == 0)
                ctx.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"screenshots in {args.out}")
    return 0


#: While the whole board is photographed, the sticky header and controls stay in place.
STILL = ".md-header, .cb-bar { position: static !important; }"


def shot(page: Any, base: str, slug: str, game: engine.Game, width: int, out: Path,
         first: bool = True) -> None:
    """Open the chapter at the game's share link (the first by loading the page, the others
    by Material's instant navigation, so the engine boots once per width), wait for the
    position, and photograph the board, then the window with the board at its top."""
    board = f".cadogan-board[data-game='{slug}']"
    url = base + f"{type(game).chapter()}/" + share_query(game)  # the page playing it
    if first:
        page.goto(url)
    else:
        page.evaluate("url => { history.pushState(null, '', url); location$.next(new URL(url)); }",
                      url)
    page.wait_for_selector(f"{board}[data-engine='ready']", timeout=180_000)
    page.wait_for_function(
        f"document.querySelector(\"{board}\").cadoganBoard.view.played === "
        f"{len(game.move_stack)}", timeout=30_000)
    style = page.add_style_tag(content=STILL)
    page.locator(board).screenshot(path=str(out / f"{slug}-{width}.png"))
    style.evaluate("e => e.remove()")
    page.evaluate(f"document.querySelector(\"{board}\").scrollIntoView({{block: 'start'}})")
    page.evaluate("window.scrollBy(0, -60)")
    page.screenshot(path=str(out / f"{slug}-{width}-window.png"))
    print(f"{slug} at {width}px: {len(game.move_stack)} moves played")


if __name__ == "__main__":
    raise SystemExit(main())
