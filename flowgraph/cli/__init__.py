"""The ``flowgraph`` command: solve, validate and bench puzzle files."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from pathlib import Path

from rich.console import Console
from rich.text import Text

from .. import __version__
from ..engines import Outcome, engine_names, solve_file
from ..model import Puzzle
from ..io.neighbor_link import load
from ..errors import SearchLimitError
from ..model import Solution
from ..render.text import flow_style, solution_grid, solution_text
from ..engines.search.heap import DEFAULT_MEMORY_BYTES, Limits
from ..verify import verify

__all__ = ["main", "run", "EXIT"]

#: Exit status by outcome; with several files the largest applies.
EXIT = {"solved": 0, "valid": 0, "unsolvable": 1, "usage": 2, "invalid": 3, "limit": 4, "error": 5}

_EXIT_HELP = """\
exit status:
  0  every puzzle solved (validate: every file valid)
  1  some puzzle has no solution (the search space was exhausted)
  2  usage error (bad option or argument)
  3  some file is invalid (problems are printed as FILE:LINE:COLUMN: message)
  4  a node, time or memory budget ran out before an answer
  5  internal error: an engine's answer failed verification (please report it)
With several files, the largest status applies; every file is still processed.
"""


class _Parser(argparse.ArgumentParser):
    """argparse with the usage-error exit status documented above."""

    def error(self, message: str) -> None:  # pragma: no cover - argparse calls exit
        self.print_usage(sys.stderr)
        self.exit(EXIT["usage"], f"{self.prog}: error: {message}\n")


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not {text}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def _add_budget_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--engine", choices=engine_names(), default="search",
                   help="search: heap-ordered search (default); sat: CNF solved by python-sat")
    p.add_argument("--max-nodes", type=_positive_int, metavar="N",
                   help="give up after expanding N search states (status 'limit')")
    p.add_argument("--time-limit", type=_positive_float, metavar="S",
                   help="give up after S seconds per puzzle (status 'limit')")
    p.add_argument("--memory-limit", type=_positive_int, metavar="MB", default=DEFAULT_MEMORY_BYTES >> 20,
                   help="give up when the search frontier needs more than MB megabytes (default: %(default)s)")


def _add_color_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the output: auto (default) on a terminal unless NO_COLOR is set")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``flowgraph`` command."""
    parser = _Parser(
        prog="flowgraph",
        description="Solve Flow Free / Numberlink puzzles on any board: square, hex, "
        "warps (wrap-around links), bridges and irregular boards with holes.",
        epilog=_EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"flowgraph {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    solve = sub.add_parser(
        "solve",
        help="solve puzzle files and print verified solutions",
        description="Solve each puzzle file and print its verified solution: the puzzle's own "
        "layout with every cell filled with its flow's label and unused links blanked, then "
        "the time and the number of search states expanded. Use - to read standard input.",
        epilog=_EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument("files", nargs="+", metavar="FILE", help="puzzle files in the neighbor-link format")
    solve.add_argument("--json", action="store_true",
                       help="print one JSON object per puzzle (JSON Lines) instead of boards")
    _add_budget_options(solve)
    _add_color_option(solve)
    solve.set_defaults(func=_cmd_solve)

    validate = sub.add_parser(
        "validate",
        help="check puzzle files and list every problem at once",
        description="Check each puzzle file against the format and its rules and print every "
        "problem as FILE:LINE:COLUMN: error|warning: message, then a one-line verdict per file. "
        "Warnings (a header that does not match the board, a warp that repeats a link, text "
        "after the board) do not make a file invalid.",
        epilog=_EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="puzzle files in the neighbor-link format")
    validate.add_argument("--json", action="store_true",
                          help='one JSON object per file: {"puzzle", "valid", "problems": [...]}')
    validate.add_argument("--unique", action="store_true",
                          help="also solve with the SAT engine and say whether the solution is unique; "
                          "exit 1 when a valid file has no solution or several")
    validate.add_argument("--time-limit", type=_positive_float, metavar="S",
                          help="with --unique: give up after S seconds per file (status 4)")
    _add_color_option(validate)
    validate.set_defaults(func=_cmd_validate)

    bench = sub.add_parser(
        "bench",
        help="solve many puzzles in one process and print a table of times and nodes",
        description="Solve every puzzle file (folders: their *.txt files, recursively) in one "
        "process, verify each answer, and print a table (file, cells, flows, result, seconds, "
        "nodes) with totals. A progress bar runs on a terminal.",
        epilog="Exit status: 0 when every puzzle solved, else the largest status of solve.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    bench.add_argument("--json", metavar="OUT", help="also write the rows and totals as JSON to OUT")
    _add_budget_options(bench)
    _add_color_option(bench)
    bench.set_defaults(func=_cmd_bench)
    return parser


def _console(color: str, stream) -> Console:
    if color == "always":
        return Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)
    if color == "never":
        return Console(file=stream, no_color=True, highlight=False, soft_wrap=True, color_system=None)
    return Console(file=stream, highlight=False, soft_wrap=True)


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(args.max_nodes, args.time_limit, args.memory_limit << 20)


def _read(path: str) -> bytes | None:
    """Standard input for ``-``; files are read by the engine runner."""
    return sys.stdin.buffer.read() if path == "-" else None


def _report_problems(err: Console, outcome: Outcome, severities: tuple[str, ...] = ("error",)) -> None:
    for p in outcome.problems:
        if p.severity in severities:
            tag = "" if p.severity == "error" else "warning: "
            err.print(f"{outcome.path}:{p.line}:{p.column}: {tag}{p.message}", markup=False)


def _stats_line(outcome: Outcome) -> str:
    s = outcome.stats
    return f"{s.get('seconds', 0):.3f} s, {s.get('nodes', 0):,} nodes"


def _load_search(err: Console) -> None:
    """Load the search's compiled passes before any timing starts.

    The first run on a machine compiles them (about 10 s); a spinner on a
    terminal says what the wait is.
    """
    from ..engines.search.passes.regions import warm_up

    if err.is_terminal:
        with err.status("loading the search (a first run on a machine compiles it, ~10 s)"):
            warm_up()
    else:
        warm_up()


def _cmd_solve(args: argparse.Namespace) -> int:
    out = _console(args.color, sys.stdout)
    err = _console(args.color, sys.stderr)
    status = 0
    limits = _limits(args)
    if args.engine == "search":
        _load_search(err)
    for i, path in enumerate(args.files):
        outcome = solve_file(path, args.engine, limits, data=_read(path))
        status = max(status, EXIT[outcome.status])
        if args.json:
            print(json.dumps(outcome.to_json()), flush=True)
            if outcome.status == "invalid":
                _report_problems(err, outcome)
            continue
        _report_problems(err, outcome, ("error", "warning"))
        if outcome.status == "invalid":
            continue
        if len(args.files) > 1:
            out.print(("\n" if i else "") + path, style="bold", markup=False)
        if outcome.status == "solved":
            out.print(solution_text(outcome.solution, color=True), end="")
            out.print(f"solved in {_stats_line(outcome)}", style="dim", markup=False)
        elif outcome.status == "unsolvable":
            out.print(f"no solution: the search space is exhausted ({_stats_line(outcome)})", markup=False)
        elif outcome.status == "limit":
            out.print(f"gave up: {outcome.message} ({_stats_line(outcome)})", markup=False)
        else:
            err.print(f"{path}: internal error: {outcome.message}", markup=False)
    return status


def _cmd_validate(args: argparse.Namespace) -> int:
    out = _console(args.color, sys.stdout)
    status = 0
    for path in args.files:
        puzzle, problems = load(path, _read(path))
        errors = sum(p.severity == "error" for p in problems)
        warnings = len(problems) - errors
        valid = errors == 0
        status = max(status, EXIT["valid" if valid else "invalid"])
        found, verdict = None, None
        if args.unique and valid and puzzle is not None:
            found, verdict = _uniqueness(puzzle, args.time_limit)
            status = max(status, {"unique": 0, "limit": EXIT["limit"]}.get(verdict, EXIT["unsolvable"]))
        if args.json:
            obj = {
                "puzzle": path,
                "valid": valid,
                "problems": [
                    {"line": p.line, "column": p.column, "severity": p.severity, "message": p.message}
                    for p in problems
                ],
            }
            if verdict is not None:
                obj["solutions"] = None if verdict == "limit" else len(found)
            print(json.dumps(obj), flush=True)
            continue
        for p in problems:
            style = "red" if p.severity == "error" else "yellow"
            line = Text(f"{path}:{p.line}:{p.column}: ")
            line.append(f"{p.severity}:", style=f"bold {style}")
            line.append(f" {p.message}")
            out.print(line)
        counts = ", ".join(
            f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((errors, "error"), (warnings, "warning")) if n
        )
        if valid and puzzle is not None:
            size = f"{len(puzzle.flows)} flow{'s' if len(puzzle.flows) != 1 else ''}, {puzzle.cells} cells"
            out.print(Text(f"{path}: ").append("valid", style="bold green").append(f" ({size}{', ' + counts if counts else ''})"))
        else:
            out.print(Text(f"{path}: ").append("invalid", style="bold red").append(f" ({counts})"))
        if verdict is not None:
            _print_uniqueness(out, path, found, verdict)
    return status


def _cmd_bench(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from ..batch.bench import expand, run_bench, summary

    out = _console(args.color, sys.stdout)
    err = _console(args.color, sys.stderr)
    try:
        files = expand(args.paths)
    except FileNotFoundError as exc:
        err.print(f"flowgraph bench: no such file or folder: {exc.args[0]}", markup=False)
        return EXIT["usage"]
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=True, disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task("solving", total=len(files))

        def advance(row) -> None:
            bar.update(task, advance=1, description=Path(row.path).name)

        rows = run_bench(files, args.engine, _limits(args), advance)
    root = os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in files]) if files else ""
    table = Table(title=f"flowgraph bench --engine {args.engine}  ({root})", show_footer=True)
    totals = summary(rows)
    solved = totals["status"].get("solved", 0)
    table.add_column("file", footer=f"{len(rows)} puzzles", overflow="fold")
    table.add_column("cells", justify="right")
    table.add_column("flows", justify="right")
    table.add_column("result", footer=f"{solved} solved")
    table.add_column("seconds", justify="right", footer=f"{totals['seconds']:.3f}")
    table.add_column("nodes", justify="right", footer=f"{totals['nodes']:,}")
    styles = {"solved": "green", "unsolvable": "yellow", "limit": "red", "invalid": "red", "error": "bold red"}
    for r in rows:
        table.add_row(os.path.relpath(os.path.abspath(r.path), root), str(r.cells), str(r.flows), f"[{styles[r.status]}]{r.status}[/]",
                      f"{r.seconds:.3f}", f"{r.nodes:,}")
    out.print(table)
    slow = totals["slowest"]
    out.print(f"peak memory {totals['peak_rss_mb']} MiB; slowest {slow['path']} ({slow['seconds']:.3f} s)" if slow else "",
              markup=False)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"engine": args.engine, "rows": [r.to_json() for r in rows], "totals": totals}, fh, indent=1)
    return max((EXIT[r.status] for r in rows), default=0)


def _uniqueness(puzzle: Puzzle, time_limit_s: float | None) -> tuple[list[Solution], str]:
    """Up to two verified solutions and a verdict: unique, multiple, none or limit."""
    from ..engines.sat import solutions  # python-sat is loaded only when asked for

    try:
        found, _ = solutions(puzzle, 2, Limits(time_limit_s=time_limit_s))
    except SearchLimitError:
        return [], "limit"
    for sol in found:
        verify(sol)
    return found, {0: "none", 1: "unique"}.get(len(found), "multiple")


def _print_uniqueness(out: Console, path: str, found: list[Solution], verdict: str) -> None:
    if verdict == "unique":
        out.print(Text(f"{path}: ").append("unique", style="bold green").append(" solution"))
    elif verdict == "none":
        out.print(Text(f"{path}: ").append("no solution", style="bold red"))
    elif verdict == "limit":
        out.print(Text(f"{path}: ").append("gave up", style="bold yellow").append(": the time budget ran out"))
    else:
        first, second = (solution_grid(s) for s in found)
        differ = {
            (i, j) for i, (ra, rb) in enumerate(zip(first, second)) for j, (a, b) in enumerate(zip(ra, rb)) if a != b
        }
        cells = sum(1 for i, j in differ if first[i][j][0] not in " -|/\\")
        out.print(Text(f"{path}: ").append("multiple solutions", style="bold yellow")
                  .append(f"; two of them differ in {cells} cells (marked x):"))
        width = max(len(r) for r in first + second)
        for i, (ra, rb) in enumerate(zip(first, second)):
            line = Text("  ")
            for row in (ra, rb):
                for j, (ch, label) in enumerate(row):
                    style = flow_style(label) if label else ""
                    line.append(ch, style=style + (" reverse" if (i, j) in differ and ch.strip() else ""))
                line.append(" " * (width - len(row) + 3))
            line.append("".join("x" if (i, j) in differ and ra[j][0] not in " -|/\\" else " " for j in range(len(ra))).rstrip())
            out.print(line)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (never raises for bad input).

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        See ``flowgraph --help`` for the meaning of each status.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
