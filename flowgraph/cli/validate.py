"""``flowgraph validate``: every problem of each file at once, and on request whether its solution is unique."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.text import Text

from ..authoring.uniqueness import Uniqueness, differing_cells
from ..io.problems import Problem
from ..model import Puzzle, Rules, Solution
from ..render.text import board_rows, flow_style, solution_grid
from .batching import add_batch_options, finish, run_rows
from .common import (
    EXIT,
    MAX_SHOWN_PROBLEMS,
    add_color_option,
    add_command,
    add_memory_option,
    add_rules_option,
    consoles,
    exit_help,
    positive_float,
    positive_int,
    read_stdin,
)

__all__ = ["add_parser", "run"]

_LINKS = " -|/\\"  # grid characters that are no cell


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph validate`` and its options to the command line."""
    p = add_command(
        sub, "validate", run,
        description="Check each puzzle file against the format and its rules and print every "
        "problem as FILE:LINE:COLUMN: error|warning: message, then a one-line verdict per file. "
        "Warnings (a header that does not match the board, a warp that repeats a link) do not "
        "make a file invalid. Folders stand for their puzzle files and a level pack for each of its levels; "
        "files are checked in parallel (--jobs) or on a Dask cluster (--scheduler) and print in input order.",
        epilog="examples:\n  flowgraph validate puzzles/standard/garden_9x7_holes.txt\n"
        "  flowgraph validate --unique ../shared/corpus/samgoldman --out unique.jsonl\n\n"
        + exit_help("every file valid (with --unique: each has exactly one solution; --count: each was counted)",
                    "--unique: a valid file has no solution or several; --count: a valid file has none", batch=True),
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="puzzle files or folders: neighbor-link, or a JSON graph, a numberlink file, a *.grid plain "
                   "grid, a level pack")
    p.add_argument("--json", action="store_true",
                   help='one JSON object per file: {"puzzle", "valid", "problems": [...]}')
    add_rules_option(p)
    p.add_argument("--unique", action="store_true",
                   help="also look for a second solution (the exhaustive link search, SAT) and say whether the "
                   "solution is unique; "
                   "exit 1 when a valid file has no solution or several")
    p.add_argument("--count", action="store_true",
                   help="also count every solution under the rules (the exhaustive link search, any family); "
                   "exit 1 when a valid file has none")
    p.add_argument("--canonical", action="store_true",
                   help="with --count under Numberlink rules: count only canonical solutions (no path jumps a "
                   "2x2 U-turn, a path turning around an empty cell turns at the later corner in row order): "
                   "the number semiexp's numlin_v2 prints, one per family of solutions that differ by such moves")
    p.add_argument("--max", type=positive_int, metavar="N", dest="most",
                   help="with --count: stop at N solutions and say 'at least N'")
    p.add_argument("--time-limit", type=positive_float, metavar="S", dest="time_limit_s",
                   help="with --unique or --count: give up after S seconds per file (status 4)")
    add_memory_option(p, "a count (--unique, --count) has grown the process by more")
    add_batch_options(p)
    add_color_option(p)


def run(args: argparse.Namespace) -> int:
    """Validate every file; 3 if one is invalid, 1 if one is not uniquely solvable (``--unique``)."""
    from ..batch.jobs import Jobs
    from ..batch.tasks import validate_task

    out, err = consoles(args.color)
    lone = [flag for flag, given in (("--max", args.most is not None), ("--canonical", args.canonical)) if given]
    if lone and not args.count:
        err.print(f"flowgraph validate: error: {' and '.join(lone)} {'needs' if len(lone) == 1 else 'need'} --count",
                  markup=False)
        return EXIT["usage"]
    jobs = Jobs(args.files, read_stdin("-") if "-" in args.files else None)
    statuses: list[int] = []

    def show(i: int, job, row: dict) -> None:
        status = EXIT["valid" if row.get("valid") else "invalid"]
        verdict = row.get("verdict")
        if verdict is not None and args.unique:
            status = max(status, EXIT.get(verdict, EXIT["unsolvable"]))
        elif verdict is not None:  # --count: a count is an answer (several too), none is not
            status = max(status, 0 if verdict == "multiple" else EXIT.get(verdict, 0))
        if row.get("_timed_out"):
            status = max(status, EXIT["limit"])
        if row["status"] == "error":
            status = EXIT["error"]
            err.print(f"{job.name}: internal error: {row.get('message', '')}", markup=False)
        statuses.append(status)
        if args.json:
            obj = {"puzzle": job.name, "valid": row.get("valid", False), "problems": row.get("problems", [])}
            for key in ("rules", "solutions", "count", "exact", "canonical"):
                if key in row:
                    obj[key] = row[key]
            if verdict is not None:
                obj["verdict"] = verdict
            print(json.dumps(obj), flush=True)
            return
        puzzle, problems = (job.read(None if row.get("valid") else args.memory_limit << 20)
                            if job.error is None
                            else (None, [job.error_problem()]))
        _print_verdict(out, job.name, puzzle, problems, job.where)
        if verdict is not None and puzzle is not None:
            solutions = tuple(Solution(puzzle, {k: tuple(tuple(n) for n in v) for k, v in paths.items()}, "sat")
                              for paths in row.get("_solutions", []))
            if args.unique:
                _print_uniqueness(out, job.name, Uniqueness(verdict, solutions))
            if args.count:
                _print_count(out, job.name, row, args.most)

    batch = run_rows(err, args, jobs, validate_task,
                     lambda j: (j, args.unique, args.time_limit_s, args.rules, args.count, args.most, args.canonical,
                                args.memory_limit << 20),
                     show, verb="checking", warm_up="search" if args.unique or args.count else None)
    if isinstance(batch, str):
        err.print(f"flowgraph validate: {batch}", markup=False)
        return EXIT["usage"]
    return finish(err, batch, "flowgraph validate", args.out, max(statuses, default=0))


def _print_verdict(out: Console, path: str, puzzle: Puzzle | None, problems: list[Problem],
                   where: str | None = None) -> None:
    for p in problems[:MAX_SHOWN_PROBLEMS]:
        line = Text(f"{p.location(where or path)}: ")
        line.append(f"{p.severity}:", style="bold red" if p.is_error else "bold yellow")
        line.append(f" {p.message}")
        out.print(line)
    if len(problems) > MAX_SHOWN_PROBLEMS:
        out.print(f"{path}: ... and {len(problems) - MAX_SHOWN_PROBLEMS:,} more problems (--json lists them all)",
                  markup=False)
    errors = sum(p.is_error for p in problems)
    counts = ", ".join(
        f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((errors, "error"), (len(problems) - errors, "warning")) if n
    )
    if puzzle is not None:
        places = {node[:2] for node in puzzle.cell_index.nodes}  # a bridge once, as the picture draws it
        bridges = len({node[:2] for node in puzzle.cell_index.nodes if len(node) == 3})
        size = (f"{len(puzzle.flows)} flow{'s' if len(puzzle.flows) != 1 else ''}, {len(places)} cells"
                + (f", {bridges} bridge{'s' if bridges != 1 else ''}" if bridges else ""))
        out.print(Text(f"{path}: ").append("valid", style="bold green").append(f" ({size}{', ' + counts if counts else ''})"))
    else:
        out.print(Text(f"{path}: ").append("invalid", style="bold red").append(f" ({counts})"))


def _print_count(out: Console, path: str, row: dict, most: int | None) -> None:
    count, rules = row["count"], f" under {Rules.of(row['rules']).display_name} rules" if "rules" in row else ""
    word = ("canonical " if row.get("canonical") else "") + ("solution" if count == 1 else "solutions")
    if row.get("_timed_out"):
        out.print(Text(f"{path}: ").append("limit", style="bold yellow")
                  .append(f": {f'at least {count} {word}' if count else 'no solution found'}{rules} when the time ran out"))
    elif not row["exact"]:
        out.print(Text(f"{path}: ").append(f"at least {count} {word}", style="bold yellow")
                  .append(f"{rules} (stopped at --max {most})"))
    elif count == 0:
        out.print(Text(f"{path}: ").append("no solution", style="bold red").append(rules))
    else:
        out.print(Text(f"{path}: ").append(f"{count} {word}", style="bold green" if count == 1 else "bold yellow")
                  .append(rules))


def _print_uniqueness(out: Console, path: str, unique: Uniqueness) -> None:
    verdict = unique.verdict
    if verdict == "unique":
        out.print(Text(f"{path}: ").append("unique", style="bold green").append(" solution"))
    elif verdict == "none":
        out.print(Text(f"{path}: ").append("no solution", style="bold red"))
    elif verdict == "limit" and unique.solutions:
        out.print(Text(f"{path}: ").append("gave up", style="bold yellow").append(
            ": a solution exists, but the time budget ran out before a second one was found or ruled out"
            " (a longer --time-limit may answer)"))
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
              .append(f"; two of them differ in {len(cells)} cell{'s' if len(cells) != 1 else ''} (marked x):"))
    width = max(len(r) for r in first + second)
    for i, (ra, rb) in enumerate(zip(first, second)):
        line = Text("  ")
        for row, other in ((ra, rb), (rb, ra)):
            for j, (ch, label) in enumerate(row):
                changed = ch.strip() and (j >= len(other) or other[j] != (ch, label))
                line.append(ch, style=(flow_style(label) if label else "") + (" reverse" if changed else ""))
            line.append(" " * (width - len(row) + 3))
        # a third board: every cell a dot, the differing ones x (in a pipe too, where colour does not show)
        marks = "".join(" " if not ra[j][0].strip() or ra[j][0] in _LINKS else "x" if (i, j) in cells else "."
                        for j in range(len(ra)))
        line.append(marks.rstrip())
        out.print(line)
