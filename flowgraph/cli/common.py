"""Shared pieces of the commands: exit statuses, options, consoles."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from ..batch.outcome import Outcome
from ..engines import engine_names
from ..model import DEFAULT_MEMORY_BYTES, Limits


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
    from ..engines.search.passes.settle import warm_up

    if err.is_terminal:
        with err.status("loading the search (a first run on a machine compiles it, ~10 s)"):
            warm_up()
    else:
        warm_up()
