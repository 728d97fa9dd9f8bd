"""Solutions as the JSON objects of FORMAT.md."""

from __future__ import annotations

from typing import Any

from ..model import Node, Solution, position

__all__ = ["solution_json"]


def _pos(node: Node) -> list[int]:
    return list(position(node))



def solution_json(path: str, solution: Solution) -> dict[str, Any]:
    """The JSON Lines object of FORMAT.md for a solved puzzle."""
    return {
        "puzzle": path,
        "status": "solved",
        "engine": solution.engine,
        "paths": {label: [_pos(n) for n in p] for label, p in solution.paths.items()},
        "stats": dict(solution.stats),
    }
