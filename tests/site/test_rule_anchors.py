"""Every rule id the engine can cite, and every editorial note an option names, is an anchor
on the chapter page (in the Markdown source, and in the built page when it exists)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]


def rule_ids(slug: str) -> set[str]:
    """The rule ids a game's module defines (module-level string constants), anchors of its
    chapter's page."""
    module = sys.modules[engine.GAMES[slug].__module__]
    chapter = engine.GAMES[slug].chapter()
    return {v for v in vars(module).values() if isinstance(v, str)
            and v.startswith(chapter + "-") and v != chapter + "-"}


def page_of(slug: str) -> Path:
    """The Markdown source of the chapter that plays the game."""
    return ROOT / "docs" / f"{engine.GAMES[slug].chapter()}.md"


def page_ids(text: str) -> set[str]:
    ids = set(re.findall(r'\bid="([^"]+)"', text))
    ids |= set(re.findall(r"\{\s*#([\w-]+)", text))  # attr_list
    return ids


@pytest.mark.parametrize("slug", sorted(engine.GAMES))
def test_rule_ids_are_anchors_in_the_chapter_source(slug: str) -> None:
    ids = page_ids(page_of(slug).read_text(encoding="utf-8"))
    rules = rule_ids(slug)
    assert len(rules) >= 4
    assert rules <= ids, f"missing anchors: {sorted(rules - ids)}"


@pytest.mark.parametrize("slug", sorted(engine.GAMES))
def test_option_notes_are_anchors_with_a_control(slug: str) -> None:
    text = page_of(slug).read_text(encoding="utf-8")
    ids = page_ids(text)
    for d in engine.describe_options(engine.GAMES[slug].Options):
        assert d["note"] in ids, d
        assert f'data-game="{slug}" data-option="{d["name"]}"' in text, d["name"]


@pytest.mark.parametrize("slug", sorted(engine.GAMES))
def test_rule_ids_are_anchors_in_the_built_page(slug: str) -> None:
    built = ROOT / "site" / engine.GAMES[slug].chapter() / "index.html"
    if not built.exists():
        pytest.skip("site/ not built (make test builds it first)")
    ids = set(re.findall(r'\bid="([^"]+)"', built.read_text(encoding="utf-8")))
    missing = rule_ids(slug) - ids
    assert not missing, f"missing in built page: {sorted(missing)}"
