"""Explain every puzzle of a folder and replay the steps against the solution: one row a puzzle, then totals.

``flowgraph explain``'s promise is that every step agrees with the solution
and the steps together decide every link (:func:`flowgraph.authoring.explain.replay`
checks both). The tests replay the bundled boards and the corpus boards of at
most 100 cells; this script does it for a whole folder, the corpus by default,
with a time limit a puzzle, in worker processes, and prints per puzzle its
cells, status, steps, rating, uniqueness and seconds.

Status: ``agrees`` (replayed, no problem), ``DISAGREES`` (the problems
follow the row), ``unsolvable`` (no solution under Flow Free's rules: nothing
to explain, as for many Numberlink boards, which may leave cells empty),
``limit`` (not explained in the time given), ``invalid``.

Usage::

    python bench/explain_replay.py [FOLDER ...] [--time-limit 120] [--jobs 2] [--largest N] [--exclude GLOB]

FOLDER defaults to ``$FLOWGRAPH_CORPUS`` or ``../shared/corpus`` (skipped with
a message when absent). Exit status 1 when any puzzle disagrees.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def _corpus() -> Path:
    return Path(os.environ.get("FLOWGRAPH_CORPUS") or Path(__file__).resolve().parents[2] / "shared" / "corpus")


def _warm() -> None:
    from flowgraph import kernels

    kernels.warm_up()


def one(path: str, time_limit: float) -> dict:
    """Explain and replay one puzzle file; a row."""
    from flowgraph.authoring.explain import explain, replay
    from flowgraph.errors import SearchLimitError, UnsolvableError
    from flowgraph.io import load
    from flowgraph.model import Limits

    t0 = time.perf_counter()
    puzzle, problems = load(path)
    row: dict = {"puzzle": path, "cells": getattr(puzzle, "cells", 0)}
    if puzzle is None or any(p.is_error for p in problems) or not puzzle.flows:
        return {**row, "status": "invalid", "seconds": time.perf_counter() - t0}
    try:
        found = explain(puzzle, Limits(time_limit_s=time_limit))
    except UnsolvableError:
        return {**row, "status": "unsolvable", "seconds": time.perf_counter() - t0}
    except SearchLimitError:
        return {**row, "status": "limit", "seconds": time.perf_counter() - t0}
    wrong = replay(found)
    return {**row, "status": "DISAGREES" if wrong else "agrees", "problems": wrong[:5], "steps": len(found.steps),
            "rating": found.rating, "tier": found.tier, "unique": found.unique,
            "seconds": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds a puzzle (default 120)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--largest", type=int, default=None, help="only the N largest puzzles (by file size)")
    parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                        help="leave out files whose name matches (repeatable), e.g. 'inputs9_*'")
    args = parser.parse_args(argv)
    folders = args.folders or [_corpus()]
    missing = [f for f in folders if not f.is_dir()]
    if missing:
        print(f"no such folder: {', '.join(map(str, missing))} (set FLOWGRAPH_CORPUS): nothing replayed")
        return 0
    files = sorted(str(p) for f in folders for p in f.rglob("*.txt")
                   if not any(fnmatch.fnmatch(p.name, glob) for glob in args.exclude))
    if args.largest:
        files = sorted(files, key=lambda p: -os.path.getsize(p))[: args.largest]
    counts: dict[str, int] = {}
    t0 = time.perf_counter()
    work = 0.0
    with ProcessPoolExecutor(args.jobs, initializer=_warm) as pool:
        for row in pool.map(one, files, [args.time_limit] * len(files)):
            counts[row["status"]] = counts.get(row["status"], 0) + 1
            work += row["seconds"]
            extra = ""
            if "steps" in row:
                unique = {True: "unique", False: "several", None: "unknown"}[row["unique"]]
                extra = f"{row['steps']:6d} steps  {row['rating']:5.2f} {row['tier']:8s} {unique:8s}"
            print(f"{row['puzzle']:70s} {row['cells']:6d} {row['status']:10s} {extra:40s} {row['seconds']:8.2f} s",
                  flush=True)
            for problem in row.get("problems", []):
                print(f"    {problem}")
    total = sum(counts.values())
    print(f"{total} puzzles: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) +
          f"; {work:.1f} s of work in {time.perf_counter() - t0:.1f} s wall time ({args.jobs} workers)")
    return 1 if counts.get("DISAGREES") else 0


if __name__ == "__main__":
    sys.exit(main())
