"""flowgraph's own pictures of the bundled shape boards, scanned back: read to the same board, refused, or wrong.

    python bench/scan_own_shapes.py [--px 40 60 ...] [--theme dark light] [--only ring triquetra ...]

Draws each board in ``puzzles/shapes/`` (unsolved) at each size and theme, scans the picture and compares the
board read with the board drawn (the same graph and endpoint pairs, whatever the numbering). Prints one row per
picture (its size, the seconds the scan took, what came of it) and the totals. A wrong board is what must never
happen: the scan refuses with why rather than read another board.
"""

from __future__ import annotations

import argparse

from scanback import Tally, only_option, shape_files

import flowgraph
from flowgraph.render.raster import png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--px", type=int, nargs="+", default=[40, 60], help="pixels a cell (default 40 60)")
    parser.add_argument("--theme", nargs="+", default=["dark", "light"], choices=["dark", "light"])
    only_option(parser)
    args = parser.parse_args()
    files = shape_files(args.only)
    tally = Tally()
    print(f"{'board':30} {'theme':5} {'px':>3} {'seconds':>7}  result")
    for path in files:
        puzzle = flowgraph.parse_file(path)
        for theme in args.theme:
            for px in args.px:
                row = tally.scan_back(png(puzzle, theme=theme, cell_px=px), puzzle)
                print(f"{path.name[:30]:30} {theme:5} {px:>3} {row}", flush=True)
    print(tally.summary())

if __name__ == "__main__":
    main()
