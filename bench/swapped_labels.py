"""Boards made unsolvable (mostly) by swapping two labels: how fast each engine answers.

Usage: python bench/swapped_labels.py [COUNT] [SECONDS]
Takes COUNT janko boards (default 16, spread over the set) from
../shared/corpus/numberlink, swaps the second endpoints of the first two
flows, and solves each with ``--engine sat`` and ``--engine search`` under a
time limit (default 5 s). Prints per board each engine's answer and seconds,
then the totals. Skips cleanly without the corpus.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

from flowgraph import parse_file
from flowgraph.engines import get_engine, solve_puzzle
from flowgraph.errors import SearchLimitError, UnsolvableError
from flowgraph.model import Flow, Limits

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "numberlink"


def swapped(puzzle):
    """The puzzle with the second endpoints of its first two flows exchanged."""
    a, b = puzzle.flows[0], puzzle.flows[1]
    flows = (Flow(a.label, (a.ends[0], b.ends[1])), Flow(b.label, (b.ends[0], a.ends[1])), *puzzle.flows[2:])
    return replace(puzzle, flows=flows)


def answer(puzzle, engine: str, seconds: float) -> tuple[str, float]:
    t = time.perf_counter()
    try:
        solve_puzzle(puzzle, engine=engine, limits=Limits(time_limit_s=seconds))
        result = "solved"
    except UnsolvableError:
        result = "unsolvable"
    except SearchLimitError:
        result = "limit"
    return result, time.perf_counter() - t


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    files = sorted(CORPUS.glob("janko_*.txt"))
    if not files:
        print(f"no corpus at {CORPUS}: nothing to measure")
        return 0
    picked = files[:: max(1, len(files) // count)][:count]
    for engine in ("sat", "search"):
        get_engine(engine).warm_up()
    totals = {"sat": 0.0, "search": 0.0}
    for path in picked:
        puzzle = swapped(parse_file(path))
        row = [path.stem]
        for engine in ("sat", "search"):
            result, dt = answer(puzzle, engine, seconds)
            totals[engine] += dt
            row.append(f"{engine} {result:10} {dt:6.3f} s")
        print("  ".join(row), flush=True)
    print(f"total: sat {totals['sat']:.2f} s, search {totals['search']:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
