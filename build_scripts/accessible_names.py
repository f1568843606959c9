"""Build hook: accessible names that mkdocs-material's own markup lacks.

Material's search overlay is ``<div class="md-search" data-md-component="search"
role="dialog">`` with no name, which axe-core reports (``aria-dialog-name``) and a screen
reader announces as a bare "dialog". The theme offers no setting for it, and overriding its
``partials/search.html`` would copy the theme's template into the project; this hook adds the
one attribute to the built page instead.
"""

from __future__ import annotations

from typing import Any

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
NAMED = ('<div class="md-search" data-md-component="search" role="dialog" '
         'aria-label="Search the edition">')


def name_search_dialog(output: str) -> str:
    return output.replace(SEARCH_DIALOG, NAMED)


def on_post_page(output: str, page: Any, config: Any) -> str:
    return name_search_dialog(output)
