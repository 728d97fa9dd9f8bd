"""``flowgraph solve``: solve puzzle files and print verified solutions."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..batch.outcome import Outcome
from ..budgets import SAT_SECONDS, SAT_SHARE
from ..errors import ConversionError
from ..io.problems import Problem
from ..io.solution_json import path_nodes
from ..render.text import solution_text
from .batching import BATCH_EXIT_HELP, SMALL_BATCH, add_batch_options, batch_limits, finish, run_rows
from .common import (
    EXIT,
    PictureNames,
    add_budget_options,
    add_color_option,
    add_command,
    consoles,
    limits,
    output_folder,
    print_problems,
    read_stdin,
    warm_up,
)
from .render import add_picture_options, write_picture

__all__ = ["add_parser", "run", "print_outcome", "write_pictures"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph solve`` and its options to the command line."""
    p = add_command(
        sub, "solve", run,
        description="Solve each puzzle file and print its verified solution: the puzzle's own "
        "layout with every cell filled with its flow's label and unused links blanked, then "
        "the engine that answered, the time and its work (search states or SAT calls). Use - to read "
        "standard input. The default engine, auto, runs SAT first and the heap search if SAT uses up "
        f"{SAT_SHARE:.0%} of the time limit ({SAT_SECONDS:g} s without one). Folders stand for their puzzle files "
        "and a level pack "
        "for each of its levels; puzzles run in parallel (--jobs), or on a Dask cluster (--scheduler), "
        "and print in input order, with a summary when there are several.",
        epilog="examples:\n  flowgraph solve puzzles/hex/hive_8x7.txt\n"
        "  flowgraph solve ../shared/corpus/numberlink --out rows.jsonl --jobs 2\n"
        "  flowgraph solve big/ --out rows.jsonl --resume      (after Ctrl-C: only the rest)\n"
        "  flowgraph solve pack.txt --scheduler tcp://10.0.0.5:8786 --json\n\n" + BATCH_EXIT_HELP,
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="puzzle files or folders: neighbor-link, or a JSON graph, a numberlink file, a *.grid plain "
                   "grid, a level pack")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object per puzzle (JSON Lines) instead of boards")
    p.add_argument("--svg", metavar="DIR", help="also draw each solution as DIR/<name>.svg")
    p.add_argument("--png", metavar="DIR", help="also draw each solution as DIR/<name>.png")
    add_picture_options(p)
    add_budget_options(p)
    add_batch_options(p)
    add_color_option(p)


#: The fields of a row that ``--json`` prints (docs/format.md's object); ``--out`` keeps the rest too.
_CONTRACT = ("puzzle", "status", "engine", "rules", "paths", "errors", "message", "why", "stats")


def run(args: argparse.Namespace) -> int:
    """Solve every puzzle; the exit status is the largest of their outcomes (130 when interrupted)."""
    from ..batch.jobs import Jobs
    from ..batch.tasks import solve_task

    out, err = consoles(args.color)
    output_folder(args.svg, "--svg")
    output_folder(args.png, "--png")
    jobs = Jobs(args.files, read_stdin("-") if "-" in args.files else None)
    budget = batch_limits(limits(args), args.engine, len(jobs))
    if not args.scheduler and (args.jobs == 1 or len(jobs) < SMALL_BATCH):
        warm_up(err, args.engine)
    statuses: list[int] = []
    names = PictureNames()  # one picture a puzzle: a pack's levels, same-named files in two folders

    def show(i: int, job, row: dict) -> None:
        statuses.append(EXIT[row["status"]])
        if args.json:  # the row as it is: no need to parse the puzzle again
            print(json.dumps({k: row[k] for k in _CONTRACT if k in row}), flush=True)
            print_problems(err, job.where, (Problem(e["line"], e["column"], "error", e["message"])
                                            for e in row.get("errors", [])))
            if row["status"] == "solved" and (args.svg or args.png):
                write_pictures(outcome_of(job, row, budget.memory_bytes), args, err, names(job.name))
            return
        outcome = outcome_of(job, row, budget.memory_bytes)
        if outcome.status == "solved" and (args.svg or args.png):
            write_pictures(outcome, args, err, names(job.name))
        print_problems(err, job.where, outcome.problems)
        if outcome.status == "invalid":
            return
        if len(jobs) > 1:
            out.print(("\n" if i else "") + outcome.path, style="bold", markup=False)
        print_outcome(out, err, outcome)

    if len(jobs) == 1 and not (args.out or args.resume or args.scheduler):  # one puzzle: solved here, no batch
        job = next(iter(jobs))
        show(0, job, solve_task(job, args.engine, budget, args.rules))
        return max(statuses, default=0)
    batch = run_rows(err, args, jobs, solve_task, lambda j: (j, args.engine, budget, args.rules), show,
                     warm_up=args.engine)
    if isinstance(batch, str):
        err.print(f"flowgraph solve: {batch}", markup=False)
        return EXIT["usage"]
    return finish(err, batch, "flowgraph solve", args.out, max(statuses, default=0))


def outcome_of(job, row: dict, memory_bytes: int | None = None) -> Outcome:
    """The :class:`Outcome` a row describes: the one it was made from where it was made in this process (read
    once, verified once: :class:`flowgraph.batch.tasks.LiveRow`), else with its puzzle parsed again here and its
    solution verified (a row from another process, or resumed from ``--out``)."""
    from ..model import Solution
    from ..verification import verify

    live = getattr(row, "outcome", None)
    if live is not None and not job.error:
        return live

    # (a board the worker read is read again whatever it takes; one it refused, within the same budget)
    memory = None if row["status"] != "invalid" else memory_bytes
    puzzle, problems = job.read(memory) if job.data is not None else (None, [])
    if puzzle is not None:
        puzzle = puzzle.with_rules(row.get("rules"))
    if job.error:
        problems = [job.error_problem()]
    elif row["status"] == "invalid" and puzzle is not None:  # valid text, but not solvable as asked (rules)
        problems = [Problem(e["line"], e["column"], "error", e["message"]) for e in row.get("errors", [])]
    status = row["status"]
    solution = None
    if status == "solved" and puzzle is not None:
        if "_nodes" in row:
            paths = {label: tuple(tuple(n) for n in nodes) for label, nodes in row["_nodes"].items()}
        else:  # a row resumed from --out: positions only
            paths = {label: path_nodes(puzzle, places) for label, places in row["paths"].items()}
        solution = verify(Solution(puzzle, paths, row.get("engine", ""), row.get("stats", {})))
    if status != "invalid":
        problems = [p for p in problems if not p.is_error]
    return Outcome(job.name, status, row.get("engine", ""), solution, problems, row.get("stats", {}),
                   row.get("message", ""), puzzle, row.get("why"))


def write_pictures(outcome: Outcome, args: argparse.Namespace, err, name: str | None = None) -> None:
    """The solution as DIR/<name>.svg and/or .png (``--svg DIR``, ``--png DIR``); ``name`` as the batch's
    :class:`~flowgraph.cli.common.PictureNames` gives it (default: the file's)."""
    name = name or PictureNames()(outcome.path)
    for folder, suffix in ((args.svg, ".svg"), (args.png, ".png")):
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            try:
                write_picture(outcome.solution, str(Path(folder) / (name + suffix)), args)
            except ConversionError as exc:
                err.print(f"{outcome.path}: no picture: {exc}", markup=False)


def print_outcome(out, err, outcome: Outcome) -> None:
    """Print one puzzle's outcome: its answer on ``out``, its problems and figures on ``err``."""
    s = outcome.stats
    engine = outcome.solution.engine if outcome.solution else (s.get("tried") or [outcome.engine])[-1]
    work, unit = (s.get("sat_calls", 0), "SAT call") if engine == "sat" else (s.get("states", 0), "state")
    stats = f"{s.get('seconds', 0):.3f} s, {work:,} {unit}{'' if work == 1 else 's'}"
    if outcome.puzzle is not None and not outcome.puzzle.rules.fills_every_cell:
        stats += ", Numberlink rules"
    if outcome.status == "solved" and outcome.solution is not None:
        out.print(solution_text(outcome.solution, color=True), end="")
        out.print(f"solved by {engine} in {stats}", style="dim", markup=False)
    elif outcome.status == "unsolvable":
        out.print(f"{outcome.message or 'no solution'} ({stats})", markup=False)
        if outcome.why:
            out.print(f"why: {outcome.why['text']}", markup=False)
    elif outcome.status == "limit":
        tried = " then ".join(s.get("tried") or [engine])
        out.print(f"gave up: {outcome.message} ({tried}; {stats})", markup=False)
    else:
        err.print(f"{outcome.path}: internal error: {outcome.message}", markup=False)
