"""Shape boards by size: per template, size and seed, how long ``generate`` takes to make a unique puzzle, and how
long solving it takes (``auto``, and the search's states) and proving it unique (the SAT count).

Usage: python bench/shape_sizes.py [--seeds 1 2 3] [--time-limit 60] [--only ring figure-eight]

Each row is :func:`flowgraph.authoring.generate.generate` on :func:`flowgraph.authoring.shapes.shape_board`
at one size, seeded, with the CLI's defaults; then :func:`flowgraph.solve` (auto), the search engine and
:func:`flowgraph.count` on the puzzle it made, each answer verified. Totals at the end (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import time

import flowgraph
from flowgraph.authoring.generate import GenerationError, generate
from flowgraph.authoring.shapes import shape_board

#: Each template at three sizes (its parameters), small to large.
SIZES = {
    "ring": [{"rings": 2, "sectors": 8}, {"rings": 3, "sectors": 12, "centre": True}, {"rings": 5, "sectors": 24}],
    "cube": [{"side": 2}, {"side": 4}, {"side": 7}],
    "star": [{"side": 2, "points": 5}, {"side": 3}, {"side": 5}],
    "figure-eight": [{"rings": 1, "sectors": 8}, {"rings": 2, "sectors": 12}, {"rings": 3, "sectors": 20},
                     {"rings": 1, "sectors": 8, "crossing": "cells"}, {"rings": 2, "sectors": 12, "crossing": "cells"},
                     {"rings": 3, "sectors": 20, "crossing": "cells"}],
    "linked-loops": [{"loops": 2, "rings": 1, "sectors": 16}, {"loops": 3, "rings": 1, "sectors": 24},
                     {"loops": 2, "rings": 2, "sectors": 30}, {"loops": 3, "rings": 2, "sectors": 30},
                     {"loops": 4, "rings": 2, "sectors": 40}, {"loops": 3, "rings": 3, "sectors": 40}],
    "borromean": [{"rings": 1, "sectors": 24}, {"rings": 2, "sectors": 30}, {"rings": 3, "sectors": 40},
                  {"rings": 4, "sectors": 60}],
    "triquetra": [{"rings": 1, "sectors": 16}, {"rings": 2, "sectors": 24}, {"rings": 3, "sectors": 30},
                  {"rings": 4, "sectors": 60}],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--only", nargs="+", choices=sorted(SIZES), default=sorted(SIZES))
    args = parser.parse_args()
    flowgraph.solve(flowgraph.parse_file("puzzles/shapes/ring_2x8.json"), engine="search")  # the search loaded
    print(f"{'shape':<28} {'cells':>5} {'seed':>4} {'flows':>5} {'generate s':>10} {'solve s':>8} "
          f"{'search s':>8} {'states':>7} {'count s':>8}")
    totals = {"generate": 0.0, "solve": 0.0, "search": 0.0, "count": 0.0, "made": 0, "failed": 0}
    for shape in args.only:
        for size in SIZES[shape]:
            blank = shape_board(shape, **size)
            title = f"{shape} " + " ".join(f"{k}={v}" for k, v in size.items() if v is not False)
            for seed in args.seeds:
                start = time.perf_counter()
                try:
                    made = generate(blank, seed=seed, time_limit_s=args.time_limit)
                except GenerationError as exc:
                    totals["failed"] += 1
                    print(f"{title:<28} {len(blank.cells):>5} {seed:>4} failed: {exc}")
                    continue
                made_s = time.perf_counter() - start
                puzzle = flowgraph.read(made.text, "json-graph")
                start = time.perf_counter()
                flowgraph.solve(puzzle)
                solve_s = time.perf_counter() - start
                start = time.perf_counter()
                searched = flowgraph.solve(puzzle, engine="search")
                search_s = time.perf_counter() - start
                start = time.perf_counter()
                verdict = flowgraph.count(puzzle).verdict
                count_s = time.perf_counter() - start
                assert verdict == "unique", (title, seed, verdict)
                for key, value in (("generate", made_s), ("solve", solve_s), ("search", search_s), ("count", count_s)):
                    totals[key] += value
                totals["made"] += 1
                print(f"{title:<28} {len(blank.cells):>5} {seed:>4} {len(puzzle.flows):>5} {made_s:>10.3f} "
                      f"{solve_s:>8.3f} {search_s:>8.3f} {searched.stats.get('states', 0):>7,} {count_s:>8.3f}")
    print(f"total: {totals['made']} made and proved unique, {totals['failed']} failed; generate "
          f"{totals['generate']:.2f} s, solve {totals['solve']:.2f} s, search {totals['search']:.2f} s, "
          f"count {totals['count']:.2f} s")


if __name__ == "__main__":
    main()
