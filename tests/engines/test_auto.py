"""What is the auto engine's own: the order of its engines, how it shares the time, what it reports."""

from __future__ import annotations

import pytest

from flowgraph import Limits, SearchLimitError, UnsolvableError, parse_file, verify
from flowgraph.engines import auto, sat, search
from tests.helpers import PUZZLES, UNSOLVABLE

HIVE = PUZZLES / "hex" / "hive_8x7.txt"


def _stuck(puzzle, limits=None, heuristic=True):
    raise SearchLimitError("time", {"sat_calls": 3})


def test_sat_answers_first_and_is_named():
    solution = verify(auto.solve(parse_file(HIVE)))
    assert solution.engine == "sat" and solution.stats["tried"] == ["sat"]


def test_the_search_answers_when_sat_runs_out_of_time(monkeypatch):
    monkeypatch.setattr(sat, "solve", _stuck)
    solution = verify(auto.solve(parse_file(HIVE), Limits(time_limit_s=30)))
    assert solution.engine == "search" and solution.stats["tried"] == ["sat", "search"]


def test_sat_gets_its_share_of_the_time_and_the_search_the_rest(monkeypatch):
    seen = {}

    def sat_solve(puzzle, limits=None, heuristic=True):
        seen["sat"] = limits.time_limit_s
        raise SearchLimitError("time")

    def search_solve(puzzle, limits=None, heuristic=True):
        seen["search"] = limits.time_limit_s
        raise SearchLimitError("time", {"sat_calls": 5})

    monkeypatch.setattr(sat, "solve", sat_solve)
    monkeypatch.setattr(search, "solve", search_solve)
    with pytest.raises(SearchLimitError) as info:
        auto.solve(parse_file(HIVE), Limits(time_limit_s=10))
    assert seen["sat"] == pytest.approx(10 * auto.SAT_SHARE)
    assert 10 * (1 - auto.SAT_SHARE) < seen["search"] <= 10  # what SAT left
    assert info.value.stats["tried"] == ["sat", "search"]


def test_without_a_budget_sat_gets_its_fixed_seconds(monkeypatch):
    seen, real = {}, sat.solve

    def sat_solve(puzzle, limits=None, heuristic=True):
        seen["sat"] = limits.time_limit_s
        return real(puzzle, limits)

    monkeypatch.setattr(sat, "solve", sat_solve)
    auto.solve(parse_file(HIVE))
    assert seen["sat"] == auto.SAT_SECONDS


@pytest.mark.parametrize("path", UNSOLVABLE, ids=lambda p: p.name)
def test_a_proof_from_sat_is_final(path, monkeypatch):
    monkeypatch.setattr(search, "solve", _stuck)  # never asked
    with pytest.raises(UnsolvableError) as info:
        auto.solve(parse_file(path))
    assert info.value.stats["tried"] == ["sat"]


def test_a_node_budget_is_not_passed_on(monkeypatch):
    with pytest.raises(SearchLimitError) as info:
        auto.solve(parse_file(PUZZLES / "standard" / "open_field_8x8.txt"), Limits(max_sat_calls=0))
    assert info.value.reason == "sat_calls"


# -- where the caller asks (a batch, bench, the studio: they load the search): small boards try it first --

FIRST = Limits(search_first=True)


@pytest.fixture
def loaded():
    search.warm_up()


def test_asked_for_a_small_board_goes_to_the_search_first(loaded):
    solution = verify(auto.solve(parse_file(HIVE), FIRST))
    assert solution.engine == "search" and solution.stats["tried"] == ["search"]


def test_not_asked_sat_goes_first_whatever_ran_before_in_the_process(loaded):
    """The choice is the caller's: a loaded search (an earlier batch, test or studio request) changes nothing."""
    assert verify(auto.solve(parse_file(HIVE))).stats["tried"] == ["sat"]


def test_asked_the_search_proof_is_final(loaded):
    with pytest.raises(UnsolvableError) as info:
        auto.solve(parse_file(PUZZLES / "standard" / "unsolvable_3x3.txt"), FIRST)
    assert info.value.stats["tried"] == ["search"]


def test_a_large_board_or_a_search_that_stops_goes_to_sat(loaded, monkeypatch):
    monkeypatch.setattr(auto, "SEARCH_FIRST_CELLS", 10)  # the hive has 56 cells: "large"
    assert auto.solve(parse_file(HIVE), FIRST).stats["tried"] == ["sat"]
    monkeypatch.setattr(auto, "SEARCH_FIRST_CELLS", 1_000)
    monkeypatch.setattr(auto, "SEARCH_FIRST_STATES", 0)  # the search stops at once
    solution = verify(auto.solve(parse_file(PUZZLES / "standard" / "open_field_8x8.txt"),
                                 Limits(time_limit_s=30, search_first=True)))
    assert solution.engine == "sat" and solution.stats["tried"] == ["search", "sat"]


def test_a_batch_asks_for_the_search_first_and_one_puzzle_does_not():
    from flowgraph.cli.batching import batch_limits

    assert batch_limits(Limits(), "auto", auto.BATCH_TASKS).search_first
    assert not batch_limits(Limits(), "auto", auto.BATCH_TASKS - 1).search_first
    assert not batch_limits(Limits(), "sat", 1000).search_first


def test_a_batch_loads_the_search_for_auto_and_one_puzzle_does_not(monkeypatch):
    from flowgraph import kernels
    from flowgraph.batch.executors import make_executor

    search.warm_up()  # compiled on this machine now (a machine's first run compiles here)
    monkeypatch.setattr(kernels, "_RUNTIME", kernels.Runtime())  # as in a process that has not loaded it
    with make_executor(1, warm_up="auto", tasks=1):
        assert not kernels.runtime().warm
    with make_executor(1, warm_up="auto", tasks=auto.BATCH_TASKS):
        assert kernels.runtime().warm


# No Flow Free solution (the cell after the second A stays empty), a Numberlink one.
EMPTY_CORNER = "STANDARD\nA-.-A-.\n"


def test_numberlink_rules_take_a_filled_solution_first():
    solution = verify(auto.solve(parse_file(HIVE).with_rules("numberlink")))
    assert solution.stats["tried"][-1] == "(flow rules)"


def test_numberlink_rules_then_try_the_link_search_then_sat(monkeypatch):
    from flowgraph import parse_text
    from flowgraph.engines import links
    from flowgraph.kernels import Runtime

    seen = []
    ready = Runtime(built_ahead=True)  # as auto is told by a caller whose kernels are built
    real = links.solve

    def links_solve(puzzle, limits=None):
        seen.append(("links", limits.time_limit_s))
        return real(puzzle, limits)

    monkeypatch.setattr(links, "solve", links_solve)
    solution = verify(auto.solve(parse_text(EMPTY_CORNER).with_rules("numberlink"), Limits(time_limit_s=10),
                                 runtime=ready))
    assert solution.engine == "links" and solution.stats["tried"] == ["links"]
    assert 0 < seen[0][1] <= auto.LINKS_SHARE * 10

    monkeypatch.setattr(links, "solve", lambda puzzle, limits=None: _stuck(puzzle))
    solution = verify(auto.solve(parse_text(EMPTY_CORNER).with_rules("numberlink"), runtime=ready))
    assert solution.engine == "sat" and solution.stats["tried"] == ["links", "sat"]


@pytest.mark.parametrize("runtime", [{}, {"kind": "plain Python"}], ids=["not built", "plain Python"])
def test_numberlink_rules_skip_the_link_search_where_it_would_compile_first(runtime):
    from flowgraph import parse_text
    from flowgraph.kernels import Runtime

    solution = verify(auto.solve(parse_text(EMPTY_CORNER).with_rules("numberlink"), runtime=Runtime(**runtime)))
    assert solution.engine == "sat" and solution.stats["tried"] == ["sat"]


def test_the_search_goes_first_only_where_the_caller_loaded_it_and_asked():
    from flowgraph.kernels import Runtime

    puzzle = parse_file(PUZZLES / "standard" / "regular_5x5.txt")
    warm, cold = Runtime(kind="ahead of time", warm=True), Runtime(kind="ahead of time")
    assert auto.solve(puzzle, Limits(search_first=True), runtime=warm).stats["tried"] == ["search"]
    assert auto.solve(puzzle, Limits(search_first=True), runtime=cold).stats["tried"] == ["sat"]
    assert auto.solve(puzzle, Limits(), runtime=warm).stats["tried"] == ["sat"]


def test_the_link_search_proves_no_numberlink_solution():
    from flowgraph import parse_text

    with pytest.raises(UnsolvableError):
        auto.solve(parse_text("STANDARD\nA-B-A-B\n").with_rules("numberlink"))
