"""build_scripts/serve.py: MIME types, gzip, caching headers."""

from __future__ import annotations

import gzip
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from build_scripts.serve import serve_in_thread


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    (tmp_path / "index.html").write_text("<!doctype html><p>home</p>" * 50)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text("<p>page a</p>" * 50)
    (tmp_path / "m.mjs").write_text("export const x = 1;\n" * 50)
    (tmp_path / "w.wasm").write_bytes(b"\0asm\1\0\0\0" + b"\0" * 4000)
    v = tmp_path / "assets" / "pyodide" / "v1.0"
    v.mkdir(parents=True)
    (v / "pyodide.mjs").write_text("export {};\n")
    (tmp_path / "assets" / "engine").mkdir()
    (tmp_path / "assets" / "engine" / "empress-0123456789ab.zip").write_bytes(b"PK\5\6" + b"\0" * 18)
    (tmp_path / "p.webp").write_bytes(b"RIFF....WEBP")
    (tmp_path / "assets" / "stylesheets" / "bundle").mkdir(parents=True)
    (tmp_path / "assets" / "stylesheets" / "bundle" / "edition-0123456789ab.css").write_text(
        "a { color: red; }\n")
    (tmp_path / "assets" / "stylesheets" / "edition.css").write_text("a { color: red; }\n")
    server, base = serve_in_thread(tmp_path)
    yield tmp_path, base
    server.shutdown()
    server.server_close()


def get(url: str, gz: bool = True) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gz else {})
    with urllib.request.urlopen(req) as r:
        return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()


def test_mime_types_and_gzip(served: tuple[Path, str]) -> None:
    root, base = served
    _, h, body = get(base + "w.wasm")
    assert h["content-type"] == "application/wasm" and h["content-encoding"] == "gzip"
    assert gzip.decompress(body) == (root / "w.wasm").read_bytes()
    _, h, body = get(base + "m.mjs")
    assert h["content-type"] == "text/javascript"
    assert gzip.decompress(body) == (root / "m.mjs").read_bytes()
    _, h, body = get(base + "a/")
    assert h["content-type"] == "text/html" and gzip.decompress(body).startswith(b"<p>page a")
    _, h, body = get(base + "p.webp")
    assert h["content-type"] == "image/webp" and "content-encoding" not in h
    _, h, body = get(base + "m.mjs", gz=False)
    assert "content-encoding" not in h and body == (root / "m.mjs").read_bytes()


def test_cache_headers(served: tuple[Path, str]) -> None:
    _, base = served
    _, h, _ = get(base + "assets/pyodide/v1.0/pyodide.mjs")
    assert "immutable" in h["cache-control"]
    _, h, _ = get(base + "assets/engine/empress-0123456789ab.zip")
    assert "immutable" in h["cache-control"] and "content-encoding" not in h
    _, h, _ = get(base + "assets/stylesheets/bundle/edition-0123456789ab.css")
    assert "immutable" in h["cache-control"]  # the joined stylesheet: content-named
    _, h, _ = get(base + "assets/stylesheets/edition.css")
    assert h["cache-control"] == "no-cache"
    _, h, _ = get(base + "a/")
    assert h["cache-control"] == "no-cache"


def test_missing_file_is_404(served: tuple[Path, str]) -> None:
    _, base = served
    with pytest.raises(urllib.error.HTTPError) as e:
        get(base + "nope.js")
    assert e.value.code == 404
