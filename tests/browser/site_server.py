"""The site for the browser tests when they run on several workers (see tests/conftest.py):
build it once, for its own address on 127.0.0.1, serve it as the site fixture would, and say
so in the file named by ``--ready`` (JSON: ``{"url": ...}``, or ``{"error": ...}`` when the
build failed). Runs until terminated; then removes the built site.

    python -m tests.browser.site_server --ready FILE
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from types import FrameType

from build_scripts.serve import make_server, precompress
from tests.browser.conftest import build_site


def _say(ready: Path, what: dict[str, str]) -> None:
    part = ready.with_suffix(".part")
    part.write_text(json.dumps(what))
    part.replace(ready)  # whole or not at all: the workers poll for it


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ready", required=True, type=Path)
    args = ap.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="cadogan-test-site-"))
    server = make_server(root, port=0)  # bound first: the site is built for its address
    host, port = server.server_address[:2]
    url = f"http://{host!s}:{port}/"

    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        try:
            build_site(root, url)
        except Exception as e:  # noqa: BLE001 - said to the workers, who fail with it
            _say(args.ready, {"error": str(e)[-8000:]})
            signal.pause()
            return 1
        precompress(root)
        _say(args.ready, {"url": url})
        print(f"serving {root} at {url}", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
