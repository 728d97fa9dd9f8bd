"""Why a board has no solution: the flows or cells named are a proof, and each one is needed."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from flowgraph import parse_file, parse_text
from flowgraph.authoring.diagnose import why_unsolvable
from flowgraph.cli import main
from flowgraph.engines import sat
from flowgraph.errors import UnsolvableError
from flowgraph.model import Rules, position
from tests.helpers import PUZZLES

CASES = [  # board, the flows named, the cells named (line:column)
    ((PUZZLES / "standard" / "unsolvable_3x3.txt").read_text(), ["A", "B"], []),
    ("STANDARD\nA-.-A-.\n", [], ["2:7"]),
    ("STANDARD\nA-B-A\n| | |\n.-.-.\n| | |\nC-B-C\n", ["B", "C"], []),  # B cuts A and C apart from each other
    ("STANDARD\nA-.-A\n| | |\n.-.-.\n| | |\nB-.-B\n", [], ["2:3", "4:1", "4:5", "6:3"]),
    ("STANDARD\nA-.-.\n    |\n.-.-A\n|    \nB-.-B\n", [], ["4:1"]),  # walls: a pocket only B reaches
    ("HEX\nA-B-.\n|/|\\|\n.-.-.\n|\\|/|\nB-.-A\n", None, None),  # whatever it names must be a proof
]


def _solvable(puzzle) -> bool:
    """By the SAT engine, complete; not verified: a flow dropped leaves its endpoints as plain cells, which
    the model knows (it reads the flows) and the verifier, reading the board, does not."""
    try:
        sat.solve(puzzle)
        return True
    except UnsolvableError:
        return False


@pytest.mark.parametrize("text, flows, cells", CASES)
def test_what_is_named_is_a_proof_and_each_part_is_needed(text, flows, cells):
    puzzle = parse_text(text)
    assert not _solvable(puzzle)
    why = why_unsolvable(puzzle)
    if why is None:  # only the hex case may be solvable after all under no rule: it is not
        pytest.fail("no reason found")
    assert why.minimal
    if flows is not None:
        assert list(why.flows) == flows and [f"{a}:{b}" for a, b in map(position, why.cells)] == cells
    relaxed = puzzle.with_rules(Rules.NUMBERLINK)
    if why.flows:  # those flows alone, every other cell free: unsolvable; any one fewer: solvable
        core = tuple(f for f in puzzle.flows if f.label in why.flows)
        assert not _solvable(replace(relaxed, flows=core))
        for f in core:
            rest = tuple(g for g in core if g is not f)
            assert not rest or _solvable(replace(relaxed, flows=rest))
        assert sorted(why.ends) == sorted(e for f in core for e in f.ends)
    else:  # every flow joins when cells may stay empty; the cells named are left empty by every such solution
        assert _solvable(relaxed) and why.cells


def test_a_solvable_board_has_no_reason():
    assert why_unsolvable(parse_file(PUZZLES / "standard" / "regular_5x5.txt")) is None
    assert why_unsolvable(parse_text("STANDARD\nA-.-A-.\n").with_rules("numberlink")) is None


def test_solve_says_why_in_text_and_json(capsys):
    board = str(PUZZLES / "standard" / "unsolvable_3x3.txt")
    assert main(["solve", board]) == 1
    assert capsys.readouterr().out.splitlines()[1] == "why: flows A and B cannot both be joined, even with cells left empty"
    assert main(["solve", "--json", board]) == 1
    why = json.loads(capsys.readouterr().out)["why"]
    assert why["flows"] == ["A", "B"] and why["cells"] == [] and why["minimal"]
    assert sorted(why["marks"]) == [[4, 3], [6, 1], [6, 5], [8, 3]]  # the four endpoints, to outline


def test_the_time_limit_bounds_a_diagnosis():
    from flowgraph.model import Limits

    puzzle = parse_text("STANDARD\nA-.-A\n| | |\n.-.-.\n| | |\nB-.-B\n")
    assert why_unsolvable(puzzle, Limits(time_limit_s=1e-9)) is None  # no set proved in no time: nothing said


def test_the_cells_named_are_named_as_the_boards_rulers_number_them(capsys):
    """Issue 72: "cell 2:7 (line:column)" named a place in the file; a board's messages name its cells as its
    rulers do (row 1 at the top, column 1 at the left), r1c4."""
    why = why_unsolvable(parse_text("STANDARD\nA-.-.\n    |\n.-.-A\n|    \nB-.-B\n"))
    assert why is not None and why.names == ("r2c1",)
    assert why.text == "every flow can be joined, but never with cell r2c1 filled"
    four = why_unsolvable(parse_text("STANDARD\nA-.-A\n| | |\n.-.-.\n| | |\nB-.-B\n"))
    assert four is not None and four.text.endswith("never with cells r1c2, r2c1, r2c3 and r3c2 all filled")
