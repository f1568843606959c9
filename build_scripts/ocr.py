"""First-draft transcription of printed pages with Tesseract (Debian's ``tesseract-ocr``).

Not a build step: the draft is only where proofreading starts. Every word, mark and line of a
chapter is then read against the page image at full size, and collated with the Gutenberg
text; the print decides every difference (see the editorial principles, "How the text was
established"). Usage::

    python -m build_scripts.ocr 7 9 11          # printed pages; drafts to .cache/ocr/
    python -m build_scripts.ocr --print 7       # and show the draft

Pages are read from ``scans/pNNN.png`` (``CADOGAN_SCANS_DIR`` overrides), or from
``../shared/scans`` when the page is not in ``scans/`` yet.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".cache" / "ocr"


def page_image(page: int) -> Path:
    name = f"p{page:03d}.png"
    for folder in (Path(os.environ.get("CADOGAN_SCANS_DIR", ROOT / "scans")),
                   ROOT.parent / "shared" / "scans", Path("/work/shared/scans")):
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(f"no scan of printed page {page} ({name})")


def draft(page: int) -> str:
    """Tesseract's reading of one page, as a uniform block of text (``--psm 6``)."""
    if shutil.which("tesseract") is None:
        raise RuntimeError("tesseract is not installed (apt-get install tesseract-ocr)")
    done = subprocess.run(["tesseract", str(page_image(page)), "-", "--psm", "6"],
                          capture_output=True, text=True, check=True)
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", type=int, nargs="+", help="printed page numbers")
    ap.add_argument("--print", action="store_true", help="also print each draft")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    for page in args.pages:
        text = draft(page)
        target = OUT / f"p{page:03d}.txt"
        target.write_text(text, encoding="utf-8")
        print(f"p{page:03d}: {len(text.split())} words -> {target.relative_to(ROOT)}")
        if args.print:
            sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
