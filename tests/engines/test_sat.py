"""What is the SAT engine's own: cycle cuts, the time budget, solution enumeration (the shared suite is test_engines.py)."""

from __future__ import annotations

import pytest

from flowgraph import Limits, SearchLimitError, parse_file, parse_text, verify
from flowgraph.engines import sat
from tests.helpers import PUZZLES

MULTIPLE = PUZZLES / "standard" / "open_field_8x8.txt"


def test_detached_cycles_are_cut():
    # A 2x2 block beside a path: without cycle cuts the block could be a loop.
    solution = sat.solve(parse_text("STANDARD\nA-.-.\n| | |\n.-.-.\n| | |\nA-.-.\n"), heuristic=False)
    verify(solution)


def test_time_budget_interrupts_the_solver():
    with pytest.raises(SearchLimitError) as info:
        sat.solve(parse_file(MULTIPLE), Limits(time_limit_s=1e-9))
    assert info.value.reason == "time"


def test_solutions_are_distinct():
    found, stats = sat.solutions(parse_file(MULTIPLE), 3)
    assert len(found) == 3 and stats["sat_calls"] >= 3
    links = [frozenset(frozenset(e) for p in s.paths.values() for e in zip(p, p[1:])) for s in found]
    assert len(set(links)) == 3
    for s in found:
        verify(s)


def test_a_solution_search_goes_on_from_where_a_part_stopped():
    """SolutionSearch: a part that runs out of time keeps the solver; the next part finds what one run finds."""
    puzzle = parse_file(MULTIPLE)
    first = sat.solve(puzzle)
    search = sat.SolutionSearch(puzzle, exclude=first)
    try:
        with pytest.raises(SearchLimitError):
            search.next(Limits(time_limit_s=1e-9))
        found = [search.next(), search.next()]
    finally:
        search.close()
    links = [frozenset(frozenset(e) for p in s.paths.values() for e in zip(p, p[1:])) for s in (first, *found)]
    assert len(set(links)) == 3
    for s in found:
        verify(s)


def test_a_solution_search_says_when_there_is_no_other():
    puzzle = parse_file(PUZZLES / "standard" / "regular_5x5.txt")
    only = sat.solve(puzzle)
    search = sat.SolutionSearch(puzzle, exclude=only)
    try:
        assert search.next() is None
    finally:
        search.close()
