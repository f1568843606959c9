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

``python bench/solver_bench.py speed|hint|solved [N]`` prints the JSON of one part.
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


def speed(seconds: float = 2.0) -> dict[str, Any]:
    return {slug: speed_game(slug, seconds) for slug in sorted(engine.GAMES)}


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


def hint(positions: int = 20, seconds: float = 1.0) -> dict[str, Any]:
    return {slug: hint_game(slug, positions, seconds) for slug in sorted(engine.GAMES)}


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


def run(seconds: float = 2.0, positions: int = 20) -> dict[str, Any]:
    """Speed and the hint's share (what the Pyodide runner calls)."""
    return {"speed": speed(seconds), "hint": hint(positions)}


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
    else:
        raise SystemExit(f"unknown part {part!r}")
