"""Serve the built site on the loopback interface, with the right MIME types.

``python -m build_scripts.serve --root site --host 127.0.0.1 --port 8000``

A static file server (Python's ``http.server``) that serves ``.wasm`` as
``application/wasm`` (Pyodide hangs on anything else), ``.mjs`` as JavaScript, and logs
only errors. ``--port 0`` picks a free port; the first line printed says the address.
Used by ``make serve``, the browser tests and the benchmark.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path
from typing import Any

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webp": "image/webp",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
    ".css": "text/css",
    ".html": "text/html",
    ".woff2": "font/woff2",
}

IMMUTABLE_PREFIXES = ("/assets/pyodide/v", "/assets/engine/engine-")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002
        sys.stderr.write(f"serve: {format % args} ({getattr(self, 'path', '?')})\n")

    def end_headers(self) -> None:
        # Versioned or content-hashed files never change under their name: cache for ever,
        # as a real host should. Everything else is revalidated, so a rebuild is seen at once.
        path = self.path.split("?", 1)[0]
        if path.startswith(IMMUTABLE_PREFIXES) or "/assets/pyodide/v" in path or (
                "/assets/engine/engine-" in path):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def make_server(root: Path, host: str = "127.0.0.1", port: int = 0) -> Server:
    if not (root / "index.html").is_file() and not root.is_dir():
        raise SystemExit(f"serve: {root} is not a built site (run `make build` first)")
    return Server((host, port), functools.partial(Handler, directory=str(root)))


def serve_in_thread(root: Path, host: str = "127.0.0.1", port: int = 0) -> tuple[Server, str]:
    """Start a server in a daemon thread; returns it and its base URL (with a final slash)."""
    server = make_server(root, host, port)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    h, p = server.server_address[:2]
    return server, f"http://{h}:{p}/"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="site", type=Path)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", default=8000, type=int)
    args = ap.parse_args(argv)
    if not args.root.is_dir():
        print(f"serve: {args.root} does not exist: run `make build` first", file=sys.stderr)
        return 2
    server = make_server(args.root, args.host, args.port)
    h, p = server.server_address[:2]
    print(f"Serving {args.root} at http://{h}:{p}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
