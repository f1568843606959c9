"""Engine speed: cycles of ``legal_moves()`` + ``play()`` + ``undo()`` per second, per game.

Runs the same way in CPython and in Pyodide (bench/pyodide_bench.mjs imports this file):
only the ``engine`` package and the standard library. Each cycle lists the legal moves,
plays one (chosen by a fixed pseudo-random sequence) and takes it back; the game then goes
on with that move (not timed as a cycle), and a finished game starts the next deal.
"""

from __future__ import annotations

import json
import time
from typing import Any

import engine


def bench_game(slug: str, seconds: float = 1.0) -> dict[str, Any]:
    rng = 0x2545F491
    deal = 1
    game = engine.new_game(slug, deal)
    cycles = 0
    positions = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        moves = game.legal_moves()
        if not moves:
            deal += 1
            game = engine.new_game(slug, deal)
            continue
        rng = (rng * 6364136223846793005 + 1442695040888963407) % 2**64
        m = moves[(rng >> 33) % len(moves)]
        game.play(m)
        game.undo()
        cycles += 1
        game.play(m)
        positions += 1
        if positions % 16 == 0 and time.perf_counter() >= end:
            break
    elapsed = time.perf_counter() - t0
    return {"cycles": cycles, "seconds": round(elapsed, 3),
            "per_second": round(cycles / elapsed, 1), "deals": deal}


def run(seconds: float = 1.0) -> dict[str, Any]:
    return {slug: bench_game(slug, seconds) for slug in sorted(engine.GAMES)}


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
