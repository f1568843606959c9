"""mkdocs hook: one stylesheet for the edition's own styles.

The files listed in ``extra_css`` (edition, board, facsimile, apparatus, print, access, odds)
are joined, in their order, into ``assets/stylesheets/bundle/edition-HASH.css``, and the pages
link that one file instead of seven: every stylesheet in the head blocks the first paint, and on
a phone's connection each costs a round trip (issue 9: Lighthouse counted about 0.9 s for them).
The name carries a hash of the content, so a host may cache the file for good
(``serve.py`` does). The sources stay separate files in ``docs/``, each about one concern, and
are copied to the site as before (nothing links them).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

FOLDER = "assets/stylesheets/bundle"

_bundle: dict[str, Any] = {}


def bundle_text(docs_dir: Path, sources: list[str]) -> str:
    """The sources' text, each under a comment naming its file, in the given order."""
    parts = []
    for src in sources:
        text = (docs_dir / src).read_text(encoding="utf-8")
        if "@import" in text:
            raise ValueError(f"{src}: @import is not allowed in a joined stylesheet")
        parts.append(f"/* ---- {src} ---- */\n{text.rstrip()}\n")
    return "\n".join(parts)


def on_config(config: Any) -> Any:
    sources = [str(s) for s in config.extra_css]
    if _bundle and sources == [_bundle["name"]]:  # a config built once already (serve)
        sources = _bundle["sources"]
    if not sources:
        return config
    text = bundle_text(Path(config.docs_dir), sources)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    name = f"{FOLDER}/edition-{digest}.css"
    _bundle.update(name=name, text=text, sources=sources)
    config.extra_css = [name]
    return config


def on_post_build(config: Any) -> None:
    if not _bundle:
        return
    out = Path(config.site_dir) / _bundle["name"]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(_bundle["text"], encoding="utf-8")
