"""The readers' two seams into other libraries' internals (flowgraph/io/seams.py), held on the installed versions."""

from __future__ import annotations

import json

import networkx as nx

from flowgraph import parse_file
from flowgraph.io.seams import graph_over, positioned_scanner
from tests.helpers import PUZZLES


def test_networkx_takes_the_dicts_as_its_own_and_answers_as_a_graph_built_by_its_api():
    nodes = {(1, 1): {"kind": "endpoint", "label": "A"}, (1, 3): {"kind": "cell"}, (1, 5): {"kind": "endpoint", "label": "A"}}
    shared = [{"links": ((1, 2),), "axis": "-", "warp": False}, {"links": ((1, 4),), "axis": "-", "warp": False}]
    adjacency = {(1, 1): {(1, 3): shared[0]}, (1, 3): {(1, 1): shared[0], (1, 5): shared[1]}, (1, 5): {(1, 3): shared[1]}}
    graph = graph_over(nodes, adjacency)
    plain = nx.Graph()
    plain.add_nodes_from(nodes.items())
    plain.add_edge((1, 1), (1, 3), **shared[0])
    plain.add_edge((1, 3), (1, 5), **shared[1])
    assert nx.utils.graphs_equal(graph, plain), f"networkx {nx.__version__} keeps its dicts elsewhere: mend graph_over"
    assert graph.nodes[(1, 1)] is nodes[(1, 1)] and graph.edges[(1, 1), (1, 3)] is shared[0]  # no copies
    frozen = nx.freeze(graph)
    assert list(nx.shortest_path(frozen, (1, 1), (1, 5))) == [(1, 1), (1, 3), (1, 5)]


def test_a_read_board_is_the_graph_networkx_would_build():
    puzzle = parse_file(PUZZLES / "hex" / "honeycomb_5x4.txt")
    plain = nx.Graph()
    plain.add_nodes_from(puzzle.graph.nodes(data=True))
    plain.add_edges_from(puzzle.graph.edges(data=True))
    assert nx.utils.graphs_equal(puzzle.graph, plain)


def test_the_pure_python_scanner_calls_the_decoders_own_parsers():
    seen = []
    decoder = json.JSONDecoder()
    plain_object = decoder.parse_object

    def parse_object(s_and_end, *args):
        seen.append(s_and_end[1])
        return plain_object(s_and_end, *args)

    decoder.parse_object = parse_object  # type: ignore[method-assign]
    decoder.scan_once = positioned_scanner(decoder)
    assert decoder.decode('{"a": [1, {"b": 2}]}') == {"a": [1, {"b": 2}]}
    assert seen == [1, 11], "json.scanner.py_make_scanner no longer calls the decoder's parse_object: mend seams.py"
