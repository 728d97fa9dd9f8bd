"""How the endpoints and paths of generated boards lie, beside the game's levels (issue 55).

Five numbers a board, from its endpoints and its solution's paths (square boards), then the median of
each over a set:

* border: the share of endpoints on the board's outer ring;
* band: the most endpoints in any three adjacent rows or columns, as a share of all endpoints
  (a board whose endpoints bunch along one side scores high);
* spread: the Clark-Evans ratio of the endpoints, their mean distance to the nearest other endpoint
  over ``0.5 * sqrt(area / endpoints)``, what points placed at random would have (Clark and Evans,
  "Distance to nearest neighbor as a measure of spatial relationships in populations", Ecology 35, 1954):
  below 1 bunched, above 1 evenly spaced;
* turns: the share of the paths' inner cells where the path turns;
* ring: the share of the outer ring's cells whose path runs along the ring on both sides (a spiral
  or a C hugging the border scores high).

Sets: the game's Extreme levels of one size (``levelpack_19`` and ``levelpack_20`` of nubango/FlowFree's
``Assets/Levels``; give the folder, nothing is copied), its ordinary levels of that size (a seeded
sample), and ``flowgraph generate --difficulty D`` boards of that size from seeds 0..N-1.

Usage::

    python bench/layout_spread.py PACK_FOLDER [--size 10] [--count 10] [--difficulty extreme]
                                  [--time-limit 60] [--png FILE]

``--png`` draws the first five generated boards above five of the game's Extreme levels.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import statistics
import sys
import time
from pathlib import Path

EXTREME_PACKS = ("levelpack_19.txt", "levelpack_20.txt")
METRICS = ("border", "band", "spread", "turns", "ring")


def game_levels(folder: Path, size: int, extreme: bool, count: int, seed: int = 1) -> list[str]:
    """``PACK#LINE`` references of the game's square levels of ``size`` (Extreme or ordinary, a seeded sample)."""
    refs = []
    for path in sorted(folder.glob("levelpack_*.txt")):
        numbered = re.fullmatch(r"levelpack_\d+\.txt", path.name)
        if not numbered or (path.name in EXTREME_PACKS) != extreme:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            head = line.split(";")[0].split(",")
            if len(head) >= 4 and head[0].isdigit() and int(head[0]) == size and "." not in head[0]:
                refs.append(f"{path}#{number}")
    random.Random(seed).shuffle(refs)
    return refs[:count]


def measure(puzzle, solution) -> dict[str, float]:
    """The five numbers of one solved square board (see the module's docstring)."""
    from flowgraph.io.sketch import place, sketch_of

    spots = sketch_of(puzzle).spots
    xy = {node: place(spots[node])[:2] for node in puzzle.graph}
    xs = sorted({x for x, _ in xy.values()})
    ys = sorted({y for _, y in xy.values()})
    col = {x: i for i, x in enumerate(xs)}
    row = {y: i for i, y in enumerate(ys)}
    at = {node: (col[x], row[y]) for node, (x, y) in xy.items()}
    w, h = len(xs), len(ys)
    ends = [at[p[0]] for p in solution.paths.values()] + [at[p[-1]] for p in solution.paths.values()]
    on_ring = lambda c, r: c in (0, w - 1) or r in (0, h - 1)  # noqa: E731
    border = sum(on_ring(*e) for e in ends) / len(ends)
    band = max(max(sum(lo <= e[axis] < lo + 3 for e in ends) for lo in range(max(1, n - 2)))
               for axis, n in ((0, w), (1, h))) / len(ends)
    nearest = [min(math.dist(a, b) for j, b in enumerate(ends) if j != i) for i, a in enumerate(ends)]
    spread = statistics.fmean(nearest) / (0.5 * math.sqrt(w * h / len(ends)))
    turned = inner = along = ring = 0
    for path in solution.paths.values():
        cells = [at[v] for v in path]
        for a, b, c in zip(cells, cells[1:], cells[2:]):
            inner += 1
            turned += (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1])
            if on_ring(*b):
                ring += 1
                along += on_ring(*a) and on_ring(*c) and (a[0] == c[0] or a[1] == c[1])
    ring_cells = 2 * (w + h) - 4
    return {"border": border, "band": band, "spread": spread, "turns": turned / max(1, inner),
            "ring": along / ring_cells}


def _game(ref: str):
    from flowgraph import solve
    from flowgraph.io.files import load

    puzzle, problems = load(ref)
    if puzzle is None:
        raise SystemExit(f"{ref}: {problems[0]}")
    return puzzle, solve(puzzle)


def _generated(size: int, difficulty: str, seed: int, time_limit: float):
    from flowgraph.authoring.generate import bridged_board, generate_rated

    made, _, _ = generate_rated(lambda s: bridged_board("standard", size, size, seed=s), difficulty,
                                seed=seed, time_limit_s=time_limit)
    return made.puzzle, made.solution


def summary(name: str, rows: list[dict[str, float]]) -> str:
    cells = " ".join(f"{statistics.median(r[m] for r in rows):>7.2f}" for m in METRICS)
    return f"{name:<28} {len(rows):>5} {cells}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packs", type=Path, help="nubango/FlowFree Assets/Levels (the levelpack_*.txt files)")
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--count", type=int, default=10, help="boards a set (default 10)")
    parser.add_argument("--difficulty", default="extreme")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds a generated board (default 60)")
    parser.add_argument("--png", type=Path, help="five generated boards above five of the game's Extreme levels")
    args = parser.parse_args(argv)
    extreme = game_levels(args.packs, args.size, True, args.count)
    if not extreme:
        print(f"{args.packs}: no Extreme levels of {args.size}x{args.size}", file=sys.stderr)
        return 2
    sets = {"game, Extreme": [_game(r) for r in extreme],
            "game, ordinary": [_game(r) for r in game_levels(args.packs, args.size, False, args.count)]}
    t0 = time.perf_counter()
    sets[f"generated, {args.difficulty}"] = [_generated(args.size, args.difficulty, s, args.time_limit)
                                             for s in range(args.count)]
    made_s = time.perf_counter() - t0
    print(f"{args.size}x{args.size}; median of each       boards " + " ".join(f"{m:>7}" for m in METRICS))
    for name, boards in sets.items():
        print(summary(name, [measure(p, s) for p, s in boards]))
    print(f"generated in {made_s:.1f} s ({made_s / args.count:.1f} s a board)")
    if args.png:
        _picture(args.png, sets[f"generated, {args.difficulty}"][:5], sets["game, Extreme"][:5])
    return 0


def _picture(out: Path, made: list, game: list) -> None:
    """Two rows of solved boards, generated above the game's, as one PNG."""
    import io

    from PIL import Image

    from flowgraph.render.raster import png

    tiles = [[Image.open(io.BytesIO(png(s, cell_px=20))) for _, s in row] for row in (made, game)]
    w = max(t.width for row in tiles for t in row)
    h = max(t.height for row in tiles for t in row)
    sheet = Image.new("RGB", (5 * (w + 10) + 10, 2 * (h + 10) + 10), "white")
    for j, row in enumerate(tiles):
        for i, tile in enumerate(row):
            sheet.paste(tile, (10 + i * (w + 10), 10 + j * (h + 10)))
    sheet.save(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())
