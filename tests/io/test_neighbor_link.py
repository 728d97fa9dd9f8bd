"""Grammar and builder: every feature of the format, through the public API."""

from __future__ import annotations

import pytest

from flowgraph import PuzzleError, find_problems, parse_file, parse_text
from tests.helpers import BUNDLED, corpus_file, corpus_params


def edges(puzzle):
    return {frozenset(e) for e in puzzle.graph.edges}


def test_square_nodes_edges_and_flows():
    p = parse_text("STANDARD\nA-.-B\n| | |\nA-.-B\n")
    assert p.family == "STANDARD"
    assert sorted(p.graph.nodes) == [(2, 1), (2, 3), (2, 5), (4, 1), (4, 3), (4, 5)]
    assert p.graph.number_of_edges() == 7
    assert [(f.label, f.ends) for f in p.flows] == [("A", ((2, 1), (4, 1))), ("B", ((2, 5), (4, 5)))]
    assert p.graph.nodes[(2, 1)] == {"kind": "endpoint", "label": "A"}


def test_row_and_column_warps():
    p = parse_text("WARPS\nA-.-B-\n  |   \n.-A-B\n| \n")
    warps = {frozenset((u, v)) for u, v, w in p.graph.edges(data="warp") if w}
    assert warps == {frozenset({(2, 5), (2, 1)}), frozenset({(4, 1), (2, 1)})}
    assert p.graph.edges[(2, 5), (2, 1)]["links"] == ((2, 6),)


def test_column_warp_repeating_a_link_is_kept_once_and_warned():
    text = "WARPS\nA-B\n| |\nA-B\n| |\n"
    p = parse_text(text)
    assert p.graph.edges[(2, 1), (4, 1)]["links"] == ((3, 1), (5, 1))
    assert any("repeats an existing link" in pr.message for pr in find_problems(text))


def test_bridge_has_one_node_per_lane():
    p = parse_text("BRIDGES\n  A\n  |\nB-*-B\n  |\n  A\n")
    assert {n for n in p.graph if len(n) == 3} == {(4, 3, "-"), (4, 3, "|")}
    assert set(p.graph[(4, 3, "-")]) == {(4, 1), (4, 5)}
    assert set(p.graph[(4, 3, "|")]) == {(2, 3), (6, 3)}


def test_adjacent_bridges_link_lane_to_lane():
    p = parse_text("BRIDGES\n  A B\n  | |\nC-*-*-C\n  | |\n  A B\n")
    assert p.graph.has_edge((4, 3, "-"), (4, 5, "-"))


def test_hex_diagonals():
    p = parse_text("HEX\nA-B\n|/|\nB-A\n")
    assert frozenset({(4, 1), (2, 3)}) in edges(p)
    q = parse_text("HEX\nA-B\n|\\|\nB-A\n")
    assert frozenset({(2, 1), (4, 3)}) in edges(q)


def test_holes_and_walls():
    p = parse_text("STANDARD\nA-. .-A\n|     |\nB-.-.-B\n")
    assert (2, 4) not in p.graph  # the column between the holes is no cell
    assert not p.graph.has_edge((2, 3), (2, 5))  # a wall: no link
    assert p.cells == 8


def test_comment_lines_take_no_row():
    p = parse_text("STANDARD\n// top\nA-B\n// between the rows\n| |\nA-B\n")
    assert p.graph.has_edge((3, 1), (6, 1))  # the '|' on line 5 joins lines 3 and 6


def test_crlf_and_trailing_blank_lines():
    p = parse_text("STANDARD\r\nA-.-A\r\n| | |\r\nB-.-B\r\n\r\n\r\n")
    q = parse_text("STANDARD\nA-.-A\n| | |\nB-.-B")
    assert edges(p) == edges(q)


def test_leading_comments_and_blank_lines_before_header():
    p = parse_text("\n// a comment\n   \n  STANDARD  \nA-A\n")
    assert p.flows[0].ends == ((5, 1), (5, 3))


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("STANDARD\n-A-.-A\n", 2, 1, "no cell on its left"),
        ("STANDARD\nA-.\n| |\n  .\n  |\nB-.\n", 3, 1, "no cell below"),
        ("STANDARD\nA-A-B\n", 2, 5, "appears once"),
        ("SQUARE\nA-A\n", 1, 1, "unknown header"),
        ("A-A\n", 1, 1, "missing header"),
        ("STANDARD\nA-\tA\n", 2, 3, "tab"),
        ("STANDARD\nA-@-A\n", 2, 3, "unexpected character"),
        ("", 1, 1, "empty"),
    ],
)
def test_errors_have_positions(text, line, column, words):
    errors = [p for p in find_problems(text) if p.severity == "error"]
    assert any((p.line, p.column) == (line, column) and words in p.message for p in errors), errors
    with pytest.raises(PuzzleError) as info:
        parse_text(text, "x.txt")
    err = info.value
    assert (err.line, err.column, err.message) == (errors[0].line, errors[0].column, errors[0].message)
    assert str(err) == f"x.txt:{err.line}:{err.column}: {err.message}"


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_puzzles_parse_without_problems(path):
    parse_file(path)
    assert find_problems(path.read_text()) == []


@pytest.mark.parametrize(
    "rel, nodes, links",
    [
        ("samgoldman/bridges/Starter5x5_1.txt", 22, 32),  # 21 cells, one bridge of 2 lanes
        ("samgoldman/warps/Starter1_1.txt", 12, 16),  # one row warp
        ("samgoldman/hex/Classic5x5_1.txt", 22, 49),  # 6 + 4x4 '-' + 3x9 in the link rows
        ("samgoldman/standard/Regular5x5_1.txt", 25, 40),
    ],
)
def test_counts_checked_by_hand(rel, nodes, links):
    p = parse_file(corpus_file(rel))
    assert (p.graph.number_of_nodes(), p.graph.number_of_edges()) == (nodes, links)


@pytest.mark.parametrize("path", corpus_params("*/**/*.txt"))
def test_every_corpus_file_parses(path):
    if path.name == "14x14Template.txt":
        with pytest.raises(PuzzleError, match="no flows"):
            parse_file(path)
    else:
        assert parse_file(path).flows


def test_blank_line_is_a_board_row_and_nothing_below_it_is_dropped():
    # FORMAT.md: a blank line is a row with no cells (or a line of links with no links).
    p = parse_text("STANDARD\nA-A\n\nB-B\n")
    assert sorted(p.graph.nodes) == [(2, 1), (2, 3), (4, 1), (4, 3)]
    assert not p.graph.has_edge((2, 1), (4, 1))  # the blank line is a wall across the board
    # A '|' below a blank row has no cell above it: the blank line took a row.
    assert any("no cell above" in pr.message for pr in find_problems("STANDARD\nA-.\n\n|\n.-A\n"))


def test_blank_lines_at_the_end_are_ignored():
    assert edges(parse_text("STANDARD\nA-A\n\n\n  \n")) == edges(parse_text("STANDARD\nA-A\n"))


def _as_networkx_builds_it(graph):
    """The same graph made through networkx's public calls, node by node and edge by edge."""
    import networkx as nx

    other = nx.Graph()
    other.add_nodes_from(graph.nodes(data=True))
    other.add_edges_from(graph.edges(data=True))
    return other


@pytest.mark.parametrize("path", BUNDLED + [p.values[0] for p in corpus_params("**/*.txt") if p.values[0]],
                         ids=str)
def test_the_builders_graph_and_numbering_are_networkx_s_own(path):
    """The builder fills networkx's dicts at once and numbers the nodes as it goes: the graph is the one
    networkx's own calls make (edge order included) and the numbering the one ``CellIndex.of`` computes."""
    import networkx as nx
    import numpy as np

    from flowgraph.io.neighbor_link import analyse
    from flowgraph.model import CellIndex

    puzzle = analyse(path.read_text(encoding="utf-8"))[0]
    if puzzle is None:
        pytest.skip("not a valid puzzle (a template)")
    other = _as_networkx_builds_it(puzzle.graph)
    assert nx.utils.graphs_equal(other, puzzle.graph) and list(other.edges) == list(puzzle.graph.edges)
    built, computed = puzzle.cell_index, CellIndex.of(puzzle.graph)
    assert built.nodes == computed.nodes and built.order == computed.order
    assert np.array_equal(built.links, computed.links)
    assert not built.links.flags.writeable


def test_a_puzzle_from_a_graph_numbers_its_nodes_on_first_use():
    from dataclasses import replace

    puzzle = parse_text("WARPS\nA-.-B-\n  |   \n.-A-B\n| \n")
    fresh = replace(puzzle, rules="numberlink")  # a new Puzzle: no numbering carried over
    assert "cell_index" not in vars(fresh)
    assert fresh.cell_index.nodes == puzzle.cell_index.nodes
    assert [tuple(row) for row in fresh.cell_index.links.tolist()] == [tuple(r) for r in puzzle.cell_index.links.tolist()]


def _both_ways(text):
    """A board read by link_cells (one pass), by resolve_links + build_graph (two steps) and, where every
    link joins two neighbouring cells, by link_rows (whole arrays; else link_cells again)."""
    from flowgraph.io import builder
    from flowgraph.io.board_arrays import link_rows
    from flowgraph.io.neighbor_link import _parser

    ways = []
    for way in ("one pass", "two steps", "arrays"):
        report = builder.Report()
        layout = builder.read_layout(_parser().parse(text), report)
        if layout.bad or "*" in layout.cells.values():
            pytest.skip("bridges or bad characters: build takes the two steps")
        made = link_rows(layout, layout.rows) if way == "arrays" else None
        if made is not None:
            graph, labels, index, links, diagonals = made
        elif way != "two steps":
            graph, labels, index, links, diagonals = builder.link_cells(layout, report)
        else:
            links = builder.resolve_links(layout, report)
            graph, labels, index = builder.build_graph(layout, links, {}, report)
            diagonals = any(link.axis in "/\\" for link in links)
        graph = graph.graph()
        ways.append((list(graph.nodes(data=True)), list(graph.edges(data=True)), labels, index.links.tolist(),
                     sorted(link for link in links if link.warp), diagonals, sorted(report.problems)))
    return ways


def _mutants(count=400, seed=11):
    """Boards without bridges, one to four characters changed: warps, errors, repeated links."""
    import random

    rng = random.Random(seed)
    sources = [p.read_text(encoding="utf-8") for p in BUNDLED if "*" not in p.read_text(encoding="utf-8")]
    for k in range(count):
        chars = list(sources[k % len(sources)])
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice("-|/\\.AB \n")
        yield "".join(chars)


@pytest.mark.parametrize("text", [p.read_text(encoding="utf-8") for p in BUNDLED] + list(_mutants()),
                         ids=lambda t: str(abs(hash(t)) % 10**8))
def test_links_in_one_pass_are_the_two_steps(text):
    """link_cells (boards without bridges or bad characters) and link_rows (on whole arrays, boards whose
    links all join neighbours) make the graph, numbering and problems of resolve_links + build_graph:
    nodes, edges in order with every attribute, warps, problems."""
    from lark.exceptions import LarkError

    try:
        one, two, arrays = _both_ways(text)
    except LarkError:
        pytest.skip("no header: the grammar refuses it before the builder")
    assert one == two == arrays
