"""Seconds per picture of ``flowgraph.scan`` over the corpus screenshots (median of 3 runs each).

    python bench/scan_speed.py [FOLDER]

Prints one row per picture (board read, cells, flows, seconds) and the total.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from flowgraph.scan import read_board

HERE = Path(__file__).resolve().parent
FOLDER = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent.parent / "shared" / "corpus" / "screenshots"


def main() -> None:
    shots = sorted(FOLDER.glob("*.jpg")) + sorted(FOLDER.glob("*.png"))
    if not shots:
        sys.exit(f"no pictures in {FOLDER}")
    read_board(shots[0])  # imports OpenCV once, outside the timings
    total = 0.0
    print(f"{'picture':28} {'board':>12} {'cells':>6} {'flows':>6} {'seconds':>8}")
    for shot in shots:
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            found = read_board(shot)
            times.append(time.perf_counter() - t0)
        sec = statistics.median(times)
        total += sec
        kind = "hex" if found.board.lattice.family == "HEX" else "square"
        print(f"{shot.name:28} {f'{found.size[0]}x{found.size[1]} {kind}':>12} {len(found.board.cells):6} "
              f"{len(found.puzzle.flows) if found.puzzle else '-':>6} {sec:8.3f}")
    print(f"{'total':28} {'':12} {'':6} {'':6} {total:8.3f}  ({len(shots)} pictures)")


if __name__ == "__main__":
    main()
