"""flowgraph solve."""

from __future__ import annotations

import argparse
import json
import sys

from ..batch.outcome import solve_file
from ..render.text import solution_text
from .common import EXIT, _console, _limits, _load_search, _read, _report_problems, _stats_line


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
