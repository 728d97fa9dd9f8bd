"""Whether a puzzle has exactly one solution, and where two solutions differ.

Puzzle authors need a unique solution; so do ``flowgraph validate
--unique``, the generator and the studio. A first solution is found, then a
second one is looked for by the exhaustive link search, in windows around the
first, and by the SAT engine's sound model (no heuristic clauses) with the first
solution's links blocked, in turn (:func:`_two_solutions`): each is complete, so
"unique" is a proof, not a guess. Under Numberlink rules the search goes through
the canonical solutions, the moves between solutions checked by hand.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..budgets import UNIQUE_FIRST_SECONDS as FIRST_SECONDS
from ..budgets import UNIQUE_NEARBY_SECONDS as NEARBY_SECONDS
from ..budgets import UNIQUE_NEARBY_SHARE as NEARBY_SHARE
from ..budgets import UNIQUE_ROUND_SAT_SHARE as ROUND_SAT_SHARE
from ..engines import memory
from ..errors import SearchLimitError, UnsolvableError
from ..model import Limits, Node, Puzzle, Solution, position
from ..verification import verify
from .path_moves import corner_move, detour, reroute, tighten

if TYPE_CHECKING:
    from ..engines.exhaustive import Enumeration

__all__ = ["Count", "Uniqueness", "corner_move", "reroute", "count_all", "count_solutions", "detour", "differing_cells",
           "tighten"]


@dataclass(frozen=True)
class Uniqueness:
    """The answer of :func:`count_solutions`.

    Attributes
    ----------
    verdict : str
        ``"unique"``, ``"multiple"``, ``"none"`` (no solution: the search space was
        exhausted) or ``"limit"`` (the budget ran out before an answer): the words of
        ``flowgraph validate --unique --json`` and of :attr:`Count.verdict`.
    solutions : tuple of Solution
        The verified solutions found, at most ``limit`` of them (with ``"limit"``, those found
        before the budget ran out, if any).
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
        ``seconds``, and the exhaustive search's ``decisions`` when it counted every solution.
    """

    count: int
    exact: bool
    limit: bool = False
    solutions: tuple[Solution, ...] = ()
    stats: dict | None = None

    @property
    def verdict(self) -> str:
        """What the count found.

        ``"none"``, ``"unique"``, ``"multiple"`` or ``"limit"`` (fewer than two found when the budget ran out)."""
        if self.count >= 2:
            return "multiple"
        if not self.exact:
            return "limit"
        return "unique" if self.count == 1 else "none"


def count_all(puzzle: Puzzle, most: int | None = None, limits: Limits | None = None, *,
              canonical: bool = False, first: Uniqueness | None = None) -> Count:
    """The exact number of solutions under ``puzzle.rules``, or "at least ``most``".

    Runs the exhaustive link search (:func:`flowgraph.engines.exhaustive.enumerate_solutions`) on
    the puzzle graph, so it counts on every family: square, hex, warps, bridges, holes and walls.
    Under Numberlink rules every way of leaving cells empty counts, so a board with wide empty
    areas can have very many solutions: give ``most`` or a time limit. Under either rules
    :func:`count_solutions` goes first (up to two solutions: under Numberlink rules a far smaller
    search, through the canonical solutions; SAT beside the link search), so a board with none or
    one is counted as fast as it is proved unique (its one solution is the one canonical solution in
    every order); only a board with two or more goes on to count every solution (or every
    canonical one, in row order).

    Parameters
    ----------
    puzzle : Puzzle
    most : int, optional
        Stop after this many solutions (the count is then "at least ``most``").
    limits : Limits, optional
        ``time_limit_s`` and ``memory_bytes`` (the resident memory the count may add, watched:
        :mod:`flowgraph.engines.memory`) for the whole count.
    canonical : bool
        Under Numberlink rules, count only the canonical solutions, board order by rows (no path
        jumps over two links of a triangle or three of a 4-cycle; a path turning around an empty
        node turns at the later of the two corners): the count semiexp's numlin_v2 prints (its
        ``OPTIMIZATION_DISALLOW_TRIVIAL_DETOUR`` and ``OPTIMIZATION_L_SHAPE_CANONIZATION``). No
        effect under Flow Free rules, where no node is empty.
    first : Uniqueness, optional
        :func:`count_solutions`' answer for ``puzzle`` (up to two), when the caller has it: not asked
        for again, unless it is a limit.

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
    canonical = canonical and not puzzle.rules.fills_every_cell
    limits = limits or Limits()
    with memory.watch(limits.memory_bytes):
        return _count_all(puzzle, most, limits, canonical, first)


def _count_all(puzzle: Puzzle, most: int | None, limits: Limits, canonical: bool, first: Uniqueness | None) -> Count:
    """:func:`count_all` under its memory watch."""
    from ..engines.exhaustive import enumerate_solutions

    t0 = time.perf_counter()
    known: tuple[Solution, ...] = ()  # two solutions already found, if any
    if first is not None or most is None or most > 1:
        # None or one solution: count_solutions proves it, often far sooner (under Numberlink rules through
        # the canonical solutions; SAT beside the link search); one solution is canonical in every order
        few = first if first is not None and first.verdict != "limit" else count_solutions(puzzle, 2, limits)
        seconds = {"seconds": round(time.perf_counter() - t0, 6)}
        if few.verdict != "multiple":
            return Count(len(few.solutions), few.verdict != "limit", few.verdict == "limit", few.solutions, seconds)
        known = few.solutions
        if limits.time_limit_s is not None:
            limits = replace(limits, time_limit_s=max(0.01, limits.time_limit_s - seconds["seconds"]))
    try:
        found = enumerate_solutions(puzzle, most, keep=2, limits=limits, canonical=canonical,
                                    order="rows" if canonical else None)
    except SearchLimitError as exc:  # at least what either search found
        return Count(max(int(exc.stats.get("count", 0)), len(known)), False, True, known, dict(exc.stats))
    for sol in found.solutions:
        verify(sol)
    return Count(found.count, found.complete, False, found.solutions, found.stats)


def count_solutions(puzzle: Puzzle, limit: int = 2, limits: Limits | None = None, *,
                    sat_only: bool = False) -> Uniqueness:
    """Find up to ``limit`` distinct solutions and say whether the puzzle is unique.

    Parameters
    ----------
    puzzle : Puzzle
    limit : int
        Stop after this many solutions (2 is enough to tell unique from not).
    limits : Limits, optional
        ``time_limit_s``, ``max_sat_calls`` and ``memory_bytes`` (the resident memory the count may
        add, watched: :mod:`flowgraph.engines.memory`) for the whole count.
    sat_only : bool
        Under Flow Free rules, the SAT model alone (no link search, no windows): the generator's
        random covers are counted faster so (docs/benchmarks.md). Under Numberlink rules, where the
        canonical argument needs the link search, it is ignored.

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
    limits = limits or Limits()
    with memory.watch(limits.memory_bytes):
        if limit == 2 and not (sat_only and puzzle.rules.fills_every_cell):
            return _two_solutions(puzzle, limits)
        from ..engines.sat import solutions  # python-sat is loaded only when asked for

        try:
            found, _ = solutions(puzzle, limit, limits)
        except SearchLimitError as err:  # those found before the budget ran out are kept, verified
            return Uniqueness("limit", tuple(verify(sol) for sol in getattr(err, "solutions", ())))
    for sol in found:
        verify(sol)
    return Uniqueness({0: "none", 1: "unique"}.get(len(found), "multiple"), tuple(found))


#: The decisions the link search gets before the windows (about 30 ms; most small boards end there; no
#: more than :data:`flowgraph.engines.exhaustive.PARALLEL_AFTER`, so no second process is started for them).
FIRST_DECISIONS = 20_000


def _two_solutions(puzzle: Puzzle, limits: Limits) -> Uniqueness:
    """Unique, multiple or none, under either rules: the exhaustive link search's count, or a first
    solution T and a second one looked for by the link search, SAT and windows in turn.

    **Flow Free rules.** The exhaustive link search
    (:class:`flowgraph.engines.exhaustive.LinkSearch`, up to two solutions) gets
    :data:`FIRST_DECISIONS` first, where most small boards end (no first solution is needed for
    them: the search's count is the answer). Then T comes from ``auto``, and a second solution is looked
    for among those that differ from T only inside one window of the board
    (:func:`flowgraph.engines.sat.nearby_solution`, :data:`flowgraph.budgets.UNIQUE_NEARBY_SHARE` of the time: a published
    board's second solution usually moves a few neighbouring flows, found in milliseconds where a
    whole search may take minutes; any it finds is a real solution), then by the link search for
    :data:`flowgraph.budgets.UNIQUE_FIRST_SECONDS`, then by the SAT model with T blocked
    (:class:`flowgraph.engines.sat.SolutionSearch`) and the link search in turn, as long again,
    then twice as long each round (SAT at most :data:`flowgraph.budgets.UNIQUE_ROUND_SAT_SHARE` of the time left), each part going
    on from where the last stopped. On a shape board (its cells have outlines: a ring, a cube) SAT goes
    first: the link search's board order follows no lattice's rows there, and on the larger rings and cubes
    it spent its whole first part where SAT proves the board unique at once (docs/benchmarks.md, issue 70).
    From the windows on, where a fork is safe, the link search's second board order runs on in a child process
    (:meth:`flowgraph.engines.exhaustive.LinkSearch.fork`) while this one builds windows and SAT
    models: the two processors work at once. Each search is complete; which one wins depends on the
    board (docs/benchmarks.md).

    **Numberlink rules** (cells may stay empty): the same steps, through canonical solutions. Two
    kinds of move turn a solution into another one when cells may stay empty: a jump over a chord
    (two nodes of a path that are neighbours but not consecutive: the nodes between are left empty)
    and a corner move (a path turning at ``b`` of a 4-cycle ``a-b-c-d`` whose node ``d`` is empty
    and no endpoint goes ``a-d-c`` instead). A solution is canonical when no chord jump and no
    corner move towards a later node changes it. Each such move uses fewer nodes, or as many with
    the corner later, so every solution reaches a canonical one by moves. Hence, with T a solution
    that no move at all changes (no chord, and no flow can be rerouted: :func:`reroute`, which
    covers :func:`detour` and :func:`corner_move`, the moves undone): the puzzle is unique exactly
    when T is the only canonical solution. Another solution would reach a canonical one by moves;
    if that were T, the last move, undone, would be a move of T. When the link search ends in its
    first part, its one canonical solution plays T's part (unique if no move changes it, multiple if
    one does). Otherwise T is ``auto``'s solution (the Flow
    Free model first: far easier, and its solutions are Numberlink ones), if no move changes it; the link
    search counts canonical solutions (``canonical``: short jumps only, corners towards later nodes
    in board order; the same argument holds for its moves), and so do the windows and SAT
    (``tight=True, corners=True``).
    """
    from ..engines.exhaustive import LinkSearch

    numberlink = not puzzle.rules.fills_every_cell
    t0 = time.perf_counter()
    total = limits.time_limit_s

    def left(share: float = 1.0, seconds: float = NEARBY_SECONDS) -> Limits:  # seconds: where no time limit
        if total is None:
            return limits if share == 1.0 else replace(limits, time_limit_s=seconds)
        return replace(limits, time_limit_s=max(0.01, share * (total - (time.perf_counter() - t0))))

    search = LinkSearch(puzzle, 2, canonical=numberlink, keep=2)
    with contextlib.suppress(SearchLimitError):  # a small board ends here, with no first solution T needed
        return _settled(search.run(replace(left(), max_states=min(FIRST_DECISIONS, limits.max_states or FIRST_DECISIONS))),
                        numberlink)
    search.fork(replace(left(), max_states=None))  # the second board order goes on in a child meanwhile
    try:
        from ..engines import auto, sat  # (python-sat's import overlaps the child's work)

        try:
            first = verify(auto.solve(puzzle, left()))
        except UnsolvableError:
            return Uniqueness("none")
        except SearchLimitError:
            return Uniqueness("limit")
        moved = _moved(first) if numberlink else None
        if moved is not None:
            return moved

        def link_search(budget: Limits) -> Uniqueness:  # (continued from the first part)
            every = search.run(budget)
            others = [s for s in every.solutions if s.paths != first.paths]
            if not others:  # T (canonical under Numberlink rules) is among what the search finds: T alone
                assert every.count == 1, every.count
                return Uniqueness("unique", (first,))
            return Uniqueness("multiple", (first, verify(others[0])))

        near = sat.nearby_solution(puzzle, first, left(NEARBY_SHARE, NEARBY_SECONDS), corners=True)
        if near is not None:
            return Uniqueness("multiple", (first, verify(near)))
        if not puzzle.drawing.outlines:  # a shape board (cells with outlines): SAT first (below)
            with contextlib.suppress(SearchLimitError):
                return link_search(_at_most(left(), FIRST_SECONDS))
        model = sat.SolutionSearch(puzzle, tight=numberlink, corners=numberlink, exclude=first)
        try:
            seconds = FIRST_SECONDS
            while True:  # SAT and the link search in turn, each going on from where it stopped
                if total is not None and time.perf_counter() - t0 >= total:
                    return Uniqueness("limit", (first,))
                with contextlib.suppress(SearchLimitError):
                    found = model.next(_at_most(left(ROUND_SAT_SHARE, seconds), seconds))
                    return Uniqueness("multiple", (first, verify(found))) if found else Uniqueness("unique", (first,))
                with contextlib.suppress(SearchLimitError):
                    return link_search(_at_most(left(), seconds))
                seconds *= 2
        finally:
            model.close()
    finally:
        search.close()


def _settled(every: Enumeration, numberlink: bool) -> Uniqueness:
    """The verdict of a link search that ended: under Numberlink rules, one canonical solution that no
    move changes is the only solution (:func:`_two_solutions`' argument), one that a move changes is
    not."""
    found = [verify(s) for s in every.solutions]
    if every.count == 0:
        return Uniqueness("none")
    if every.count > 1:
        return Uniqueness("multiple", tuple(found[:2]))
    moved = _moved(found[0]) if numberlink else None
    return moved or Uniqueness("unique", tuple(found[:1]))


def _moved(solution: Solution) -> Uniqueness | None:
    """Multiple, with ``solution`` and another one, when a chord jump or a reroute changes it
    (Numberlink rules); None when no move does."""
    tight = tighten(solution)
    if tight.paths != solution.paths:
        return Uniqueness("multiple", (solution, verify(tight)))
    other = reroute(solution)
    return None if other is None else Uniqueness("multiple", (solution, verify(other)))


def _at_most(limits: Limits, seconds: float) -> Limits:
    """``limits`` with at most ``seconds`` of time."""
    if limits.time_limit_s is None or limits.time_limit_s > seconds:
        return replace(limits, time_limit_s=seconds)
    return limits


def differing_cells(first: Solution, second: Solution) -> set[tuple[int, int]]:
    """The ``(line, column)`` of every cell whose flow differs between two solutions of one puzzle.

    A bridge counts when one of its lanes is on different flows.
    """
    owner_a: dict[Node, str] = first.owner()
    owner_b: dict[Node, str] = second.owner()
    return {position(n) for n in first.puzzle.cell_index.nodes if owner_a.get(n) != owner_b.get(n)}
