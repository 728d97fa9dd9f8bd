"""``flowgraph bench``: many puzzles in one process, a table of times and nodes."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from .common import EXIT, add_budget_options, add_color_option, add_command, consoles, limits, positive_int

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "bench", run,
        help="solve many puzzles and print a table of times and nodes",
        description="Solve every puzzle file (folders: their *.txt files, recursively) in a pool of "
        "worker processes, verify each answer, and print a table (file, cells, flows, result, seconds, "
        "nodes) in input order, with totals and the wall time. A progress bar runs on a terminal.",
        epilog="examples:\n  flowgraph bench puzzles/\n  flowgraph bench corpus/numberlink --engine search "
        "--time-limit 30 --json rows.json\n  flowgraph bench big/ --jobs 1   (one process: times free of "
        "contention)\n\nexit status: 0 when every puzzle solved, else the largest status of solve.",
    )
    p.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    p.add_argument("--json", metavar="OUT", help="also write the rows and totals as JSON to OUT")
    p.add_argument("-j", "--jobs", type=positive_int, default=os.cpu_count() or 1, metavar="N",
                   help="solve in N worker processes (default: one per core, here %(default)s); rows stay "
                   "in input order; each row's time is its own worker's, so a busy machine slows them")
    add_budget_options(p)
    add_color_option(p)


def run(args: argparse.Namespace) -> int:
    """Solve every file, print the table; the exit status is the largest of the rows'."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from ..batch.bench import expand, run_bench, summary

    out, err = consoles(args.color)
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

        start = time.perf_counter()
        rows = run_bench(files, args.engine, limits(args), advance, jobs=args.jobs)
        wall = time.perf_counter() - start
    root = os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in files]) if files else ""
    table = Table(title=f"flowgraph bench --engine {args.engine} --jobs {args.jobs}  ({root})", show_footer=True)
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
    totals["wall_seconds"] = round(wall, 3)
    out.print(f"wall time {wall:.3f} s with {args.jobs} job{'s' if args.jobs > 1 else ''}; peak memory "
              f"{totals['peak_rss_mb']} MiB" + (f"; slowest {slow['path']} ({slow['seconds']:.3f} s)" if slow else ""),
              markup=False)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"engine": args.engine, "jobs": args.jobs, "rows": [r.to_json() for r in rows], "totals": totals}, fh, indent=1)
    return max((EXIT[r.status] for r in rows), default=0)
