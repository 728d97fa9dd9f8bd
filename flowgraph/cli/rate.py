"""``flowgraph rate``: many puzzles rated 0 to 10 by their solving path, and named by the rating's word."""

from __future__ import annotations

import argparse
import json

from rich.text import Text

from ..authoring.rating import TIGHT, tier_words
from .batching import add_batch_options, finish, run_rows
from .common import (
    EXIT,
    add_color_option,
    add_command,
    add_memory_option,
    add_rules_option,
    consoles,
    exit_help,
    positive_float,
    read_stdin,
)
from .explain import hardest_words, paths_words

__all__ = ["add_parser", "run"]

STYLE = {"easy": "green", "medium": "cyan", "hard": "yellow", "extreme": "bold red"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph rate`` and its options to the command line."""
    p = add_command(
        sub, "rate", run,
        description="Rate each puzzle 0 to 10 by the solving path of flowgraph explain: mostly the span of its "
        "paths (the mean path in board sides and the shortest path), then the hardest technique needed (1 forced "
        "move, 2 dead end, 3 stranded region, 4 bottleneck, 5 one-step contradiction, 6 deeper search) and how "
        f"often it was used, and the share of tight steps (taken with at most {TIGHT} forced moves or dead ends in "
        f"sight); and a word: {tier_words()} (where the game's "
        "Extreme levels rate, at every size). Folders stand for their puzzle files and a level "
        "pack for each of its levels; puzzles run in "
        "parallel (--jobs) and print in input order. Under the puzzle's rules (--rules): Numberlink's let "
        "cells stay empty.",
        epilog="examples:\n  flowgraph rate puzzles/\n  flowgraph rate --json levels.txt --out ratings.jsonl\n"
        "  flowgraph rate --rules numberlink nikoli/\n\n"
        + exit_help("every puzzle rated", "some puzzle has no solution", batch=True),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="puzzle files, folders or level packs (- : standard input)")
    p.add_argument("--json", action="store_true",
                   help='one JSON object per puzzle: {"puzzle", "status", "rating", "tier", "steps", "tight", '
                   '"paths", "counts", "unique"}')
    p.add_argument("--time-limit", type=positive_float, metavar="S", dest="time_limit_s",
                   help="give up on a puzzle after S seconds, solving and steps together (status 4); the "
                   "uniqueness check behind tier 6's words stops at 10 s or half of S (then reported unknown)")
    add_memory_option(p, "explaining a puzzle has grown the process by more")
    add_rules_option(p)
    add_batch_options(p)
    add_color_option(p)


def run(args: argparse.Namespace) -> int:
    """Run ``flowgraph rate`` on its parsed options; returns the exit status."""
    from ..batch.jobs import Jobs
    from ..batch.tasks import rate_task

    out, err = consoles(args.color)
    jobs = Jobs(args.files, read_stdin("-") if "-" in args.files else None)
    statuses: list[int] = []

    def show(i: int, job, row: dict) -> None:
        status = EXIT.get(row["status"], EXIT["error"])
        statuses.append(status)
        if args.json:
            print(json.dumps({k: v for k, v in row.items() if k != "key"}), flush=True)
            return
        name = job.name
        if row["status"] == "rated":
            tight = row.get("tight")  # (rows resumed from an older run have none)
            shown = "" if tight is None else f", {tight:.0%} tight"
            shown += f", {paths_words(row['paths'])}" if row.get("paths") else ""
            out.print(Text(f"{name}: ").append(row["tier"], style=STYLE[row["tier"]])
                      .append(f", rating {row['rating']} ({hardest_words(row.get('counts', {}))}, {row['steps']} steps{shown}"
                              f"{'' if row['unique'] else '; not unique' if row['unique'] is False else ''})"))
        else:
            why = row.get("message") or "; ".join(e.get("message", "") for e in row.get("errors", []))
            out.print(Text(f"{name}: ").append(row["status"], style="bold red").append(f": {why}" if why else ""))

    batch = run_rows(err, args, jobs, rate_task, lambda j: (j, args.time_limit_s, args.rules, args.memory_limit << 20),
                     show, verb="rating", warm_up=None)
    if isinstance(batch, str):
        err.print(f"flowgraph rate: {batch}", markup=False)
        return EXIT["usage"]
    return finish(err, batch, "flowgraph rate", args.out, max(statuses, default=0))
