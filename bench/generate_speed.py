"""Generation speed per family and size: per-puzzle seconds and figures, medians, first-candidate-unique rate.

Usage: python bench/generate_speed.py [SEEDS] [--json OUT]
Every puzzle is counted unique by the SAT engine inside generate(); this
script times it (wall time, including that count and the difficulty solve).
"first unique": the first cover that met the flow range and shape rules was
unique as it stood; "splits": repairs per puzzle; "covers": covers made.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time

from flowgraph.authoring.generate import generate, pick_bridges
from flowgraph.authoring.templates import board
from flowgraph.engines import get_engine

CASES = [("standard", 10), ("hex", 10), ("warps", 10), ("bridges", 10), ("standard", 15), ("hex", 15), ("warps", 15)]


def make_board(family: str, n: int, seed: int):
    if family != "bridges":
        return board(family, n, n)
    empty = board("standard", n, n)
    return board("bridges", n, n, bridges=pick_bridges(empty, 2, random.Random(seed)))


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 20
    out = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    get_engine("search").warm_up()
    generate(board("standard", 4, 4))  # loads python-sat before the first timed puzzle
    rows = []
    print(f"{'family':9} {'size':6} {'median s':>9} {'max s':>7} {'first unique':>13} {'flows':>6} {'splits':>7} {'covers':>7}")
    for family, n in CASES:
        times, firsts, flows, splits, covers = [], 0, [], [], []
        for seed in range(seeds):
            t = time.perf_counter()
            made = generate(make_board(family, n, seed), seed=seed)
            times.append(time.perf_counter() - t)
            firsts += made.figures["first_unique"]
            flows.append(made.figures["flows"])
            splits.append(made.figures["splits"])
            covers.append(made.figures["candidates"])
            rows.append({"family": family, "size": n, "seed": seed, **made.figures, "wall_seconds": round(times[-1], 4)})
        print(f"{family:9} {n}x{n:<4} {statistics.median(times):9.3f} {max(times):7.3f} "
              f"{firsts:>6}/{seeds:<6} {statistics.mean(flows):6.1f} {statistics.mean(splits):7.2f} "
              f"{statistics.mean(covers):7.1f}")
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
