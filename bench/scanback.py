"""Scanning a picture of a known board back, for the scan benchmarks: the same board, refused, or wrong."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from flowgraph.errors import ScanError
from flowgraph.io.sketch import same_graph
from flowgraph.model import Puzzle
from flowgraph.scan import scan

SHAPES = Path(__file__).resolve().parent.parent / "puzzles" / "shapes"


def only_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--only NAME ...``: the bundled shape boards whose file names start so (default: all)."""
    parser.add_argument("--only", nargs="+", default=[], help="boards whose file name starts so")


def shape_files(only: list[str]) -> list[Path]:
    """The bundled shape boards (``puzzles/shapes/*.json``) whose file names start with one of ``only``."""
    return [f for f in sorted(SHAPES.glob("*.json")) if not only or any(f.name.startswith(o) for o in only)]


class Tally:
    """Pictures scanned back, counted by what came of them, and the seconds the scans took."""

    def __init__(self) -> None:
        self.counts = {"same": 0, "refused": 0, "WRONG": 0}
        self.seconds = 0.0

    def scan_back(self, picture: bytes, puzzle: Puzzle, width: int = 100) -> str:
        """Scan ``picture`` of ``puzzle``: a row's end, ``"0.42  same"`` (or refused with why, or WRONG)."""
        t0 = time.perf_counter()
        try:
            found = scan(picture)
            result = "same" if same_graph(found, puzzle) else "WRONG"
            why = "" if result == "same" else f" ({len(found.graph)} nodes read, {len(puzzle.graph)} drawn)"
        except ScanError as err:
            result, why = "refused", f": {err.message}"
        seconds = time.perf_counter() - t0
        self.seconds += seconds
        self.counts[result] += 1
        return f"{seconds:7.2f}  {result}{why[:width]}"

    def summary(self) -> str:
        """The totals, one line."""
        c = self.counts
        return (f"{sum(c.values())} pictures: {c['same']} read to the same board, {c['refused']} refused, "
                f"{c['WRONG']} wrong; {self.seconds:.1f} s scanning")
