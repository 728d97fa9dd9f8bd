"""The JSON graph reader's common case on whole arrays: whole-number ids and places, links as id pairs.

Nearly every JSON graph is of one plain kind (the kind :func:`.json_graph.write_json_graph` writes for a
board with no bridge and no warp): nodes ``{"id": N, "xy": [X, Y]}`` with an optional ``"label"``, and links
``[N, M]``. For those, :func:`quick_puzzle` checks the nodes and links as whole lists and numbers them on
arrays; the graph's dicts are made only when the graph is first read (as :func:`.board_arrays.link_rows`
does). The result is exactly what the general reader (``_read_nodes``, ``_read_links``, :func:`.sketch.to_puzzle`)
makes: the same nodes, attributes, links and their order, numbering and flows. Any other document, and
any board with a problem (an error or a warning), is left to the general reader, which places and words
every problem.
"""

from __future__ import annotations

from typing import Any

from ..model import FAMILIES, LABELS, CellIndex, Drawing, Node, Puzzle
from .problems import Problem
from .seams import board_graph
from .sketch import finish_puzzle

__all__ = ["quick_puzzle", "JsonObject"]

_LABELS = frozenset(LABELS)


class JsonObject(dict):
    """A JSON object that remembers where it starts."""

    pos: tuple[int, int] = (1, 1)

    @classmethod
    def of_pairs(cls, pairs: list[tuple[str, object]]) -> JsonObject:
        """The C decoder's ``object_pairs_hook``: the object, holding its pairs (repeated keys too) for
        :func:`_place` to walk in the file's order."""
        made = cls(pairs)
        made.__dict__["pairs"] = pairs
        return made


def quick_puzzle(doc: JsonObject, lines: tuple[str, ...], path: str | None, max_coord: int, max_cells: int
                 ) -> tuple[Puzzle, list[Problem]] | None:
    """The puzzle of a plain JSON graph whose nodes are placed (``.pos``), or None for the general reader.

    Parameters
    ----------
    doc : JsonObject
        The document, its ``"nodes"`` a list of placed node objects (:func:`.json_graph._quick_decode`).
    lines : tuple of str
        The source text's lines.
    path : str or None
    max_coord, max_cells : int
        A place's largest coordinate either sign, and the most places the 2-D places may span.

    Returns
    -------
    (Puzzle, []) or None
        None when the document is not of the plain kind or the board has any problem.
    """
    import numpy as np

    nodes, links = doc["nodes"], doc.get("links")
    family = doc.get("family", "STANDARD")
    if not (type(family) is str and family in FAMILIES and type(links) is list and nodes):
        return None
    if any("lane" in node or "xyz" in node or "outline" in node or "name" in node for node in nodes):
        return None
    ids = [node.get("id") for node in nodes]
    places = [node.get("xy") for node in nodes]
    labels = [node.get("label") for node in nodes]
    try:
        if not ({type(i) for i in ids} == {int} and len(set(ids)) == len(ids) and set(labels) <= _LABELS | {None}
                and {type(p) for p in places} == {list} and set(map(len, places)) == {2}
                and {type(link) for link in links} <= {list} and set(map(len, links)) <= {2}):
            return None
    except TypeError:  # an unhashable label
        return None
    flat = [v for place in places for v in place] + [i for link in links for i in link]
    if {type(v) for v in flat} != {int}:
        return None
    n = len(nodes)
    xy = np.array(flat[:2 * n], np.int64).reshape(n, 2)
    if np.abs(xy).max() > max_coord or np.prod(xy.max(axis=0) - xy.min(axis=0) + 1) > max_cells:
        return None
    id_of = np.array(ids, np.int64)
    ends = np.array(flat[2 * n:], np.int64).reshape(-1, 2)
    if (id_of == np.arange(n)).all():  # the writer's ids: a node's id is its number
        pairs = ends
        if ((pairs < 0) | (pairs >= n)).any():
            return None
    else:
        by_id = np.argsort(id_of)
        at = np.searchsorted(id_of, ends, sorter=by_id).clip(0, n - 1)
        pairs = by_id[at]
        if (id_of[pairs] != ends).any():
            return None
    low, high = pairs.min(axis=1), pairs.max(axis=1)
    if (low == high).any() or len(np.unique(low * n + high)) != len(low):
        return None  # a loop or a repeated link: the general reader words it
    # of_adjacency's order: by the lower node, then in the links' order
    order = np.lexsort((np.arange(len(low)), low))
    numbered = np.stack([low[order], high[order]], axis=1)
    numbered.setflags(write=False)  # shared by the engines
    keys: tuple[Node, ...] = tuple(node.pos for node in nodes)  # in the text's order: sorted already
    index = CellIndex(keys, dict(zip(keys, range(n))), numbered, range(n))
    by_label: dict[str, list[Node]] = {}
    for k in np.flatnonzero(np.array([label is not None for label in labels], bool)).tolist():
        by_label.setdefault(labels[k], []).append(keys[k])
    degree = np.bincount(pairs.ravel(), minlength=n)
    unlinked = [keys[k] for k in np.flatnonzero(degree == 0).tolist()]

    def graph_dicts() -> tuple[dict, dict]:  # on first use of the graph: to_puzzle's dicts
        attrs: dict[Node, dict[str, Any]] = {}
        for key, label, place in zip(keys, labels, places):
            attrs[key] = {"kind": "endpoint", "label": label, "xy": tuple(place)} if label else \
                {"kind": "cell", "xy": tuple(place)}
        around: dict[Node, dict[Node, dict]] = {key: {} for key in keys}
        for u, v in zip(low.tolist(), high.tolist()):
            around[keys[u]][keys[v]] = around[keys[v]][keys[u]] = {"links": (), "axis": "", "warp": False}
        return attrs, around

    drawing = Drawing(xy={key: tuple(place) for key, place in zip(keys, places)})
    puzzle, problems = finish_puzzle(board_graph(graph_dicts), index, by_label, unlinked, family, lines, path,
                                     "json-graph", doc.pos, drawing)
    return (puzzle, problems) if puzzle is not None and not problems else None
