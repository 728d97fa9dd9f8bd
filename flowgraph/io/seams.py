"""The two places the readers reach into another library's internals, each behind one function here.

* :func:`graph_over` hands networkx a graph's node and adjacency dicts as built (``Graph._node`` and
  ``Graph._adj``), where ``add_nodes_from`` and ``add_edges_from`` would copy every attribute dict again
  (the neighbor-link reader builds a board's dicts once, in one pass);
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

__all__ = ["graph_over", "positioned_scanner"]


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


def positioned_scanner(decoder: json.JSONDecoder) -> Callable[[str, int], tuple[Any, int]]:
    """The pure-Python scan function of ``decoder``: it calls the decoder's ``parse_object``, ``parse_array``,
    ``parse_int`` and ``parse_constant`` as they are set on it, overrides included."""
    return json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]  # stdlib, untyped
