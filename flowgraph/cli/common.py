"""What the commands share: exit statuses, option types and groups, consoles, progress of a warm-up."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NoReturn

from rich.console import Console

from ..engines import engine_names, get_engine
from ..io.files import write_atomic
from ..io.problems import Problem
from ..model import DEFAULT_MEMORY_BYTES, RULES, Limits

__all__ = [
    "EXIT", "EXIT_HELP", "Parser", "positive_int", "positive_float", "add_budget_options", "add_color_option",
    "add_command", "add_memory_option", "memory_mb", "MAX_SECONDS", "consoles", "console", "limits", "read_stdin",
    "print_problems", "warm_up", "Command", "OutputError", "output_file", "output_folder", "add_rules_option",
    "PictureNames",
    "write_output",
]

#: Exit status by outcome; with several files the largest applies.
#: Each status a row or a command ends in, to the exit status it gives: the one map (a count's verdicts too:
#: ``none`` and, for ``validate --unique``, ``multiple`` are the "no" of status 1).
EXIT = {"solved": 0, "valid": 0, "unique": 0, "rated": 0, "generated": 0, "unsolvable": 1, "none": 1, "multiple": 1,
        "usage": 2, "invalid": 3, "limit": 4, "error": 5, "output": 6}

def exit_help(ok: str = "every puzzle solved",
              none: str = "some puzzle has no solution (the search space was exhausted)", batch: bool = False,
              program: bool = False) -> str:
    """The exit-status table of a command's ``--help``, with its own words for statuses 0 and 1 (``batch``: a
    command that runs batches; ``program``: ``flowgraph --help``, every status any command gives)."""
    interrupted = ("interrupted (Ctrl-C): the rows done stay in --out FILE; --resume finishes" if batch
                   else "interrupted (Ctrl-C)")
    lost = ("\n  7  the Dask scheduler was lost (--scheduler): the rows done stay in --out FILE; --resume\n"
            "     finishes" if batch else
            "\n  7  a batch's Dask scheduler was lost (solve, validate, rate, generate, bench with\n"
            "     --scheduler): the rows done stay in --out FILE; --resume finishes" if program else "")
    return f"""\
exit status:
  0  {ok}
  1  {none}
  2  usage error (bad option or argument)
  3  some file is invalid (problems are printed as FILE:LINE:COLUMN: message)
  4  a state, time or memory budget ran out before an answer
  5  internal error: a bug, such as an answer that failed verification (please report it;
     flowgraph --debug COMMAND ... shows the traceback)
  6  an output could not be written (a full disk, a read-only folder): one line names it; a
     file is written whole or not at all{lost}
  130 {interrupted}
With several files, the largest status applies; every file is still processed.
"""


EXIT_HELP = exit_help()

class OutputError(Exception):
    """An output destination that cannot be written (a folder where a file is wanted, say): exit status 2."""


def names_a_file(path: str | None) -> bool:
    """Whether ``-o path`` reads as a file (a name with a suffix, not an existing folder): never made a folder."""
    return path is not None and bool(Path(path).suffix) and not os.path.isdir(path)


def output_file(path: str | None, what: str = "output") -> str | None:
    """Check ``path`` as a file to write before any work is done; its missing parent folders are made.

    Raises
    ------
    OutputError
        ``path`` is a folder, or a parent of it is a file.
    """
    if path is None or path == "-":
        return path
    target = Path(path)
    if target.is_dir():
        raise OutputError(f"{what} {path} is a folder: name a file")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise OutputError(f"{what} {path}: a parent of it is a file, not a folder") from None
    except OSError as exc:
        raise OutputError(f"{what} {path}: cannot make its folder: {exc.strerror or exc}") from None
    return path


class PictureNames:
    """Each puzzle's picture name in a folder (``--svg DIR``, ``--png DIR``), one name a puzzle within a batch.

    A file's name is its stem, a level of a pack (``pack.txt#3``) ``pack-3``; a name another puzzle of the batch
    took already goes on with ``-2``, ``-3`` (two files ``a/p.txt`` and ``b/p.txt``: ``p``, ``p-2``), in the
    order the rows are shown, which is the inputs' order. (Named by the stem alone, a pack's 1,500 levels made
    one picture.)

    >>> names = PictureNames()
    >>> [names(p) for p in ("a/p.txt", "b/p.txt", "pack.txt#3", "a/p.txt", "-")]
    ['p', 'p-2', 'pack-3', 'p', 'stdin']
    """

    def __init__(self) -> None:
        self._of: dict[str, str] = {}  # puzzle -> its name
        self._taken: set[str] = set()

    def __call__(self, puzzle: str) -> str:
        from ..io.files import shown_name, split_level_key

        if puzzle in self._of:
            return self._of[puzzle]
        base, number = split_level_key(puzzle)
        name = "stdin" if base == "-" else shown_name(Path(base).stem) + (f"-{number}" if number is not None else "")
        given, k = name, 1
        while given in self._taken:
            k += 1
            given = f"{name}-{k}"
        self._taken.add(given)
        self._of[puzzle] = given
        return given


def output_folder(path: str | None, what: str = "output folder") -> str | None:
    """Check ``path`` as a folder to write into; it is made (with its parents) when missing.

    Raises
    ------
    OutputError
        ``path`` or a parent of it is a file.
    """
    if path is None:
        return path
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise OutputError(f"{what} {path} is a file (or inside one): name a folder") from None
    except OSError as exc:
        raise OutputError(f"{what} {path}: cannot make it: {exc.strerror or exc}") from None
    return path


def write_output(text: str, path: str | None) -> None:
    """Write a command's output.

    ``text`` to the file ``path`` (checked by :func:`output_file` before the work), or standard output."""
    if path and path != "-":
        write_atomic(path, text)
    else:
        sys.stdout.write(text)


#: What a command module gives the ``flowgraph`` parser: ``add_parser(subparsers)``
#: registers it and sets ``run(args) -> exit status`` as its ``func``.
Command = Callable[[argparse.Namespace], int]


class Parser(argparse.ArgumentParser):
    """argparse with the usage-error exit status documented above."""

    def error(self, message: str) -> NoReturn:  # pragma: no cover - argparse calls exit
        """Print the usage and ``message`` and exit with the usage status (2)."""
        self.print_usage(sys.stderr)
        self.exit(EXIT["usage"], f"{self.prog}: error: {message}\n")


def positive_int(text: str) -> int:
    """argparse type: a whole number above 0 (argparse names the option in the error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not {text}")
    return value


#: The longest time limit an option takes (seconds; about 11 days): ``inf`` and ``1e308`` are no budget.
MAX_SECONDS = 1_000_000
#: The largest --memory-limit (megabytes: 1 TiB).
MAX_MEMORY_MB = 1 << 20


def positive_float(text: str) -> float:
    """argparse type: a number of seconds above 0, at most :data:`MAX_SECONDS` (``inf`` and ``nan`` refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= MAX_SECONDS:  # (nan fails both)
        raise argparse.ArgumentTypeError(f"must be a number above 0 and at most {MAX_SECONDS:,.0f}, not {text}")
    return value


def memory_mb(text: str) -> int:
    """argparse type: megabytes, 1 to :data:`MAX_MEMORY_MB`."""
    value = positive_int(text)
    if value > MAX_MEMORY_MB:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_MEMORY_MB:,} (MB), not {text}")
    return value


def add_memory_option(p: argparse.ArgumentParser, gives_up: str = "the search frontier needs more") -> None:
    """Add the memory bound to a command.

    ``--memory-limit MB``: the memory an input may take to read, and what the command's run gives up at
    (``gives_up``, words after "give up when")."""
    p.add_argument("--memory-limit", type=memory_mb, metavar="MB", default=DEFAULT_MEMORY_BYTES >> 20,
                   help="refuse a board that takes more than MB megabytes to read (about 2 KB a cell), give up "
                   f"when {gives_up} (status 4; default: %(default)s)")


def add_rules_option(p: argparse.ArgumentParser) -> None:
    """Add the choice of rules to a command.

    ``--rules flow|numberlink`` (default: the source's own)."""
    p.add_argument("--rules", choices=RULES, default=None,
                   help="flow: every cell lies on a path (Flow Free); numberlink: cells may stay empty (Nikoli's "
                   "Numberlink); default: the source's own (a puzz.link numlin URL: numberlink; other formats: flow)")


def add_budget_options(p: argparse.ArgumentParser) -> None:
    """Add the engine and budget options to a command.

    ``--engine``, ``--rules``, ``--max-states`` (``--max-nodes``, deprecated), ``--time-limit``, ``--memory-limit``."""
    p.add_argument("--engine", choices=engine_names(), default="auto",
                   help="auto: SAT first, the search if SAT is stuck (default; under Numberlink rules: a "
                   "filled solution first, then links, then sat); search: the heap-ordered search alone (Flow "
                   "Free rules only); sat: CNF solved by python-sat alone; links: the exhaustive link search "
                   "(numlin_v2's way), its first solution")
    add_rules_option(p)
    p.add_argument("--max-states", type=positive_int, metavar="N",
                   help="give up after the search expands N states (status 'limit')")
    p.add_argument("--max-nodes", type=positive_int, metavar="N", dest="max_nodes",
                   help="deprecated (goes in the next release): N search states or N SAT calls; use --max-states")
    p.add_argument("--time-limit", type=positive_float, metavar="S", dest="time_limit_s",
                   help="give up after S seconds per puzzle (status 'limit')")
    add_memory_option(p)


def add_color_option(p: argparse.ArgumentParser) -> None:
    """Add ``--color auto|always|never`` to ``p``."""
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the output: auto (default) on a terminal unless NO_COLOR is set")


#: Every subcommand and its one-line help, in the order ``--help`` lists them (the CLI loads only the module of
#: the command run: ``flowgraph --help`` lists them all from here).
SUMMARIES = {
    "solve": "solve puzzle files and print verified solutions",
    "validate": "check puzzle files and list every problem at once",
    "render": "draw a puzzle or its solution (SVG, PNG) or the search solving it (GIF)",
    "new": "print an empty board (a template) of any family and shape",
    "convert": "convert between puzzle formats (neighbor-link, plain grid, numberlink, level packs, JSON graph, "
               "puzz.link URLs)",
    "generate": "generate puzzles with exactly one solution (proved by the SAT engine)",
    "scan": "read puzzles from screenshots (square and hex boards) and write or solve them",
    "studio": "open a local web page to draw, check, solve and export puzzles",
    "bench": "solve many puzzles and print a table of times, states and SAT calls",
    "explain": "the solving path as a person takes it: each step, its technique and why",
    "rate": "rate puzzles 0 to 10 by their solving path (its span, techniques and tight steps): easy to extreme",
    "warm-up": "load every engine now: build the search once for this machine, so that no solve waits for it",
}


def add_command(sub: argparse._SubParsersAction, name: str, run: Command, *, description: str,
                epilog: str = EXIT_HELP) -> argparse.ArgumentParser:
    """Register the subcommand ``name`` whose ``run(args)`` gives the exit status; returns its parser."""
    p = sub.add_parser(name, help=SUMMARIES[name], description=description, epilog=epilog,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=run)
    return p


def consoles(color: str) -> tuple[Console, Console]:
    """Standard output and standard error as consoles that colour as ``--color`` says."""
    return console(color, sys.stdout), console(color, sys.stderr)


def console(color: str, stream) -> Console:
    """A rich console on ``stream`` that colours as ``--color`` says."""
    if color == "always":
        return Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)
    if color == "never":
        return Console(file=stream, no_color=True, highlight=False, soft_wrap=True, color_system=None)
    return Console(file=stream, highlight=False, soft_wrap=True)


def limits(args: argparse.Namespace) -> Limits:
    """The budgets of :func:`add_budget_options`."""
    old = args.max_nodes  # it bounded search states and SAT calls alike
    if old is not None:
        print("flowgraph: --max-nodes is deprecated, use --max-states", file=sys.stderr)
    return Limits(max_states=args.max_states if args.max_states is not None else old, time_limit_s=args.time_limit_s,
                  memory_bytes=args.memory_limit << 20, max_sat_calls=old)


def read_stdin(path: str) -> bytes | None:
    """Standard input for ``-``; files are read by the loader."""
    from ..io.files import read_stdin as read_bounded_stdin

    return read_bounded_stdin() if path == "-" else None


#: Problems printed for one file; the rest are counted (``--json`` lists them all).
MAX_SHOWN_PROBLEMS = 100


def print_problems(err: Console, path: str, problems: Iterable[Problem], name_errors: bool = False) -> None:
    """Each problem as ``FILE:LINE:COLUMN: message`` (:meth:`Problem.text`), the first :data:`MAX_SHOWN_PROBLEMS`."""
    more = 0
    for i, p in enumerate(problems):
        if i < MAX_SHOWN_PROBLEMS:
            err.print(p.text(path, name_errors), markup=False)
        else:
            more += 1
    if more:
        err.print(f"{path}: ... and {more:,} more problems (--json lists them all)", markup=False)


def warm_up(err: Console, engine: str, build: bool = False) -> None:
    """Load the engine before any timing starts, with a spinner on a terminal.

    The search's first run on a machine (or after an upgrade) builds its
    passes ahead of time (:data:`flowgraph.kernels.cache.BUILD_NOTE`; without a
    C compiler it compiles them just in time): that is said, on a terminal or
    not, with the seconds so far on a terminal, and timed apart from every
    puzzle. ``build`` builds them ahead of time even where the just-in-time
    ones are compiled (``flowgraph warm-up``).
    """
    import contextlib
    import time

    from ..engines import freeze_loaded

    module = get_engine(engine)
    if engine == "search" and not _search_compiled(build):
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        from ..kernels import build_ahead
        from ..kernels.cache import BUILD_NOTE

        t0 = time.perf_counter()
        err.print(f"flowgraph: {BUILD_NOTE} ...", markup=False)
        shown = Progress(SpinnerColumn(), TextColumn("compiling"), TimeElapsedColumn(), console=err,
                         transient=True)  # the time so far: a build that takes minutes is seen to be alive
        with shown if err.is_terminal else contextlib.nullcontext():
            if err.is_terminal:
                shown.add_task("compiling", total=None)
            why = build_ahead()
            module.warm_up()
        if why:
            err.print(f"flowgraph: no ahead-of-time build ({why}); the search runs compiled just in time, "
                      "with numba loaded in each process", markup=False)
        err.print(f"flowgraph: search engine compiled in {time.perf_counter() - t0:.1f} s", markup=False)
    else:
        module.warm_up()
    freeze_loaded()


def _search_compiled(ahead: bool = False) -> bool:
    from ..kernels.cache import compiled

    return compiled(ahead)


def add_shape_options(p: argparse.ArgumentParser) -> None:
    """``--shape`` and its size options (``new`` and ``generate``: the parameters of
    :data:`flowgraph.authoring.shapes.SHAPES`)."""
    p.add_argument("--shape", choices=("ring", "cube", "star", "figure-eight", "linked-loops", "borromean", "triquetra",
                                       "tiling"),
                   help="a shape board, written as a JSON graph whose cells carry their outlines and names: ring "
                   "(--rings, --sectors, --centre), cube (--side), star (--side, --points), figure-eight "
                   "(--rings across its band, --sectors along each loop; its crossing's cells are bridges, or --crossing "
                   "cells) or "
                   "linked-loops (--loops in a chain, --rings across each band, --sectors along it; each crossing "
                   "of two bands is bridges) or borromean (three rings, --rings across each band, --sectors along it, "
                   "each crossing both others twice at 60 degrees on bridges) or triquetra (one band round three pointed "
                   "lobes, --rings across it, --sectors along each arc; it crosses itself three times on bridges) or "
                   "tiling (--tiling, cut to "
                   "--silhouette or a shape of --side cells)")
    p.add_argument("--rings", type=positive_int, default=2, metavar="N",
                   help="--shape ring: rings of sectors; figure-eight, linked-loops, borromean, triquetra: cells "
                   "across the band (default 2)")
    p.add_argument("--sectors", type=positive_int, default=8, metavar="N",
                   help="--shape ring: sectors a ring; figure-eight: cells along each loop's arc; linked-loops: "
                   "cells along each loop, about (or the fewest its crossings need); borromean: cells along each "
                   "ring, about; triquetra: along each arc, tip to tip, about (default 8)")
    p.add_argument("--crossing", choices=("bridges", "cells"), default="bridges",
                   help="--shape figure-eight: where the band crosses itself, bridges (a path over, one under; "
                   "default) or plain cells any path may turn in (the game's level 91)")
    p.add_argument("--loops", type=positive_int, default=2, metavar="N",
                   help="--shape linked-loops: loops in the chain, 2 to 8 (default 2)")
    p.add_argument("--centre", action="store_true", help="--shape ring: a centre cell in the hole")
    p.add_argument("--side", type=positive_int, default=3, metavar="N",
                   help="--shape cube, star: cells along a face's or an arm's side; tiling: the default "
                   "board's side (default 3)")
    p.add_argument("--points", type=positive_int, default=6, metavar="N",
                   help="--shape star: its points, 5 to 12 (default 6: the Daily star; 5: the five-pointed one)")
    p.add_argument("--tiling", choices=("square", "hex", "triangle", "rhombus"), default="triangle",
                   help="--shape tiling: the cells (default triangle; rhombus: 60-degree rhombi in rows, as a star's "
                   "arm). Without --silhouette: a square or rhombus of --side x --side cells, or a hexagon of "
                   "--side cells on each edge")
    p.add_argument("--silhouette", metavar="'X,Y X,Y ...'",
                   help="--shape tiling: a polygon's corners in cell sides from the tiling's origin (y down); the "
                   "board is the cells whose centres it holds, e.g. '0,0 8,0 4,7' (a triangle)")


def shape_size(args: argparse.Namespace) -> dict:
    """The size options ``args.shape`` takes, by name (``{"rings": 2, "sectors": 8, "centre": False}``)."""
    from ..authoring.shapes import SHAPES

    return {name: getattr(args, name) for name in SHAPES[args.shape]}
