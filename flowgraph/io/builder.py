"""The neighbor-link builder: parse tree to cell graph, with every problem found.

Four steps, each a function over named records, all reporting into one
:class:`Report` so that ``validate`` sees every problem at once:

1. :func:`read_layout` — the tokens of the parse tree as a :class:`Layout`:
   the header, and each board row's text (its cells and link characters by
   board row and column, read from the rows when asked); text flowgraph drew
   itself needs no parse (:func:`read_drawn`);
2. :func:`resolve_links` — every link character to the two cells it joins
   (:class:`Link`), warps included;
3. :func:`build_graph` — a node per cell and per bridge lane
   (:func:`bridge_lanes`), an edge per link;
4. the checks on the whole board (:mod:`.board_checks`): ``check_cells``,
   ``find_flows``, ``check_parts``, ``check_family``.

:func:`build` runs them in order and returns the puzzle, or None when an
error was found (:func:`build_layout`: steps 2-4 from a layout). A board
without bridges or bad characters (nearly every board) takes steps 2 and 3
at once: on whole arrays when every link joins the two cells beside it
(:func:`.board_arrays.link_rows`), else in one pass, :func:`link_cells`: a
link between the two cells beside it becomes an edge at once, the others
(warps, errors) follow :func:`resolve_links`'s rules.
"""

from __future__ import annotations

import re
from typing import cast

import lark

from ..model import FAMILIES, BoardGraph, CellIndex, Drawing, Node, Puzzle
from .board_arrays import link_rows
from .board_checks import check_cells, check_family, check_parts, find_flows
from .layout import DIRECTIONS as _DIRECTIONS
from .layout import GridPos, Layout, Link, Report
from .problems import Problem, board_row_of_line
from .seams import board_graph

__all__ = [
    "build", "build_layout", "read_drawn",
    "Report", "Layout", "Link", "read_layout", "resolve_links", "bridge_lanes", "build_graph", "link_cells",
    "MISSING_HEADER",
]

MISSING_HEADER = f"missing header: the first line must be one of {', '.join(FAMILIES)}"

# Link character -> (d_row, d_col): the link joins the cells at -d and +d.
_SIDES = {
    "-": ("on its left", "on its right"),
    "|": ("above", "below"),
    "/": ("at its upper right", "at its lower left"),
    "\\": ("at its upper left", "at its lower right"),
}

def build(tree: lark.Tree, lines: tuple[str, ...], path: str | None, draft: bool = False
          ) -> tuple[Puzzle | None, list[Problem]]:
    """The puzzle a parse tree describes, and every problem in it.

    Parameters
    ----------
    tree : lark.Tree
        From ``grammar/flow.lark``.
    lines : tuple of str
        The source text's lines (kept in the puzzle for text output).
    path : str or None
        Where the text came from.

    draft : bool
        Return the board as built even when it has errors (for an editor to
        draw it): only the flows whose labels appear twice.

    Returns
    -------
    puzzle : Puzzle or None
        None when an error was found (unless ``draft``).
    problems : list of Problem
        Every error and warning, in file order.
    """
    report = Report()
    return build_layout(read_layout(tree, report), lines, path, report, draft)


def build_layout(layout: Layout, lines: tuple[str, ...], path: str | None, report: Report | None = None,
                 draft: bool = False) -> tuple[Puzzle | None, list[Problem]]:
    """The puzzle a :class:`Layout` describes, and every problem in it: steps 2-4 of :func:`build`.

    ``report`` holds what reading the layout found already (default: nothing).
    """
    report = report if report is not None else Report()
    if layout.bad or layout.has_bridges:  # characters not of the format, or bridges: link by link
        links = resolve_links(layout, report)
        lanes = bridge_lanes(layout, links, report)
        graph, labels, index = build_graph(layout, links, lanes, report)
        diagonals = any(link.axis in "/\\" for link in links)
    else:  # the common board: its links resolved and made edges on whole arrays, else in one pass
        lanes = {}
        made = link_rows(layout, layout.rows)
        graph, labels, index, links, diagonals = made if made is not None else link_cells(layout, report)
    if not layout.bad:  # a bad character cuts links: the checks below would only echo it
        check_cells(layout, graph, lanes, report, index)
    flows = find_flows(layout, labels, report)
    if not layout.bad:
        check_parts(graph, flows, report, index)
    if layout.family is not None:
        check_family(layout, index, next((link.at for link in links if link.warp), None), diagonals, report)
    problems = sorted(report.problems)
    if report.has_errors and not (draft and len(index.nodes)):
        return None, problems
    drawing = Drawing(text_rows=board_row_of_line(lines), ids_on_grid=True)  # the text is the drawing
    puzzle = Puzzle(graph, tuple(flows), layout.family or "", lines, path, drawing=drawing)
    vars(puzzle)["cell_index"] = index  # what Puzzle.cell_index (a cached property) would compute again
    return puzzle, problems


def read_drawn(lines: tuple[str, ...]) -> Layout:
    """The :class:`Layout` of neighbor-link text that flowgraph drew itself (:func:`.sketch.draw_neighbor_link`).

    Such text is the format's plainest case: a known header word on line 1, then board rows of
    cell and link characters and spaces, with no comment and no other character. Its layout is
    what :func:`read_layout` makes of the parse tree, read here from the lines, with no parse (a
    Flow Free level pack draws every level: this halves reading one).

    Raises
    ------
    ValueError
        The text is not of that kind (a bug in the caller: drawn text always is).
    """
    layout = Layout(family=lines[0] if lines and lines[0] in FAMILIES else None)
    if layout.family is None or not _DRAWN_ROW.fullmatch("\n".join(lines[1:])):
        raise ValueError("not neighbor-link text as flowgraph draws it")
    for line, text in enumerate(lines[1:], 2):
        layout.row_lines.append(line)
        layout.rows.append(text)
    layout.row_lines.append(len(lines) + 1)  # the empty row after the last line end, as the grammar reads it
    layout.rows.append("")
    return layout


_DRAWN_ROW = re.compile(r"(?![ ]*//)[-|/\\.*A-Za-z0-9 ]*(?:\n(?![ ]*//)[-|/\\.*A-Za-z0-9 ]*)*")  # no comment line


def read_layout(tree: lark.Tree, report: Report) -> Layout:
    """The header and the board characters of a parse tree; bad characters and headers are reported."""
    layout = Layout()
    header = next(tree.find_data("header"))
    word = cast(lark.Token, header.children[0])  # lark's positions are set: the parser keeps them
    header_line = cast(int, word.line)
    layout.header = (header_line, cast(int, word.column) + (len(word) - len(word.lstrip(" "))))
    name = word.strip()
    if name.upper() in FAMILIES:
        layout.family = name.upper()
        if name != layout.family:
            report.warning(*layout.header, f"header {name!r} should be written {layout.family}")
    elif len(header.children) > 1 and len(name) == 1:
        report.error(*layout.header, MISSING_HEADER)  # a board row came first
        return layout
    else:
        report.error(*layout.header, f"unknown header {name!r}: expected one of {', '.join(FAMILIES)}")
    if len(header.children) > 1:
        extra = cast(lark.Token, header.children[1])
        report.error(cast(int, extra.line), cast(int, extra.column), "unexpected text after the header word")
    line = header_line
    for row in tree.children:
        if not (isinstance(row, lark.Tree) and row.data == "row"):
            continue
        line += 1
        tokens = cast(list[lark.Token], row.children)
        if tokens and tokens[0].type == "COMMENT":
            continue
        if tokens and tokens[0].type == "BOARD":  # whole lines at once: a row each
            for k, text in enumerate(tokens[0].split("\n")):
                text = text.rstrip("\r") if k else " " * (cast(int, tokens[0].column) - 1) + text.rstrip("\r")
                layout.row_lines.append(line + k)
                layout.rows.append(text)
            line += tokens[0].count("\n")
            continue
        # A blank line is a board row too (no cells, or a line of links with no links):
        # nothing below it is dropped.
        _read_row(layout, line, tokens, report)
    return layout


def _read_row(layout: Layout, line: int, tokens: list[lark.Token], report: Report) -> None:
    r = len(layout.row_lines)
    layout.row_lines.append(line)
    text = ""
    for tok in tokens:
        at = cast(int, tok.column)
        text = text.ljust(at - 1)
        if tok.type == "RUN":  # cells and links side by side: one token, a character per column
            text += tok
        else:
            layout.bad.add((r, at))
            if tok == "\t":
                report.error(line, at, "tab character: use spaces (a tab's column is ambiguous)")
            else:
                report.error(line, at, f"unexpected character {str(tok)!r}")
    layout.rows.append(text)


def resolve_links(layout: Layout, report: Report) -> list[Link]:
    """Every link character to its two cells; a ``-`` or ``|`` past the last cell of its row or column warps."""
    cells = layout.cells
    resolved: list[Link] = []
    row_lines = layout.row_lines
    new_link = tuple.__new__  # Link(...) without its Python-level __new__: once per link
    others = _OtherLinks(layout, report)
    for r, c, ch in layout.links:
        dr, dc = _DIRECTIONS[ch]
        a, b = (r - dr, c - dc), (r + dr, c + dc)
        if a in cells and b in cells:  # the common case, first
            resolved.append(new_link(Link, (a, b, ch, (row_lines[r], c), False)))
            continue
        link = others.resolve(r, c, ch)
        if link is not None:
            resolved.append(link)
    return resolved


class _OtherLinks:
    """Links that do not join the two cells beside them: warps, and the errors (no cell, a bad character)."""

    def __init__(self, layout: Layout, report: Report) -> None:
        self.layout, self.report = layout, report
        self.row_cols: dict[int, list[int]] | None = None  # each row's cell columns, each column's rows: made once,
        self.col_rows: dict[int, list[int]] = {}  # on the first link that needs them

    def resolve(self, r: int, c: int, ch: str) -> Link | None:
        """The link character ``ch`` at board place ``(r, c)`` as a warp, or None (an error, reported)."""
        layout, cells = self.layout, self.layout.cells
        if self.row_cols is None:
            self.row_cols = {}
            for rr, cc in sorted(cells):
                self.row_cols.setdefault(rr, []).append(cc)
                self.col_rows.setdefault(cc, []).append(rr)
        row_cols, col_rows = self.row_cols, self.col_rows
        dr, dc = _DIRECTIONS[ch]
        a, b = (r - dr, c - dc), (r + dr, c + dc)
        warp = False
        if a in cells and b not in cells:
            if ch == "-" and row_cols[a[0]][-1] == a[1]:
                b, warp = (a[0], row_cols[a[0]][0]), True
            elif ch == "|" and col_rows[a[1]][-1] == a[0]:
                b, warp = (col_rows[a[1]][0], a[1]), True
        missing = [side for side, end in zip(_SIDES[ch], (a, b)) if end not in cells]
        if missing and (a in layout.bad or b in layout.bad):
            return None  # already reported as a bad character
        if missing:
            hint = ""
            if ch in "-|" and a in cells and b not in cells:
                where = "row" if ch == "-" else "column"
                hint = f" (a warp must come right after the last cell of its {where})"
            self.report.error(*layout.pos((r, c)), f"'{ch}' link has no cell {' or '.join(missing)}{hint}")
            return None
        if a == b:
            self.report.error(*layout.pos((r, c)), f"warp '{ch}' links a cell to itself")
            return None
        return Link(a, b, ch, layout.pos((r, c)), warp)


def bridge_lanes(layout: Layout, links: list[Link], report: Report) -> dict[GridPos, set[str]]:
    """Bridge -> its lanes: the axes along which it is linked on both sides (one side only is an error).

    A bridge with links but no complete lane maps to an empty set; a bridge
    with no links at all is missing.
    """
    sides: dict[GridPos, dict[str, list[int]]] = {}
    if not layout.has_bridges:
        return {}  # no bridge: no link to look at
    for link in links:
        for end, side in ((link.a, 0), (link.b, 1)):
            if layout.cells[end] == "*":
                sides.setdefault(end, {}).setdefault(link.axis, [0, 0])[side] += 1
    lanes: dict[GridPos, set[str]] = {}
    for rc, axes in sides.items():
        lanes[rc] = set()
        for ch, (before, after) in axes.items():
            if before and after:
                lanes[rc].add(ch)
            else:
                report.error(*layout.pos(rc), f"bridge lane '{ch}' is linked on one side only")
    return lanes


def build_graph(
    layout: Layout, links: list[Link], lanes: dict[GridPos, set[str]], report: Report,
) -> tuple[BoardGraph, dict[str, list[tuple[int, int]]], CellIndex]:
    """A node per cell and bridge lane, an edge per link; label -> where it appears, in file order; the numbering.

    The graph is filled as networkx's own dict of dicts of dicts (node -> neighbour -> edge
    attributes, the structure its ``Graph`` documents), not edge by edge: on a 40x20 board
    ``add_edges_from`` cost more than reading the board. The nodes come in sorted order
    (rows, then columns, then lanes by axis), so the :class:`~flowgraph.model.CellIndex` is
    their order of creation. Boards without bridges take :func:`link_cells` instead.
    """
    node_attrs, labels, at_place, number = _nodes(layout, lanes)
    adj: dict[Node, dict[Node, dict]] = {n: {} for n in node_attrs}
    row_lines = layout.row_lines
    us: list[int] = []  # each edge's two numbers, in the order made
    vs: list[int] = []
    for a, b, axis, at, warp in links:
        if lanes and (a not in at_place or b not in at_place):  # an end is a bridge: the lane along the link
            if any(end not in at_place and axis not in lanes.get(end, ()) for end in (a, b)):
                continue  # a lane linked on one side only (reported)
            u, iu = at_place[a] if a in at_place else _lane(row_lines, a, axis, number)
            v, iv = at_place[b] if b in at_place else _lane(row_lines, b, axis, number)
        else:
            u, iu = at_place[a]
            v, iv = at_place[b]
        if _add_edge(adj, u, v, at, axis, warp, report):
            us.append(iu)
            vs.append(iv)
    return board_graph(lambda: (node_attrs, adj)), labels, _cell_index(tuple(node_attrs), number, us, vs)


def link_cells(layout: Layout, report: Report
               ) -> tuple[BoardGraph, dict[str, list[tuple[int, int]]], CellIndex, list[Link], bool]:
    """Resolve a board's links and build its graph in one pass.

    :func:`resolve_links` and :func:`build_graph` in one pass, for a board without bridges or bad characters.

    A link between the two cells beside it (nearly all of them) becomes an edge at once, with no
    :class:`Link` made for it; the others (warps, and errors) go through the same rules as in
    :func:`resolve_links`. The graph, the numbering and the problems are those of the two steps.

    Returns
    -------
    graph, labels, index
        As :func:`build_graph`.
    others : list of Link
        The links that are not between neighbours (warps).
    diagonals : bool
        Whether a ``/`` or ``\\`` link was made.
    """
    node_attrs, labels, at_place, number = _nodes(layout, {})
    adj: dict[Node, dict[Node, dict]] = {n: {} for n in node_attrs}
    row_lines = layout.row_lines
    others = _OtherLinks(layout, report)
    warps: list[Link] = []
    us: list[int] = []
    vs: list[int] = []
    diagonals = False
    place = at_place.get
    for r, c, ch in layout.links:
        dr, dc = _DIRECTIONS[ch]
        first, second = place((r - dr, c - dc)), place((r + dr, c + dc))
        if first is not None and second is not None:
            (u, iu), (v, iv) = first, second
            at: tuple[int, int] = (row_lines[r], c)
            warp = False
        else:
            link = others.resolve(r, c, ch)
            if link is None:
                continue
            warps.append(link)
            (u, iu), (v, iv) = at_place[link.a], at_place[link.b]
            at, warp = link.at, link.warp
        # _add_edge inlined: this loop runs once per link of every board read
        around = adj[u]
        if v in around:
            around[v]["links"] += (at,)
            report.warning(*at, f"link '{ch}' repeats an existing link between the same cells")
            continue
        around[v] = adj[v][u] = {"links": (at,), "axis": ch, "warp": warp}
        us.append(iu)
        vs.append(iv)
        if dr and dc:
            diagonals = True
    return board_graph(lambda: (node_attrs, adj)), labels, _cell_index(tuple(node_attrs), number, us, vs), warps, diagonals


def _nodes(layout: Layout, lanes: dict[GridPos, set[str]]) -> tuple[
        dict[Node, dict[str, str]], dict[str, list[tuple[int, int]]], dict[GridPos, tuple[Node, int]], dict[Node, int]]:
    """Each cell's and lane's node with its attributes, in sorted order; label -> where; place -> (node, number)
    of each cell (not bridge); node -> number."""
    labels: dict[str, list[tuple[int, int]]] = {}
    node_attrs: dict[Node, dict[str, str]] = {}
    at_place: dict[GridPos, tuple[Node, int]] = {}
    row_lines = layout.row_lines
    for (r, col), ch in layout.cells.items():
        line = row_lines[r]  # layout.pos inlined: once per cell
        if ch == "*":
            for axis in sorted(lanes.get((r, col), ())):
                node_attrs[line, col, axis] = {"kind": "lane"}
            continue
        at_place[r, col] = ((line, col), len(node_attrs))
        if ch == ".":
            node_attrs[line, col] = {"kind": "cell"}
        else:
            node_attrs[line, col] = {"kind": "endpoint", "label": ch}
            labels.setdefault(ch, []).append((line, col))
    number = {n: i for i, n in enumerate(node_attrs)}
    return node_attrs, labels, at_place, number


def _add_edge(adj: dict[Node, dict[Node, dict]], u: Node, v: Node, at: tuple[int, int], axis: str, warp: bool,
              report: Report) -> bool:
    """Link ``u`` and ``v`` in ``adj``; a link that repeats one is kept as its edge's second place (warned)."""
    around = adj[u]
    if v in around:
        around[v]["links"] += (at,)
        report.warning(*at, f"link '{axis}' repeats an existing link between the same cells")
        return False
    around[v] = adj[v][u] = {"links": (at,), "axis": axis, "warp": warp}
    return True


def _lane(row_lines: list[int], rc: GridPos, axis: str, number: dict[Node, int]) -> tuple[Node, int]:
    """The lane of the bridge at board place ``rc`` along ``axis``, and its number."""
    node = (row_lines[rc[0]], rc[1], axis)
    return node, number[node]


def _cell_index(nodes: tuple[Node, ...], number: dict[Node, int], us: list[int], vs: list[int]) -> CellIndex:
    """The numbering of a graph whose nodes were made in sorted order, from its edges' ends in the order made.

    ``graph.edges`` walks the nodes in order and gives each node's edges to later nodes in the order
    they were made: the pairs, lesser end first, sorted by their lesser end, stably.
    """
    import numpy as np

    u, v = np.array(us, np.int64), np.array(vs, np.int64)
    links = np.stack([np.minimum(u, v), np.maximum(u, v)], axis=1)
    links = links[np.argsort(links[:, 0], kind="stable")]
    links.setflags(write=False)  # shared by the engines
    return CellIndex(nodes, number, links, range(len(nodes)))
