"""Serve the built site on the loopback interface, with the right MIME types.

``python -m build_scripts.serve --root site --host 127.0.0.1 --port 8000``

A static file server (Python's ``http.server``) that serves ``.wasm`` as
``application/wasm`` (Pyodide hangs on anything else), ``.mjs`` as JavaScript, compresses
text and wasm with gzip when the browser accepts it (as any real host does; ``--no-gzip``
to turn it off), lets versioned files be cached for ever, and logs only errors. ``--port 0`` picks a free port; the first line printed says the address.
Used by ``make serve``, the browser tests and the benchmark.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import io
import os
import sys
import threading
from pathlib import Path
from typing import Any

from build_scripts import stylesheets

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

#: Versioned (Pyodide) or content-named (our runtime, engine archives, stylesheet) files:
#: the paths that contain one of these are cached for good.
IMMUTABLE_PREFIXES = ("/assets/pyodide/v", "/assets/engine/", f"/{stylesheets.FOLDER}/")
#: Worth compressing (zip, webp, png are compressed already).
COMPRESSIBLE = (".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".xml", ".txt", "/")

_gzip_cache: dict[tuple[str, float, int], bytes] = {}
_gzip_lock = threading.Lock()


def _gzipped(path: str) -> bytes:
    st = os.stat(path)
    key = (path, st.st_mtime, st.st_size)
    with _gzip_lock:
        hit = _gzip_cache.get(key)
    if hit is None:
        with open(path, "rb") as f:
            hit = gzip.compress(f.read(), compresslevel=6, mtime=0)
        with _gzip_lock:
            _gzip_cache[key] = hit
    return hit


def precompress(root: Path, min_size: int = 64 * 1024) -> int:
    """Compress the large compressible files ahead of the first request (the 9.6 MB wasm
    takes a second); returns how many were done."""
    n = 0
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.name.endswith(COMPRESSIBLE) and (
                path.stat().st_size >= min_size):
            _gzipped(str(path))
            n += 1
    return n


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    use_gzip = True

    def send_head(self):  # type: ignore[no-untyped-def]
        """As the standard handler, but a compressible file goes out gzipped when the
        browser accepts it."""
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.use_gzip and accepts and url_path.endswith(COMPRESSIBLE)):
            return super().send_head()
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not url_path.endswith("/"):
                return super().send_head()  # the standard redirect to the slash
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            return super().send_head()
        st = os.stat(path)
        ims = self.headers.get("If-Modified-Since")
        if ims:
            try:
                since = email.utils.parsedate_to_datetime(ims).timestamp()
                if int(st.st_mtime) <= since:
                    self.send_response(304)
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return None
            except (TypeError, ValueError, OverflowError):
                pass
        body = _gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Last-Modified", self.date_time_string(int(st.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def log_error(self, format: str, *args: Any) -> None:
        if getattr(self, "path", "") == "/favicon.ico":
            return  # browsers ask for it on their own; the site names its icon
        sys.stderr.write(f"serve: {format % args} ({getattr(self, 'path', '?')})\n")

    def end_headers(self) -> None:
        # Versioned or content-hashed files never change under their name: cache for ever,
        # as a real host should. Everything else is revalidated, so a rebuild is seen at once.
        path = self.path.split("?", 1)[0]
        # (anywhere in the path: a site may be served below a folder of the host)
        if any(prefix in path for prefix in IMMUTABLE_PREFIXES):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        err = sys.exc_info()[1]
        if isinstance(err, (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
            return  # the browser went away mid-answer (a page closed): not worth a word
        super().handle_error(request, client_address)


def make_server(root: Path, host: str = "127.0.0.1", port: int = 0,
                use_gzip: bool = True) -> Server:
    if not root.is_dir():
        raise SystemExit(f"serve: {root} is not a built site (run `make build` first)")
    handler = type("SiteHandler", (Handler,), {"use_gzip": use_gzip})
    return Server((host, port), functools.partial(handler, directory=str(root)))


def serve_in_thread(root: Path, host: str = "127.0.0.1", port: int = 0,
                    use_gzip: bool = True) -> tuple[Server, str]:
    """Start a server in a daemon thread; returns it and its base URL (with a final slash)."""
    server = make_server(root, host, port, use_gzip)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    h, p = server.server_address[:2]
    return server, f"http://{h!s}:{p}/"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="site", type=Path)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", default=8000, type=int)
    ap.add_argument("--no-gzip", action="store_true", help="send files uncompressed")
    args = ap.parse_args(argv)
    if not args.root.is_dir():
        print(f"serve: {args.root} does not exist: run `make build` first", file=sys.stderr)
        return 2
    server = make_server(args.root, args.host, args.port, not args.no_gzip)
    if not args.no_gzip:
        threading.Thread(target=precompress, args=(args.root,), daemon=True).start()
    h, p = server.server_address[:2]
    print(f"Serving {args.root} at http://{h!s}:{p}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
