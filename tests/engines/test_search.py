"""What is the search's own: its memory budget, restarts and discrepancy cost (the shared suite is test_engines.py)."""

from __future__ import annotations

import pytest

from flowgraph import Limits, SearchLimitError, UnsolvableError, parse_file, parse_text, verify
from flowgraph.engines.search import solve
from tests.helpers import BUNDLED, UNSOLVABLE, corpus_params

SOLVABLE = [p for p in BUNDLED if p not in UNSOLVABLE]


def test_memory_budget_ends_the_search():
    p = parse_file(next(p for p in SOLVABLE if p.name == "open_field_8x8.txt"))
    with pytest.raises(SearchLimitError) as info:
        solve(p, Limits(memory_bytes=1))
    assert info.value.reason == "memory"


@pytest.mark.parametrize("path", SOLVABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_restarts_keep_answers_sound(path, monkeypatch):
    # Tiny quotas force many restarts (other ends, both-ended attempts);
    # the answer is still found and verified.
    monkeypatch.setattr("flowgraph.engines.search.heap.RESTART_STATES", 1)
    monkeypatch.setattr("flowgraph.engines.search.heap.FIRST_ATTEMPT_STATES", 1)
    solution = solve(parse_file(path), Limits(max_states=50_000))
    verify(solution)
    if path.name == "open_field_8x8.txt":
        assert solution.stats["restarts"] > 0


def test_restarts_still_prove_unsolvable(monkeypatch):
    monkeypatch.setattr("flowgraph.engines.search.heap.RESTART_STATES", 1)
    monkeypatch.setattr("flowgraph.engines.search.heap.FIRST_ATTEMPT_STATES", 1)
    with pytest.raises(UnsolvableError) as info:
        solve(parse_file(sorted(UNSOLVABLE)[0]))
    assert info.value.stats["heuristic"] is False


@pytest.mark.parametrize("cells", [0, 1, 16, 1000])
def test_discrepancy_cost_changes_order_not_answers(cells, monkeypatch):
    # The cost per step away from the preferred move only reorders the
    # heap: every bundled board is still solved and verified, and the
    # unsolvable one still proved.
    monkeypatch.setattr("flowgraph.engines.search.heap.DISCREPANCY_CELLS", cells)
    for path in SOLVABLE:
        verify(solve(parse_file(path), Limits(max_states=50_000)))
    with pytest.raises(UnsolvableError):
        solve(parse_file(sorted(UNSOLVABLE)[0]))


@pytest.mark.parametrize("path", BUNDLED + [p.values[0] for p in corpus_params("**/*.txt") if p.values[0]], ids=str)
def test_sides_read_off_the_distances_are_the_walks(path):
    """compile_puzzle reads the bipartite sides off the endpoints' link distances: the same sides as
    the walk (networkx's colouring) on every bundled and corpus board, [] where not bipartite."""
    import numpy as np

    from flowgraph.engines.search.board import _two_colour, compile_puzzle
    from flowgraph.io.neighbor_link import analyse

    puzzle = analyse(path.read_text(encoding="utf-8"))[0]
    if puzzle is None:
        pytest.skip("not a valid puzzle (a template)")
    board = compile_puzzle(puzzle)
    assert np.array_equal(board.side, np.array(_two_colour(board.adj, puzzle.cell_index.order), np.int8))


def test_sides_of_a_board_in_two_parts_are_the_walks():
    """The first endpoint reaches one part only: each node's side comes from its own part's first endpoint."""
    import numpy as np

    from flowgraph.engines.search.board import _two_colour, compile_puzzle

    puzzle = parse_text("STANDARD\nA-.-.-A\n\nB-.-.-B\n")
    board = compile_puzzle(puzzle)
    assert not (board.dist[0] < len(board.nodes)).all()
    assert np.array_equal(board.side, np.array(_two_colour(board.adj, puzzle.cell_index.order), np.int8))
    assert board.side.tolist() == [1, 0, 1, 0, 1, 0, 1, 0]
    assert sorted(verify(solve(puzzle)).paths) == ["A", "B"]


def test_sides_of_a_graph_in_another_node_order_come_from_the_walk():
    """A graph whose node order is not sorted (another reader's) numbers on first use; its sides are
    the walk's, whose first node in the graph's order takes side 1."""
    from dataclasses import replace

    import networkx as nx
    import numpy as np

    from flowgraph.engines.search.board import _two_colour, compile_puzzle

    puzzle = parse_file(BUNDLED[0])
    reordered = nx.Graph()
    reordered.add_nodes_from(reversed(list(puzzle.graph.nodes(data=True))))
    reordered.add_edges_from(puzzle.graph.edges(data=True))
    from flowgraph.io.seams import BoardDicts

    other = replace(puzzle, board=BoardDicts.made(reordered._node, reordered._adj))
    assert not isinstance(other.cell_index.order, range)
    board = compile_puzzle(other)
    assert np.array_equal(board.side, np.array(_two_colour(board.adj, other.cell_index.order), np.int8))
    assert verify(solve(other)).paths.keys() == verify(solve(puzzle)).paths.keys()
