"""The odds sweep (build_scripts/odds.py): a Dask LocalCluster gives the same records as the
local process pool; an interrupted sweep resumes where it stopped and loses nothing; a larger
budget retries only the undecided deals; a change to a game's engine code makes its records
stale. Small sweeps only (a few deals, a small node budget)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from build_scripts import odds

GAMES = ["nestor", "the-fourteenth"]
NODES = 300


def records(data: Path, slug: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in odds.TIMING_FIELDS}
            for r in odds.read_records(odds.data_file(slug, data))]


def summary(data: Path) -> dict[str, Any]:
    """The summary less its one timing figure."""
    out: dict[str, Any] = json.loads((data / "summary.json").read_text())
    for game in out["games"].values():
        for reading in game["readings"].values():
            del reading["seconds_per_deal"]
    return out


def small_sweep(data: Path, runner: odds.Runner, **kw: Any) -> dict[str, int]:
    args: dict[str, Any] = dict(deals=3, alt_deals=1, nodes=NODES, seconds=None,
                                data=data, progress=False, today="2000-01-01")
    args.update(kw)
    return odds.sweep(GAMES, runner=runner, **args)


@pytest.fixture(scope="module")
def pool_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("pool")
    counts = small_sweep(data, odds.run_local(1))
    assert counts["failed"] == 0
    return data


def test_the_readings_come_from_the_options() -> None:
    rs = odds.readings("nestor")
    assert rs[0].options == ""
    assert {r.options for r in rs[1:]} == {
        "reserve_use:any-time", "reserve_shown:yes", "reserve_pairs:no"}
    assert all(r.note.startswith("note-ne-") and r.label for r in rs[1:])


def test_a_local_cluster_gives_the_same_records_as_the_pool(
        pool_data: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        counts = small_sweep(tmp_path, odds.run_dask(client))
    assert counts["failed"] == 0
    for slug in GAMES:
        assert records(tmp_path, slug) == records(pool_data, slug)
        assert len(records(tmp_path, slug)) == 3 + (len(odds.readings(slug)) - 1)
    assert summary(tmp_path) == summary(pool_data)


def interrupted(runner: odds.Runner, after: int) -> odds.Runner:
    """A runner stopped by Ctrl-C after ``after`` results."""

    def run(tasks: list[odds.Task], nodes: int, seconds: float | None) -> Iterator[Any]:
        for i, item in enumerate(runner(tasks, nodes, seconds)):
            if i == after:
                raise KeyboardInterrupt
            yield item

    return run


def test_an_interrupted_sweep_resumes_and_loses_nothing(pool_data: Path, tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        small_sweep(tmp_path, interrupted(odds.run_local(1), 4))
    kept = sum(len(records(tmp_path, s)) for s in GAMES)
    assert kept == 4
    # A line cut short by a hard kill is ignored and redone.
    with odds.data_file(GAMES[0], tmp_path).open("a") as f:
        f.write('{"options":"","deal":3,"perf')
    counts = small_sweep(tmp_path, odds.run_local(1))
    assert counts["already"] == 4 and counts["failed"] == 0
    for slug in GAMES:
        assert records(tmp_path, slug) == records(pool_data, slug)
    counts = small_sweep(tmp_path, odds.run_local(1))
    assert counts == {"already": counts["already"], "done": 0, "failed": 0}
    # More deals extend the files.
    counts = small_sweep(tmp_path, odds.run_local(1), deals=4)
    assert counts["done"] == len(GAMES)


def test_undecided_deals_are_retried_with_a_larger_budget_only() -> None:
    rec = {"options": "", "deal": 1, "perfect": "undecided", "nodes": 100, "engine": "h"}
    won = dict(rec, deal=2, perfect="won")
    assert odds.done_keys([rec, won], "h", 100) == {("", 1), ("", 2)}
    assert odds.done_keys([rec, won], "h", 1000) == {("", 2)}
    assert odds.done_keys([rec, won], "other", 100) == set()
    better = dict(rec, perfect="lost", nodes=1000)
    assert odds.select([rec, better], "h")[("", 1)] is better
    assert odds.select([better, rec], "h")[("", 1)] is better
    stale = dict(rec, engine="old", perfect="won")
    assert odds.select([rec, stale], "h")[("", 1)] is rec


def test_the_engine_hash_follows_the_games_code(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(odds.ENGINE, tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    mods = odds.engine_modules("nestor", tmp_path)
    assert {"__init__", "core", "cards", "nestor"} <= set(mods)
    assert "clock" not in mods
    before = {s: odds.engine_hash(s, tmp_path) for s in ("nestor", "the-clock")}
    with (tmp_path / "engine" / "nestor.py").open("a") as f:
        f.write("\n# changed\n")
    assert odds.engine_hash("nestor", tmp_path) != before["nestor"]
    assert odds.engine_hash("the-clock", tmp_path) == before["the-clock"]


def test_the_progress_bar_says_done_rate_and_time_left() -> None:
    import io

    out = io.StringIO()
    bar = odds.Progress(10, out, every=0.0)
    for _ in range(4):
        bar.step("nestor")
    line = bar.line()
    assert "4/10 deals" in line and "/s" in line and "left" in line
    assert out.getvalue().count("\n") == 4


def test_records_are_carried_over_to_new_engine_code_only_if_a_sample_agrees(
        pool_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    for f in pool_data.glob("*.jsonl"):
        shutil.copy(f, tmp_path / f.name)
    slug = GAMES[0]
    before = records(tmp_path, slug)
    old = before[0]["engine"]
    assert odds.adopt(slug, 2, tmp_path) == (False, "nothing to adopt")
    monkeypatch.setattr(odds, "engine_hash", lambda s, root=odds.ROOT: "0123456789ab")

    def wrong(*args: Any) -> Any:
        result, secs = odds.evaluate(*args)
        return dataclasses.replace(result, careful_moves=result.careful_moves + 1), secs

    ok, why = odds.adopt(slug, 2, tmp_path, evaluate_fn=wrong)
    assert not ok and "now" in why
    assert records(tmp_path, slug) == before
    ok, why = odds.adopt(slug, 2, tmp_path)
    assert ok, why
    after = odds.read_records(odds.data_file(slug, tmp_path))
    assert {r["engine"] for r in after} == {"0123456789ab"}
    assert {r["engine_was"] for r in after} == {old}
    assert odds.done_keys(after, "0123456789ab", NODES) == {(r["options"], r["deal"]) for r in after}
