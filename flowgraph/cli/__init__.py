"""The ``flowgraph`` command: solve, validate and bench puzzle files."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .. import __version__
from .bench import _cmd_bench
from .common import _EXIT_HELP, EXIT, _add_budget_options, _add_color_option, _Parser, _positive_float
from .solve import _cmd_solve
from .validate import _cmd_validate

__all__ = ["main", "run", "EXIT"]


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
