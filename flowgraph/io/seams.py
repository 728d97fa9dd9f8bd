"""The two places the readers reach into another library's internals, each behind the functions here.

* :func:`graph_over` hands networkx a graph's node and adjacency dicts as built (``Graph._node`` and
  ``Graph._adj``), where ``add_nodes_from`` and ``add_edges_from`` would copy every attribute dict again
  (the neighbor-link reader builds a board's dicts once, in one pass); :func:`board_graph` defers even that:
  a puzzle holds a :class:`BoardDicts` that makes the dicts when first read and the networkx graph when
  first asked for, so a command that only solves never imports networkx (issue 56: a
  sizeable part of the start; docs/benchmarks.md);
* :func:`positioned_scanner` makes the standard library's pure-Python JSON scanner
  (``json.scanner.py_make_scanner``) call a decoder's own ``parse_object`` and ``parse_array``, so that
  the JSON graph reader knows the line and column of every object and array (the C scanner calls its own).

Each is held by a test on the installed version (``tests/io/test_seams.py``): it fails, naming the seam,
when a release of the library changes what the function relies on.
"""

from __future__ import annotations

import json
import json.scanner
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["graph_over", "board_graph", "BoardDicts", "positioned_scanner"]


def graph_over(nodes: dict, adjacency: dict) -> nx.Graph:
    """A networkx graph whose node and adjacency dicts are ``nodes`` and ``adjacency`` themselves (not copies).

    Parameters
    ----------
    nodes : dict of node -> dict
        Each node's attribute dict, in node order.
    adjacency : dict of node -> dict of node -> dict
        Both directions of every edge, sharing one attribute dict (as ``Graph.add_edge`` makes them);
        every node of ``nodes`` has its entry.
    """
    import networkx as nx

    graph = nx.Graph()
    graph._node, graph._adj = nodes, adjacency
    return graph


class BoardDicts:
    """Hold a board's graph as its reader made it.

    A board's graph as its reader made it (:class:`flowgraph.model.BoardGraph`): the node and adjacency
    dicts, made when first read (:meth:`dicts`), and the frozen networkx graph over them, built when first
    asked for (:meth:`graph`), once, whichever thread asks first. A pickle or a copy holds the dicts, never
    the function that makes them."""

    __slots__ = ("_make", "_made", "_graph", "_lock")

    def __init__(self, make: Callable[[], tuple[dict, dict]]):
        self._make: Callable[[], tuple[dict, dict]] | None = make
        self._made: tuple[dict, dict] | None = None
        self._graph: nx.Graph | None = None
        self._lock = threading.Lock()  # the studio's threads may share a puzzle: one makes, the others find it made

    @classmethod
    def made(cls, nodes: dict, adjacency: dict) -> BoardDicts:
        """A board's graph whose dicts are made already."""
        board = cls(lambda: (nodes, adjacency))
        board.dicts()
        return board

    def dicts(self) -> tuple[dict, dict]:
        """The graph's node and adjacency dicts.

        Node -> attributes and node -> neighbour -> link attributes (networkx's ``Graph._node`` and
        ``Graph._adj`` of :meth:`graph`), made on first call. Read only."""
        made = self._made
        if made is None:
            with self._lock:
                if self._made is None:
                    assert self._make is not None
                    self._made, self._make = self._make(), None
                made = self._made
        return made

    def graph(self) -> nx.Graph:
        """The frozen networkx graph over :meth:`dicts` (:func:`graph_over`), built on first call."""
        graph = self._graph
        if graph is None:
            import networkx as nx

            nodes, adjacency = self.dicts()
            with self._lock:
                if self._graph is None:
                    self._graph = nx.freeze(graph_over(nodes, adjacency))
                graph = self._graph
        return graph

    def __reduce__(self):
        return (BoardDicts.made, self.dicts())


def board_graph(make: Callable[[], tuple[dict, dict]]) -> BoardDicts:
    """A board's graph whose node and adjacency dicts ``make()`` returns when they are first read, as
    :func:`graph_over` takes them: a reader defers the dicts of a board nobody asks the graph of (the engines,
    the checks and the verifier read the board's numbering), and networkx itself until someone asks for the
    graph (:class:`BoardDicts`)."""
    return BoardDicts(make)


def positioned_scanner(decoder: json.JSONDecoder) -> Callable[[str, int], tuple[Any, int]]:
    """The pure-Python scan function of ``decoder``: it calls the decoder's ``parse_object``, ``parse_array``,
    ``parse_int`` and ``parse_constant`` as they are set on it, overrides included."""
    return json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]  # stdlib, untyped
