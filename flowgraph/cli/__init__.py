"""The ``flowgraph`` command: one module per subcommand, each with ``add_parser()`` and ``run()``.

The commands only parse arguments and print; what they decide (outcomes,
verdicts, tables' numbers) comes from the library, so the studio and batch
runs can call the same functions.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence

from .. import __version__
from ..batch.jobs import EmptyFolderError
from . import bench, convert, generate, new, render, scan, solve, studio, validate, warm_up
from .common import EXIT, EXIT_HELP, OutputError, Parser

__all__ = ["main", "run", "build_parser", "EXIT", "COMMANDS"]

#: The subcommands, in the order ``--help`` lists them.
COMMANDS = (solve, validate, render, new, convert, generate, scan, studio, bench, warm_up)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``flowgraph`` command."""
    parser = Parser(
        prog="flowgraph",
        description="Solve Flow Free / Numberlink puzzles on any board: square, hex, "
        "warps (wrap-around links), bridges and irregular boards with holes.",
        epilog=EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"flowgraph {__version__}")
    parser.add_argument("--debug", action="store_true", dest="show_traceback",
                        help="on an internal error, show the traceback (otherwise one line, exit status 5); "
                        "give it before the command: flowgraph --debug solve ...")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for command in COMMANDS:
        command.add_parser(sub)
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
    except (OutputError, EmptyFolderError) as exc:  # found before any work
        print(f"flowgraph {args.command}: {exc}", file=sys.stderr)
        return EXIT["usage"]
    except Exception as exc:  # a bug: one line, never a traceback (exit 1 means "no solution")
        if args.show_traceback:
            traceback.print_exc()
        else:
            print(f"flowgraph {args.command}: internal error: {type(exc).__name__}: {exc} "
                  "(run with --debug for the traceback)", file=sys.stderr)
        return EXIT["error"]


def _quiet_interrupts(unraisable) -> None:
    """Ctrl-C landing while a finalizer runs (python-sat's ``Solver.__del__``) is the interrupt the command
    already reports, not a traceback to print; anything else goes to Python's own hook."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt):
        return
    sys.__unraisablehook__(unraisable)


def run() -> None:
    """Console-script entry point."""
    sys.unraisablehook = _quiet_interrupts  # the process's own hook: a library caller of main() keeps theirs
    sys.exit(main())
