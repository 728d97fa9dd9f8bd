"""The two places the readers reach into another library's internals, each behind one function here.

* :func:`graph_over` hands networkx a graph's node and adjacency dicts as built (``Graph._node`` and
  ``Graph._adj``), where ``add_nodes_from`` and ``add_edges_from`` would copy every attribute dict again
  (the neighbor-link reader builds a board's dicts once, in one pass); :func:`lazy_graph` hands it a function
  that builds them when the graph is first read (the engines read the board's arrays, not its graph);
* :func:`positioned_scanner` makes the standard library's pure-Python JSON scanner
  (``json.scanner.py_make_scanner``) call a decoder's own ``parse_object`` and ``parse_array``, so that
  the JSON graph reader knows the line and column of every object and array (the C scanner calls its own).

Each is held by a test on the installed version (``tests/io/test_seams.py``): it fails, naming the seam,
when a release of the library changes what the function relies on.
"""

from __future__ import annotations

import json
import json.scanner
from collections.abc import Callable
from typing import Any

import networkx as nx

__all__ = ["graph_over", "lazy_graph", "positioned_scanner"]


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
    graph = nx.Graph()
    graph._node, graph._adj = nodes, adjacency
    return graph


class _MadeOnUse:
    """``Graph._node`` or ``Graph._adj`` of a :class:`_LazyGraph`: set as networkx's own descriptors set them
    (``_CachedPropertyResetterNode`` and ``..Adj``: the cached views dropped), read from the graph's dicts,
    which the graph's ``make`` builds on the first read of either."""

    def __init__(self, name: str, views: tuple[str, ...]):
        self.name, self.views = name, views

    def __get__(self, graph, owner=None):
        if graph is None:
            return self
        made = graph.__dict__
        if self.name not in made:
            made["_node"], made["_adj"] = made.pop("_make")()
        return made[self.name]

    def __set__(self, graph, value) -> None:
        made = graph.__dict__
        made[self.name] = value
        made.pop("_make", None)
        for view in self.views:
            made.pop(view, None)


class _LazyGraph(nx.Graph):
    """A networkx graph whose node and adjacency dicts are built on first use (:func:`lazy_graph`)."""

    _node = _MadeOnUse("_node", ("nodes",))
    _adj = _MadeOnUse("_adj", ("adj", "edges", "degree"))

    def __init__(self, incoming_graph_data=None, **attr):  # networkx makes empty ones with no arguments
        super().__init__(incoming_graph_data, **attr)

    def __reduce__(self):  # a pickle holds the dicts, never the function that makes them
        return _plain_graph, (self._node, self._adj, dict(self.graph), nx.is_frozen(self))


def _plain_graph(nodes: dict, adjacency: dict, attrs: dict, frozen: bool) -> nx.Graph:
    graph = graph_over(nodes, adjacency)
    graph.graph.update(attrs)
    return nx.freeze(graph) if frozen else graph


def lazy_graph(make: Callable[[], tuple[dict, dict]]) -> nx.Graph:
    """A networkx graph whose node and adjacency dicts ``make()`` returns when it is first read, as
    :func:`graph_over` takes them: a reader defers the Python dicts of a board nobody asks the graph of
    (the engines and the checks read the board's arrays). A pickle or a copy is a plain graph."""
    graph = _LazyGraph()
    made = graph.__dict__
    del made["_node"], made["_adj"]
    made["_make"] = make
    return graph


def positioned_scanner(decoder: json.JSONDecoder) -> Callable[[str, int], tuple[Any, int]]:
    """The pure-Python scan function of ``decoder``: it calls the decoder's ``parse_object``, ``parse_array``,
    ``parse_int`` and ``parse_constant`` as they are set on it, overrides included."""
    return json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]  # stdlib, untyped
