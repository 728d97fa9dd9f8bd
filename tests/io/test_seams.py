"""The readers' two seams into other libraries' internals (flowgraph/io/seams.py), held on the installed versions."""

from __future__ import annotations

import json
import random

import networkx as nx
import numpy as np

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


def test_a_read_board_builds_its_graph_when_first_asked_and_solving_does_not_ask():
    """Issue 56: the engines, the checks and the verifier read the numbering; the graph waits."""
    import pickle

    from flowgraph import solve

    puzzle = parse_file(PUZZLES / "standard" / "regular_10x10.txt")
    assert puzzle.board._graph is None  # not built by reading
    solution = solve(puzzle, engine="search")
    assert puzzle.board._graph is None and solution.paths  # nor by solving and verifying
    again = pickle.loads(pickle.dumps(puzzle))  # a worker's copy: the dicts themselves
    assert type(again.graph) is nx.Graph and nx.is_frozen(again.graph)
    plain = nx.Graph()
    plain.add_nodes_from(again.graph.nodes(data=True))
    plain.add_edges_from(again.graph.edges(data=True))
    assert nx.utils.graphs_equal(puzzle.graph, plain) and list(puzzle.graph.edges) == list(again.graph.edges)
    assert type(puzzle.graph) is nx.Graph and nx.is_frozen(puzzle.graph) and puzzle.graph is puzzle.graph


def test_a_boards_graph_is_made_once_and_is_a_networkx_graph():
    """Issue 69: the board's graph is what its type says (no object changes its class); dicts first, then the graph."""
    import copy
    import pickle

    from flowgraph.io.seams import board_graph

    made = []

    def make():
        made.append(1)
        return {1: {"kind": "cell"}, 2: {"kind": "cell"}}, {1: {2: {"axis": "-"}}, 2: {1: {"axis": "-"}}}

    board = board_graph(make)
    assert not made
    assert board.dicts()[1][1][2] == {"axis": "-"} and made == [1]  # the dicts, no networkx graph yet
    assert board._graph is None
    graph = board.graph()
    assert type(graph) is nx.Graph and nx.is_frozen(graph) and graph is board.graph() and made == [1]
    assert graph._adj is board.dicts()[1] and graph._node is board.dicts()[0]
    assert list(graph.edges(data="axis")) == [(1, 2, "-")] and nx.is_connected(graph)
    for use in (copy.copy, copy.deepcopy, lambda b: pickle.loads(pickle.dumps(b))):
        fresh = use(board_graph(make))
        assert sorted(fresh.graph().edges) == [(1, 2)], use


def test_one_part_answers_as_networkx_does_on_every_bundled_board_and_its_halves():
    """The connectivity check on the numbering (Shiloach-Vishkin hooking) against ``networkx.is_connected``."""
    from flowgraph.io.board_checks import one_part
    from flowgraph.model import CellIndex
    from tests.helpers import BUNDLED

    for path in BUNDLED:
        graph = nx.Graph(parse_file(path).graph)
        looped = graph.copy()
        looped.add_edge(next(iter(graph)), next(iter(graph)))  # a link from a node to itself joins nothing
        half = graph.edge_subgraph(list(graph.edges)[::2]).copy()
        half.add_nodes_from(graph)
        half_looped = half.copy()
        half_looped.add_edges_from((v, v) for v in graph)
        for cut in (graph, half, looped, half_looped):
            index = CellIndex.of(cut)
            assert one_part(index) == nx.is_connected(cut), path
            # numbered at random, some node has no lesser neighbour: the answer comes from the hooking
            order = list(range(len(index.nodes)))
            random.Random(path.name).shuffle(order)
            renumber = np.array(order)
            shuffled = CellIndex(tuple(index.nodes[order.index(k)] for k in range(len(order))),
                                 {v: order[i] for v, i in index.number.items()}, renumber[index.links],
                                 range(len(order)))
            assert one_part(shuffled) == nx.is_connected(cut), path


def _shared(board, made) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(lambda k: id(board.graph()) if k % 2 else len(board.dicts()[1]), range(32)))
    assert len(set(seen[1::2])) == 1 and seen[::2] == [200] * 16 and made == [1] and nx.is_frozen(board.graph())


def test_threads_sharing_an_unbuilt_graph_see_one_graph():
    """The studio's threads may share a puzzle: each sees the one graph, made once."""
    from flowgraph.io.seams import board_graph

    for _ in range(50):
        made: list[int] = []
        _shared(board_graph(lambda made=made: made.append(1) or (
            {n: {} for n in range(200)}, {n: {n + 1: {}} if n < 199 else {} for n in range(200)})), made)
