"""The verifier accepts good solutions and names what is wrong with bad ones."""

from __future__ import annotations

import pytest

from flowgraph import Solution, VerificationError, check, parse_text, verify
from tests.helpers import BUNDLED, UNSOLVABLE

SOLVED = [p for p in BUNDLED if p not in UNSOLVABLE]

BOARD = "BRIDGES\n  A\n  |\nB-*-B\n  |\n  A\n"
GOOD = {"A": ((2, 3), (4, 3, "|"), (6, 3)), "B": ((4, 1), (4, 3, "-"), (4, 5))}


@pytest.fixture
def puzzle():
    return parse_text(BOARD)


def test_good_solution_passes(puzzle):
    sol = Solution(puzzle, GOOD)
    assert check(sol) == []
    assert verify(sol) is sol


@pytest.mark.parametrize(
    "paths, words",
    [
        ({"A": GOOD["A"]}, "flow 'B' has no path"),
        ({**GOOD, "B": ((4, 1), (4, 3, "-"))}, "does not run from"),
        ({**GOOD, "B": ((4, 5), (4, 3, "-"), (4, 5))}, "does not run from"),
        ({**GOOD, "B": ((4, 1), (4, 3, "|"), (4, 5))}, "lies on path 'A' and path 'B'"),
        ({**GOOD, "B": ((4, 1), (4, 5))}, "without a link"),
        ({**GOOD, "C": ((9, 9),)}, "belongs to no flow"),
        ({**GOOD, "B": ((4, 1), (9, 9), (4, 5))}, "which is not a cell"),
        ({**GOOD, "B": ((4, 1), (9, 9), (4, 5))}, "(4, 3, '-') lies on no path"),
        ({"A": ((2, 3), (4, 3, "|"), (6, 3)), "B": ((4, 1), (4, 1), (4, 5))}, "lies on path 'B' and path 'B'"),
    ],
)
def test_broken_solutions_are_named(puzzle, paths, words):
    problems = check(Solution(puzzle, paths))
    assert any(words in p for p in problems), problems
    with pytest.raises(VerificationError):
        verify(Solution(puzzle, paths))


def test_a_path_is_the_same_path_from_either_endpoint(puzzle):
    """Issue 72: a pipe drawn from its second dot is the same path; it is stored turned round (first endpoint
    first), so the verifier, the JSON rows and the pictures see one answer."""
    backwards = {label: path[::-1] for label, path in GOOD.items()}
    sol = verify(Solution(puzzle, backwards))
    assert check(sol) == [] and dict(sol.paths) == GOOD


@pytest.mark.parametrize("source", SOLVED, ids=lambda p: p.name)
def test_every_bundled_solution_verifies_with_its_paths_turned_round(source):
    from flowgraph.engines import solve_puzzle

    puzzle = parse_text(source.read_text())
    solution = solve_puzzle(puzzle)
    turned = verify(Solution(puzzle, {label: path[::-1] for label, path in solution.paths.items()}))
    assert dict(turned.paths) == dict(solution.paths)


def test_uncovered_cell_and_endpoint_run_through():
    p = parse_text("STANDARD\nA-.-B-.-B\n| | | | |\nA-.-.-.-.\n")
    missing = {"A": ((2, 1), (4, 1)), "B": ((2, 5), (2, 7), (2, 9))}
    assert any("lies on no path" in m for m in check(Solution(p, missing)))
    through = {
        "A": ((2, 1), (2, 3), (2, 5), (4, 5), (4, 3), (4, 1)),
        "B": ((2, 5), (2, 7), (2, 9)),
    }
    assert any("runs through an endpoint of flow 'B'" in m for m in check(Solution(p, through)))


def test_a_rule_set_is_a_type_with_its_facts_and_its_name():
    """Issue 37: code asks a rule set's facts; its name still compares, prints and serialises as before."""
    import json

    from flowgraph.model import RULES, Rules

    assert RULES == ("flow", "numberlink") and Rules.of("flow") is Rules.FLOW
    assert Rules.FLOW.fills_every_cell and not Rules.NUMBERLINK.fills_every_cell
    assert (Rules.FLOW.puzzlink, Rules.NUMBERLINK.puzzlink) == ("arukone", "numlin")
    assert f"{Rules.NUMBERLINK} rules" == "numberlink rules" and json.dumps([Rules.FLOW]) == '["flow"]'
    puzzle = parse_text("STANDARD\nA-.-A-.\n")
    assert puzzle.rules is Rules.FLOW and puzzle.with_rules("numberlink").rules is Rules.NUMBERLINK
    with pytest.raises(ValueError, match="expected one of flow, numberlink"):
        puzzle.with_rules("sudoku")


# -- the array verdict (obeys) and the worded one (check) agree -------------------------------------------

from functools import cache  # noqa: E402

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from flowgraph.verification import obeys  # noqa: E402


@cache
def _solved(index: int, rules: str):
    from flowgraph.engines import solve_puzzle

    puzzle = parse_text(SOLVED[index].read_text()).with_rules(rules)
    return puzzle, dict(solve_puzzle(puzzle, "sat" if rules == "numberlink" else "search").paths)


def _broken(draw, puzzle, paths: dict) -> dict:
    """A few random edits of a solution's paths: dropped, added, swapped, moved or foreign nodes, paths gone or extra."""
    nodes = list(puzzle.cell_index.nodes)
    labels = sorted(paths)
    paths = {k: list(v) for k, v in paths.items()}
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["drop", "insert", "swap", "reverse", "remove", "extra", "move", "foreign",
                                     "truncate", "duplicate"]))
        label = draw(st.sampled_from(labels))
        path = paths.get(label)
        if kind == "remove":
            paths.pop(label, None)
        elif kind == "extra":
            paths["?"] = [draw(st.sampled_from(nodes))]
        elif not path:
            continue
        elif kind == "drop":
            path.pop(draw(st.integers(0, len(path) - 1)))
        elif kind == "insert":
            path.insert(draw(st.integers(0, len(path))), draw(st.sampled_from(nodes)))
        elif kind == "swap":
            i, j = draw(st.integers(0, len(path) - 1)), draw(st.integers(0, len(path) - 1))
            path[i], path[j] = path[j], path[i]
        elif kind == "reverse":
            path.reverse()
        elif kind == "move":
            other = paths.get(draw(st.sampled_from(labels)))
            if other is not None and len(path) > 1:
                other.insert(draw(st.integers(0, len(other))), path.pop(draw(st.integers(0, len(path) - 1))))
        elif kind == "foreign":
            path[draw(st.integers(0, len(path) - 1))] = (99, 99)
        elif kind == "truncate":
            del path[draw(st.integers(0, len(path))):]
        elif kind == "duplicate":
            i = draw(st.integers(0, len(path) - 1))
            path.insert(i, path[i])
    return {k: tuple(v) for k, v in paths.items()}


@given(st.data())
def test_the_array_verdict_is_the_worded_one(data):
    """``verify`` trusts :func:`obeys` and asks :func:`check` only for the words: both must agree on every
    solution, good or broken, under both rule sets, on every bundled family (bridges' lanes, warps, holes)."""
    index = data.draw(st.integers(0, len(SOLVED) - 1))
    rules = data.draw(st.sampled_from(["flow", "numberlink"]))
    puzzle, paths = _solved(index, rules)
    sol = Solution(puzzle, _broken(data.draw, puzzle, paths))
    assert obeys(sol) == (check(sol) == [])
