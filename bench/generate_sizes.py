"""Generating large boards: per size and seed, whether ``flowgraph generate`` makes a unique puzzle with its own
defaults, in how long, and with how many flows; and how many paths a board's random covers hold.

Usage: python bench/generate_sizes.py [--sizes 20 25 30] [--seeds 1 2 3] [--time-limit 60] [--family standard]

Each run is the library's :func:`flowgraph.authoring.generate.generate` on a WxW board of the family, seeded,
with the CLI's default flow range; a failure prints its message. The covers' column: the median number of
paths of 20 random covers of the board (what the default flow range must hold; docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from flowgraph.authoring.covers import random_cover
from flowgraph.authoring.generate import GenerationError, _default_flows, _square_side, generate
from flowgraph.authoring.templates import board


def cover_paths(shape, runs: int = 20) -> float:
    """The median number of paths of ``runs`` random covers of ``shape``."""
    sketch = shape.sketch()
    adj: dict = {key: set() for key in sketch.spots}
    for pair in sketch.links:
        u, v = tuple(pair)
        adj[u].add(v)
        adj[v].add(u)
    low, high = _default_flows(len(adj), side=_square_side(shape))
    rng = random.Random(1)
    counts = [len(p) for p in (random_cover(adj, sketch, rng, len(adj) / ((low + high) / 2), 3, 0.0) for _ in range(runs)) if p]
    return statistics.median(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 20, 25, 28, 30])
    parser.add_argument("--seeds", nargs="+", default=["1", "2", "3"])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--family", default="standard")
    args = parser.parse_args()
    print(f"{'size':>7} {'flows':>9} {'covers':>7} {'seed':>5} {'seconds':>8}  outcome")
    for side in args.sizes:
        shape = board(args.family, side, side)
        low, high = _default_flows(side * side, side=_square_side(shape))
        paths = cover_paths(shape)
        for seed in args.seeds:
            t0 = time.perf_counter()
            try:
                made = generate(shape, seed=seed, time_limit_s=args.time_limit)
                outcome = f"unique, {len(made.puzzle.flows)} flows"
            except GenerationError as exc:
                outcome = f"none: {exc}"
            print(f"{side:>3}x{side:<3} {low:>4}-{high:<4} {paths:>7.1f} {seed:>5} {time.perf_counter() - t0:>8.2f}  {outcome}",
                  flush=True)


if __name__ == "__main__":
    main()
