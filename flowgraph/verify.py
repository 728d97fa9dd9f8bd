"""The verifier: every answer is checked against the rules before it is shown.

Rules (docs/format.md, "Rules and solutions"): each flow is one simple path
along links from one endpoint to the other; no cell or bridge lane lies on
two paths; an endpoint is only ever the end of its own flow's path; and under
Flow Free rules (``puzzle.rules.fills_every_cell``) every cell and lane lies on a
path, while under Numberlink rules a cell may stay empty. Bridges are crossed
straight because a lane is a node whose only links run along its axis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import VerificationError

if TYPE_CHECKING:  # (annotations only: importing this module loads no networkx, see flowgraph/__init__.py)
    from .model import Solution

__all__ = ["verify", "check"]


def check(solution: Solution) -> list[str]:
    """Return every rule the solution breaks (an empty list when it is valid).

    Parameters
    ----------
    solution : Solution

    Returns
    -------
    list of str
        Human-readable descriptions, one per broken rule instance.
    """
    puzzle = solution.puzzle
    index = puzzle.cell_index  # the numbering the engines read: a reader may not have built the graph's dicts
    problems: list[str] = []
    labels = {f.label for f in puzzle.flows}
    for extra in sorted(set(solution.paths) - labels):
        problems.append(f"path {extra!r} belongs to no flow")
    owner: dict = {}
    number, linked, n = index.number, index.linked, len(index.nodes)
    labelled = {end: f.label for f in puzzle.flows for end in f.ends}  # a valid puzzle's every label is a flow's
    for flow in puzzle.flows:
        path = solution.paths.get(flow.label)
        if not path:
            problems.append(f"flow {flow.label!r} has no path")
            continue
        if (path[0], path[-1]) != flow.ends:
            problems.append(f"path {flow.label!r} does not run from {flow.ends[0]} to {flow.ends[1]}")
        for node in path:
            if node not in number:
                problems.append(f"path {flow.label!r} visits {node}, which is not a cell")
            elif node in owner:
                problems.append(f"{node} lies on paths {owner[node]!r} and {flow.label!r}")
            else:
                owner[node] = flow.label
            if node in labelled and node not in flow.ends:
                problems.append(f"path {flow.label!r} runs through endpoint {labelled[node]!r} at {node}")
        for u, v in zip(path, path[1:]):
            if u not in number or v not in number or number[u] * n + number[v] not in linked:
                problems.append(f"path {flow.label!r} jumps from {u} to {v} without a link")
    if puzzle.rules.fills_every_cell and len(owner) != len(index.nodes):  # Numberlink lets cells stay empty
        for k in index.order:
            if index.nodes[k] not in owner:
                problems.append(f"{index.nodes[k]} lies on no path")
    return problems


def verify(solution: Solution) -> Solution:
    """Return the solution unchanged if it obeys the rules.

    Raises
    ------
    VerificationError
        The solution breaks a rule; the message lists what is wrong.
    """
    problems = check(solution)
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise VerificationError(f"invalid solution from {solution.engine}: {shown}")
    return solution
