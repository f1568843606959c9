"""Fixtures for the browser tests: the built site served on 127.0.0.1, one headless Chromium.

The site is built once per session into a temporary folder, with ``SITE_URL`` set to the
test server's address (so Material's instant navigation is on, as in production), unless
``CADOGAN_TEST_SITE`` names an already built site (built with ``SITE_URL`` set to
``http://127.0.0.1:$CADOGAN_TEST_PORT/``, the port it is then served at), or unless the
tests run on several workers: then one server serves one build for all of them (see
``tests/conftest.py``). Each test's browser context records
every request that is not for 127.0.0.1 (and aborts it) and every console error; a test
fails if there was any.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CADOGAN_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def build_site(dest: Path, site_url: str) -> None:
    env = dict(os.environ, SITE_URL=site_url, NO_MKDOCS_2_WARNING="1")
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(dest)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    if r.returncode != 0:
        raise RuntimeError(f"mkdocs build failed:\n{r.stdout}\n{r.stderr}")


@pytest.fixture(scope="session")
def chromium() -> Path:
    if not CHROMIUM.exists():
        msg = (f"\n{'!' * 70}\nBROWSER TESTS SKIPPED: {CHROMIUM} is not installed "
               "(apt-get install chromium).\n" + "!" * 70)
        print(msg, file=sys.stderr)
        warnings.warn(msg, stacklevel=1)
        if os.environ.get("CI"):  # .ci/run installs Chromium: its absence there is a failure
            pytest.fail(f"no Chromium at {CHROMIUM} in CI")
        pytest.skip(f"BROWSER TESTS SKIPPED: no Chromium at {CHROMIUM}")
    return CHROMIUM


def _wait_for_server(ready: Path, timeout: float = 1200.0) -> str:
    """The address of the site the controller's server builds, once it serves it."""
    deadline = time.monotonic() + timeout
    while not ready.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"the test site was not served within {timeout:.0f} s ({ready})")
        time.sleep(0.5)
    said = json.loads(ready.read_text())
    if "error" in said:
        pytest.fail(f"the test site could not be built:\n{said['error']}")
    return str(said["url"])


@pytest.fixture(scope="session")
def site(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL (ending in /) of the built site, served on 127.0.0.1."""
    from build_scripts.serve import precompress, serve_in_thread

    served = os.environ.get("CADOGAN_TEST_SERVER")
    if served:  # one site for every worker, built and served by tests/browser/site_server.py
        yield _wait_for_server(Path(served))
        return
    # A site given in CADOGAN_TEST_SITE keeps Material's instant navigation only when it was
    # built for the address it is served at: CADOGAN_TEST_PORT names that port.
    port = int(os.environ.get("CADOGAN_TEST_PORT") or 0) or _free_port()
    base = f"http://127.0.0.1:{port}/"
    given = os.environ.get("CADOGAN_TEST_SITE")
    if given:
        root = Path(given)
    else:
        root = tmp_path_factory.mktemp("site")
        build_site(root, base)
    server, url = serve_in_thread(root, port=port)
    precompress(root)
    assert url == base
    yield base
    server.shutdown()
    server.server_close()
    if not given:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def browser(chromium: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        yield b
        b.close()


@dataclass
class Watch:
    """What a context did that a test must not see."""

    off_origin: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def check(self) -> None:
        assert not self.off_origin, f"requests left the site's origin: {self.off_origin}"
        assert not self.console_errors, f"console errors: {self.console_errors}"


def open_context(browser: Any, watch: Watch, **kw: Any) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, **kw)

    def route(r: Any) -> None:
        url = r.request.url
        watch.requests.append(url)
        if url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            r.continue_()
        else:
            watch.off_origin.append(url)
            r.abort()

    ctx.route("**/*", route)

    def console(msg: Any) -> None:
        text = msg.text
        if msg.type == "error" or "wasm instantiation failed" in text.lower():
            watch.console_errors.append(text)

    def on_page(page: Any) -> None:
        page.on("console", console)
        page.on("pageerror", lambda e: watch.console_errors.append(f"page error: {e}"))
        page.on("worker", lambda w: w.on("console", console))

    ctx.on("page", on_page)
    return ctx


@pytest.fixture
def watch() -> Watch:
    return Watch()


@pytest.fixture
def context(browser: Any, watch: Watch) -> Iterator[Any]:
    ctx = open_context(browser, watch)
    yield ctx
    ctx.close()
    watch.check()


#: Resolves to true at the page's next frame, or to false if none comes within `ms`.
NEXT_FRAME = """(ms) => new Promise((done) => {
  requestAnimationFrame(() => done(true)); setTimeout(() => done(false), ms); })"""

#: How often a test may find its page no longer drawing before that is a failure.
STALLS_ALLOWED = 2


def wait_drawn(page: Any, board: str, timeout: int = 10_000) -> None:
    """Wait until the table of the board `board` (a selector) is drawn in full: a large
    table is drawn over a few frames, and only then is every card of it in the page."""
    page.wait_for_selector(f"{board} .cb-table[data-complete='1']", timeout=timeout)


def drawing(page: Any, ms: int = 2_000) -> bool:
    """Whether the page still produces frames: two in a row, each within `ms`."""
    return bool(page.evaluate(NEXT_FRAME, ms) and page.evaluate(NEXT_FRAME, ms))


def reload_if_stalled(page: Any, ready: str, again: Callable[[], None] | None = None) -> None:
    """See that `page` still draws; if it stopped, reload it (its game is in its save), wait
    for `ready`, run `again` (to redo what the test did before the check), and look again.

    Headless Chromium (--disable-gpu, on a machine kept busy by other work) sometimes stops
    producing frames for good on a freshly loaded page, at the first scroll of its table
    or the drag that follows: ``requestAnimationFrame`` never fires again while timers and
    the engine still run, a screenshot or a viewport change does not revive it, each
    Playwright mouse step then waits 5 s and every wait that polls by frame times out. A
    reload ends it. Seen locally in 6 of about 290 fresh pages scrolled and then dragged at
    once, with the engine's test suite in Pyodide running beside them; in none of 150 when
    the script first waited for two frames after the scroll, as this check does: so the
    check seems also to keep the stall away. Each reload is reported as a warning, in the
    run's summary; a page that stalls more than `STALLS_ALLOWED` times fails the test.
    """
    for stall in range(STALLS_ALLOWED + 1):
        if drawing(page):
            return
        if stall == STALLS_ALLOWED:
            break
        warnings.warn(f"{page.url}: headless Chromium stopped drawing the page (no frame in"
                      " 2 s); reloaded it", stacklevel=2)
        page.reload()
        page.wait_for_selector(ready, timeout=90_000)
        if again is not None:
            again()
    pytest.fail(f"{page.url} stopped drawing {STALLS_ALLOWED + 1} times")


def scroll_in(page: Any, css: str, ready: str, block: str = "start") -> None:
    """Scroll the element `css` into view (at `block`), then see that the page still draws
    (reload_if_stalled, scrolling it in again after a reload: `ready` says the page is
    back). Scrolling a fresh page and giving it input at once is what stalled it."""
    def scroll() -> None:
        page.evaluate("([css, block]) => document.querySelector(css).scrollIntoView({block})",
                      [css, block])

    scroll()
    reload_if_stalled(page, ready, scroll)
