"""flowgraph's own pictures of the bundled shape boards, scanned back: read to the same board, refused, or wrong.

    python bench/scan_own_shapes.py [--px 40 60 ...] [--theme dark light] [--only ring triquetra ...]

Draws each board in ``puzzles/shapes/`` (unsolved) at each size and theme, scans the picture and compares the
board read with the board drawn (the same graph and endpoint pairs, whatever the numbering). Prints one row per
picture (its size, the seconds the scan took, what came of it) and the totals. A wrong board is what must never
happen: the scan refuses with why rather than read another board.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import flowgraph
from flowgraph.errors import ScanError
from flowgraph.io.sketch import same_graph
from flowgraph.render.raster import png
from flowgraph.scan import scan

SHAPES = Path(__file__).resolve().parent.parent / "puzzles" / "shapes"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--px", type=int, nargs="+", default=[40, 60], help="pixels a cell (default 40 60)")
    parser.add_argument("--theme", nargs="+", default=["dark", "light"], choices=["dark", "light"])
    parser.add_argument("--only", nargs="+", default=[], help="boards whose file name starts so")
    args = parser.parse_args()
    files = [f for f in sorted(SHAPES.glob("*.json")) if not args.only or any(f.name.startswith(o) for o in args.only)]
    tally = {"same": 0, "refused": 0, "WRONG": 0}
    total = 0.0
    print(f"{'board':30} {'theme':5} {'px':>3} {'seconds':>7}  result")
    for path in files:
        puzzle = flowgraph.parse_file(path)
        for theme in args.theme:
            for px in args.px:
                picture = png(puzzle, theme=theme, cell_px=px)
                t0 = time.perf_counter()
                try:
                    found = scan(picture)
                    result = "same" if same_graph(found, puzzle) else "WRONG"
                    why = "" if result == "same" else f" ({len(found.graph)} nodes read, {len(puzzle.graph)} drawn)"
                except ScanError as err:
                    result, why = "refused", f": {err.message[:100]}"
                sec = time.perf_counter() - t0
                total += sec
                tally[result] += 1
                print(f"{path.name[:30]:30} {theme:5} {px:>3} {sec:7.2f}  {result}{why}", flush=True)
    print(f"{sum(tally.values())} pictures: {tally['same']} read to the same board, {tally['refused']} refused, "
          f"{tally['WRONG']} wrong; {total:.1f} s scanning")


if __name__ == "__main__":
    main()
