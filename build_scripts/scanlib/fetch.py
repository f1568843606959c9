"""Fetch the page scans listed in scans/manifest into scans/, verifying every sha256.

    python -m build_scripts.scanlib.fetch --source ../shared/scans
    python -m build_scripts.scanlib.fetch --source https://www.gutenberg.org/files/21642/21642-page-images/

`--source` is a folder (relative paths are taken from the repository root) or a URL. A folder
that does not exist means "download from the manifest's source URL". Files already present with
the right checksum are left alone. A file whose checksum does not match is refused (not
written). Exit status: 0 when every listed scan is in place, 1 otherwise, with a message saying
what to do. The build goes on without scans either way.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from . import MANIFEST_PATH, REPO_ROOT, scans_dir
from .manifest import Manifest, ManifestError, PageEntry, load

USER_AGENT = "cadogan-edition-scan-fetch/1 (+https://www.gutenberg.org/ebooks/21642)"
HINT = ("Get the scans with `make scans` (copies them from ../shared/scans) or "
        "`make scans SCANS_SOURCE=/path/to/folder`; without them the site shows the drawn "
        "diagrams only.")


class ChecksumError(RuntimeError):
    """A fetched file does not match the manifest."""


@dataclass
class FetchResult:
    present: list[str] = field(default_factory=list)  # already in place and verified
    fetched: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # name -> reason

    @property
    def ok(self) -> bool:
        return not self.failed


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://", "file://"))


def verified(path: Path, entry: PageEntry) -> bool:
    return path.is_file() and sha256_file(path) == entry.sha256


def _install(data: bytes, entry: PageEntry, dest: Path, origin: str) -> None:
    """Write `data` to dest/entry.file atomically, only if its checksum matches."""
    got = sha256_bytes(data)
    if got != entry.sha256:
        raise ChecksumError(f"{entry.file} from {origin}: sha256 {got} does not match the "
                            f"manifest's {entry.sha256}; refused")
    dest.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest, prefix=f".{entry.file}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, dest / entry.file)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def read_from_folder(folder: Path, entry: PageEntry) -> bytes:
    path = folder / entry.file
    if not path.is_file():
        raise FileNotFoundError(f"{entry.file}: not in {folder}")
    return path.read_bytes()


def read_from_url(base: str, entry: PageEntry, timeout: float = 20.0) -> bytes:
    url = base.rstrip("/") + "/" + entry.file
    req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            data: bytes = resp.read()
            return data
    except (urllib.error.URLError, OSError) as exc:
        raise ConnectionError(f"{entry.file}: could not download {url}: {exc}") from exc


def resolve_source(source: str, manifest: Manifest) -> tuple[str, str]:
    """("folder", path) or ("url", base). A missing folder falls back to the manifest URL."""
    if is_url(source):
        return "url", source
    folder = Path(source)
    if not folder.is_absolute():
        folder = REPO_ROOT / folder
    if folder.is_dir():
        return "folder", str(folder)
    return "url", manifest.source_url


def fetch(manifest: Manifest, source: str, dest: Path | None = None) -> FetchResult:
    """Put every listed scan in `dest` (default: `scans_dir()`), verified."""
    dest = scans_dir() if dest is None else dest
    kind, where = resolve_source(source, manifest)
    result = FetchResult()
    network_down = ""
    for entry in manifest.pages:
        target = dest / entry.file
        if verified(target, entry):
            result.present.append(entry.file)
            continue
        if network_down:
            result.failed[entry.file] = network_down
            continue
        try:
            if kind == "folder":
                data = read_from_folder(Path(where), entry)
            else:
                data = read_from_url(where, entry)
            _install(data, entry, dest, where)
            result.fetched.append(entry.file)
        except ConnectionError as exc:
            network_down = "not tried after the first download failed"
            result.failed[entry.file] = str(exc)
        except (ChecksumError, OSError) as exc:
            result.failed[entry.file] = str(exc)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--source", default="../shared/scans",
                        help="folder holding the scans, or base URL (default: ../shared/scans)")
    parser.add_argument("--dest", default=str(scans_dir()),
                        help="where to put them (scans/, or $CADOGAN_SCANS_DIR)")
    parser.add_argument("--manifest", default=str(MANIFEST_PATH))
    args = parser.parse_args(argv)
    try:
        manifest = load(Path(args.manifest))
    except (OSError, ManifestError) as exc:
        print(f"scans: cannot read the manifest: {exc}", file=sys.stderr)
        return 1
    kind, where = resolve_source(args.source, manifest)
    if kind == "url" and not is_url(args.source):
        print(f"scans: no folder {args.source}; downloading from {where}", file=sys.stderr)
    result = fetch(manifest, args.source, Path(args.dest))
    print(f"scans: {len(result.present)} already present, {len(result.fetched)} fetched from "
          f"{where}, {len(result.failed)} failed")
    if not result.ok:
        shown = 0
        for name, reason in result.failed.items():
            if shown < 5 and not reason.startswith("not tried"):
                print(f"scans: FAILED {name}: {reason}", file=sys.stderr)
                shown += 1
        skipped = [n for n, r in result.failed.items() if r.startswith("not tried")]
        if skipped:
            print(f"scans: {len(skipped)} more not tried after the first download failed",
                  file=sys.stderr)
        print(f"scans: {HINT}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
