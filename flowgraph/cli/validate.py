"""``flowgraph validate``: every problem of each file at once, and on request whether its solution is unique."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.text import Text

from ..authoring.uniqueness import Uniqueness, count_solutions, differing_cells
from ..io.files import load
from ..io.problems import Problem
from ..model import Limits, Puzzle
from ..render.text import board_rows, flow_style, solution_grid
from .common import EXIT, add_color_option, add_command, console, positive_float, read_stdin

__all__ = ["add_parser", "run"]

_LINKS = " -|/\\"  # grid characters that are no cell


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "validate", run,
        help="check puzzle files and list every problem at once",
        description="Check each puzzle file against the format and its rules and print every "
        "problem as FILE:LINE:COLUMN: error|warning: message, then a one-line verdict per file. "
        "Warnings (a header that does not match the board, a warp that repeats a link) do not "
        "make a file invalid.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="puzzle files: neighbor-link, or a JSON graph, a numberlink file or a *.grid plain grid")
    p.add_argument("--json", action="store_true",
                   help='one JSON object per file: {"puzzle", "valid", "problems": [...]}')
    p.add_argument("--unique", action="store_true",
                   help="also solve with the SAT engine and say whether the solution is unique; "
                   "exit 1 when a valid file has no solution or several")
    p.add_argument("--time-limit", type=positive_float, metavar="S",
                   help="with --unique: give up after S seconds per file (status 4)")
    add_color_option(p)


def run(args: argparse.Namespace) -> int:
    """Validate every file; 3 if one is invalid, 1 if one is not uniquely solvable (``--unique``)."""
    out = console(args.color, sys.stdout)
    status = 0
    for path in args.files:
        puzzle, problems = load(path, read_stdin(path))
        valid = not any(p.is_error for p in problems)
        status = max(status, EXIT["valid" if valid else "invalid"])
        unique = None
        if args.unique and puzzle is not None:
            unique = count_solutions(puzzle, 2, Limits(time_limit_s=args.time_limit))
            status = max(status, {"unique": 0, "limit": EXIT["limit"]}.get(unique.verdict, EXIT["unsolvable"]))
        if args.json:
            obj = {"puzzle": path, "valid": valid, "problems": [p.to_json() for p in problems]}
            if unique is not None:
                obj["solutions"] = unique.count
            print(json.dumps(obj), flush=True)
            continue
        _print_verdict(out, path, puzzle, problems)
        if unique is not None:
            _print_uniqueness(out, path, unique)
    return status


def _print_verdict(out: Console, path: str, puzzle: Puzzle | None, problems: list[Problem]) -> None:
    for p in problems:
        line = Text(f"{p.location(path)}: ")
        line.append(f"{p.severity}:", style="bold red" if p.is_error else "bold yellow")
        line.append(f" {p.message}")
        out.print(line)
    errors = sum(p.is_error for p in problems)
    counts = ", ".join(
        f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((errors, "error"), (len(problems) - errors, "warning")) if n
    )
    if puzzle is not None:
        size = f"{len(puzzle.flows)} flow{'s' if len(puzzle.flows) != 1 else ''}, {puzzle.cells} cells"
        out.print(Text(f"{path}: ").append("valid", style="bold green").append(f" ({size}{', ' + counts if counts else ''})"))
    else:
        out.print(Text(f"{path}: ").append("invalid", style="bold red").append(f" ({counts})"))


def _print_uniqueness(out: Console, path: str, unique: Uniqueness) -> None:
    verdict = unique.verdict
    if verdict == "unique":
        out.print(Text(f"{path}: ").append("unique", style="bold green").append(" solution"))
    elif verdict == "none":
        out.print(Text(f"{path}: ").append("no solution", style="bold red"))
    elif verdict == "limit":
        out.print(Text(f"{path}: ").append("gave up", style="bold yellow").append(": the time budget ran out"))
    else:
        _print_two_solutions(out, path, unique)


def _print_two_solutions(out: Console, path: str, unique: Uniqueness) -> None:
    """Two solutions side by side, the cells where they differ marked ``x``."""
    a, b = unique.solutions[:2]
    top = board_rows(a.puzzle).start
    cells = {(line - 1 - top, column - 1) for line, column in differing_cells(a, b)}
    first, second = solution_grid(a), solution_grid(b)
    out.print(Text(f"{path}: ").append("multiple solutions", style="bold yellow")
              .append(f"; two of them differ in {len(cells)} cells (marked x):"))
    width = max(len(r) for r in first + second)
    for i, (ra, rb) in enumerate(zip(first, second)):
        line = Text("  ")
        for row, other in ((ra, rb), (rb, ra)):
            for j, (ch, label) in enumerate(row):
                changed = ch.strip() and (j >= len(other) or other[j] != (ch, label))
                line.append(ch, style=(flow_style(label) if label else "") + (" reverse" if changed else ""))
            line.append(" " * (width - len(row) + 3))
        marks = "".join("x" if (i, j) in cells and ra[j][0] not in _LINKS else " " for j in range(len(ra)))
        line.append(marks.rstrip())
        out.print(line)
