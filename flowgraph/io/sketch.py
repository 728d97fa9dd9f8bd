"""A board as positioned nodes and links: what every format reads into and writes from.

Formats differ in how they write a board down, not in what a board is: a
set of nodes (cells and bridge lanes) with a place on the board, labels on
the endpoints, and links. A :class:`Sketch` holds exactly that.

* :func:`to_puzzle` turns a sketch into a :class:`~flowgraph.model.Puzzle`
  whose node ids are positions in the source text (so problems point into
  the file the user gave), checking the rules of docs/format.md;
* :func:`sketch_of` recovers the sketch of any puzzle;
* :func:`draw_neighbor_link` writes a sketch in the neighbor-link format:
  it draws the links it is given (``-`` ``|`` ``/`` ``\\`` between cells two
  text columns or lines apart, warps after the last cell of a row or
  column), so square, both hex layouts, warps and bridges need no special
  case, and it raises :class:`~flowgraph.errors.ConversionError` for a link
  no text can draw.

Positions ``xy`` are in cells: a neighbor-link cell at text line ``r`` of
the board (0-based) and column ``c`` (0-based) is at ``(c / 2, r / 2)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConversionError
from ..model import FAMILIES, BoardGraph, CellIndex, Drawing, Family, Flow, Node, Puzzle, adjacency_edges
from .board_checks import one_part
from .problems import Problem, board_row_of_line, pair_endpoints
from .seams import board_graph

__all__ = ["Sketch", "PlacedNode", "to_puzzle", "finish_puzzle", "sketch_of", "draw_neighbor_link", "draw_placed",
           "board_row_of_line", "links_by_place",
           "same_board", "same_graph", "place", "node_places", "nodes_by_place", "cell_name",
           "cell_namer", "GRID_ID_FORMATS"]

XY = tuple  # (x, y) or (x, y, z), in cells

#: The formats whose node ids are the places of a drawing of the board on a grid (:attr:`Drawing.ids_on_grid`):
#: neighbor-link (level packs and puzz.link URLs are read as it), a plain grid, a numberlink grid. A JSON graph's
#: ids are where its node objects stand in its text, which says nothing of the board's shape.
GRID_ID_FORMATS = frozenset({"neighbor-link", "plain-grid", "numberlink"})


@dataclass(frozen=True)
class PlacedNode:
    """One node of a sketch."""

    xy: XY | None  # its place on the board; None where the format has none
    label: str | None = None  # an endpoint's label
    lane: str | None = None  # a bridge lane's axis: - | / \ or its angle in degrees ("60")
    outline: tuple | None = None  # a shape board's cell: its polygon, ((x, y), ...) in board units
    name: str | None = None  # what a player calls the cell, in the board's own terms (ring 2 sector 5)
    over: bool = False  # a bridge lane drawn over its bridge's other lane (Drawing.over)


@dataclass
class Sketch:
    """A board: nodes keyed by their source position, and links.

    Attributes
    ----------
    family : str
        A header word of :data:`~flowgraph.model.FAMILIES`.
    spots : dict of Node -> PlacedNode
        Keys are ``(line, column)`` positions in the source text, or
        ``(line, column, axis)`` for a bridge lane.
    links : dict of frozenset -> bool
        Each link (a pair of keys) and whether it is a warp.
    """

    family: Family | str = Family.STANDARD
    spots: dict[Node, PlacedNode] = field(default_factory=dict)
    links: dict[frozenset, bool] = field(default_factory=dict)

    def link(self, u: Node, v: Node, warp: bool = False) -> None:
        """Link ``u`` and ``v`` (``warp``: round the board's edge)."""
        self.links[frozenset((u, v))] = warp


def to_puzzle(sketch: Sketch, lines: tuple[str, ...], path: str | None, fmt: str,
              family_at: tuple[int, int] = (1, 1)) -> tuple[Puzzle | None, list[Problem]]:
    """The puzzle a sketch describes, checked against the rules of docs/format.md.

    Parameters
    ----------
    sketch : Sketch
    lines : tuple of str
        The source text.
    path : str or None
    fmt : str
        The source format's name.
    family_at : (int, int)
        Where "no flows" is reported.

    Returns
    -------
    puzzle : Puzzle or None
        None when an error was found.
    problems : list of Problem
        Labels that do not appear twice, nodes with no link, parts with no
        endpoint, flows split over two parts, no flows.
    """
    labels: dict[str, list[Node]] = {}
    nodes: dict[Node, dict[str, Any]] = {}  # networkx's own dicts, filled as add_node and add_edge would
    for key, spot in sketch.spots.items():
        attrs: dict[str, Any] = {"kind": "lane" if spot.lane else ("endpoint" if spot.label else "cell")}
        if spot.label:
            attrs["label"] = spot.label
            labels.setdefault(spot.label, []).append(key)
        if spot.xy is not None:
            attrs["xy"] = tuple(spot.xy)
        nodes[key] = attrs
    adjacency: dict[Node, dict[Node, dict]] = {key: {} for key in nodes}
    spots = sketch.spots
    for pair, warp in sketch.links.items():
        u, v = pair
        if v < u:  # (as sorted(pair), without a list a link)
            u, v = v, u
        axis = spots[u].lane or spots[v].lane or ""
        adjacency[u][v] = adjacency[v][u] = {"links": (), "axis": axis, "warp": warp}
    graph = board_graph(lambda: (nodes, adjacency))  # networkx only when asked: the engines read the numbering
    unlinked = [key for key in sorted(nodes) if not adjacency[key]]
    placed = sketch.spots.items()
    drawing = Drawing(xy={key: tuple(spot.xy) for key, spot in placed if spot.xy is not None},
                      ids_on_grid=fmt in GRID_ID_FORMATS,
                      outlines={key: spot.outline for key, spot in placed if spot.outline is not None},
                      names={key: spot.name for key, spot in placed if spot.name is not None},
                      over=frozenset(key for key, spot in placed if spot.over))
    return finish_puzzle(graph, CellIndex.of_adjacency(adjacency), labels, unlinked, sketch.family, lines, path, fmt,
                         family_at, drawing)


def finish_puzzle(graph: BoardGraph, index: CellIndex, labels: dict[str, list[Node]], unlinked: list[Node],
                  family: Family | str, lines: tuple[str, ...], path: str | None, fmt: str,
                  family_at: tuple[int, int], drawing: Drawing) -> tuple[Puzzle | None, list[Problem]]:
    """Check a board's graph and make its puzzle.

    :func:`to_puzzle`'s checks and its puzzle, from a board's graph (:func:`.seams.board_graph`), its
    numbering, where each label is (in node order), the nodes with no link (in sorted order) and where its
    nodes are drawn."""
    problems = [Problem(key[0], key[1], "error", "cell has no links") for key in unlinked]
    pairs, wrong = pair_endpoints(labels)
    flows = [Flow(label, ends) for label, ends in pairs]
    problems += wrong
    if not labels:
        problems.append(Problem(*family_at, "error", "the board has no flows (no endpoint labels)"))
    if flows and not one_part(index):  # the common case at once: one part, holding every endpoint (no flows:
        problems += _part_problems(graph, flows)  # nothing to say of parts)
    problems.sort()
    if any(p.is_error for p in problems):
        return None, problems
    puzzle = Puzzle(graph, tuple(flows), family, lines, path, fmt, drawing=drawing)
    vars(puzzle)["cell_index"] = index  # what Puzzle.cell_index (a cached property) would compute again
    return puzzle, problems


def _part_problems(board: BoardGraph, flows: list[Flow]) -> list[Problem]:
    import networkx as nx

    graph = board.graph()
    part_of = {n: i for i, part in enumerate(nx.connected_components(graph)) for n in part}
    out = []
    with_flow: set[int] = set()
    for f in flows:
        if part_of[f.ends[0]] != part_of[f.ends[1]]:
            out += [Problem(end[0], end[1], "error", f"the endpoints of flow {f.label!r} lie in separate parts of the board")
                    for end in f.ends]
        with_flow.update(part_of[e] for e in f.ends)
    for i, part in enumerate(nx.connected_components(graph)):
        if flows and i not in with_flow and not any(graph.nodes[n].get("label") for n in part):
            line, column = min(n[:2] for n in part)
            out.append(Problem(line, column, "error",
                               f"this part of the board ({len(part)} cells) has no endpoints, so it can never be filled"))
    return out


def place(spot: PlacedNode) -> tuple:
    """A node's place: its ``xy`` (or ``xyz``) and its lane, the same for a node in any format."""
    return tuple(spot.xy or ()) + (spot.lane,)


def node_places(puzzle: Puzzle) -> dict[Node, tuple]:
    """Node -> its place as :func:`place` gives a sketch's (``xy`` and lane), from :attr:`Puzzle.places`."""
    return {node: tuple(xy or ()) + ((node[2] if len(node) == 3 else None),) for node, xy in puzzle.places.items()}


def nodes_by_place(puzzle: Puzzle) -> dict[tuple, Node]:
    """Place (:func:`place`) -> node: to carry paths between the texts of one board in two formats."""
    return {at: node for node, at in node_places(puzzle).items()}


def cell_name(place: tuple[int, int] | None, node: Node) -> str:
    """A cell's name in messages: ``r3c5`` (row 3, column 5 of :attr:`Puzzle.cell_places`); a node with no place on a
    2-D board keeps its position in the file (``line 4 col 7``)."""
    return f"r{place[0]}c{place[1]}" if place is not None else f"line {node[0]} col {node[1]}"


def cell_namer(puzzle: Puzzle) -> Callable[[Node], str]:
    """Node -> its name for people: the board's own name for it where it has one (``ring 2 sector 5``:
    :attr:`flowgraph.model.Drawing.names`), else :func:`cell_name` (``r3c5``: the row and column the board's
    rulers number); the one way every message about a board names a cell (why unsolvable, hints, the
    studio's "not yet", the text of a board no text draws).

    >>> from flowgraph import parse_text
    >>> cell_namer(parse_text("STANDARD\\nA-.-A\\n"))((2, 5))
    'r1c3'
    """
    places, own = puzzle.cell_places, puzzle.drawing.names

    def name(node: Node) -> str:
        try:
            if node in own:  # the board names its cells in its own terms (a ring's sectors)
                return own[node]
            return cell_name(places.get(node), node)
        except (TypeError, IndexError):  # not a node of the board (a player's path may name anything)
            return str(node)

    return name


def links_by_place(sketch: Sketch, dx: float = 0, dy: float = 0) -> set[frozenset]:
    """The links as pairs of ``(x - dx, y - dy, lane)``: comparable between sketches of different sources."""
    spots = sketch.spots

    def place(key: Node) -> tuple:
        xy = spots[key].xy
        assert xy is not None, "links_by_place needs every node placed"
        return (xy[0] - dx, xy[1] - dy) + tuple(xy[2:]) + (spots[key].lane,)

    return {frozenset(map(place, pair)) for pair in sketch.links}


def same_board(a: Puzzle, b: Puzzle) -> bool:
    """Whether two puzzles are the same board wherever they sit: the same cells, labels, lanes and links.

    Both are moved so that their smallest ``x`` and ``y`` are 0; node ids
    (positions in different texts) do not matter.
    """
    def shape(puzzle: Puzzle):
        sketch = sketch_of(puzzle)
        placed = [(s.xy, s) for s in sketch.spots.values() if s.xy is not None]
        if len(placed) < len(sketch.spots):
            return None
        dx = min(xy[0] for xy, _ in placed)
        dy = min(xy[1] for xy, _ in placed)
        spots = sorted(((xy[0] - dx, xy[1] - dy) + tuple(xy[2:]) + (s.label or "", s.lane or "") for xy, s in placed),
                       key=str)
        return spots, links_by_place(sketch, dx, dy)

    return shape(a) is not None and shape(a) == shape(b)


def same_graph(a: Puzzle, b: Puzzle) -> bool:
    """Whether two puzzles are one graph with the same endpoint pairs, whatever their numbering, labels and places.

    For boards whose nodes have no shared places to compare (a shape read from a picture against the file it
    was drawn from): the links and the endpoint pairs make one graph each, compared up to isomorphism
    (:func:`networkx.is_isomorphic`, VF2), links matched to links and pairs to pairs.
    """
    import networkx as nx  # only here: reading and writing a board builds no networkx graph

    def graph(p: Puzzle) -> nx.Graph:
        g = nx.Graph()
        g.add_nodes_from(p.graph.nodes)
        g.add_edges_from(p.graph.edges, kind="link")
        g.add_edges_from((f.ends for f in p.flows), kind="pair")
        return g

    return nx.is_isomorphic(graph(a), graph(b), edge_match=lambda e, f: e["kind"] == f["kind"])


def sketch_of(puzzle: Puzzle) -> Sketch:
    """The sketch of a puzzle of any format, for a writer or an editor: its nodes at their places
    (:attr:`Puzzle.places`, as the reader recorded them), labels, lanes and links."""
    nodes, adjacency = puzzle.board.dicts()  # (a board's graph need not be built: no networkx to draw it)
    places = puzzle.places  # where its reader drew each node
    sketch = Sketch(puzzle.family or Family.STANDARD)
    for node, data in nodes.items():
        lane = node[2] if len(node) == 3 else None
        sketch.spots[node] = PlacedNode(places[node], data.get("label"), lane, puzzle.drawing.outlines.get(node),
                                        puzzle.drawing.names.get(node), node in puzzle.drawing.over)
    for u, v, link in adjacency_edges(adjacency):
        sketch.link(u, v, bool(link.get("warp")))
    return sketch


def draw_neighbor_link(sketch: Sketch) -> str:
    """The sketch as neighbor-link text (docs/format.md), header first.

    Raises
    ------
    ConversionError
        A node has no 2-D place on the grid, two nodes share a place, or a link
        joins cells that no link character can join (not next to each other,
        nor a warp between the first and last cell of a row or column).
    """
    return draw_placed(sketch)[0]


def draw_placed(sketch: Sketch) -> tuple[str, dict[Node, Node]]:
    """Draw a sketch as neighbor-link text, with each node's place in it.

    :func:`draw_neighbor_link`, and where each of the sketch's nodes is in the text.

    Returns
    -------
    text : str
    nodes : dict of Node -> Node
        Sketch key -> the node id the text gives it when read: ``(line, column)`` of its
        character, ``(line, column, axis)`` for a bridge lane (1-based, header on line 1).

    Raises
    ------
    ConversionError
        As :func:`draw_neighbor_link`.
    """
    if any(spot.outline for spot in sketch.spots.values()):
        raise ConversionError("a shape board (its cells have outlines, not a grid's places) has no text drawing: "
                              "write it as a JSON graph, or publish it as a page")
    chars: dict[tuple[int, int], str] = {}
    place: dict[Node, tuple[int, int]] = {}
    for key, spot in sketch.spots.items():
        place[key] = at = _text_place(key, spot)
        ch = "*" if spot.lane else (spot.label or ".")
        if at in chars and not (ch == "*" and chars[at] == "*"):  # only a bridge's lanes share a place
            raise ConversionError(f"two nodes share the place {tuple(spot.xy or at)}: a text board has one character there")
        chars[at] = ch
    cells_in_row: dict[int, list[int]] = {}
    cells_in_col: dict[int, list[int]] = {}
    for r, c in chars:
        cells_in_row.setdefault(r, []).append(c)
        cells_in_col.setdefault(c, []).append(r)
    for pair, warp in sketch.links.items():
        u, v = pair
        if place[v] < place[u]:
            u, v = v, u
        (r1, c1), (r2, c2) = place[u], place[v]
        dr, dc = r2 - r1, c2 - c1
        if not warp and (abs(dr), abs(dc)) in ((0, 2), (2, 0), (2, 2)):
            at, ch = ((r1 + r2) // 2, (c1 + c2) // 2), "-" if dr == 0 else "|" if dc == 0 else "\\" if dr * dc > 0 else "/"
        elif dr == 0 and {c1, c2} == {min(cells_in_row[r1]), max(cells_in_row[r1])}:
            at, ch = (r1, max(c1, c2) + 1), "-"  # a row warp: right after the row's last cell
        elif dc == 0 and {r1, r2} == {min(cells_in_col[c1]), max(cells_in_col[c1])}:
            at, ch = (max(r1, r2) + 1, c1), "|"
        else:
            raise ConversionError(f"the link between {sketch.spots[u].xy} and {sketch.spots[v].xy} cannot be drawn "
                                  "in the neighbor-link format (its cells are not neighbours on the grid)")
        if chars.setdefault(at, ch) != ch:
            raise ConversionError(f"two links cross at {(at[1] / 2, at[0] / 2)}: the neighbor-link format has one "
                                  "character there")
    top, left = min(cells_in_row), min(cells_in_col)  # links lie between cells, or after them (warps)
    bottom, right = max(r for r, _ in chars), max(c for _, c in chars)
    out = [[" "] * (right - left + 1) for _ in range(bottom - top + 1)]
    for (r, c), ch in chars.items():
        out[r - top][c - left] = ch
    family = sketch.family if sketch.family in FAMILIES else Family.STANDARD
    nodes: dict[Node, Node] = {}
    for key, (r, c) in place.items():
        lane = sketch.spots[key].lane
        nodes[key] = (r - top + 2, c - left + 1, lane) if lane else (r - top + 2, c - left + 1)
    return "\n".join([family] + ["".join(row).rstrip() for row in out]) + "\n", nodes


def _text_place(key: Node, spot: PlacedNode) -> tuple[int, int]:
    if spot.xy is None or len(spot.xy) != 2:
        raise ConversionError(f"the node at {key[0]}:{key[1]} has no place on a 2-D grid (xy), which a text "
                              "board needs")
    x2, y2 = spot.xy[0] * 2, spot.xy[1] * 2
    if x2 != int(x2) or y2 != int(y2):
        raise ConversionError(f"the node at {key[0]}:{key[1]} sits at {tuple(spot.xy)}, between the places of "
                              "a text board (x and y must be multiples of 0.5)")
    return int(y2), int(x2)
