"""The verifier: every answer is checked against the rules before it is shown.

Rules (docs/format.md, "Rules and solutions"): each flow is one simple path
along links from one endpoint to the other; no cell or bridge lane lies on
two paths; an endpoint is only ever the end of its own flow's path; and under
Flow Free rules (``puzzle.rules.fills_every_cell``) every cell and lane lies on a
path, while under Numberlink rules a cell may stay empty. Bridges are crossed
straight because a lane is a node whose only links run along its axis.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import VerificationError

if TYPE_CHECKING:  # (annotations only: importing this module loads no networkx, see flowgraph/__init__.py)
    from .model import Solution

__all__ = ["verify", "check", "obeys", "Names"]


@dataclass(frozen=True)
class Names:
    """How :func:`check`'s words name a cell, a flow's path and a flow: by default as a program reads them (a
    node as it is, ``path 'A'``, ``flow 'A'``); the studio names cells as the board's rulers do (``r3c5``,
    :func:`flowgraph.io.sketch.cell_namer`) and flows by colour (``the red pipe``)."""

    cell: Callable[[Any], str] = str
    pipe: Callable[[str], str] = "path {!r}".format
    flow: Callable[[str], str] = "flow {!r}".format


def check(solution: Solution, names: Names | None = None) -> list[str]:
    """Return every rule the solution breaks (an empty list when it is valid).

    Parameters
    ----------
    solution : Solution
    names : Names, optional
        How the words name cells and flows (default: nodes as they are, ``path 'A'``).

    Returns
    -------
    list of str
        Human-readable descriptions, one per broken rule instance.
    """
    said = names or Names()
    cell, pipe, flow_name = said.cell, said.pipe, said.flow
    puzzle = solution.puzzle
    index = puzzle.cell_index  # the numbering the engines read: a reader may not have built the graph's dicts
    problems: list[str] = []
    labels = {f.label for f in puzzle.flows}
    for extra in sorted(set(solution.paths) - labels):
        problems.append(f"{pipe(extra)} belongs to no flow")
    owner: dict = {}
    number, linked, n = index.number, index.linked, len(index.nodes)
    labelled = {end: f.label for f in puzzle.flows for end in f.ends}  # a valid puzzle's every label is a flow's
    for flow in puzzle.flows:
        path = solution.paths.get(flow.label)
        if not path:
            problems.append(f"{flow_name(flow.label)} has no path")
            continue
        this = pipe(flow.label)
        if (path[0], path[-1]) != flow.ends:
            problems.append(f"{this} does not run from {cell(flow.ends[0])} to {cell(flow.ends[1])}")
        for node in path:
            if node not in number:
                problems.append(f"{this} visits {cell(node)}, which is not a cell")
            elif node in owner:
                problems.append(f"{cell(node)} lies on {pipe(owner[node])} and {this}")
            else:
                owner[node] = flow.label
            if node in labelled and node not in flow.ends:
                problems.append(f"{this} runs through an endpoint of {flow_name(labelled[node])} at {cell(node)}")
        for u, v in zip(path, path[1:]):
            if u not in number or v not in number or number[u] * n + number[v] not in linked:
                problems.append(f"{this} jumps from {cell(u)} to {cell(v)} without a link")
    if puzzle.rules.fills_every_cell and len(owner) != len(index.nodes):  # Numberlink lets cells stay empty
        for k in index.order:
            if index.nodes[k] not in owner:
                problems.append(f"{cell(index.nodes[k])} lies on no path")
    return problems


def obeys(solution: Solution) -> bool:
    """Whether the solution obeys every rule: :func:`check`'s verdict on whole arrays, without its words.

    The same rules as :func:`check`, stated over the node numbers the engines read: each flow has a
    path from its first endpoint to its second and no path belongs to no flow; every node is a cell
    and no node is on two paths or twice on one (so no path runs through another flow's endpoint,
    which is on that flow's path too); consecutive nodes are linked; under Flow Free rules the paths
    hold every node. ``tests/test_verify.py`` holds the two to the same verdict on broken solutions.

    Parameters
    ----------
    solution : Solution

    Returns
    -------
    bool
        True when :func:`check` finds nothing.
    """
    import numpy as np

    puzzle, paths = solution.puzzle, solution.paths
    flows = puzzle.flows
    if len(paths) != len(flows):  # with every flow's label found below: no path belongs to no flow
        return False
    index = puzzle.cell_index
    number = index.number
    seq: list[int] = []
    firsts: list[int] = []  # where each path starts in seq
    for flow in flows:
        path = paths.get(flow.label)
        if not path or (path[0], path[-1]) != flow.ends:
            return False
        firsts.append(len(seq))
        try:
            seq += [number[node] for node in path]
        except (KeyError, TypeError):  # a node that is not a cell
            return False
    n = len(index.nodes)
    if not seq:
        return not (flows or (puzzle.rules.fills_every_cell and n))
    nums = np.array(seq, np.int64)
    if np.bincount(nums, minlength=n).max() > 1 or (puzzle.rules.fills_every_cell and len(seq) != n):
        return False
    step = np.ones(len(seq) - 1, bool)  # the links between consecutive nodes of one path
    step[np.array(firsts[1:], np.int64) - 1] = False
    u, v = nums[:-1][step], nums[1:][step]
    codes = index.link_codes
    wanted = np.minimum(u, v) * n + np.maximum(u, v)
    at = np.searchsorted(codes, wanted)
    return bool((at < len(codes)).all() and (codes[np.minimum(at, len(codes) - 1)] == wanted).all())


def verify(solution: Solution) -> Solution:
    """Return the solution unchanged if it obeys the rules.

    :func:`obeys` answers on whole arrays; only a solution it refuses is read again by :func:`check`,
    for the message.

    Raises
    ------
    VerificationError
        The solution breaks a rule; the message lists what is wrong.
    """
    if obeys(solution):
        return solution
    problems = check(solution)
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
        raise VerificationError(f"invalid solution from {solution.engine}: {shown}")
    return solution
