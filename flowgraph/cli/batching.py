"""What the batch commands (solve, validate, generate, bench) share: options, progress bar, rows in order, summary."""

from __future__ import annotations

import argparse
import contextlib
import json
import operator
import os
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from rich.console import Console

from ..io.files import split_level_key
from ..model import Limits
from .common import exit_help, output_file, positive_int

if TYPE_CHECKING:
    from rich.progress import Progress

    from ..batch.jobs import Jobs

__all__ = ["add_batch_options", "batch_limits", "run_rows", "print_summary", "EXIT_INTERRUPTED", "EXIT_LOST",
           "BATCH_EXIT_HELP",
           "SMALL_BATCH", "finish"]

#: The exit status of a batch stopped by Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: The exit status of a batch whose cluster was lost (its Dask scheduler gone); the rows done are kept.
EXIT_LOST = 7

#: Batches of fewer puzzles run in this process unless --jobs says otherwise (starting a worker costs ~0.3 s).
SMALL_BATCH = 4

BATCH_EXIT_HELP = exit_help(batch=True)


def add_batch_options(p: argparse.ArgumentParser, jobs_help: str = "") -> None:
    """Add the batch options to a command.

    ``--jobs``, ``--out``, ``--resume``, ``--scheduler``."""
    p.add_argument("-j", "--jobs", type=positive_int, default=None, metavar="N",
                   help=f"run in N worker processes, at most one per core (default: one per core, here "
                   f"{os.cpu_count() or 1}, from "
                   f"{SMALL_BATCH} puzzles on: fewer run in this process, quicker than starting workers); output "
                   f"stays in input order{jobs_help}")
    p.add_argument("--out", metavar="FILE",
                   help="write one JSON line per puzzle to FILE as each finishes (input order once all are done)")
    p.add_argument("--resume", action="store_true",
                   help="with --out: keep the rows FILE already holds and run only the rest")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on a Dask cluster (tcp://host:8786), or 'local' for a local Dask cluster of "
                   "--jobs workers; needs pip install 'flowgraph-solver[dask]'")


def batch_limits(budget: Limits, engine: str, tasks: int) -> Limits:
    """The budget of a batch's tasks: ``auto`` tries the search first in a batch that loads it (the executors
    load it for :data:`~flowgraph.engines.auto.BATCH_TASKS` puzzles or more)."""
    from ..engines.auto import batch_loads_search

    return replace(budget, search_first=True) if engine == "auto" and batch_loads_search(tasks) else budget


def run_rows(
    err: Console,
    args: argparse.Namespace,
    jobs: Jobs | Sequence[Any],
    task: Callable[..., dict],
    task_args: Callable[[Any], tuple],
    show: Callable[[int, Any, dict], None],
    *,
    verb: str = "solving",
    warm_up: str | None = None,
    key: Callable[[Any], str] = operator.attrgetter("key"),
    digest: Callable[[Any], str] | None = operator.attrgetter("digest"),
    long: bool = False,
):
    """Run a batch (:func:`~flowgraph.batch.runner.run_batch`) with a progress bar on a terminal.

    The bar is shown for two rows or more, or for one when ``long`` (a task that may take minutes).

    ``show(index, job, row)`` is called in input order, as soon as every earlier row is done; no row is kept
    after it. ``jobs`` are :class:`~flowgraph.batch.jobs.Jobs` (or anything sized with ``key`` and ``digest``
    given for it): ``digest`` makes ``--resume`` rerun changed files.

    Returns
    -------
    Batch or str
        The batch, or the message of an executor that could not start (a Dask scheduler out of reach).
    """
    from ..batch.executors import make_executor
    from ..batch.runner import run_batch

    total = len(jobs)
    if args.resume and not args.out:
        return "--resume needs --out FILE (the rows of the earlier run)"
    if args.out:
        refused = _refuse_out(args.out, jobs, key)
        if refused:
            return refused
    if warm_up == "search" and not args.scheduler:
        from .common import warm_up as load_here

        load_here(err, "search")  # a first run builds the passes here, said once, not silently in each worker
    cores = os.cpu_count() or 1
    if args.jobs is not None and args.jobs > cores and args.scheduler in (None, "local"):
        # more workers than cores only share them, each with its own memory (10,000 asked for started 10,000)
        err.print(f"note: --jobs {args.jobs:,} is more than the {cores} cores here: running {cores} workers",
                  markup=False)
        args.jobs = cores
    try:
        workers = args.jobs or (1 if total < SMALL_BATCH and not args.scheduler else None)
        executor = make_executor(workers, args.scheduler, warm_up=warm_up, tasks=total)
    except RuntimeError as exc:
        return str(exc)
    shown = err.is_terminal and total >= (1 if long else 2)  # (rich.progress is loaded only then: 9 ms of a small run)
    with executor, (_progress(err) if shown else contextlib.nullcontext()) as bar:
        task_id = bar.add_task(verb, total=total, rate="") if bar is not None else None

        def arrived(i: int, row: dict) -> None:
            if bar is not None and task_id is not None:
                done = bar.tasks[0].completed + 1
                elapsed = bar.tasks[0].elapsed or 0
                bar.update(task_id, advance=1, rate=f"{done / elapsed:.1f}/s" if elapsed > 0.5 else "")

        return run_batch(jobs, task, task_args, executor, key=key, digest=digest, total=total, out=args.out,
                         resume=args.resume, on_row=arrived, show=show)


def _progress(err: Console) -> Progress:
    """The batch's progress bar on ``err`` (a terminal): done of all, rate, time taken and left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    console=err, transient=True)


#: Bytes of an existing ``--out`` file read to see whether it holds rows.
_HEAD_BYTES = 1 << 16


def _refuse_out(out: str, jobs: Iterable, key: Callable[[Any], str]) -> str | None:
    """Why ``--out FILE`` must not be written (it is an input, or holds something else than rows), or None."""
    output_file(out, "--out")
    target = Path(out).resolve()
    if any(target in (Path(key(job)).resolve(), Path(split_level_key(key(job))[0]).resolve()) for job in _sources(jobs)):
        return f"--out {out} is one of the inputs: name a new file for the rows"
    try:
        if not stat.S_ISREG(os.stat(target).st_mode):
            return None  # a device or a pipe (/dev/stdout, /dev/null) holds no rows to protect: never read it
        with open(target, "rb") as fh:
            head = fh.read(_HEAD_BYTES)  # a row is far shorter: the check never reads a whole large file
    except FileNotFoundError:
        return None
    except OSError:
        head = b"?"
    first = next((line for line in head.decode("utf-8", "replace").splitlines() if line.strip()), None)
    if first is None:
        return None
    try:
        row = json.loads(first)
    except ValueError:
        row = None
    if not (isinstance(row, dict) and "key" in row):
        return f"--out {out} holds something other than rows of flowgraph: not overwritten (name a new file)"
    return None


def _sources(jobs: Iterable) -> Iterable:
    """The jobs, or for :class:`~flowgraph.batch.jobs.Jobs` one stand-in per input file (not a pack's lines)."""
    from ..batch.jobs import Jobs

    if isinstance(jobs, Jobs):
        return (SimpleNamespace(key=path) for path in jobs.paths)
    return jobs


def print_summary(console: Console, summary: dict, title: str) -> None:
    """The summary table of a batch: rows by status, total and wall seconds, the slowest puzzles."""
    from rich.table import Table
    from rich.text import Text

    styles = {"solved": "green", "valid": "green", "unique": "green", "generated": "green", "rated": "green",
              "multiple": "yellow",
              "unsolvable": "yellow", "limit": "red", "invalid": "red", "error": "bold red"}
    table = Table(title=title, show_header=True, title_justify="left")
    table.add_column("result")
    table.add_column("puzzles", justify="right")
    for status, n in summary["status"].items():
        table.add_row(Text(status, style=styles.get(status, "")), str(n))
    if summary["not_run"]:
        table.add_row("[red]not run (interrupted)[/]", str(summary["not_run"]))
    table.add_row("[bold]total[/]", f"[bold]{summary['jobs']}[/]")
    console.print(table)
    line = (f"{summary['seconds']:.3f} s of work in {summary['wall_seconds']:.3f} s wall time on "
            f"{summary['executor']} ({summary['workers']} worker{'s' if summary['workers'] != 1 else ''})")
    if summary["resumed"]:
        line += f"; {summary['resumed']} rows resumed from the output"
    console.print(line, markup=False)
    if summary["slowest"]:
        console.print("slowest: " + ", ".join(f"{s['puzzle']} ({s['seconds']:.3f} s)" for s in summary["slowest"]),
                      markup=False)


def finish(err: Console, batch, title: str | None, out: str | None, status: int) -> int:
    """The summary of a batch of several puzzles on standard error (none if ``title`` is None: the caller
    prints its own table), and the exit status (130: interrupted)."""
    from ..batch.runner import summarise

    if title is not None and (batch.jobs > 1 or batch.interrupted):
        print_summary(err, summarise(batch), title)
    if batch.interrupted:
        err.print(f"{batch.lost or 'interrupted'}: {batch.done:,} of {batch.jobs:,} done"
                  + (f"; their rows are in {out}: add --resume to finish the rest" if out else ""),
                  style="yellow", markup=False)
        return EXIT_LOST if batch.lost else EXIT_INTERRUPTED
    return status
