"""The odds of every reading (``make odds``; not a build hook, and not part of ``make test``).

For each game, the default reading and each option value changed alone, deals 1..N: the
perfect-information solver's verdict (won, lost, or undecided within the budget) and whether
the careful no-peek player wins, from ``engine.solver.evaluate_deal``. One JSON line per deal
is appended to ``docs/data/odds/SLUG.jsonl`` as soon as it is computed (flushed), so an
interrupted sweep loses nothing, and a rerun skips what is done: a deal already decided, or
left undecided with at least the node budget now asked for, by the same engine code. At the
end of a run each file it touched is rewritten sorted (one line per reading and deal), and
``docs/data/odds/summary.json`` is made from every file: per game and reading, the deals, the
solver's won/lost/undecided counts, the careful player's wins, Wilson 95% intervals, the
budgets, the engine's content hash and the date. A deal the careful player wins counts as one that can be won even where the solver's budget
ran out (that player’s line is a winning one). The build renders that summary
(``build_scripts/odds_pages.py``); it never runs the solver.

    python -m build_scripts.odds                       # the whole default sweep
    python -m build_scripts.odds --games the-clock,nestor --deals 100 --alt-deals 20
    python -m build_scripts.odds --scheduler tcp://host:8786   # on a Dask cluster
    python -m build_scripts.odds --adopt 5             # after an engine change: keep a
                                                       # game's records if 5 of them agree
    python -m build_scripts.odds --summary-only        # remake summary.json from the data
                                                       # (safe while a sweep runs)

Work runs on a local process pool (``--workers``, default the machine's cores), with a
progress bar on stderr; ``--scheduler ADDRESS`` sends it to an existing Dask distributed
cluster instead (the engine and this module are uploaded to its workers as a zip, so they
run exactly this code). Tasks are ordered so that every reading advances at the same pace:
a sweep stopped early leaves every game and reading with a proportionate share of its deals.

The engine hash of a game is a SHA-256 over the engine modules the game and the solver use
(found by following their relative imports); a change to any of them makes that game's
earlier records stale: they are kept until a fresh record replaces them, and the summary
says which hash its figures come from and whether it is the current one. ``--adopt N``
spares a recomputation when a change did not alter a game's results: N of its records are
evaluated again, and if every one agrees, all of them are carried over to the new hash.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import datetime
import hashlib
import io
import json
import math
import os
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
DATA = ROOT / "docs" / "data" / "odds"
SUMMARY = "summary.json"

DEFAULT_DEALS = 1000
DEFAULT_ALT_DEALS = 200
#: Positions the perfect solver may expand per deal (the interface's default).
DEFAULT_NODES = 200_000
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054
#: Fields of a record that depend on the machine and the day, not on the deal.
TIMING_FIELDS = ("perfect_seconds", "seconds", "date")


# ---- readings -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Reading:
    """One reading of a game: the defaults (``option`` empty) or one option changed alone."""

    slug: str
    options: str        # position-text form: "" or "name:value"
    option: str = ""    # the option's field name
    value: str = ""     # the value's text
    label: str = ""     # the value's label (the choice as the page words it)
    note: str = ""      # the editorial note that discusses it


def readings(slug: str) -> list[Reading]:
    """The default reading of ``slug`` first, then each non-default value of each option,
    in the order of the Options dataclass (enumerated from its fields and their labels)."""
    import engine

    cls = engine.GAMES[slug]
    out = [Reading(slug, "")]
    for d in engine.describe_options(cls.Options):
        for c in d["choices"]:
            if c["value"] != d["default"]:
                out.append(Reading(slug, f'{d["name"]}:{c["value"]}', d["name"], c["value"],
                                   c["label"], d["note"]))
    return out


def default_choice_label(slug: str, option: str) -> str:
    """The label of ``option``'s default value."""
    import engine

    for d in engine.describe_options(engine.GAMES[slug].Options):
        if d["name"] == option:
            for c in d["choices"]:
                if c["value"] == d["default"]:
                    return str(c["label"])
    raise KeyError(f"{slug} has no option {option!r}")


# ---- the engine's content hash ------------------------------------------------------------

def _relative_imports(path: Path) -> set[str]:
    """Modules of the engine package that ``path`` imports (``from .x import``, at any depth
    in the file, including imports inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
    return found


def engine_modules(slug: str, root: Path = ROOT) -> list[str]:
    """The engine modules a game's odds depend on: the package's ``__init__``, the game's
    module and the solver, and everything they import from the package, transitively."""
    import engine

    pkg = root / "engine"
    module = engine._GAME_CLASSES[slug][0]
    todo = ["__init__", module, "solver"]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or not (pkg / f"{name}.py").is_file():
            continue
        seen.add(name)
        todo.extend(_relative_imports(pkg / f"{name}.py"))
    return sorted(seen)


def engine_hash(slug: str, root: Path = ROOT) -> str:
    """First 12 hex digits of the SHA-256 over the names and bytes of the game's modules."""
    h = hashlib.sha256()
    for name in engine_modules(slug, root):
        h.update(name.encode() + b"\0")
        h.update((root / "engine" / f"{name}.py").read_bytes() + b"\0")
    return h.hexdigest()[:12]


# ---- statistics ---------------------------------------------------------------------------

def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials (as shares, 0..1)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, not k={k}, n={n}")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # Rounded off at 1e-12, so that 0 of n gives 0 exactly rather than a float's residue.
    return (max(0.0, round(centre - half, 12)), min(1.0, round(centre + half, 12)))


# ---- records ------------------------------------------------------------------------------

def data_file(slug: str, data: Path = DATA) -> Path:
    return data / f"{slug}.jsonl"


def record_of(result: Any, budget: Any, seconds: float, engine: str, date: str) -> dict[str, Any]:
    """The JSON record of one deal (a ``DealResult``), with the budget it had, the wall time
    of the whole evaluation in its worker, the engine hash and the day."""
    return {
        "options": result.options, "deal": result.deal,
        "perfect": result.perfect, "perfect_nodes": result.perfect_nodes,
        "perfect_seconds": round(result.perfect_seconds, 4),
        "careful_won": bool(result.careful_won), "careful_moves": result.careful_moves,
        "nodes": budget.nodes, "max_seconds": budget.seconds,
        "seconds": round(seconds, 4), "engine": engine, "date": date,
    }


def read_records(path: Path) -> list[dict[str, Any]]:
    """Every complete record of a data file (a line cut short by an interruption is left
    out: it is redone)."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(rec, dict) and {"options", "deal", "perfect", "engine"} <= rec.keys():
            out.append(rec)
    return out


def _strength(rec: dict[str, Any]) -> tuple[int, int]:
    """How much a record tells: a verdict beats none; then the larger node budget."""
    return (rec["perfect"] != "undecided", int(rec.get("nodes") or 0))


def select(records: Iterable[dict[str, Any]], current: str) -> dict[tuple[str, int], dict[str, Any]]:
    """One record per (options, deal): the strongest made by the current engine, else the
    strongest of the newest other engine hash seen for that deal (later lines are newer)."""
    best: dict[tuple[str, int], dict[str, Any]] = {}
    for rec in records:
        key = (rec["options"], int(rec["deal"]))
        old = best.get(key)
        if old is None:
            best[key] = rec
            continue
        new_cur, old_cur = rec["engine"] == current, old["engine"] == current
        if new_cur != old_cur:
            if new_cur:
                best[key] = rec
        elif rec["engine"] != old["engine"] or _strength(rec) >= _strength(old):
            best[key] = rec
    return best


def done_keys(records: Iterable[dict[str, Any]], current: str, nodes: int) -> set[tuple[str, int]]:
    """Deals a run with ``nodes`` need not do again: a current record with a verdict, or
    undecided with at least that budget."""
    done = set()
    for rec in records:
        if rec["engine"] != current:
            continue
        if rec["perfect"] != "undecided" or int(rec.get("nodes") or 0) >= nodes:
            done.add((rec["options"], int(rec["deal"])))
    return done


def _append(path: Path) -> TextIO:
    """A data file opened to append records, on a line of their own (a line cut short by a
    hard kill is closed first, so it spoils no record written after it)."""
    cut = False
    if path.is_file() and path.stat().st_size:
        with path.open("rb") as raw:
            raw.seek(-1, os.SEEK_END)
            cut = raw.read(1) != b"\n"
    f = path.open("a", encoding="utf-8")
    if cut:
        f.write("\n")
    return f


def _dumps(rec: dict[str, Any]) -> str:
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def compact(slug: str, data: Path = DATA) -> None:
    """Rewrite a data file with one record per reading and deal (see :func:`select`), in the
    order of the game's readings and deals; records of readings the engine no longer has
    go last. Atomic (a temporary file renamed over the old)."""
    path = data_file(slug, data)
    records = read_records(path)
    if not records:
        return
    order = {r.options: i for i, r in enumerate(readings(slug))}
    chosen = select(records, engine_hash(slug))
    keys = sorted(chosen, key=lambda k: (order.get(k[0], len(order)), k[0], k[1]))
    text = "".join(_dumps(chosen[k]) + "\n" for k in keys)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{slug}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, 0o644)  # mkstemp's file is private; a data file is not
    os.replace(tmp, path)


# ---- summary ------------------------------------------------------------------------------

def _share(k: int, n: int) -> list[float]:
    lo, hi = wilson(k, n)
    return [round(lo, 4), round(hi, 4)]


def summarise_reading(recs: list[dict[str, Any]], current: str) -> dict[str, Any]:
    n = len(recs)
    # A deal the careful player wins can be won, whatever the solver found within its
    # budget: such a deal counts as won. One the solver called lost is a contradiction
    # (counted in "conflicts", and as won: the careful player's game is a winning line).
    careful = sum(bool(r["careful_won"]) for r in recs)
    solver_won = sum(r["perfect"] == "won" for r in recs)
    won = sum(r["perfect"] == "won" or bool(r["careful_won"]) for r in recs)
    lost = sum(r["perfect"] == "lost" and not r["careful_won"] for r in recs)
    conflicts = sum(r["perfect"] == "lost" and bool(r["careful_won"]) for r in recs)
    undecided = n - won - lost
    hashes = sorted({r["engine"] for r in recs})
    nodes = sorted({int(r.get("nodes") or 0) for r in recs})
    limits = sorted({r.get("max_seconds") for r in recs}, key=lambda v: (v is None, v or 0))
    deals = sorted(int(r["deal"]) for r in recs)
    seconds = sum(float(r.get("seconds") or 0.0) for r in recs)
    return {
        "deals": n,
        "first_deal": deals[0], "last_deal": deals[-1],
        "won": won, "lost": lost, "undecided": undecided,
        "careful_won": careful,
        "solver_won": solver_won, "conflicts": conflicts,
        "won_interval": _share(won, n),
        "winnable_interval": _share(won + undecided, n),
        "careful_interval": _share(careful, n),
        "budget_nodes": nodes,
        "budget_seconds": limits,
        "engine": hashes,
        "engine_current": hashes == [current],
        "date": max(str(r.get("date", "")) for r in recs),
        "seconds_per_deal": round(seconds / n, 4),
    }


def summarise(games: Iterable[str] | None = None, data: Path = DATA) -> dict[str, Any]:
    """The summary of every data file: per game, its engine hash now and, per reading with
    records, the figures. Deterministic: the same records give the same summary."""
    import engine

    out: dict[str, Any] = {
        "about": ("The odds of each reading, from build_scripts/odds.py (make odds): per game "
                  "and reading, the deals evaluated, the perfect-information solver's won, "
                  "lost and undecided counts, the careful no-peek player's wins, Wilson 95% "
                  "intervals (shares), the budgets per deal, the engine hash and the date."),
        "games": {},
    }
    for slug in (games if games is not None else engine.GAMES):
        records = read_records(data_file(slug, data))
        current = engine_hash(slug)
        chosen = select(records, current)
        by_reading: dict[str, list[dict[str, Any]]] = {}
        for (opts, _), rec in sorted(chosen.items()):
            by_reading.setdefault(opts, []).append(rec)
        entry: dict[str, Any] = {"engine": current, "readings": {}}
        for r in readings(slug):
            recs = by_reading.get(r.options)
            if recs:
                entry["readings"][r.options] = summarise_reading(recs, current)
        out["games"][slug] = entry
    return out


def write_summary(data: Path = DATA) -> Path:
    path = data / SUMMARY
    data.mkdir(parents=True, exist_ok=True)
    text = json.dumps(summarise(data=data), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def load_summary(data: Path = DATA) -> dict[str, Any]:
    """The committed summary ({"games": {}} when there is none yet)."""
    path = data / SUMMARY
    if not path.is_file():
        return {"games": {}}
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


# ---- the work -----------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class Task:
    order: tuple[float, int, int]
    slug: str = dataclasses.field(compare=False)
    options: str = dataclasses.field(compare=False)
    deal: int = dataclasses.field(compare=False)


def evaluate(slug: str, options: str, deal: int, nodes: int,
             seconds: float | None) -> tuple[Any, float]:
    """One deal in a worker: ``evaluate_deal`` and the wall time it took."""
    from engine.solver import Budget, evaluate_deal

    t0 = time.perf_counter()
    result = evaluate_deal(slug, options, deal, Budget(nodes=nodes, seconds=seconds))
    return result, time.perf_counter() - t0


def plan(games: list[str], deals: int, alt_deals: int, nodes: int,
         data: Path = DATA) -> tuple[list[Task], int]:
    """The tasks still to do, and how many of the sweep's deals are already done. Ordered by
    the share of its reading's deals each stands at, so all readings advance together."""
    tasks: list[Task] = []
    already = 0
    for gi, slug in enumerate(games):
        done = done_keys(read_records(data_file(slug, data)), engine_hash(slug), nodes)
        for ri, r in enumerate(readings(slug)):
            n = deals if not r.options else alt_deals
            for d in range(1, n + 1):
                if (r.options, d) in done:
                    already += 1
                else:
                    tasks.append(Task(((d - 1) / n, gi, ri), slug, r.options, d))
    tasks.sort()
    return tasks, already


Runner = Callable[[list[Task], int, float | None], Iterator[tuple[Task, Any, float]]]


def run_local(workers: int) -> Runner:
    """Tasks on a local process pool, a few in flight per worker."""

    def run(tasks: list[Task], nodes: int, seconds: float | None) -> Iterator[tuple[Task, Any, float]]:
        it = iter(tasks)
        pending: dict[Future[tuple[Any, float]], Task] = {}
        ex = ProcessPoolExecutor(max_workers=workers)
        try:
            def top_up() -> None:
                while len(pending) < 2 * workers:
                    t = next(it, None)
                    if t is None:
                        return
                    pending[ex.submit(evaluate, t.slug, t.options, t.deal, nodes, seconds)] = t

            top_up()
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for f in sorted(done, key=lambda f: pending[f]):
                    t = pending.pop(f)
                    yield (t, *_outcome(f))
                top_up()
        finally:
            # Stopped early (Ctrl-C, an error): the deals in hand are abandoned at once; a
            # worker left to finish one would hold up the exit for as long as it takes.
            workers_left = list(getattr(ex, "_processes", {}).values()) if pending else []
            ex.shutdown(wait=False, cancel_futures=True)
            for proc in workers_left:
                proc.terminate()

    return run


def _outcome(f: Any) -> tuple[Any, float]:
    try:
        result, secs = f.result()
    except Exception as e:  # noqa: BLE001 - a failing deal is reported, the sweep goes on
        return e, 0.0
    return result, float(secs)


def worker_zip() -> bytes:
    """The engine package and this module, zipped for a cluster's workers."""
    buf = io.BytesIO()
    sources = sorted(p for p in (ROOT / "engine").rglob("*.py") if "__pycache__" not in p.parts)
    with zipfile.ZipFile(buf, "w") as zf:
        for path in sources:
            zf.writestr(path.relative_to(ROOT).as_posix(), path.read_bytes())
        zf.writestr("build_scripts/__init__.py", "")
        zf.writestr("build_scripts/odds.py", Path(__file__).read_bytes())
    return buf.getvalue()


def run_dask(scheduler: Any, upload: bool = True) -> Runner:
    """Tasks on a Dask distributed cluster: ``scheduler`` is its address, or a Client."""

    def run(tasks: list[Task], nodes: int, seconds: float | None) -> Iterator[tuple[Task, Any, float]]:
        import importlib

        dist: Any = importlib.import_module("distributed")  # untyped; only with --scheduler
        Client, as_completed = dist.Client, dist.as_completed
        client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
        own = client is not scheduler
        try:
            if upload:
                with tempfile.TemporaryDirectory() as tmp:
                    z = Path(tmp) / "cadogan_odds_worker.zip"
                    z.write_bytes(worker_zip())
                    client.upload_file(str(z), load=False)
            width = 4 * max(1, sum(client.nthreads().values()))
            it = iter(tasks)
            pending: dict[Any, Task] = {}
            ac = as_completed()

            def top_up() -> None:
                while len(pending) < width:
                    t = next(it, None)
                    if t is None:
                        return
                    f = client.submit(evaluate, t.slug, t.options, t.deal, nodes, seconds,
                                      pure=False)
                    pending[f] = t
                    ac.add(f)

            top_up()
            for f in ac:
                t = pending.pop(f)
                out = _outcome(f)
                f.release()
                yield (t, *out)
                top_up()
        finally:
            if own:
                client.close()

    return run


# ---- progress -----------------------------------------------------------------------------

def _duration(s: float) -> str:
    if not math.isfinite(s):
        return "?"
    s = int(s)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{sec:02d}s"


class Progress:
    """A progress bar on a stream: deals done, rate, time left. Redrawn in place on a
    terminal (at most five times a second); elsewhere one line every ``every`` seconds."""

    def __init__(self, total: int, stream: TextIO = sys.stderr, every: float = 30.0,
                 enabled: bool = True) -> None:
        self.total, self.stream, self.every, self.enabled = total, stream, every, enabled
        self.done = 0
        self.failed = 0
        self.start = time.monotonic()
        self.last = 0.0
        self.tty = stream.isatty()

    def line(self, what: str = "") -> str:
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        fail = f" {self.failed} failed" if self.failed else ""
        return (f"odds [{bar}] {self.done}/{self.total} deals{fail}  {rate:.2f}/s  "
                f"elapsed {_duration(elapsed)}  left {_duration(left)}  {what}").rstrip()

    def step(self, what: str = "", failed: bool = False) -> None:
        self.done += 1
        self.failed += failed
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty and now - self.last >= 0.2:
            self.stream.write("\r" + self.line(what)[:160].ljust(160))
            self.stream.flush()
            self.last = now
        elif not self.tty and now - self.last >= self.every:
            self.stream.write(self.line(what) + "\n")
            self.stream.flush()
            self.last = now

    def finish(self) -> None:
        if self.enabled:
            self.stream.write(("\r" if self.tty else "") + self.line("done") + "\n")
            self.stream.flush()


# ---- the sweep ----------------------------------------------------------------------------

def _clock_free(rec: dict[str, Any]) -> bool:
    """Whether a record's result owes nothing to the clock: it had no time limit, or its
    search ended (by its node budget or a verdict) well within it; the same deal with the
    node budget alone then gives the same result."""
    limit = rec.get("max_seconds")
    return limit is None or float(rec.get("perfect_seconds") or 0.0) < 0.5 * float(limit)


def adopt(slug: str, sample: int, data: Path = DATA,
          evaluate_fn: Callable[..., tuple[Any, float]] | None = None) -> tuple[bool, str]:
    """Carry a game's records over to the current engine code when a sample of them comes
    out the same under it. The records of the newest other engine hash are taken; ``sample``
    of them (the lowest deals of each reading, spread over the readings) are evaluated again
    with their own budget; if every deterministic field agrees (the solver's verdict and
    positions, the careful player's result and moves), all that hash's records are marked
    with the current hash (``engine_was`` keeps the old one). Only records whose result
    owes nothing to the clock are used as evidence (they are run again on their node budget
    alone). Returns (adopted, why)."""
    evaluate_fn = evaluate_fn or evaluate
    path = data_file(slug, data)
    records = read_records(path)
    current = engine_hash(slug)
    old = [r for r in records if r["engine"] != current]
    if not old:
        return False, "nothing to adopt"
    newest = old[-1]["engine"]
    candidates = sorted((r for r in old if r["engine"] == newest and _clock_free(r)),
                        key=lambda r: (int(r["deal"]), r["options"]))
    by_reading: dict[str, list[dict[str, Any]]] = {}
    for r in candidates:
        by_reading.setdefault(r["options"], []).append(r)
    chosen: list[dict[str, Any]] = []
    while len(chosen) < sample and any(by_reading.values()):
        for opts in sorted(by_reading):
            if by_reading[opts] and len(chosen) < sample:
                chosen.append(by_reading[opts].pop(0))
    if len(chosen) < sample:
        return False, f"only {len(chosen)} records fit for a check"
    for r in chosen:
        result, _ = evaluate_fn(slug, r["options"], int(r["deal"]), int(r["nodes"]), None)
        fresh = (result.perfect, result.perfect_nodes, bool(result.careful_won),
                 result.careful_moves)
        kept = (r["perfect"], r["perfect_nodes"], bool(r["careful_won"]), r["careful_moves"])
        if fresh != kept:
            return False, f"deal {r['deal']} [{r['options'] or 'default'}]: {kept} now {fresh}"
    lines = []
    for r in records:
        if r["engine"] == newest:
            r = dict(r, engine=current, engine_was=newest)
        lines.append(_dumps(r) + "\n")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{slug}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("".join(lines))
    os.chmod(tmp, 0o644)  # mkstemp's file is private; a data file is not
    os.replace(tmp, path)
    compact(slug, data)
    return True, f"{len(chosen)} deals agree: {newest} -> {current}"


def _lock(data: Path) -> TextIO:
    """Hold the data folder for one sweep at a time (released when the process ends, however
    it ends)."""
    import fcntl

    f = (data / ".lock").open("w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise SystemExit(f"odds: another sweep is writing to {data}; wait for it or stop it")
    return f


def sweep(games: list[str], deals: int, alt_deals: int, nodes: int, seconds: float | None,
          runner: Runner, data: Path = DATA, progress: bool = True,
          today: str | None = None, stream: TextIO = sys.stderr) -> dict[str, int]:
    """Evaluate every deal not yet done, appending each record as it comes; then compact
    the files touched and rewrite the summary. Returns counts: done before, done now,
    failed."""
    data.mkdir(parents=True, exist_ok=True)
    lock = _lock(data)
    tasks, already = plan(games, deals, alt_deals, nodes, data)
    date = today or datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    hashes = {g: engine_hash(g) for g in games}
    bar = Progress(len(tasks), stream, enabled=progress)
    if progress:
        stream.write(f"odds: {already} deals already done, {len(tasks)} to do "
                     f"({len(games)} games, budget {nodes} nodes"
                     f"{f', {seconds} s' if seconds else ''} per deal)\n")
    files: dict[str, TextIO] = {}
    failed = 0
    from engine.solver import Budget

    budget = Budget(nodes=nodes, seconds=seconds)
    try:
        for task, result, secs in runner(tasks, nodes, seconds):
            if isinstance(result, BaseException):
                failed += 1
                stream.write(f"\nodds: {task.slug} [{task.options or 'default'}] deal "
                             f"{task.deal} failed: {type(result).__name__}: {result}\n")
                bar.step(task.slug, failed=True)
                continue
            f = files.get(task.slug)
            if f is None:
                f = files[task.slug] = _append(data_file(task.slug, data))
            f.write(_dumps(record_of(result, budget, secs, hashes[task.slug], date)) + "\n")
            f.flush()
            bar.step(f"{task.slug} {task.options or 'default'} #{task.deal}")
    finally:
        for f in files.values():
            f.close()
        bar.finish()
        for slug in files:
            compact(slug, data)
        write_summary(data)
        lock.close()
    return {"already": already, "done": bar.done - failed, "failed": failed}


def _stop_on_signals() -> None:
    """Ctrl-C and SIGTERM stop the sweep cleanly (the files are compacted and the summary
    written), also when it was started in the background, where SIGINT starts ignored."""
    import signal

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def main(argv: list[str] | None = None) -> int:
    import engine

    ap = argparse.ArgumentParser(
        prog="python -m build_scripts.odds",
        description="Compute the odds of every reading (the default reading and each option "
                    "value changed alone), resumably, into docs/data/odds/.")
    ap.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    ap.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                    help=f"deals 1..N at the default reading (default {DEFAULT_DEALS})")
    ap.add_argument("--alt-deals", type=int, default=DEFAULT_ALT_DEALS,
                    help=f"deals 1..N at each other reading (default {DEFAULT_ALT_DEALS})")
    ap.add_argument("--nodes", type=int, default=DEFAULT_NODES,
                    help=f"positions the perfect solver may expand per deal (default {DEFAULT_NODES})")
    ap.add_argument("--seconds", type=float, default=None,
                    help="wall-clock limit per deal for the perfect solver (default none: "
                         "results then depend on the node budget only, deterministically)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="local worker processes (default: one per core)")
    ap.add_argument("--scheduler", default=None,
                    help="address of an existing Dask distributed scheduler to send the work to")
    ap.add_argument("--data", type=Path, default=DATA, help="data folder (default docs/data/odds)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--adopt", type=int, default=0, metavar="N",
                    help="after a change to the engine, check N recorded deals per game "
                         "under the new code and, if all agree, keep that game's records")
    ap.add_argument("--summary-only", action="store_true",
                    help="only remake summary.json from the data files")
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(",") if g] or list(engine.GAMES)
    unknown = [g for g in games if g not in engine.GAMES]
    if unknown:
        ap.error(f"unknown games: {', '.join(unknown)}")
    if args.adopt:
        lock = _lock(args.data)
        for g in games:
            ok, why = adopt(g, args.adopt, args.data)
            print(f"{g}: {'adopted' if ok else 'kept'} ({why})", file=sys.stderr)
        print(write_summary(args.data))
        lock.close()
        return 0
    if args.summary_only:
        # No compaction here: a sweep may be appending to the files right now.
        print(write_summary(args.data))
        return 0
    runner = run_dask(args.scheduler) if args.scheduler else run_local(max(1, args.workers))
    _stop_on_signals()
    t0 = time.monotonic()
    try:
        counts = sweep(games, args.deals, args.alt_deals, args.nodes, args.seconds, runner,
                       args.data, progress=not args.quiet)
    except KeyboardInterrupt:
        print("odds: interrupted; every finished deal is recorded, a rerun resumes",
              file=sys.stderr)
        return 130
    print(json.dumps({**counts, "seconds": round(time.monotonic() - t0, 1)}))
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
