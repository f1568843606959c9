"""How the test suite shares the cores (``make test`` runs ``pytest -n auto``, pytest-xdist):
the longest tests first, the tests that share a module's fixture on one worker, and, for the
browser tests, one site built and served for every worker.

- Order: the engine suite in Pyodide (one test of some fifteen minutes) starts first, then the
  accessibility pass of each page, then the rest in their usual order; a worker takes the next
  test when it is free, so the long ones never wait at the end of the run.
- Work units: the tests of a module go to one worker together, so that a fixture of module
  scope (a board, the run of the engine in Pyodide, a site built without scans) is made
  once; the chapter tests go by chapter, and the engine's and accessibility tests one by one.
- The site: under xdist the controller starts ``tests/browser/site_server.py``, which builds
  the site for its own address and serves it; the workers' ``site`` fixture waits for it
  (``CADOGAN_TEST_SERVER``, a file it writes when it serves). Without xdist the fixture builds
  and serves the site itself, as before.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVER_ENV = "CADOGAN_TEST_SERVER"

# Run first, longest first: the Pyodide engine suite, then each page's accessibility pass.
FIRST = ("tests/pyodide/", "tests/browser/test_accessibility.py::test_no_axe_violation")


def _rank(item: pytest.Item) -> int:
    for i, prefix in enumerate(FIRST):
        if item.nodeid.startswith(prefix):
            return i
    return len(FIRST)


# Tests that share a fixture of module scope run on one worker, by module (the default) or,
# here, per chapter; these modules' tests go one by one wherever a worker is free.
ONE_BY_ONE = ("tests/engine/", "tests/browser/test_accessibility.py")
PER_CHAPTER = "tests/browser/test_every_chapter.py"


def work_unit(nodeid: str) -> str:
    """What goes to one worker together with the test ``nodeid``: its module, its chapter's
    tests (in PER_CHAPTER), or the test alone (in ONE_BY_ONE)."""
    path, _, name = nodeid.partition("::")
    if path.startswith(ONE_BY_ONE):
        return nodeid
    if path == PER_CHAPTER and name.endswith("]"):
        from engine import GAMES

        param = name[name.index("[") + 1:-1]
        slug = max((s for s in GAMES if param == s or param.startswith(s + "-")),
                   key=len, default=param)
        return f"{path}::{slug}"
    return path


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the usual order within each rank


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``-n``, hand out work units (see ``work_unit``) in the order collected: a free
    worker takes the next one."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    class ByWorkUnit(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    config.option.loadscopereorder = False  # keep the order: the longest tests come first
    return ByWorkUnit(config, log)


def _runs_browser_tests(config: pytest.Config) -> bool:
    args = [a.split("::")[0] for a in config.args if not a.startswith("-")] or ["tests"]
    for a in args:
        p = (Path(config.invocation_params.dir) / a).resolve()
        if p in (ROOT, ROOT / "tests") or (ROOT / "tests" / "browser") in (p, *p.parents):
            return True
    return False


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or os.environ.get(SERVER_ENV):
        return  # a worker (it finds the server in its environment), or a server given
    if not config.getoption("numprocesses", default=None) or os.environ.get("CADOGAN_TEST_SITE"):
        return  # one process, or a site given: the site fixture serves it
    if not _runs_browser_tests(config):
        return
    ready = Path(tempfile.mkdtemp(prefix="cadogan-site-")) / "server.json"
    log = open(ready.with_name("server.log"), "w")  # noqa: SIM115 - closed at unconfigure
    proc = subprocess.Popen([sys.executable, "-m", "tests.browser.site_server",
                             "--ready", str(ready)], cwd=ROOT, stdout=log, stderr=log)
    os.environ[SERVER_ENV] = str(ready)  # the workers, started after this, inherit it
    config.stash[_SERVER] = (proc, log, ready.parent)


_SERVER = pytest.StashKey[tuple[Any, Any, Path]]()


def pytest_unconfigure(config: pytest.Config) -> None:
    started = config.stash.get(_SERVER, None)
    if started is None:
        return
    proc, log, folder = started
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()
    shutil.rmtree(folder, ignore_errors=True)
    os.environ.pop(SERVER_ENV, None)
