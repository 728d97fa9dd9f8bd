"""Moves that turn one solution under Numberlink rules into another: a chord jumped (:func:`tighten`), a path
led round (:func:`detour`, :func:`reroute`), a corner moved (:func:`corner_move`). :mod:`.uniqueness` uses them to
show a second solution where the link search's canonical one is not the only one.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from ..model import Solution

__all__ = ["corner_move", "detour", "reroute", "tighten"]


def tighten(solution: Solution) -> Solution:
    """The solution with every path's chords jumped (Numberlink rules: the nodes jumped stay empty).

    Each node kept links to its furthest neighbour later on its path, so no two nodes kept are
    neighbours unless consecutive. O(path length x degree) per path.

    Returns
    -------
    Solution
        ``solution`` itself when no path has a chord.
    """
    g = solution.puzzle.graph
    paths = {}
    for label, path in solution.paths.items():
        at = {node: i for i, node in enumerate(path)}
        kept, i = [path[0]], 0
        while i < len(path) - 1:
            i = max(at.get(m, -1) for m in g[path[i]])
            kept.append(path[i])
        paths[label] = tuple(kept)
    if all(len(paths[k]) == len(p) for k, p in solution.paths.items()):
        return solution
    return replace(solution, paths=paths)


def detour(solution: Solution) -> Solution | None:
    """Another solution (Numberlink rules): one link ``u-v`` of a path replaced by a walk
    ``u-w1-...-wk-v`` through nodes no path uses, or None when there is none.

    Connected components of the empty nodes: a detour exists for a link exactly when some
    component touches both its ends; the walk is a shortest path inside that component.
    """
    import networkx as nx  # (here: validate imports this module, and a board read needs no networkx)

    g = solution.puzzle.graph
    owner = solution.owner()
    empty = g.subgraph(n for n in g if n not in owner)
    part = {n: k for k, comp in enumerate(nx.connected_components(empty)) for n in comp}
    if not part:
        return None
    for label, path in solution.paths.items():
        for i, (u, v) in enumerate(itertools.pairwise(path)):
            near_u = {part[m] for m in g[u] if m in part}
            for m in g[v]:
                if m in part and part[m] in near_u:
                    starts = {w for w in g[u] if part.get(w) == part[m]}
                    walk = nx.multi_source_dijkstra_path(empty, starts)[m]
                    return replace(solution, paths={**solution.paths, label: (*path[: i + 1], *walk, *path[i + 1:])})
    return None


def reroute(solution: Solution) -> Solution | None:
    """Another solution (Numberlink rules): one flow takes another route, every other path kept;
    None when no flow can.

    For each flow, its nodes and the empty ones (no other flow's endpoint) form a graph; if it
    stays connected between the flow's endpoints without one of the flow's links, a shortest path
    there is another route. A :func:`detour`, a :func:`corner_move` and a chord jump are all
    reroutes, so a solution that no flow can reroute has none of them. O(flows x path x graph).
    """
    import networkx as nx

    g = solution.puzzle.graph
    owner = solution.owner()
    endpoints = {end for flow in solution.puzzle.flows for end in flow.ends}
    for flow in solution.puzzle.flows:
        path = solution.paths[flow.label]
        free = g.subgraph(v for v in g if owner.get(v, flow.label) == flow.label
                          and (v not in endpoints or v in flow.ends)).copy()
        for u, v in itertools.pairwise(path):
            free.remove_edge(u, v)
            try:
                other = tuple(nx.shortest_path(free, *flow.ends))
            except nx.NetworkXNoPath:
                other = None
            free.add_edge(u, v)
            if other is not None:
                return replace(solution, paths={**solution.paths, flow.label: other})
    return None


def corner_move(solution: Solution) -> Solution | None:
    """Another solution (Numberlink rules): a path turning at ``b`` of a 4-cycle ``a-b-c-d`` whose
    node ``d`` is empty and no endpoint goes ``a-d-c`` instead; None when no path can.

    Bridges' lanes neither turn nor take a turn.
    """
    g = solution.puzzle.graph
    owner = solution.owner()
    endpoints = {end for flow in solution.puzzle.flows for end in flow.ends}
    for label, path in solution.paths.items():
        for i in range(1, len(path) - 1):
            a, b, c = path[i - 1], path[i], path[i + 1]
            if len(b) != 2:
                continue
            for d in g[a]:
                if d != b and len(d) == 2 and d in g[c] and d not in owner and d not in endpoints:
                    return replace(solution, paths={**solution.paths, label: (*path[:i], d, *path[i + 1:])})
    return None
