"""The error tree: every error survives pickling (batch workers send them between processes) unchanged."""

from __future__ import annotations

import pickle

import pytest

from flowgraph.errors import ConversionError, PuzzleError, ScanError, SearchLimitError, UnsolvableError


@pytest.mark.parametrize("error", [
    PuzzleError("label 'A' appears once", 3, 5, "a.txt"),
    UnsolvableError("no solution: the search space is exhausted", {"states": 7}),
    SearchLimitError("states", {"states": 3}),
    ConversionError("a plain grid cannot express a wall"),
    ScanError("no grid found", "shot.png"),
])
def test_errors_pickle_to_the_same_error(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)
    assert vars(back) == vars(error)


def test_rules_error_is_public_and_what_solve_raises_for_an_engine_of_other_rules():
    """Issue 54: solve raised it, but the package did not export it nor its docstring name it."""
    import flowgraph

    assert "RulesError" in flowgraph.__all__ and "RulesError" in flowgraph.solve.__doc__
    puzzle = flowgraph.parse_text("STANDARD\nA-.-A\n").with_rules("numberlink")
    with pytest.raises(flowgraph.RulesError, match="numberlink"):
        flowgraph.solve(puzzle, engine="search")
