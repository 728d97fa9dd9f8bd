"""What a worker does with one job: plain functions of picklable arguments returning a JSON row.

Each task never raises for bad input and returns a dict: the JSON Lines
object written to ``--out`` (docs/format.md's objects plus ``key``), with the
status under ``status``. Fields whose names start with ``_`` are for the
process that prints the rows (node ids of solutions) and are not written.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from ..model import DEFAULT_MEMORY_BYTES, Limits
from .jobs import Job

__all__ = ["solve_task", "validate_task", "bench_task", "generate_task", "rate_task", "row_seconds", "STATUSES",
           "LiveRow"]


class LiveRow(dict):
    """A task's row that carries, in the process that made it, the answer it was made from.

    ``outcome`` is the :class:`~.outcome.Outcome` (its puzzle read, its solution verified): a command that runs
    the task in its own process (``--jobs 1``, a small batch) shows it as it is, without reading the file and
    verifying the solution again. Rows are for crossing process boundaries: pickled (a pool, a Dask cluster) it
    is the plain dict, and ``outcome`` is None on the other side.
    """

    outcome: Any = None

    def __reduce__(self):
        return dict, (dict(self),)

#: Every status a row can have, in the order a summary lists them.
#: The stats of a row no engine ran for (docs/format.md's ``nodes`` is ``states``).
EMPTY_STATS: dict[str, Any] = {"seconds": 0.0, "states": 0, "sat_calls": 0, "nodes": 0}

STATUSES = ("solved", "valid", "unique", "generated", "rated", "multiple", "unsolvable", "limit", "invalid", "error")


def row_seconds(row: dict) -> float:
    """The work a row took, in seconds (``stats.seconds``, or ``seconds`` for a benchmark's row; 0 if neither)."""
    try:
        return float(row.get("stats", {}).get("seconds", row.get("seconds", 0.0)))
    except (TypeError, ValueError, AttributeError):
        return 0.0


def _nodes(paths) -> dict[str, list[list]]:
    return {label: [list(n) for n in path] for label, path in paths.items()}


def _unreadable(job: Job, what: str) -> dict[str, Any]:
    return {"key": job.key, "puzzle": job.name, "status": "invalid", what: False,
            "errors": [job.error_problem().to_json(severity=False)], "stats": EMPTY_STATS}


def solve_task(job: Job, engine: str = "auto", limits: Limits | None = None, rules: str | None = None
               ) -> dict[str, Any]:
    """Solve one job (:func:`~.outcome.solve_file`): the row of ``flowgraph solve --json`` plus ``key``."""
    from .outcome import solve_file

    if job.error:
        return _unreadable(job, "solved")
    outcome = solve_file(job.name, engine, limits, data=job.data, rules=rules, line=job.line)
    if outcome.status == "unsolvable" and outcome.puzzle is not None:  # say why, in flows or cells
        from ..authoring.diagnose import SECONDS, why_unsolvable

        budget = min(SECONDS, limits.time_limit_s) if limits and limits.time_limit_s else SECONDS
        why = why_unsolvable(outcome.puzzle, Limits(time_limit_s=budget))
        outcome = replace(outcome, why=why.to_json() if why else None)
    row = LiveRow({"key": job.key, **outcome.to_json()})
    row.outcome = outcome
    puzzle = outcome.puzzle
    row["cells"], row["flows"] = (puzzle.cells, len(puzzle.flows)) if puzzle else (0, 0)
    if outcome.solution is not None:
        row["_nodes"] = _nodes(outcome.solution.paths)
    if outcome.problems and outcome.status != "invalid":
        row["warnings"] = [p.to_json(severity=False) for p in outcome.problems]
    return row


def bench_task(job: Job, engine: str = "auto", limits: Limits | None = None, rules: str | None = None
               ) -> dict[str, Any]:
    """Solve one job for the benchmark table: ``path, cells, flows, status, seconds, states, sat_calls``.

    As :func:`solve_task`, without its JSON of the paths (the table has no use for them).
    """
    from .outcome import solve_file

    if job.error:
        status, stats, puzzle = "invalid", EMPTY_STATS, None
    else:
        outcome = solve_file(job.name, engine, limits, data=job.data, rules=rules, line=job.line)
        status, stats, puzzle = outcome.status, outcome.stats, outcome.puzzle
    return {"key": job.key, "path": job.name, "cells": puzzle.cells if puzzle else 0,
            "flows": len(puzzle.flows) if puzzle else 0, "status": status,
            "seconds": float(stats.get("seconds", 0.0)), "states": int(stats.get("states", 0)),
            "sat_calls": int(stats.get("sat_calls", 0))}


def _status(verdict: str) -> str:
    """A count's verdict as a row's status: unique, multiple and limit as they are, ``none`` as unsolvable."""
    return "unsolvable" if verdict == "none" else verdict


def validate_task(job: Job, unique: bool = False, time_limit_s: float | None = None, rules: str | None = None,
                  count: bool = False, most: int | None = None, canonical: bool = False,
                  memory_bytes: int | None = DEFAULT_MEMORY_BYTES) -> dict[str, Any]:
    """Check one job, and with ``unique`` count its solutions (up to two, :func:`count_solutions`), with
    ``count`` all of them (at most ``most``, :func:`count_all`; only the canonical ones with ``canonical``
    under Numberlink rules, and then the row says ``canonical: true``).

    The row: ``puzzle, valid, problems`` (as ``flowgraph validate --json``), with ``unique``
    ``solutions`` (None when the budget ran out) and ``verdict``, with ``count`` ``count`` (solutions
    found), ``exact`` and ``verdict``; ``status`` is ``valid``/``invalid``, or the verdict's
    ``unique``/``multiple``/``unsolvable``/``limit``. A board that takes more than ``memory_bytes`` to
    read is invalid (:func:`flowgraph.io.files.load`).
    """

    if job.error:
        unreadable = _unreadable(job, "valid")
        unreadable["problems"] = [job.error_problem().to_json()]
        return unreadable
    t0 = time.perf_counter()
    puzzle, problems = job.read(memory_bytes)
    valid = not any(p.is_error for p in problems)
    row: dict[str, Any] = {"key": job.key, "puzzle": job.name, "valid": valid,
                           "problems": [p.to_json() for p in problems], "status": "valid" if valid else "invalid"}
    if (unique or count) and puzzle is not None:
        puzzle = puzzle.with_rules(rules)
        row["rules"] = puzzle.rules
    if unique and puzzle is not None:
        from ..authoring.uniqueness import count_solutions

        found = count_solutions(puzzle, 2, Limits(time_limit_s=time_limit_s, memory_bytes=memory_bytes))
        row["solutions"] = found.count
        row["verdict"] = found.verdict
        row["status"] = _status(found.verdict)
        row["_solutions"] = [_nodes(s.paths) for s in found.solutions]
    if count and puzzle is not None:
        from ..authoring.uniqueness import count_all

        left = None if time_limit_s is None else max(0.01, time_limit_s - (time.perf_counter() - t0))
        canonical = canonical and not puzzle.rules.fills_every_cell
        counted = count_all(puzzle, most, Limits(time_limit_s=left, memory_bytes=memory_bytes), canonical=canonical,
                            first=found if unique else None)  # (--unique's answer is count_all's first step)
        row["count"], row["exact"], row["_timed_out"] = counted.count, counted.exact, counted.limit
        if canonical:
            row["canonical"] = True
        if "verdict" not in row or row["verdict"] == "limit":
            row["verdict"] = counted.verdict
            row["status"] = _status(counted.verdict)
        if "_solutions" not in row:
            row["_solutions"] = [_nodes(s.paths) for s in counted.solutions]
    row["stats"] = {**EMPTY_STATS, "seconds": round(time.perf_counter() - t0, 6)}
    return row


def shape_stem(shape: str, size: dict[str, Any]) -> str:
    """A generated shape board's file name before its seed: the shape and its size (``ring_3x12_centre``,
    ``figure-eight_2x10_cells``; a
    tiling's ``triangle-tiling_3``, or cut to a silhouette ``triangle-tiling_cut-`` and six hex digits of its
    SHA-256, so two silhouettes do not share a name)."""
    import hashlib

    if shape == "tiling":
        silhouette = size.get("silhouette")
        cut = f"cut-{hashlib.sha256(silhouette.encode()).hexdigest()[:6]}" if silhouette else str(size.get("side"))
        return f"{size.get('tiling')}-tiling_{cut}"
    numbers = "x".join(str(int(v)) for v in size.values() if isinstance(v, int) and not isinstance(v, bool))
    return f"{shape}_{numbers}{'_centre' if size.get('centre') else ''}{'_cells' if size.get('crossing') == 'cells' else ''}"


def generate_task(spec: dict[str, Any], seed: str) -> dict[str, Any]:
    """Generate one unique puzzle (:func:`~flowgraph.authoring.generate.generate`) from a picklable spec.

    ``spec``: ``family, width, height, mask`` (plain-grid text or None), ``wrap, bridges, flows,
    min_length, no_square, time_limit_s``, and ``difficulty`` (a tier: :func:`generate_rated`, whose
    seed names the file). The row: ``key, seed, status`` (``generated`` or ``limit``),
    ``text, solution, figures`` or ``message``, ``name`` (``<family>_<W>x<H>_<seed>.txt``). With ``shape`` (a
    name of :data:`flowgraph.authoring.shapes.SHAPES`) and ``shape_size`` (its parameters), a shape board
    instead, written as a JSON graph (``ring_3x12_centre_<seed>.json``).
    """
    from ..authoring.generate import GenerationError, bridged_board, generate, generate_rated
    from ..authoring.templates import read_mask
    from ..io.solution_json import solution_json

    t0 = time.perf_counter()
    row: dict[str, Any] = {"key": f"seed:{seed}", "seed": seed}
    try:
        mask = read_mask(spec["mask"], spec.get("mask_path")) if spec.get("mask") else None
        width, height = spec.get("width"), spec.get("height")

        def shaped_for(s: str):
            if spec.get("shape"):  # a shape board (a ring, a cube): its size is the shape's own
                from ..authoring.shapes import shape_board

                return shape_board(spec["shape"], **spec.get("shape_size", {}))
            return bridged_board(spec["family"], width, height, mask=mask, wrap=spec.get("wrap"),
                                 bridges=spec.get("bridges") or 0, seed=s)

        options = dict(flows=spec.get("flows"), min_length=spec.get("min_length"),
                       no_square=spec.get("no_square", True), rules=spec.get("rules") or "flow")
        made_seed = seed
        if spec.get("difficulty"):
            made, _, made_seed = generate_rated(shaped_for, spec["difficulty"], seed=seed,
                                                time_limit_s=spec.get("time_limit_s"), **options)
            shaped = shaped_for(made_seed)
        else:
            shaped = shaped_for(seed)
            options["min_length"] = options["min_length"] or 3
            made = generate(shaped, seed=seed, time_limit_s=spec.get("time_limit_s"), **options)
    except GenerationError as exc:
        row.update(status="limit", message=str(exc))
    except ValueError as exc:  # a mask or a flow count the board cannot take
        row.update(status="invalid", message=str(exc))
    else:
        if spec.get("shape"):  # ring_3x12_7.json, cube_4_7.json, triangle-tiling_3_7.json
            name = f"{shape_stem(spec['shape'], spec.get('shape_size', {}))}_{made_seed}.json"
        else:
            w = width or max(x for x, _ in shaped.cells) + 1
            h = height or max(y for _, y in shaped.cells) + 1
            name = f"{spec['family']}_{w}x{h}_{made_seed}.txt"
        row.update(status="generated", name=name, text=made.text,
                   solution=solution_json(name, made.solution)["paths"], figures=made.figures)
    row["stats"] = {**EMPTY_STATS, "seconds": round(time.perf_counter() - t0, 6)}
    return row


def rate_task(job: Job, time_limit_s: float | None = None, rules: str | None = None,
              memory_bytes: int | None = DEFAULT_MEMORY_BYTES) -> dict[str, Any]:
    """Rate one job (:func:`~flowgraph.authoring.explain.explain`, under ``rules`` when given, else the source's
    own): ``puzzle, status`` (``rated``,
    ``unsolvable``, ``limit``, ``invalid``), with ``rating``, ``tier``, ``steps``, ``tight``, ``paths`` (each
    path's cells), ``counts`` and ``unique`` when rated, ``message`` otherwise, and ``stats.seconds``.
    ``memory_bytes`` bounds reading and the explanation (``Limits.memory_bytes``)."""
    from ..authoring.explain import explain
    from ..errors import SearchLimitError, UnsolvableError

    if job.error:
        return _unreadable(job, "rated")
    t0 = time.perf_counter()
    puzzle, problems = job.read(memory_bytes)
    row: dict[str, Any] = {"key": job.key, "puzzle": job.name}
    if puzzle is None or any(p.is_error for p in problems):
        row.update(status="invalid", errors=[p.to_json() for p in problems if p.is_error])
    else:
        try:
            found = explain(puzzle.with_rules(rules), Limits(time_limit_s=time_limit_s, memory_bytes=memory_bytes))
        except UnsolvableError:
            row.update(status="unsolvable", message="no solution")
        except SearchLimitError as exc:
            row.update(status="limit", message=exc.said("not rated"))
        else:
            from dataclasses import asdict

            from ..api import Rating

            row.update(status="rated", **asdict(Rating.of(found)), paths=found.lengths)
    row["stats"] = {**EMPTY_STATS, "seconds": round(time.perf_counter() - t0, 6)}
    return row
