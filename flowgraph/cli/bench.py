"""flowgraph bench."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .common import EXIT, _console, _limits


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
