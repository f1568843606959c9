"""The time of the whole default odds sweep on this machine (``make bench``'s ``odds``).

Read from the committed records (``docs/data/odds/*.jsonl``, written by ``make odds`` on this
machine): per game, the mean wall time of one deal (the perfect solver with the records'
node budget, then the careful player) and the solver's positions per second; from these, the
time the default sweep (``build_scripts.odds``: 1000 deals at the default reading, 200 at
each other reading) takes on a pool of one worker per core, at the budget of the records, and
an upper bound at the default budget of 200,000 positions per deal (every undecided deal
searching its whole budget at the measured speed). ``--sample N`` also times N fresh deals
per game at the records' budget (slow: seconds per deal).

``python bench/odds_bench.py`` prints the JSON.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from build_scripts import odds  # noqa: E402


def run(sample: int = 0) -> dict[str, Any]:
    workers = os.cpu_count() or 1
    games: dict[str, Any] = {}
    total_now = total_default = 0.0
    deals_recorded = 0
    budgets: set[int] = set()
    for slug in engine.GAMES:
        recs = odds.read_records(odds.data_file(slug))
        if not recs:
            games[slug] = {"deals": 0}
            continue
        deals_recorded += len(recs)
        budgets.update(int(r["nodes"]) for r in recs)
        per_deal = sum(float(r["seconds"]) for r in recs) / len(recs)
        careful = sum(max(0.0, float(r["seconds"]) - float(r["perfect_seconds"]))
                      for r in recs) / len(recs)
        nodes = sum(int(r["perfect_nodes"]) for r in recs)
        secs = sum(float(r["perfect_seconds"]) for r in recs)
        nps = nodes / secs if secs else 0.0
        undecided = sum(r["perfect"] == "undecided" for r in recs) / len(recs)
        n = odds.DEFAULT_DEALS + odds.DEFAULT_ALT_DEALS * (len(odds.readings(slug)) - 1)
        at_default = per_deal + (undecided * odds.DEFAULT_NODES / nps if nps else 0.0)
        total_now += n * per_deal
        total_default += n * at_default
        games[slug] = {"deals": len(recs), "seconds_per_deal": round(per_deal, 3),
                       "careful_seconds_per_deal": round(careful, 3),
                       "solver_nodes_per_second": round(nps), "undecided": round(undecided, 3),
                       "sweep_deals": n}
        if sample:
            t0 = time.perf_counter()
            for d in range(1, sample + 1):
                odds.evaluate(slug, "", d, max(budgets), None)
            games[slug]["sampled_seconds_per_deal"] = round((time.perf_counter() - t0) / sample, 3)
    return {
        "workers": workers,
        "records": deals_recorded,
        "record_budget_nodes": sorted(budgets),
        "default_sweep_seconds_at_record_budget": round(total_now / workers),
        "default_sweep_seconds_at_default_budget_upper_bound": round(total_default / workers),
        "note": ("times measured while the machine was shared; the default sweep is "
                 f"{odds.DEFAULT_DEALS} deals per game and {odds.DEFAULT_ALT_DEALS} per other "
                 "reading, on one worker per core"),
        "games": games,
    }


if __name__ == "__main__":
    n = int(sys.argv[sys.argv.index("--sample") + 1]) if "--sample" in sys.argv else 0
    print(json.dumps(run(n), indent=2))
