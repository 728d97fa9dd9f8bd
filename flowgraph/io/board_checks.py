"""The neighbor-link builder's checks on the whole board (step 4 of :mod:`.builder`), into its :class:`.Report`.

:func:`check_cells` (every cell placed and linked), :func:`find_flows` (each
label twice: :func:`.problems.pair_endpoints`), :func:`check_parts` (no part
of the board without its flows' both ends), :func:`check_family` (the links
a header's family allows).
"""

from __future__ import annotations

from ..model import BoardGraph, CellIndex, Family, Flow, Node
from ..parts import part_labels
from .layout import GridPos, Layout, Report
from .problems import pair_endpoints

__all__ = ["check_cells", "find_flows", "check_parts", "check_family", "one_part"]


def check_cells(layout: Layout, board: BoardGraph, lanes: dict[GridPos, set[str]], report: Report,
                index: CellIndex) -> None:
    """Every cell and bridge has a link (``index``, the graph's numbering, answers the common case at once)."""
    if len(index.nodes) - sum(map(len, lanes.values())) + len(lanes) == layout.cell_count and _all_linked(index):
        return  # every node linked
    for rc, ch in sorted(layout.cells.items()):
        if ch == "*":
            if rc not in lanes:
                report.error(*layout.pos(rc), "bridge has no links")
        elif not board.dicts()[1].get(layout.pos(rc)):
            report.error(*layout.pos(rc), f"cell '{ch}' has no links" if ch != "." else "cell has no links")


def _all_linked(index: CellIndex) -> bool:
    """Whether every node is an end of some link."""
    import numpy as np

    return bool(np.bincount(index.links.ravel(), minlength=len(index.nodes)).all())


def one_part(index: CellIndex) -> bool:
    """Whether the links join every node into one part, as ``networkx.is_connected`` answers it, on the numbers
    the engines read (the graph need not be built: :func:`flowgraph.parts.part_labels`).

    Most boards answer at once: when every node but node 0 has a link to a lesser number, each reaches node 0
    by lesser and lesser ones (a board read row by row, each cell linked up or left)."""
    import numpy as np

    n = len(index.nodes)
    links = index.links
    if n and len(links):
        lesser = links.max(axis=1)[links[:, 0] != links[:, 1]]  # (a link from a node to itself joins nothing)
        if np.bincount(lesser, minlength=n)[1:].all():
            return True
    labels = part_labels(n, links)
    return bool((labels == 0).all())


def find_flows(layout: Layout, labels: dict[str, list[tuple[int, int]]], report: Report) -> list[Flow]:
    """A flow per label that appears exactly twice, in order of first appearance; others are errors
    (:func:`.problems.pair_endpoints`)."""
    pairs, wrong = pair_endpoints(labels)
    flows = [Flow(label, ends) for label, ends in pairs]
    for problem in wrong:
        report.error(problem.line, problem.column, problem.message)
    if not labels and layout.family is not None:
        report.error(*layout.header, "the board has no flows (no endpoint labels)")
    return flows


def check_parts(board: BoardGraph, flows: list[Flow], report: Report, index: CellIndex) -> None:
    """A flow's endpoints lie in one part of the board, and every part has endpoints (``index``, the graph's
    numbering, answers the common case, one part, without reading the graph)."""
    if not flows or one_part(index):
        return  # the common case at once: one part, and it holds every endpoint (no flows: nothing to say of parts)
    import networkx as nx

    graph = board.graph()
    part_of: dict[Node, int] = {}
    parts = list(nx.connected_components(graph))
    for i, part in enumerate(parts):
        for n in part:
            part_of[n] = i
    with_flow: set[int] = set()
    for f in flows:
        pa, pb = part_of[f.ends[0]], part_of[f.ends[1]]
        if pa != pb:
            for end in f.ends:
                report.error(*end[:2], f"the endpoints of flow {f.label!r} lie in separate parts of the board")
        with_flow.update((pa, pb))
    for i, part in enumerate(parts):
        if i not in with_flow and flows and not any(graph.nodes[n].get("label") for n in part):
            line, col = min(n[:2] for n in part)
            report.error(line, col, f"this part of the board ({len(part)} cell{'s' if len(part) > 1 else ''}) "
                         "has no endpoints, so it can never be filled")


def check_family(layout: Layout, index: CellIndex, warp: tuple[int, int] | None, diagonals: bool,
                 report: Report) -> None:
    """Warn when the header names a family whose feature the board lacks, or STANDARD has others'.

    ``warp``: the file ``(line, column)`` of the first warp link, or None; ``diagonals``: whether a ``/`` or ``\\``
    link was made; ``index``: the board's numbering (a bridge lane is a node ``(line, column, axis)``).
    """
    features = []
    if warp is not None:
        features.append("warps")
    if layout.has_bridges and any(len(node) == 3 for node in index.nodes):
        features.append("bridges")
    if diagonals:
        features.append("diagonal links")
    own = {"HEX": "diagonal links", "WARPS": "warps", "BRIDGES": "bridges"}
    if layout.family == Family.STANDARD and features:
        message = f"header STANDARD but the board has {' and '.join(features)}"
        if warp is not None:  # most often a stray link after a row's or column's last cell: say where it is
            message += (f" (the link at {warp[0]}:{warp[1]} joins the last cell of its row or column to the first: "
                        "delete it, or say WARPS)")
    elif layout.family in own and own[layout.family] not in features:
        message = f"header {layout.family} but the board has no {own[layout.family]}"
    else:
        return  # families may share features: real packs have warp boards with bridges
    report.warning(*layout.header, message)
