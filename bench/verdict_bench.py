"""How fast, and how often, each game judges a position: ``outcome_of`` over the positions of
random games, per game.

For every game in ``engine.GAMES``: random games (each move drawn from the legal moves by a
fixed pseudo-random sequence, deal after deal, a game ending when it is won or lost, when no
move is left, or after ``MAX_MOVES`` moves) give the positions; each is judged by a fresh game
object (so nothing is remembered from the position before) and timed. Reported per game:

- ``within_ms``: the share of positions whose outcome is computed within ``limit_ms``;
- ``p50_ms``, ``p99_ms``, ``max_ms``: the time taken;
- ``verdict``: the share of positions given a verdict. A game whose ``outcome_of`` may give
  up (a bounded search, e.g. the Kings' search of the builds) says whether it did through an
  ``outcome_decided(state)`` method; for the others every answer is a verdict (won, lost, or
  play goes on).
- ``outcomes``: how many positions were judged won, lost, or still open.

Runs in CPython only; ``python bench/verdict_bench.py [positions]`` prints the JSON.
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

LIMIT_MS = 100.0
MAX_MOVES = 400


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


def bench_game(slug: str, positions: int, limit_ms: float = LIMIT_MS) -> dict[str, Any]:
    cls = engine.GAMES[slug]
    rng = 0x9E3779B9
    deal = 0
    times: list[float] = []
    verdicts = 0
    outcomes = {"won": 0, "lost": 0, "open": 0}
    games = 0
    while len(times) < positions:
        deal += 1
        games += 1
        game = engine.new_game(slug, deal)
        for _ in range(MAX_MOVES + 1):
            judge = cls(game.state, game.options, deal)
            t0 = time.perf_counter()
            out = judge.outcome_of(game.state)
            times.append((time.perf_counter() - t0) * 1000.0)
            decided = getattr(judge, "outcome_decided", None)
            verdicts += 1 if decided is None or decided(game.state) else 0
            outcomes[out.value if out else "open"] += 1
            if out is not None or len(times) >= positions:
                break
            moves = game.legal_moves()
            if not moves:
                break
            rng = (rng * 6364136223846793005 + 1442695040888963407) % 2**64
            game.play(moves[(rng >> 33) % len(moves)])
    times.sort()
    n = len(times)
    return {
        "positions": n,
        "games": games,
        "within_ms": round(sum(t <= limit_ms for t in times) / n, 4),
        "p50_ms": round(_percentile(times, 0.50), 3),
        "p99_ms": round(_percentile(times, 0.99), 3),
        "max_ms": round(times[-1], 3),
        "verdict": round(verdicts / n, 4),
        "outcomes": outcomes,
    }


def run(positions: int = 2000, limit_ms: float = LIMIT_MS) -> dict[str, Any]:
    return {
        "unit": f"outcome_of per position of random games (CPython): share within "
                f"{limit_ms:g} ms, p50/p99/max milliseconds, share given a verdict",
        "limit_ms": limit_ms,
        "max_moves_per_game": MAX_MOVES,
        "games": {slug: bench_game(slug, positions, limit_ms) for slug in sorted(engine.GAMES)},
    }


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(json.dumps(run(n), indent=2))
