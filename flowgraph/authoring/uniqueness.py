"""Whether a puzzle has exactly one solution, and where two solutions differ.

Puzzle authors need a unique solution; so do ``flowgraph validate
--unique``, the generator and the studio. The count uses the
SAT engine's sound model (no heuristic clauses): it finds a solution,
blocks exactly that set of links and solves again, so "unique" is a proof,
not a guess. Under Numberlink rules it counts chord-free solutions and
checks the rest by hand (:func:`_numberlink_count`).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace

import networkx as nx

from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Node, Puzzle, Rules, Solution, position
from ..verify import verify

__all__ = ["Count", "Uniqueness", "count_all", "count_solutions", "detour", "differing_cells", "tighten"]


@dataclass(frozen=True)
class Uniqueness:
    """The answer of :func:`count_solutions`.

    Attributes
    ----------
    verdict : str
        ``"unique"``, ``"multiple"``, ``"unsolvable"`` or ``"limit"`` (the budget
        ran out before an answer).
    solutions : tuple of Solution
        The verified solutions found, at most ``limit`` of them.
    """

    verdict: str
    solutions: tuple[Solution, ...] = ()

    @property
    def count(self) -> int | None:
        """Solutions found (``limit`` means "that many or more"); None when the budget ran out."""
        return None if self.verdict == "limit" else len(self.solutions)


@dataclass(frozen=True)
class Count:
    """The answer of :func:`count_all`.

    Attributes
    ----------
    count : int
        Solutions found: all of them when ``exact``, else at least this many.
    exact : bool
        Whether the search space was exhausted.
    limit : bool
        Whether the time budget ran out first (then ``exact`` is False).
    solutions : tuple of Solution
        The first solutions found (at most two), verified.
    stats : dict
        ``seconds`` and ``decisions`` of the exhaustive search.
    """

    count: int
    exact: bool
    limit: bool = False
    solutions: tuple[Solution, ...] = ()
    stats: dict | None = None

    @property
    def verdict(self) -> str:
        """``"none"``, ``"unique"``, ``"multiple"`` or ``"limit"`` (fewer than two found when the budget ran out)."""
        if self.count >= 2:
            return "multiple"
        if not self.exact:
            return "limit"
        return "unique" if self.count == 1 else "none"


def count_all(puzzle: Puzzle, most: int | None = None, limits: Limits | None = None) -> Count:
    """The exact number of solutions under ``puzzle.rules``, or "at least ``most``".

    Runs the exhaustive link search (:func:`flowgraph.engines.exhaustive.enumerate_solutions`) on
    the puzzle graph, so it counts on every family: square, hex, warps, bridges, holes and walls.
    Under Numberlink rules every way of leaving cells empty counts, so a board with wide empty
    areas can have very many solutions: give ``most`` or a time limit.

    Parameters
    ----------
    puzzle : Puzzle
    most : int, optional
        Stop after this many solutions (the count is then "at least ``most``").
    limits : Limits, optional
        ``time_limit_s`` for the whole count.

    Returns
    -------
    Count
        Its first two solutions are verified.

    Raises
    ------
    ValueError
        ``most`` below 1.
    VerificationError
        The search produced an answer that breaks the rules (a bug).

    Examples
    --------
    >>> from flowgraph import parse_text
    >>> puzzle = parse_text("STANDARD\\nA-.-A\\n| | |\\n.-.-.\\n")
    >>> count_all(puzzle).count, count_all(puzzle.with_rules("numberlink")).count
    (0, 4)
    """
    from ..engines.exhaustive import enumerate_solutions

    try:
        found = enumerate_solutions(puzzle, most, keep=2, limits=limits)
    except SearchLimitError as exc:
        return Count(int(exc.stats.get("count", 0)), False, True, (), dict(exc.stats))
    for sol in found.solutions:
        verify(sol)
    return Count(found.count, found.complete, False, found.solutions, found.stats)


def count_solutions(puzzle: Puzzle, limit: int = 2, limits: Limits | None = None) -> Uniqueness:
    """Find up to ``limit`` distinct solutions and say whether the puzzle is unique.

    Parameters
    ----------
    puzzle : Puzzle
    limit : int
        Stop after this many solutions (2 is enough to tell unique from not).
    limits : Limits, optional
        ``time_limit_s`` and ``max_sat_calls`` for the whole count.

    Returns
    -------
    Uniqueness
        Every solution in it is verified.

    Raises
    ------
    VerificationError
        The SAT engine produced an answer that breaks the rules (a bug).

    Examples
    --------
    >>> from flowgraph import parse_text
    >>> count_solutions(parse_text("STANDARD\\nA-.-A\\n")).verdict
    'unique'
    """
    from ..engines.sat import solutions  # python-sat is loaded only when asked for

    limits = limits or Limits()
    if not puzzle.rules.fills_every_cell and limit == 2:
        return _numberlink_count(puzzle, limits)
    try:
        found, _ = solutions(puzzle, limit, limits)
    except SearchLimitError:
        return Uniqueness("limit")
    for sol in found:
        verify(sol)
    return Uniqueness({0: "unsolvable", 1: "unique"}.get(len(found), "multiple"), tuple(found))


#: Under Numberlink rules, the share of the time left (or the seconds, with no time limit) spent looking
#: for a second Flow Free solution before the Numberlink count.
FILLED_SECOND_SHARE = 0.2
FILLED_SECOND_SECONDS = 5.0


def _numberlink_count(puzzle: Puzzle, limits: Limits) -> Uniqueness:
    """Unique, multiple or none under Numberlink rules, through chord-free solutions.

    A path has a chord when two of its nodes are neighbours but not consecutive; jumping it
    leaves the nodes between empty and is again a solution (cells may stay empty), so every
    solution becomes chord-free by jumps (:func:`tighten`). Hence: a solution with a chord is
    not unique (it and its tightening); a chord-free solution T with a detour (:func:`detour`:
    a link of T replaced by a walk through empty nodes) is not unique; otherwise any other
    solution would tighten either to a second chord-free solution or to T through a last jump
    that, undone, is a detour of T. So the SAT count runs on the chord-free model only
    (``sat.solutions(tight=True)``), which propagates far better than the Numberlink model
    with nothing to say where a path may not wander.
    """
    from ..engines import auto, sat

    t0 = time.perf_counter()
    total = limits.time_limit_s

    def left(share: float = 1.0) -> Limits:
        if total is None:
            return limits if share == 1.0 else replace(limits, time_limit_s=FILLED_SECOND_SECONDS)
        return replace(limits, time_limit_s=max(0.01, share * (total - (time.perf_counter() - t0))))

    try:  # auto tries the Flow Free model first: far easier, and its solutions are Numberlink ones
        first = verify(auto.solve(puzzle, left()))
    except UnsolvableError:
        return Uniqueness("unsolvable")
    except SearchLimitError:
        return Uniqueness("limit")
    tight = tighten(first)
    if tight.paths != first.paths:
        return Uniqueness("multiple", (first, verify(tight)))
    longer = detour(tight)
    if longer is not None:
        return Uniqueness("multiple", (tight, verify(longer)))
    if sum(map(len, tight.paths.values())) == len(puzzle.graph):
        # It fills every node: a second Flow Free solution, if one comes soon, settles "multiple" (proving
        # there is none can take the Flow Free model longer than the whole Numberlink count: not tried).
        try:
            filled, _ = sat.solutions(puzzle.with_rules(Rules.FLOW), 1, left(FILLED_SECOND_SHARE), exclude=tight)
        except SearchLimitError:
            filled = []
        if filled:
            return Uniqueness("multiple", (tight, verify(replace(filled[0], puzzle=puzzle))))
    try:
        found, _ = sat.solutions(puzzle, 1, left(), tight=True, exclude=tight)
    except SearchLimitError:
        return Uniqueness("limit")
    return Uniqueness("multiple", (tight, verify(found[0]))) if found else Uniqueness("unique", (tight,))


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


def differing_cells(first: Solution, second: Solution) -> set[tuple[int, int]]:
    """The ``(line, column)`` of every cell whose flow differs between two solutions of one puzzle.

    A bridge counts when one of its lanes is on different flows.
    """
    owner_a: dict[Node, str] = first.owner()
    owner_b: dict[Node, str] = second.owner()
    return {position(n) for n in first.puzzle.graph if owner_a.get(n) != owner_b.get(n)}
