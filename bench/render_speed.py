"""Drawing speed: SVG and PNG of a 15x15 solution per family (median of 7 draws each).

Usage: python bench/render_speed.py
The boards are generated (seed 1) so the script needs no corpus; the time
is for drawing a solved board, not for solving it.
"""

from __future__ import annotations

import random
import statistics
import time

from flowgraph.authoring.generate import generate, pick_bridges
from flowgraph.authoring.templates import board
from flowgraph.render.raster import png
from flowgraph.render.svg import svg


def main() -> None:
    print(f"{'family':9} {'cells':>5} {'svg ms':>7} {'png ms':>7} {'png KB':>7}")
    for family in ("standard", "hex", "warps", "bridges"):
        empty = board("standard", 15, 15)
        shape = board("bridges", 15, 15, bridges=pick_bridges(empty, 3, random.Random(1))) if family == "bridges" \
            else board(family, 15, 15)
        solution = generate(shape, seed=1).solution
        svg(solution), png(solution)  # the first draw imports Pillow
        ts, tp = [], []
        for _ in range(7):
            t = time.perf_counter()
            svg(solution)
            ts.append(time.perf_counter() - t)
            t = time.perf_counter()
            data = png(solution)
            tp.append(time.perf_counter() - t)
        print(f"{family:9} {solution.puzzle.cells:5} {statistics.median(ts) * 1000:7.1f} "
              f"{statistics.median(tp) * 1000:7.1f} {len(data) / 1024:7.1f}")


if __name__ == "__main__":
    main()
