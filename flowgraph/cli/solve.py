"""``flowgraph solve``: solve puzzle files and print verified solutions."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..batch.outcome import Outcome, solve_file
from ..errors import ConversionError
from ..render.text import solution_text
from .render import add_picture_options, write_picture
from .common import (
    EXIT, add_budget_options, add_color_option, add_command, consoles, limits, print_problems, read_stdin, warm_up,
)

__all__ = ["add_parser", "run", "print_outcome", "write_pictures"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "solve", run,
        help="solve puzzle files and print verified solutions",
        description="Solve each puzzle file and print its verified solution: the puzzle's own "
        "layout with every cell filled with its flow's label and unused links blanked, then "
        "the engine that answered, the time and its work (search states or SAT calls). Use - to read "
        "standard input. The default engine, auto, runs SAT first and the heap search if SAT uses up "
        "60% of the time limit (30 s without one).",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="puzzle files: neighbor-link, or a JSON graph, a numberlink file or a *.grid plain grid")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object per puzzle (JSON Lines) instead of boards")
    p.add_argument("--svg", metavar="DIR", help="also draw each solution as DIR/<name>.svg")
    p.add_argument("--png", metavar="DIR", help="also draw each solution as DIR/<name>.png")
    add_picture_options(p)
    add_budget_options(p)
    add_color_option(p)


def run(args: argparse.Namespace) -> int:
    """Solve every file; the exit status is the largest of their outcomes."""
    out, err = consoles(args.color)
    status = 0
    budget = limits(args)
    warm_up(err, args.engine)
    for i, path in enumerate(args.files):
        outcome = solve_file(path, args.engine, budget, data=read_stdin(path))
        status = max(status, EXIT[outcome.status])
        if outcome.status == "solved" and (args.svg or args.png):
            write_pictures(outcome, args, err)
        if args.json:
            print(json.dumps(outcome.to_json()), flush=True)
            print_problems(err, path, (p for p in outcome.problems if p.is_error))
            continue
        print_problems(err, path, outcome.problems)
        if outcome.status == "invalid":
            continue
        if len(args.files) > 1:
            out.print(("\n" if i else "") + path, style="bold", markup=False)
        print_outcome(out, err, outcome)
    return status


def write_pictures(outcome: Outcome, args: argparse.Namespace, err) -> None:
    """The solution as DIR/<name>.svg and/or .png (``--svg DIR``, ``--png DIR``)."""
    name = "stdin" if outcome.path == "-" else Path(outcome.path).stem
    for folder, suffix in ((args.svg, ".svg"), (args.png, ".png")):
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            try:
                write_picture(outcome.solution, str(Path(folder) / (name + suffix)), args)
            except ConversionError as exc:
                err.print(f"{outcome.path}: no picture: {exc}", markup=False)


def print_outcome(out, err, outcome: Outcome) -> None:
    s = outcome.stats
    engine = outcome.solution.engine if outcome.solution else (s.get("tried") or [outcome.engine])[-1]
    nodes = s.get("nodes", 0)
    unit = "SAT call" if engine == "sat" else "state"
    stats = f"{s.get('seconds', 0):.3f} s, {nodes:,} {unit}{'' if nodes == 1 else 's'}"
    if outcome.status == "solved":
        out.print(solution_text(outcome.solution, color=True), end="")
        out.print(f"solved by {engine} in {stats}", style="dim", markup=False)
    elif outcome.status == "unsolvable":
        out.print(f"{outcome.message or 'no solution'} ({stats})", markup=False)
    elif outcome.status == "limit":
        tried = " then ".join(s.get("tried") or [engine])
        out.print(f"gave up: {outcome.message} ({tried}; {stats})", markup=False)
    else:
        err.print(f"{outcome.path}: internal error: {outcome.message}", markup=False)
