"""The solver's benchmark: how fast it searches, and how often it answers, per game.

Runs the same way in CPython and in Pyodide (bench/pyodide_solver_bench.mjs imports this file):
only the ``engine`` package and the standard library.

- ``speed(seconds)``: positions expanded per second, per game, searching from deals 1, 2, ...
  (each deal for at most 2,000 positions, so that no single deal decides the figure);
- ``hint(positions, seconds)``: the share of positions of random games (each move drawn from
  the legal moves by a fixed pseudo-random sequence, one position taken every few moves) on
  which the hint answers within ``seconds`` with a winning line or a proof that the position
  is lost; the rest get the careful player's move;
- ``solved(deals, nodes)``: the share of deals 1..N that the perfect player decides (won or
  lost) within ``nodes`` positions, per game (CPython: slow).

``python bench/solver_bench.py speed|hint|solved [N]`` prints the JSON of one part (CPython);
``python bench/solver_bench.py all [--games a,b] [--positions N] [--out FILE]`` measures
every figure of every game (or of those named) in CPython and in Pyodide under Node, prints
a table (the games short of the goal marked, then listed) and writes the JSON to FILE.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.solver import Budget, Search, solve  # noqa: E402

#: Moves between two positions taken from a random game for the hint's figure.
EVERY = 9
#: Positions taken from one random game at most.
PER_GAME = 4


def speed_game(slug: str, seconds: float) -> dict[str, Any]:
    nodes = 0
    spent = 0.0
    deal = 0
    while spent < seconds:
        deal += 1
        game = engine.new_game(slug, deal)
        found = solve(game, Budget(nodes=2000, seconds=max(0.05, seconds - spent)))
        nodes += found.nodes
        spent += found.seconds
    return {"nodes": nodes, "seconds": round(spent, 3), "deals": deal,
            "per_second": round(nodes / spent, 1) if spent else 0.0}


def speed(seconds: float = 2.0, games: list[str] | None = None) -> dict[str, Any]:
    return {slug: speed_game(slug, seconds) for slug in games or sorted(engine.GAMES)}


def random_positions(slug: str, count: int) -> list[engine.Game]:
    """Positions of random games: every EVERY-th position, at most PER_GAME a game."""
    rng = 0x5DEECE66D
    out: list[engine.Game] = []
    deal = 0
    while len(out) < count:
        deal += 1
        game = engine.new_game(slug, deal)
        taken = 0
        for n in range(400):
            if game.outcome() is not None:
                break
            if n % EVERY == 0:
                out.append(game.copy())
                taken += 1
                if taken >= PER_GAME or len(out) >= count:
                    break
            moves = game.legal_moves()
            if not moves:
                break
            rng = (rng * 6364136223846793005 + 1442695040888963407) % 2**64
            game.play(moves[(rng >> 33) % len(moves)])
    return out


def hint_game(slug: str, positions: int, seconds: float) -> dict[str, Any]:
    counts = {"won": 0, "lost": 0, "undecided": 0}
    times: list[float] = []
    for game in random_positions(slug, positions):
        search = Search(game, Budget(nodes=10**9, seconds=seconds))
        t0 = time.perf_counter()
        found = None
        while found is None:  # in slices, as the worker runs it
            found = search.run(50)
        times.append(time.perf_counter() - t0)
        counts[found.verdict] += 1
    n = sum(counts.values())
    answered = counts["won"] + counts["lost"]
    times.sort()
    return {"positions": n, "answered": round(answered / n, 3), **counts,
            "p50_s": round(times[n // 2], 3)}


def hint(positions: int = 20, seconds: float = 1.0,
         games: list[str] | None = None) -> dict[str, Any]:
    return {slug: hint_game(slug, positions, seconds) for slug in games or sorted(engine.GAMES)}


def solved_game(slug: str, deals: int, nodes: int) -> dict[str, Any]:
    counts = {"won": 0, "lost": 0, "undecided": 0}
    spent = 0.0
    for deal in range(1, deals + 1):
        found = solve(engine.new_game(slug, deal), Budget(nodes=nodes))
        counts[found.verdict] += 1
        spent += found.seconds
    return {"deals": deals, "decided": round((counts["won"] + counts["lost"]) / deals, 3),
            **counts, "seconds": round(spent, 1)}


def solved(deals: int = 20, nodes: int = 200_000) -> dict[str, Any]:
    return {slug: solved_game(slug, deals, nodes) for slug in sorted(engine.GAMES)}


def run(seconds: float = 2.0, positions: int = 20,
        games: list[str] | None = None) -> dict[str, Any]:
    """Speed and the hint's share (what the Pyodide runner calls)."""
    return {"speed": speed(seconds, games), "hint": hint(positions, games=games)}


#: The hint's goal: the share of positions answered within a second in Pyodide, every game.
GOAL = 0.9


def pyodide(seconds: float = 2.0, positions: int = 20,
            games: list[str] | None = None) -> dict[str, Any]:
    """run() in Pyodide under Node (bench/pyodide_solver_bench.mjs, the engine's sources as
    they are in this tree); {"skipped": ...} or {"error": ...} when it cannot run."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        return {"skipped": "needs node and node_modules/pyodide (npm ci)"}
    r = subprocess.run([node, str(ROOT / "bench" / "pyodide_solver_bench.mjs"),
                        str(ROOT / "engine"), str(ROOT / "bench" / "solver_bench.py"),
                        str(seconds), str(positions), ",".join(games or [])],
                       cwd=ROOT, capture_output=True, text=True, timeout=7200, check=False)
    if r.returncode != 0:
        return {"error": r.stderr.strip()[-2000:]}
    out: dict[str, Any] = json.loads(r.stdout.strip().splitlines()[-1])
    return out


def measure(seconds: float = 2.0, positions: int = 20,
            games: list[str] | None = None) -> dict[str, Any]:
    """Every figure, per game: nodes per second in CPython and in Pyodide, the hint's share
    answered within 1 s in CPython and in Pyodide; the games short of the goal (in Pyodide)."""
    import os

    games = games or sorted(engine.GAMES)
    load = [os.getloadavg()[0]] if hasattr(os, "getloadavg") else []
    cpy = run(seconds, positions, games)
    pyo = pyodide(seconds, positions, games)
    if load:
        load.append(os.getloadavg()[0])
    per_game: dict[str, Any] = {}
    for slug in games:
        row: dict[str, Any] = {
            "cpython_nodes_per_s": cpy["speed"][slug]["per_second"],
            "cpython_hint_answered": cpy["hint"][slug]["answered"],
        }
        if "speed" in pyo:
            row["pyodide_nodes_per_s"] = pyo["speed"][slug]["per_second"]
            row["pyodide_hint_answered"] = pyo["hint"][slug]["answered"]
            row["pyodide_hint"] = pyo["hint"][slug]
        row["cpython_hint"] = cpy["hint"][slug]
        per_game[slug] = row
    figure = "pyodide_hint_answered" if "speed" in pyo else "cpython_hint_answered"
    short = sorted(s for s, r in per_game.items() if r[figure] < GOAL)
    out: dict[str, Any] = {
        "unit": "nodes: positions expanded per second (deals 1, 2, ..., 2,000 positions each "
                f"at most, {seconds} s a game); hint: share of {positions} positions of random "
                "games answered (won or lost) within 1 s",
        "goal": f"hint answered on >= {GOAL:.0%} of positions in Pyodide, every game",
        "games": per_game,
        "short_of_goal": short,
        "short_of_goal_by": figure,
        "positions": positions,
        # the figures are wall-clock: a loaded machine lowers them (and the hint's share)
        "load_average_1min_at_start_and_end": load,
        "cpus": os.cpu_count(),
    }
    if "speed" not in pyo:
        out["pyodide"] = pyo
    return out


def table(result: dict[str, Any]) -> str:
    """The figures of measure() as a text table, the games short of the goal marked."""
    lines = [f"{'game':28} {'nodes/s py':>10} {'nodes/s pyo':>11} {'hint py':>8} "
             f"{'hint pyo':>8}"]
    for slug, r in result["games"].items():
        mark = "  short" if slug in result["short_of_goal"] else ""
        lines.append(f"{slug:28} {r['cpython_nodes_per_s']:>10.0f} "
                     f"{r.get('pyodide_nodes_per_s', float('nan')):>11.0f} "
                     f"{r['cpython_hint_answered']:>8.0%} "
                     f"{r.get('pyodide_hint_answered', float('nan')):>8.0%}{mark}")
    lines.append(f"short of the goal ({result['goal']}): "
                 + (", ".join(result["short_of_goal"]) or "none"))
    return "\n".join(lines)


if __name__ == "__main__":
    part = sys.argv[1] if len(sys.argv) > 1 else "speed"
    arg = sys.argv[2:] and sys.argv[2]
    if part == "speed":
        print(json.dumps(speed(float(arg or 2.0)), indent=2))
    elif part == "hint":
        print(json.dumps(hint(int(arg or 20)), indent=2))
    elif part == "solved":
        only = sys.argv[3:]
        slugs = only or sorted(engine.GAMES)
        print(json.dumps({s: solved_game(s, int(arg or 20), 200_000) for s in slugs},
                         indent=2))
    elif part == "all":
        import argparse

        ap = argparse.ArgumentParser(prog="solver_bench.py all")
        ap.add_argument("--games", default="")
        ap.add_argument("--positions", type=int, default=20)
        ap.add_argument("--seconds", type=float, default=2.0)
        ap.add_argument("--out", default="")
        a = ap.parse_args(sys.argv[2:])
        res = measure(a.seconds, a.positions, [g for g in a.games.split(",") if g] or None)
        if a.out:
            Path(a.out).parent.mkdir(parents=True, exist_ok=True)
            Path(a.out).write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
        print(table(res))
    else:
        raise SystemExit(f"unknown part {part!r}")
