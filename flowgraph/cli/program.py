"""The ``flowgraph`` program: the parser of every subcommand, :func:`main` and the console script's :func:`run`.

Imported by :func:`flowgraph.cli.run` inside its Ctrl-C handler, so an
interrupt while these modules load is one line too.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import sys
import traceback
from collections.abc import Sequence

from .. import __version__
from ..batch.jobs import EmptyFolderError
from ..io.files import WriteError
from .common import EXIT, SUMMARIES, OutputError, Parser, exit_help

__all__ = ["main", "run", "build_parser", "EXIT", "COMMANDS"]  # re-exported by flowgraph.cli

#: The subcommands, in the order ``--help`` lists them.
COMMANDS = tuple(SUMMARIES)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``flowgraph`` command.

    With ``argv``, only the module of the command it names is imported (its full parser); the
    others are listed by their one-line help (start-up: ``flowgraph solve`` does not load the
    studio's or the scanner's code). Without, every command's parser is built.
    """
    words = [a for a in argv or () if not a.startswith("-")]
    chosen = words[0] if argv is not None and words and words[0] in SUMMARIES else None
    parser = Parser(
        prog="flowgraph",
        description="Solve Flow Free / Numberlink puzzles on any board: square, hex, "
        "warps (wrap-around links), bridges and irregular boards with holes. A puzzle is a file (neighbor-link, "
        "plain grid, numberlink, JSON graph), a level of a Flow Free pack (pack.txt#3) or a puzz.link URL "
        "(numlin, arukone), wherever a command reads one.",
        epilog=exit_help(program=True),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"flowgraph {__version__}")
    parser.add_argument("--debug", action="store_true", dest="show_traceback",
                        help="on an internal error, show the traceback (otherwise one line, exit status 5); "
                        "give it before the command: flowgraph --debug solve ...")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for name in COMMANDS:
        if argv is None or name == chosen:
            importlib.import_module(f".{name.replace('-', '_')}", __package__).add_parser(sub)
        else:
            sub.add_parser(name, help=SUMMARIES[name])  # not run: its options are not needed
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
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
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
    except OSError as exc:
        if not isinstance(exc, WriteError) and exc.errno not in _OUTPUT_ERRNOS:
            return _internal_error(args, exc)
        print(f"flowgraph {args.command}: {exc if isinstance(exc, WriteError) else _cannot_write(exc)}",
              file=sys.stderr)
        return EXIT["output"]
    except Exception as exc:  # a bug: one line, never a traceback (exit 1 means "no solution")
        return _internal_error(args, exc)


#: An OSError with one of these, escaping a command, is an output that could not be written (readers report
#: their own problems): a full disk or quota, a read-only file system, a file too large, an I/O error.
_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG, errno.EIO, errno.EACCES, errno.EPERM}


def _cannot_write(exc: OSError) -> str:
    return f"cannot write {exc.filename or 'standard output'}: {exc.strerror or exc}"


def _internal_error(args: argparse.Namespace, exc: BaseException) -> int:
    if args.show_traceback:
        traceback.print_exception(exc)
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
    """Console-script entry point (through :func:`flowgraph.cli.run`)."""
    sys.unraisablehook = _quiet_interrupts  # the process's own hook: a library caller of main() keeps theirs
    try:
        status = main()
        sys.stdout.flush()  # here, not at exit: a full or closed standard output is said in one line
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        status = 130
    except BrokenPipeError:
        _drop_stdout()
        status = 0
    except OSError as exc:
        _drop_stdout()
        print(f"flowgraph: cannot write standard output: {exc.strerror or exc}", file=sys.stderr)
        status = EXIT["output"]
    sys.exit(status)


def _drop_stdout() -> None:
    """Send what is left in standard output's buffer nowhere, so Python's exit does not report it again."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
