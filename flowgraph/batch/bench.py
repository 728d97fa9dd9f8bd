"""The benchmark: solve many puzzle files in one process and tabulate the results.

Every answer is verified (through :func:`flowgraph.engines.solve_file`), so a
fast wrong answer never counts as solved.
"""

from __future__ import annotations

import resource
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..engines import get_engine
from ..model import Limits
from .outcome import Outcome, solve_file

__all__ = ["expand", "run_bench", "bench_row", "bench_row_of", "BenchRow", "summary", "peak_rss_mb"]


@dataclass
class BenchRow:
    """One benchmark line: the file and how solving it ended."""

    path: str
    cells: int
    flows: int
    status: str
    seconds: float
    states: int
    sat_calls: int

    def to_json(self) -> dict:
        """The row as a JSON object: every field by name."""
        return dict(self.__dict__)


def expand(paths: Iterable[str]) -> list[str]:
    """Files as given; folders become their puzzle files (:func:`.jobs.puzzle_files`), recursively, sorted.

    Raises
    ------
    FileNotFoundError
        A path does not exist.
    """
    from .jobs import puzzle_files

    paths = list(paths)
    for p in paths:
        if not Path(p).exists():
            raise FileNotFoundError(p)
    return puzzle_files(paths)


def run_bench(
    files: list[str],
    engine: str = "auto",
    limits: Limits | None = None,
    progress: Callable[[BenchRow], None] | None = None,
    jobs: int = 1,
) -> list[BenchRow]:
    """Solve each file with one engine and return a row per file, in input order.

    Parameters
    ----------
    files : list of str
        Puzzle files; a level pack gives a row per level (:func:`~.jobs.expand_jobs`).
    engine : str
    limits : Limits, optional
        Per puzzle.
    progress : callable, optional
        Called with each row as soon as it is done (in the order they finish).
    jobs : int
        Worker processes (:class:`~.executors.PoolExecutor`); 1 solves in
        this process. Each worker loads the engine once before its first
        puzzle.

    Returns
    -------
    list of BenchRow
        ``seconds`` is wall time parse to verified answer; ``states`` the
        search states expanded, ``sat_calls`` the SAT solver's calls. The
        engine is warmed up (:func:`flowgraph.engines.get_engine`) before the
        first puzzle, so no row pays for loading it. With several jobs the
        workers share the machine: on a busy one their times grow.

    Raises
    ------
    ValueError
        Unknown engine name, or ``jobs`` < 1.
    """
    from .executors import make_executor
    from .jobs import Jobs
    from .runner import run_batch
    from .tasks import bench_task

    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    get_engine(engine)
    batch_jobs = Jobs(files)
    rows: list[BenchRow] = []
    with make_executor(jobs, warm_up=engine, tasks=len(batch_jobs)) as executor:
        run_batch(batch_jobs, bench_task, lambda j: (j, engine, limits), executor,
                  on_row=(lambda i, row: progress(bench_row_of(row))) if progress else None,
                  show=lambda i, job, row: rows.append(bench_row_of(row)))
    return rows


def bench_row_of(row: dict) -> BenchRow:
    """The table row of a :func:`~.tasks.bench_task` result (an ``error`` row from an executor too)."""
    seconds = float(row.get("seconds", row.get("stats", {}).get("seconds", 0.0)))
    return BenchRow(row.get("path", row.get("key", "")), row.get("cells", 0), row.get("flows", 0), row["status"],
                    seconds, int(row.get("states", 0)), int(row.get("sat_calls", 0)))


def bench_row(path: str, engine: str, limits: Limits | None) -> BenchRow:
    """Solve one file (:func:`solve_file`) and keep what the table shows."""
    outcome: Outcome = solve_file(path, engine, limits)
    puzzle = outcome.puzzle
    return BenchRow(
        path=path,
        cells=puzzle.cells if puzzle else 0,
        flows=len(puzzle.flows) if puzzle else 0,
        status=outcome.status,
        seconds=float(outcome.stats.get("seconds", 0.0)),
        states=int(outcome.stats.get("states", 0)),
        sat_calls=int(outcome.stats.get("sat_calls", 0)),
    )


def peak_rss_mb() -> float:
    """Peak resident memory of this process or of its largest finished worker so far, in MiB."""
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def summary(rows: list[BenchRow]) -> dict:
    """Totals: counts by status, seconds, states, SAT calls, the slowest file, peak memory."""
    by_status: dict[str, int] = {}
    for r in rows:
        by_status[r.status] = by_status.get(r.status, 0) + 1
    slowest = max(rows, key=lambda r: r.seconds, default=None)
    return {
        "puzzles": len(rows),
        "status": by_status,
        "seconds": round(sum(r.seconds for r in rows), 3),
        "states": sum(r.states for r in rows),
        "sat_calls": sum(r.sat_calls for r in rows),
        "slowest": {"path": slowest.path, "seconds": slowest.seconds} if slowest else None,
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }
