"""``flowgraph bench``: many puzzles in one process, a table of times and nodes."""

from __future__ import annotations

import argparse
import json
import os

from ..io.files import write_atomic
from .batching import add_batch_options, batch_limits, finish, run_rows
from .common import EXIT, add_budget_options, add_color_option, add_command, consoles, exit_help, limits, output_file

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph bench`` and its options to the command line."""
    p = add_command(
        sub, "bench", run,
        description="Solve every puzzle file (folders: their puzzle files, recursively; level packs: each level) in a pool of "
        "worker processes, verify each answer, and print a table (file, cells, flows, result, seconds, "
        "search states, SAT calls) in input order, with totals and the wall time. A progress bar runs on a terminal.",
        epilog="examples:\n  flowgraph bench puzzles/\n  flowgraph bench corpus/numberlink --engine search "
        "--time-limit 30 --json rows.json\n  flowgraph bench big/ --jobs 1   (one process: times free of "
        "contention)\n  flowgraph bench corpus/ --scheduler local --jobs 2   (a local Dask cluster)\n\n"
        + exit_help("every puzzle solved and verified", "some puzzle has no solution (the search space was exhausted)",
                    batch=True),
    )
    p.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    p.add_argument("--json", metavar="OUT", help="also write the rows and totals as JSON to OUT")
    add_batch_options(p, "; each row's time is its own worker's, so a busy machine slows them")
    add_budget_options(p)
    add_color_option(p)


def run(args: argparse.Namespace) -> int:
    """Solve every file, print the table; the exit status is the largest of the rows'."""
    from rich.table import Table

    from ..batch.bench import bench_row_of, expand, summary
    from ..batch.jobs import Jobs
    from ..batch.tasks import bench_task

    output_file(args.json, "--json")

    out, err = consoles(args.color)
    try:
        files = expand(args.paths)
    except FileNotFoundError as exc:  # as solve and validate say it, with their status
        err.print(f"{exc.args[0]}:1:1: cannot read file: No such file or directory", markup=False)
        return EXIT["invalid"]
    jobs = Jobs(files)
    budget = batch_limits(limits(args), args.engine, len(jobs))
    rows = []  # (the table's: a benchmark's rows are small, and the table needs them all)
    batch = run_rows(err, args, jobs, bench_task, lambda j: (j, args.engine, budget, args.rules),
                     lambda i, job, row: rows.append(bench_row_of(row)), warm_up=args.engine)
    if isinstance(batch, str):
        err.print(f"flowgraph bench: {batch}", markup=False)
        return EXIT["usage"]
    wall = batch.wall_seconds
    files = [r.path for r in rows]
    root = os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in files]) if files else ""
    table = Table(title=f"flowgraph bench --engine {args.engine} --jobs {batch.workers} on {batch.executor}  ({root})",
                  show_footer=True)
    totals = summary(rows)
    solved = totals["status"].get("solved", 0)
    table.add_column("file", footer=f"{len(rows)} puzzles", overflow="fold")
    table.add_column("cells", justify="right")
    table.add_column("flows", justify="right")
    table.add_column("result", footer=f"{solved} solved")
    table.add_column("seconds", justify="right", footer=f"{totals['seconds']:.3f}")
    table.add_column("states", justify="right", footer=f"{totals['states']:,}")
    table.add_column("SAT calls", justify="right", footer=f"{totals['sat_calls']:,}")
    styles = {"solved": "green", "unsolvable": "yellow", "limit": "red", "invalid": "red", "error": "bold red"}
    for r in rows:
        table.add_row(os.path.relpath(os.path.abspath(r.path), root), str(r.cells), str(r.flows),
                      f"[{styles[r.status]}]{r.status}[/]", f"{r.seconds:.3f}", f"{r.states:,}", f"{r.sat_calls:,}")
    out.print(table)
    slow = totals["slowest"]
    totals["wall_seconds"] = round(wall, 3)
    out.print(f"wall time {wall:.3f} s with {batch.workers} job{'s' if batch.workers > 1 else ''}; peak memory "
              f"{totals['peak_rss_mb']} MiB" + (f"; slowest {slow['path']} ({slow['seconds']:.3f} s)" if slow else ""),
              markup=False)
    if args.json:
        write_atomic(args.json, json.dumps({"engine": args.engine, "jobs": batch.workers, "executor": batch.executor,
                                            "rows": [r.to_json() for r in rows], "totals": totals}, indent=1))
    return finish(err, batch, None, args.out, max((EXIT[r.status] for r in rows), default=0))
