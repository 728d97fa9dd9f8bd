"""A puzzle graph laid out for the exhaustive link search (:mod:`flowgraph.kernels.link_search`): nodes in board order
(by rows or by columns, whichever keeps the frontier narrower), links, clues, the short cycles of the graph (its
triangles and 4-cycles, which the SAT model cuts too) and the arrays the compiled search reads.

The board order is the nodes' (line, column) order, by rows or by columns, whichever keeps the frontier (nodes
decided with a neighbour still to come) narrower: fewer fragments of path are open at once.
"""

from __future__ import annotations

import numpy as np

from ..model import Node, Puzzle, position

__all__ = ["short_cycles"]


def short_cycles(links: np.ndarray, n: int, chorded: bool = False) -> tuple[list[tuple[int, ...]],
                                                                            list[tuple[int, ...]]]:
    """The triangles and 4-cycles of a graph, each as its link numbers in order around it.

    Parameters
    ----------
    links : int array, shape (m, 2)
        Link ``e`` joins nodes ``links[e]``.
    n : int
        Number of nodes.
    chorded : bool
        Also the 4-cycles with a chord (two triangles sharing a link, as on a hex board); without
        it only those whose smallest node is not a neighbour of its opposite node.

    Returns
    -------
    triangles : list of (int, int, int)
    squares : list of (int, int, int, int)
        Each cycle once (found from its smallest node).
    """
    var: dict[tuple[int, int], int] = {}
    nbrs: list[set[int]] = [set() for _ in range(n)]
    for e, (u, v) in enumerate(links.tolist()):
        var[u, v] = var[v, u] = e
        nbrs[u].add(v)
        nbrs[v].add(u)
    triangles: list[tuple[int, ...]] = []
    squares: list[tuple[int, ...]] = []
    for u, around in enumerate(nbrs):
        later = sorted(x for x in around if x > u)
        for i, v in enumerate(later):
            for w in later[i + 1:]:
                if w in nbrs[v]:
                    triangles.append((var[u, v], var[v, w], var[w, u]))
                for x in nbrs[v] & nbrs[w]:
                    if x > u and (chorded or x not in around):
                        squares.append((var[u, v], var[v, x], var[x, w], var[w, u]))
    return triangles, squares


def _board_order(puzzle: Puzzle, only: str | None = None) -> tuple[list[Node], str]:
    """The nodes in rows or columns order (``only``), or whichever has the narrower frontier."""
    return min(board_orders(puzzle, only), key=lambda found: found[0])[1:]


def board_orders(puzzle: Puzzle, only: str | None = None) -> list[tuple[int, list[Node], str]]:
    """(frontier width, nodes, name) of the rows order and the columns order (or ``only`` one): the
    width is the most nodes already placed that still have a later neighbour."""
    cells = puzzle.cell_index  # (the numbering: the graph need not be built)
    nodes = cells.nodes
    around: list[list[int]] = [[] for _ in nodes]
    for u, v in cells.links.tolist():
        around[u].append(v)
        around[v].append(u)
    found = []
    for name, key in (("rows", lambda v: (*position(v), v[2:])), ("columns", lambda v: (v[1], v[0], v[2:]))):
        if only is not None and name != only:
            continue
        numbers = sorted(cells.order, key=lambda k: key(nodes[k]))  # (from the graph's node order, as sorting it)
        order = [nodes[k] for k in numbers]
        rank = [0] * len(nodes)
        for i, k in enumerate(numbers):
            rank[k] = i
        last = [max((rank[w] for w in around[k]), default=rank[k]) for k in numbers]
        # width: the most nodes already placed that still have a later neighbour
        opens = np.zeros(len(order) + 1, np.int64)
        for i, end in enumerate(last):
            if end > i:
                opens[i] += 1
                opens[end] -= 1
        found.append((int(np.cumsum(opens).max(initial=0)), order, name))
    return found


def _rim_key(x: int, y: int, wide: int, tall: int) -> int:
    """The key of the border cell at column ``x``, line ``y`` (in the board order's own terms) going on
    from the frontier's last point: down the last column, back along the last line, up the first column;
    -1 for a cell off the border (its place under the frontier is the search's to work out)."""
    if x == wide - 1:
        return 4 * wide + y
    if y == tall - 1:
        return 4 * wide + tall + (wide - 1 - x)
    if x == 0:
        return 4 * wide + tall + wide + (tall - 1 - y)
    return -1


class LinkLayout:
    """The arrays of one puzzle for :func:`exhaust_pass`, nodes in board order."""

    def __init__(self, puzzle: Puzzle, canonical: bool, only: str | None = None):
        cells = puzzle.cell_index  # (the numbering: the graph need not be built)
        edges = [(cells.nodes[a], cells.nodes[b]) for a, b in cells.links.tolist()]  # graph.edges, as numbered
        self.nodes, self.order = _board_order(puzzle, only)
        index = {v: i for i, v in enumerate(self.nodes)}
        n = len(self.nodes)
        ends = np.array(sorted((min(index[u], index[v]), max(index[u], index[v])) for u, v in edges),
                        np.int64).reshape(-1, 2)
        m = len(ends)
        self.ends = ends
        incid = np.concatenate([ends[:, 0], ends[:, 1]])
        order = np.argsort(incid, kind="stable")
        self.nbr = np.concatenate([ends[:, 1], ends[:, 0]])[order].copy()
        self.lnk = (np.arange(2 * m) % max(m, 1))[order].astype(np.int64)
        self.ptr = np.concatenate([[0], np.cumsum(np.bincount(incid, minlength=n))]).astype(np.int64)
        self.clue = np.full(n, -1, np.int64)
        self.labels = [f.label for f in puzzle.flows]
        self.flow_ends = [(index[f.ends[0]], index[f.ends[1]]) for f in puzzle.flows]
        for k, (a, b) in enumerate(self.flow_ends):
            self.clue[[a, b]] = k
        cycles = short_cycles(ends, n, chorded=True) if canonical else ([], [])
        rows = [(*t, -1, -1, -1, -1, -1) for t in cycles[0]]
        plain = [len(v) == 2 for v in self.nodes]  # a bridge's lanes make no corner moves
        for square in cycles[1]:
            turns = []
            for k in range(4):
                (shared,) = set(ends[square[k]].tolist()) & set(ends[square[(k + 1) % 4]].tolist())
                turns.append(shared if plain[shared] else -1)
            rows.append((*square, *turns))
        self.cyc = np.array(rows, np.int64).reshape(-1, 8)
        per_link: list[list[int]] = [[] for _ in range(m)]
        for c, row in enumerate(rows):
            for e in row[:4]:
                if e >= 0:
                    per_link[e].append(c)
        self.cptr = np.concatenate([[0], np.cumsum([len(p) for p in per_link])]).astype(np.int64)
        self.cidx = np.array([c for p in per_link for c in p], np.int64)
        most_cycles = max((len(p) for p in per_link), default=0)
        most_links = int(np.diff(self.ptr).max(initial=0))
        # links along the text's lines and columns only (a square grid: no hex diagonal), no warp and no bridge: the
        # board is planar as drawn, its frontier's crossings ordered by column (rows order) or line (columns order).
        # Read from the links and the reader's word on warps (else the graph's), never from the family's name; only
        # where the board says its node ids are a drawing of it (a JSON graph's are not: its counts came out short).
        self.planar = puzzle.drawing.ids_on_grid and all(plain) and \
            all(u[0] == v[0] or u[1] == v[1] for u, v in edges) and not puzzle.has_warps
        axis = 1 if self.order == "rows" else 0
        minor = {c: i for i, c in enumerate(sorted({v[axis] for v in self.nodes}))}
        major = {c: i for i, c in enumerate(sorted({v[1 - axis] for v in self.nodes}))}
        wide, tall = len(minor), len(major)
        # a full rectangle (every cell and link of the grid): an endpoint on its border is a point of the rim
        self.rectangle = self.planar and wide >= 3 and tall >= 3 and n == wide * tall and \
            m == 2 * wide * tall - wide - tall
        self.place = np.array([(2 * minor[v[axis]], major[v[1 - axis]],
                                _rim_key(minor[v[axis]], major[v[1 - axis]], wide, tall) if self.rectangle else -1)
                               for v in self.nodes], np.int64).reshape(-1, 3)
        self.pend_size = m * (3 * most_cycles + 4 * most_links) + 8 * n + 16
        self.trail_size = 5 * m + 2 * n + 8

    def paths(self, edge: np.ndarray) -> dict[str, tuple[Node, ...]]:
        from ..kernels.codes import LINE

        used = self.ends[edge == LINE].tolist()
        nbrs: dict[int, list[int]] = {}
        for u, v in used:
            nbrs.setdefault(u, []).append(v)
            nbrs.setdefault(v, []).append(u)
        out = {}
        for label, (a, b) in zip(self.labels, self.flow_ends):
            path, prev = [a], -1
            while path[-1] != b:
                nxt = next(w for w in nbrs[path[-1]] if w != prev)
                prev = path[-1]
                path.append(nxt)
            out[label] = tuple(self.nodes[i] for i in path)
        return out
