"""The two places the readers reach into another library's internals, each behind the functions here.

* :func:`graph_over` hands networkx a graph's node and adjacency dicts as built (``Graph._node`` and
  ``Graph._adj``), where ``add_nodes_from`` and ``add_edges_from`` would copy every attribute dict again
  (the neighbor-link reader builds a board's dicts once, in one pass); :func:`lazy_graph` defers even that:
  the board's graph is an object that makes its dicts (:func:`adjacency` reads them) and becomes a
  ``networkx.Graph`` on first use, so a command that only solves never imports networkx (issue 56:
  60 ms of a 0.22 s start);
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
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["graph_over", "lazy_graph", "adjacency", "graph_dicts", "freeze", "positioned_scanner"]


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


#: Held while an unbuilt graph makes its dicts or becomes a networkx graph (re-entrant: building makes the dicts).
_BUILDING = threading.RLock()


class _Unbuilt:
    """A board's graph before its first use as a networkx graph (:func:`lazy_graph`).

    Its first attribute read or write (or ``len``, ``in``, iteration, indexing, ``str``, a copy or a pickle)
    makes the dicts if :func:`adjacency` has not, turns the object itself into a ``networkx.Graph``
    over them (``__class__`` assigned: both are plain Python classes), frozen when :func:`freeze`
    asked, and answers as that graph: every reference to it sees the built graph. ``isinstance(...,
    nx.Graph)`` is False until then.
    """

    def __init__(self, make: Callable[[], tuple[dict, dict]]):
        self.__dict__.update(_make=make, _made=None, _frozen=False)

    def _dicts(self) -> tuple[dict, dict]:
        with _BUILDING:
            made = self.__dict__
            if made["_made"] is None:
                made["_made"] = made["_make"]()
            return made["_made"]

    def _build(self) -> nx.Graph:  # (called as _Unbuilt._build(self): the class may change meanwhile)
        import networkx as nx

        with _BUILDING:  # the studio's threads may share a puzzle: one builds, the others then find it built
            if type(self) is not _Unbuilt:
                return cast("nx.Graph", self)
            frozen = self.__dict__["_frozen"]
            graph = graph_over(*_Unbuilt._dicts(self))
            self.__dict__.clear()
            self.__dict__.update(vars(graph))
            object.__setattr__(self, "__class__", nx.Graph)  # this object is that graph from now on
            built = cast("nx.Graph", self)
            return nx.freeze(built) if frozen else built

    def __getattr__(self, name: str) -> Any:  # only names the object lacks: all of networkx's
        return getattr(_Unbuilt._build(self), name)

    def __setattr__(self, name: str, value: Any) -> None:  # networkx.freeze sets attributes: on the graph
        setattr(_Unbuilt._build(self), name, value)

    def __len__(self) -> int:
        return len(_Unbuilt._build(self))

    def __iter__(self):
        return iter(_Unbuilt._build(self))

    def __contains__(self, node) -> bool:
        return node in _Unbuilt._build(self)

    def __getitem__(self, node):
        return _Unbuilt._build(self)[node]

    def __str__(self) -> str:
        return str(_Unbuilt._build(self))

    def __reduce_ex__(self, protocol):  # a pickle or a copy holds the built graph, never the function
        return _Unbuilt._build(self).__reduce_ex__(protocol)


def lazy_graph(make: Callable[[], tuple[dict, dict]]) -> nx.Graph:
    """A graph whose node and adjacency dicts ``make()`` returns when they are first read, as :func:`graph_over`
    takes them; networkx is imported and the object becomes a ``networkx.Graph`` on its first use as one
    (:class:`_Unbuilt`): a reader defers the dicts of a board nobody asks the graph of (the engines, the
    checks and the verifier read the board's numbering) and networkx itself until someone does. A pickle or
    a copy is a plain graph."""
    return cast("nx.Graph", _Unbuilt(make))


def adjacency(graph: nx.Graph) -> dict:
    """``graph``'s node -> neighbour -> link attributes dict (networkx's ``Graph._adj``), without making a
    networkx graph of a :func:`lazy_graph` (the solution text reads the links' places from it). Read only."""
    return graph_dicts(graph)[1]


def graph_dicts(graph: nx.Graph) -> tuple[dict, dict]:
    """``graph``'s node -> attributes and node -> neighbour -> link attributes dicts (networkx's ``Graph._node``
    and ``Graph._adj``), without making a networkx graph of a :func:`lazy_graph` (a sketch of the board reads
    them: ``render`` and ``convert`` need no networkx). Read only."""
    with _BUILDING:  # (not built by another thread between the test and the read)
        if isinstance(graph, _Unbuilt):
            return _Unbuilt._dicts(graph)
    return graph._node, graph._adj


def freeze(graph: nx.Graph) -> nx.Graph:
    """``networkx.freeze(graph)``; a :func:`lazy_graph` is frozen as it is built."""
    with _BUILDING:
        if isinstance(graph, _Unbuilt):
            graph.__dict__["_frozen"] = True
            return graph
    import networkx as nx

    return nx.freeze(graph)


def positioned_scanner(decoder: json.JSONDecoder) -> Callable[[str, int], tuple[Any, int]]:
    """The pure-Python scan function of ``decoder``: it calls the decoder's ``parse_object``, ``parse_array``,
    ``parse_int`` and ``parse_constant`` as they are set on it, overrides included."""
    return json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]  # stdlib, untyped
