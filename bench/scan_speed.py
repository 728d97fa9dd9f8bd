"""Seconds per picture of ``flowgraph.scan`` over the corpus screenshots (median of 3 runs each).

    python bench/scan_speed.py [FOLDER]          # ../shared/corpus/screenshots; its shapes/ folder too

Prints one row per picture (board read, cells, flows, seconds) and the total.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from flowgraph.scan import ScanError, read_board

HERE = Path(__file__).resolve().parent
FOLDER = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent.parent / "shared" / "corpus" / "screenshots"


def main() -> None:
    pictures = {".jpg", ".jpeg", ".png", ".webp"}
    shots = [p for folder in (FOLDER, FOLDER / "shapes") if folder.is_dir()
             for p in sorted(folder.iterdir()) if p.suffix.lower() in pictures]
    if not shots:
        sys.exit(f"no pictures in {FOLDER}")
    read_board(shots[0])  # imports OpenCV once, outside the timings
    total = 0.0
    print(f"{'picture':28} {'board':>12} {'cells':>6} {'flows':>6} {'seconds':>8}")
    for shot in shots:
        times = []
        try:
            for _ in range(3):
                t0 = time.perf_counter()
                found = read_board(shot)
                times.append(time.perf_counter() - t0)
        except ScanError as err:  # a picture no board is read from: its row says why, the others go on
            print(f"{shot.name[:28]:28} {'-':>12} {'-':>6} {'-':>6} {'-':>8}  {err.message[:90]}")
            continue
        sec = statistics.median(times)
        total += sec
        if found.board is None:  # a shape board: the regions its lines enclose
            board, cells = "shape", len(found.regions.outlines) if found.regions else 0
        else:
            kind = "hex" if found.board.lattice.family == "HEX" else "square"
            board, cells = f"{found.size[0]}x{found.size[1]} {kind}", len(found.board.cells)
        print(f"{shot.name[:28]:28} {board:>12} {cells:6} {len(found.puzzle.flows) if found.puzzle else '-':>6} "
              f"{sec:8.3f}")
    print(f"{'total':28} {'':12} {'':6} {'':6} {total:8.3f}  ({len(shots)} pictures)")


if __name__ == "__main__":
    main()
