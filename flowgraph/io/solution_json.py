"""Solutions as the JSON objects of docs/format.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model import Node, Puzzle, Solution

__all__ = ["solution_json", "path_nodes"]


def path_nodes(puzzle: Puzzle, places: Sequence[Sequence[int]]) -> tuple[Node, ...]:
    """A path given as ``(line, column)`` positions (docs/format.md's JSON) as graph nodes.

    A position that is no node is a bridge: the path crosses it on the lane linked to the path's node before it
    (or to a node of the position after it, for a path that starts there); where no lane is, on the ``-`` lane
    when a neighbouring position of the path is on the same line, else on the ``|`` lane. Whether the result is
    a valid path is the verifier's question.
    """
    graph = puzzle.graph
    at_bridge: dict[tuple, list[Node]] = {}  # a bridge's place -> its lanes (any axes: a shape board's by angle)
    for node in graph:
        if len(node) == 3:
            at_bridge.setdefault(node[:2], []).append(node)
    out: list[Node] = []
    for k, (line, col) in enumerate(places):
        if (line, col) in graph:
            out.append((line, col))
            continue
        lanes = sorted(at_bridge.get((line, col), ()))
        after = [] if k + 1 == len(places) else \
            [n for n in ((*places[k + 1][:2],), *at_bridge.get(tuple(places[k + 1][:2]), ())) if n in graph]
        linked = [lane for lane in lanes if out and graph.has_edge(out[-1], lane)] or \
                 [lane for lane in lanes if any(graph.has_edge(lane, n) for n in after)]
        if linked:
            out.append(linked[0])
            continue
        near = [places[j] for j in (k - 1, k + 1) if 0 <= j < len(places)]
        out.append((line, col, "-" if any(p[0] == line for p in near) else "|"))
    return tuple(out)


def solution_json(path: str, solution: Solution) -> dict[str, Any]:
    """The JSON Lines object of docs/format.md for a solved puzzle."""
    return {
        "puzzle": path,
        "status": "solved",
        "engine": solution.engine,
        "rules": solution.puzzle.rules,
        "paths": {label: [[n[0], n[1]] for n in p] for label, p in solution.paths.items()},  # a lane: its bridge's place
        "stats": dict(solution.stats),
    }
