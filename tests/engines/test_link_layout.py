"""The link search's layout of a board (flowgraph.engines.link_layout): read from the graph, never the family's name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from flowgraph import parse_file
from flowgraph.engines.link_layout import LinkLayout
from tests.helpers import PUZZLES


@pytest.mark.parametrize("board, planar", [
    ("standard/regular_5x5.txt", True),
    ("standard/garden_9x7_holes.txt", True),  # holes and walls: still drawn without a crossing
    ("hex/honeycomb_5x4.txt", False),  # diagonal links: the nesting order by column does not hold
    ("warps/torus_6x6.txt", False),
    ("bridges/crossing_5x5.txt", False),
])
def test_the_nesting_check_runs_on_boards_drawn_without_a_crossing(board, planar):
    puzzle = parse_file(PUZZLES / board)
    assert LinkLayout(puzzle, True).planar is planar
    # Issue 54: the engines never ask the family; it was `puzzle.family == "STANDARD"` here
    renamed = replace(puzzle, family="HEX" if puzzle.family == "STANDARD" else "STANDARD")
    assert LinkLayout(renamed, True).planar is planar


@pytest.mark.parametrize("board", sorted(PUZZLES.glob("*/*.txt")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_readers_word_on_warps_is_the_graphs(board):
    """``Puzzle.has_warps``: the neighbor-link reader says "none" for the boards it links on arrays (the layout
    then needs no graph), every other board's graph answers; both agree with the graph's links, here and read
    back from a JSON graph."""
    import flowgraph

    puzzle = parse_file(board)
    said = puzzle.cell_index.warps
    answer = puzzle.has_warps
    warped = any(warp for *_, warp in puzzle.graph.edges(data="warp"))
    assert answer is warped and said in (None, False) and (said is None or not warped)
    again = flowgraph.read(flowgraph.write(puzzle, "json-graph"), "json-graph")
    assert again.has_warps is warped
    assert LinkLayout(again, True).planar is False  # its node ids are not a drawing of the board
