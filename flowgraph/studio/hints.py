"""The studio's Hint: the next step from the player's own board, and why (``POST /api/hint``)."""

from __future__ import annotations

import itertools
from typing import Any

from ..budgets import HINT_WHY_SECONDS
from ..errors import FlowgraphError, SearchLimitError, UnsolvableError
from ..model import Limits, Puzzle, Solution
from .handlers import BadRequest, Unprocessable, cell_json, limits_of, nodes_of, player_names, puzzle_of

__all__ = ["hint", "HINT_WHY_CELLS", "HINT_WHY_SECONDS"]

#: Boards up to this many cells (15x15) get the technique with a hint, if explain gives it within
#: :data:`flowgraph.budgets.HINT_WHY_SECONDS` (a 15x15 level: about a second).
HINT_WHY_CELLS = 225


def hint(body: dict) -> dict:
    """Answer ``POST /api/hint``: the next flow to draw, and why.

    ``{text, done?: [labels], paths?: {label: [[line, column], ...]}}`` -> ``{label, path, technique?, tier?,
    note?, cells?, wrong?}``: one flow of the solution to draw, and why, from where the player is (``wrong``: the
    first cell where the player's path of that flow leaves the solution).

    With the player's ``paths`` (what they have drawn, maybe nothing yet) on a board of up to :data:`HINT_WHY_CELLS` cells:
    a path that leaves the solution is the hint (that flow, redrawn); else the next steps of the
    solving path from the player's board, up to the first that draws a line
    (:func:`~flowgraph.authoring.explain.next_steps`): that line's flow, with the hardest of those
    steps' technique, note and cells (the insight that gives the move; of the hardest, the last). Without ``paths`` (or past
    :data:`HINT_WHY_SECONDS`), the first flow not in ``done``, with the first step of the solving
    path that draws part of it (:func:`_why`). While the search's passes are built on this machine
    (:func:`flowgraph.kernels.ready` is false), the flow alone, found by SAT: a hint never waits for the build."""
    from ..engines import solve_puzzle
    from ..kernels import ready

    puzzle = puzzle_of(body)
    done = body.get("done") or []
    if not (isinstance(done, list) and all(isinstance(label, str) for label in done)):
        raise BadRequest("'done' is a list of labels")
    drawn = _drawn(puzzle, body.get("paths"))
    try:
        solution = solve_puzzle(puzzle, "auto", limits_of(body))
    except (UnsolvableError, SearchLimitError) as exc:
        raise Unprocessable(f"no hint: {exc}") from None
    why = ready()  # explain runs the search's passes: while they are built, the flow alone (never a wait)
    if drawn is not None and puzzle.cells <= HINT_WHY_CELLS and why:
        step = _next_step(solution, drawn)
        if step is not None:
            return step
    for flow in puzzle.flows:
        if flow.label not in done:
            return {"label": flow.label, "path": [cell_json(n) for n in solution.paths[flow.label]],
                    **(_why(solution, flow.label) if why else {})}
    return {"label": None, "path": []}


def _drawn(puzzle: Puzzle, paths: Any) -> dict[str, list[tuple]] | None:
    """The player's paths (``{label: [[line, column], ...]}``, each from an endpoint) as node pairs per flow;
    None when not given."""
    if paths is None:
        return None
    if not isinstance(paths, dict) or not all(isinstance(k, str) and isinstance(v, list) for k, v in paths.items()):
        raise BadRequest("'paths' maps labels to lists of [line, column] positions")
    labels = {f.label for f in puzzle.flows}
    return {label: list(itertools.pairwise(nodes_of(puzzle, path))) for label, path in paths.items() if label in labels}


def _next_step(solution: Solution, drawn: dict[str, list[tuple]]) -> dict | None:
    """The hint from the player's board (see :func:`hint`), or None where the solving path gives none in time."""
    from ..authoring.explain import next_steps

    owner = solution.owner()
    used = {frozenset(pair) for path in solution.paths.values() for pair in itertools.pairwise(path)}
    for label, pairs in drawn.items():
        wrong = next((pair for pair in pairs if frozenset(pair) not in used), None)
        if wrong is not None:
            said = player_names(solution.puzzle)
            return {"label": label, "path": [cell_json(n) for n in solution.paths[label]], "technique": None,
                    "wrong": cell_json(wrong[1]), "note": f"{said.pipe(label)} leaves the solution at {said.cell(wrong[1])}"}
    try:
        steps = next_steps(solution, [pair for pairs in drawn.values() for pair in pairs],
                           Limits(time_limit_s=HINT_WHY_SECONDS))
    except FlowgraphError:
        return None
    if not steps or not steps[-1].lines:
        return None
    label = owner[steps[-1].lines[0][0]]
    # the insight the move needs: the hardest step on the way, the last of those (nearest the line it draws: a
    # run of forced moves is told by the one that draws the line, not by a cut elsewhere on the board)
    key = max(reversed(steps), key=lambda s: s.tier)
    return {"label": label, "path": [cell_json(n) for n in solution.paths[label]], "technique": key.technique,
            "tier": key.tier, "note": key.note, "cells": [cell_json(n) for n in key.because[:HINT_WHY_CELLS]]}


def _why(solution: Solution, label: str) -> dict:
    """``{technique, tier, note, cells}``: the first step of ``flowgraph explain`` that draws part of flow
    ``label`` of ``solution``, and the cells that justify it ({} on larger boards)."""
    from ..authoring.explain import explain

    puzzle, path = solution.puzzle, solution.paths[label]
    if puzzle.cells > HINT_WHY_CELLS:
        return {}
    try:
        steps = explain(puzzle, Limits(time_limit_s=HINT_WHY_SECONDS), solution=solution).steps
    except FlowgraphError:
        return {}
    links = {frozenset(pair) for pair in zip(path, path[1:])}
    step = next((s for s in steps if any(frozenset(pair) in links for pair in s.lines)), None)
    if step is None:
        return {}
    return {"technique": step.technique, "tier": step.tier, "note": step.note,
            "cells": [cell_json(n) for n in step.because]}
