"""flowgraph validate."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.text import Text

from ..authoring.uniqueness import _uniqueness
from ..io.files import load
from ..model import Solution
from ..render.text import flow_style, solution_grid
from .common import EXIT, _console, _read


def _cmd_validate(args: argparse.Namespace) -> int:
    out = _console(args.color, sys.stdout)
    status = 0
    for path in args.files:
        puzzle, problems = load(path, _read(path))
        errors = sum(p.severity == "error" for p in problems)
        warnings = len(problems) - errors
        valid = errors == 0
        status = max(status, EXIT["valid" if valid else "invalid"])
        found, verdict = None, None
        if args.unique and valid and puzzle is not None:
            found, verdict = _uniqueness(puzzle, args.time_limit)
            status = max(status, {"unique": 0, "limit": EXIT["limit"]}.get(verdict, EXIT["unsolvable"]))
        if args.json:
            obj = {
                "puzzle": path,
                "valid": valid,
                "problems": [
                    {"line": p.line, "column": p.column, "severity": p.severity, "message": p.message}
                    for p in problems
                ],
            }
            if verdict is not None:
                obj["solutions"] = None if verdict == "limit" else len(found)
            print(json.dumps(obj), flush=True)
            continue
        for p in problems:
            style = "red" if p.severity == "error" else "yellow"
            line = Text(f"{path}:{p.line}:{p.column}: ")
            line.append(f"{p.severity}:", style=f"bold {style}")
            line.append(f" {p.message}")
            out.print(line)
        counts = ", ".join(
            f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((errors, "error"), (warnings, "warning")) if n
        )
        if valid and puzzle is not None:
            size = f"{len(puzzle.flows)} flow{'s' if len(puzzle.flows) != 1 else ''}, {puzzle.cells} cells"
            out.print(Text(f"{path}: ").append("valid", style="bold green").append(f" ({size}{', ' + counts if counts else ''})"))
        else:
            out.print(Text(f"{path}: ").append("invalid", style="bold red").append(f" ({counts})"))
        if verdict is not None:
            _print_uniqueness(out, path, found, verdict)
    return status



def _print_uniqueness(out: Console, path: str, found: list[Solution], verdict: str) -> None:
    if verdict == "unique":
        out.print(Text(f"{path}: ").append("unique", style="bold green").append(" solution"))
    elif verdict == "none":
        out.print(Text(f"{path}: ").append("no solution", style="bold red"))
    elif verdict == "limit":
        out.print(Text(f"{path}: ").append("gave up", style="bold yellow").append(": the time budget ran out"))
    else:
        first, second = (solution_grid(s) for s in found)
        differ = {
            (i, j) for i, (ra, rb) in enumerate(zip(first, second)) for j, (a, b) in enumerate(zip(ra, rb)) if a != b
        }
        cells = sum(1 for i, j in differ if first[i][j][0] not in " -|/\\")
        out.print(Text(f"{path}: ").append("multiple solutions", style="bold yellow")
                  .append(f"; two of them differ in {cells} cells (marked x):"))
        width = max(len(r) for r in first + second)
        for i, (ra, rb) in enumerate(zip(first, second)):
            line = Text("  ")
            for row in (ra, rb):
                for j, (ch, label) in enumerate(row):
                    style = flow_style(label) if label else ""
                    line.append(ch, style=style + (" reverse" if (i, j) in differ and ch.strip() else ""))
                line.append(" " * (width - len(row) + 3))
            line.append("".join("x" if (i, j) in differ and ra[j][0] not in " -|/\\" else " " for j in range(len(ra))).rstrip())
            out.print(line)
