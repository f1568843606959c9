"""Every internal link of the built site resolves: each href, src and srcset of every page
points to a file of the site, and each #anchor to an element of the target page. No page
loads anything from another origin (links to other sites are allowed, resources are not)."""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from _built import built_site, pages

from build_scripts.htmlwalk import tokenize

LOCAL_HOSTS = {"127.0.0.1", "localhost"}
SKIP_SCHEMES = {"mailto", "javascript", "data", "blob", "tel"}
RESOURCE_ATTRS = {("img", "src"), ("img", "srcset"), ("source", "src"), ("source", "srcset"),
                  ("script", "src"), ("link", "href"), ("iframe", "src"), ("video", "src"),
                  ("audio", "src")}


@cache
def ids_of(path: Path) -> frozenset[str]:
    ids: set[str] = set()
    for t in tokenize(path.read_text(encoding="utf-8")):
        if t.kind == "start":
            for a in ("id", "name"):
                if t.attrs.get(a):
                    ids.add(t.attrs[a])
    return frozenset(ids)


def urls_of(path: Path) -> list[tuple[str, str, str]]:
    """(tag, attribute, url) of every link and resource of a page."""
    out = []
    for t in tokenize(path.read_text(encoding="utf-8")):
        if t.kind != "start":
            continue
        for attr in ("href", "src", "srcset"):
            value = t.attrs.get(attr)
            if value is None:
                continue
            if attr == "srcset":
                for part in value.split(","):
                    if part.strip():
                        out.append((t.name, attr, part.strip().split()[0]))
            else:
                out.append((t.name, attr, html.unescape(value)))
    return out


def resolve(site: Path, page: Path, url: str) -> tuple[Path | None, str, str]:
    """(file in the site or None, fragment, problem) for a URL found on ``page``."""
    page_url = "http://site/" + page.relative_to(site).as_posix()
    parts = urlsplit(url)
    if parts.scheme in SKIP_SCHEMES:
        return None, "", "skip"
    if parts.scheme in ("http", "https") and parts.hostname not in LOCAL_HOSTS:
        return None, "", "external"
    if parts.scheme in ("http", "https"):  # the site's own address (canonical links)
        target_path = parts.path
    else:
        target_path = urlsplit(urljoin(page_url, url)).path
    target = site / unquote(target_path).lstrip("/")
    if target_path.endswith("/") or target.is_dir():
        target = target / "index.html"
    if not target.exists():
        return None, parts.fragment, f"no file {target.relative_to(site)}"
    return target, unquote(parts.fragment), ""


def test_every_internal_link_and_anchor_resolves() -> None:
    site = built_site()
    broken: list[str] = []
    external_resources: list[str] = []
    checked = 0
    for page in pages(site):
        where = page.relative_to(site).as_posix()
        for tag, attr, url in urls_of(page):
            if not url or url.startswith("#") and len(url) == 1:
                continue
            target, fragment, problem = resolve(site, page, url)
            if problem == "skip":
                continue
            if problem == "external":
                if (tag, attr) in RESOURCE_ATTRS:
                    external_resources.append(f"{where}: <{tag} {attr}={url!r}>")
                continue
            checked += 1
            if problem:
                broken.append(f"{where}: <{tag} {attr}={url!r}>: {problem}")
                continue
            assert target is not None
            if fragment and target.suffix == ".html" and fragment not in ids_of(target):
                broken.append(f"{where}: <{tag} {attr}={url!r}>: no id {fragment!r} in "
                              f"{target.relative_to(site).as_posix()}")
    assert checked > 100, f"only {checked} internal links found: is the site complete?"
    assert not external_resources, "resources from other origins:\n" + "\n".join(
        external_resources)
    assert not broken, f"{len(broken)} broken link(s):\n" + "\n".join(broken)


def test_the_checker_sees_a_broken_anchor(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<p id="here"><a href="../b/#x">b</a></p>')
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text('<p id="y"></p>')
    target, fragment, problem = resolve(tmp_path, tmp_path / "a" / "index.html", "../b/#x")
    assert target == tmp_path / "b" / "index.html" and fragment == "x" and not problem
    assert fragment not in ids_of(target)
    assert resolve(tmp_path, tmp_path / "a" / "index.html", "../c/")[2] == "no file c/index.html"
    assert resolve(tmp_path, tmp_path / "a" / "index.html", "https://example.org/")[2] == \
        "external"


@pytest.mark.parametrize("page_name", ["glossary", "illustrations", "principles"])
def test_apparatus_pages_link_into_the_chapters(page_name: str) -> None:
    site = built_site()
    page = site / page_name / "index.html"
    targets = {resolve(site, page, url)[0] for tag, attr, url in urls_of(page) if tag == "a"}
    chapters = {site / slug / "index.html" for slug in ("la-nivernaise", "the-empress-of-india")}
    assert chapters <= targets
