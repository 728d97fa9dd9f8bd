"""The frozen puzzle and solution models shared by every engine.

A board is a graph. Node ids are source positions: a cell is
``(line, column)``, a bridge lane ``(line, column, axis)`` with ``axis`` one of
``"-" "|" "/" "\\"`` or, on a shape board, its angle in degrees (``"60"``: :func:`lane_angle`). Engines never ask
which family a board belongs to.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import networkx as nx
    import numpy as np

__all__ = [
    "Node", "Flow", "Puzzle", "Solution", "Limits", "CellIndex", "position", "Family", "FAMILIES", "FAMILY_NAMES",
    "LABELS", "RULES", "Rules", "DEFAULT_MEMORY_BYTES", "Drawing", "BoardGraph", "Place", "use_drawer",
    "LANE_ANGLES", "lane_angle",
]

Node = tuple[int, int] | tuple[int, int, str]

#: The text formats' four lane axes -> each one's angle, in degrees anticlockwise from across as the board is drawn
#: (``/`` runs up to the right). A shape board's lane may be any other angle, written as its degrees (``"60"``).
LANE_ANGLES = {"-": 0.0, "/": 45.0, "|": 90.0, "\\": 135.0}


def lane_angle(axis: str) -> float | None:
    """The angle of a bridge lane's ``axis`` in degrees, from 0 up to 180 (anticlockwise from across, as drawn).

    Parameters
    ----------
    axis : str
        One of :data:`LANE_ANGLES` or a number of degrees at least 0 and under 180 (``"60"``, ``"22.5"``).

    Returns
    -------
    float or None
        None where ``axis`` is neither (what a reader reports as a bad lane).

    >>> lane_angle("/"), lane_angle("60"), lane_angle("180"), lane_angle("x")
    (45.0, 60.0, None, None)
    """
    if axis in LANE_ANGLES:
        return LANE_ANGLES[axis]
    if not isinstance(axis, str) or len(axis) > 12 or not re.fullmatch(r"\d+(\.\d+)?", axis):
        return None
    angle = float(axis)
    return angle if angle < 180 else None



class _Named(str, Enum):
    """A str enum that prints and formats as its value (``f"{Rules.FLOW}"`` is ``flow``), as it serialises."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class Family(_Named):
    """A board family: the header word of its file, and the facts code asks of it (as :class:`Rules`).

    Its value is the header word, so it compares, prints and serialises as that string. The engines never
    ask it (a board is a graph to them); readers, writers, the scanner and the templates do, through its
    facts rather than its name.

    >>> Family.of("hex").hexagonal, Family.WARPS.cli_name
    (True, 'warps')
    """

    STANDARD = "STANDARD"
    HEX = "HEX"
    WARPS = "WARPS"
    BRIDGES = "BRIDGES"

    @classmethod
    def of(cls, name: str | Family) -> Family:
        """The family whose header word is ``name``, in any case (``hex``, ``HEX``).

        Raises
        ------
        ValueError
            Unknown name; the message lists the valid ones.
        """
        try:
            return cls(name.upper() if isinstance(name, str) else name)
        except ValueError:
            raise ValueError(f"unknown family {name!r}: expected one of {', '.join(FAMILY_NAMES)}") from None

    @property
    def cli_name(self) -> str:
        """The name the command line and the studio use: ``standard``, ``hex``, ``warps``, ``bridges``."""
        return self.value.lower()

    @property
    def hexagonal(self) -> bool:
        """Whether its cells are hexagons (six neighbours, diagonal links in the text)."""
        return self is Family.HEX

    @property
    def wraps(self) -> bool:
        """Whether its boards may have warps (links around the edge)."""
        return self is Family.WARPS

    @property
    def bridged(self) -> bool:
        """Whether its boards may have bridges."""
        return self is Family.BRIDGES


#: Header words, one per family of level packs.
FAMILIES = tuple(family.value for family in Family)
#: The families as the command line and the studio name them (``--family hex``).
FAMILY_NAMES = tuple(family.cli_name for family in Family)

class Rules(_Named):
    """A rule set: what counts as a solution, and the facts code asks of it.

    Its value is its name (``"flow"``, ``"numberlink"``), so it compares,
    prints and serialises as that string; code asks its facts instead of
    comparing names (as python-chess's variant classes carry theirs).

    ``FLOW``: every cell and bridge lane lies on a path (Flow Free).
    ``NUMBERLINK``: a cell or lane may lie on no path, all else the same
    (Nikoli's Numberlink, janko.at, puzz.link).

    >>> Rules.of("numberlink").fills_every_cell
    False
    >>> f"{Rules.FLOW} rules"
    'flow rules'
    """

    FLOW = "flow"
    NUMBERLINK = "numberlink"

    @property
    def fills_every_cell(self) -> bool:
        """Whether a solution must fill every cell and lane."""
        return self is Rules.FLOW

    @property
    def display_name(self) -> str:
        """The name people know it by: ``Flow Free``, ``Numberlink``."""
        return {Rules.FLOW: "Flow Free", Rules.NUMBERLINK: "Numberlink"}[self]

    @property
    def puzzlink(self) -> str:
        """The puzz.link puzzle type that carries it: ``arukone`` (every cell filled), ``numlin``."""
        return {Rules.FLOW: "arukone", Rules.NUMBERLINK: "numlin"}[self]

    @classmethod
    def of(cls, name: str | Rules) -> Rules:
        """The rule set named ``name``.

        Raises
        ------
        ValueError
            Unknown name; the message lists the valid ones.
        """
        try:
            return cls(name)
        except ValueError:
            raise ValueError(f"unknown rules {name!r}: expected one of {', '.join(RULES)}") from None


#: The rule sets' names (command-line choices, the studio's list).
RULES = tuple(rules.value for rules in Rules)

#: Characters that may label an endpoint, in colour order.
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def position(node: Node) -> tuple[int, int]:
    """Return the ``(line, column)`` of a node (a bridge lane gives its bridge's).

    >>> position((3, 5, "-"))
    (3, 5)
    """
    return (node[0], node[1])


@dataclass(frozen=True)
class Flow:
    """One flow: a label and its two endpoint cells, in file order."""

    label: str
    ends: tuple[Node, Node]


def node_key(node: Node) -> tuple:
    """Sort key of a node: line, column, then a lane's axis (a cell and a lane never share a place)."""
    return (node[0], node[1], node[2:])


def adjacency_edges(adjacency: Mapping[Node, Mapping[Node, Any]]) -> Iterator[tuple[Node, Node, Any]]:
    """Each link of a node -> neighbour -> attributes mapping once, ``(u, v, attributes)``, in the order
    ``graph.edges`` gives them for the graph whose ``Graph.adj`` it is (its readers need no networkx graph)."""
    seen: set[Node] = set()
    for u, neighbours in adjacency.items():
        for v, attrs in neighbours.items():
            if v not in seen:
                yield u, v, attrs
        seen.add(u)


@dataclass(frozen=True)
class CellIndex:
    """The nodes of a puzzle graph numbered, and its links as pairs of numbers.

    Built once per puzzle (:attr:`Puzzle.cell_index`) and shared by the engines, which work on
    numbers: the neighbor-link builder fills it as it builds the graph, other readers' puzzles
    number their graph on first use (:meth:`of`).

    Attributes
    ----------
    nodes : tuple of Node
        Number -> node, in :func:`node_key` order.
    number : Mapping[Node, int]
        Node -> number.
    links : ndarray of int64, shape (m, 2)
        One row per edge, as ``graph.edges`` gives them (order and ends; the lesser number first
        when the graph's node order is sorted).
    order : range or tuple of int
        The node numbers in the graph's node order (``range(n)`` when that is sorted already).
    warps : bool or None
        Whether a link is a warp, where the reader said (the neighbor-link reader's boards without
        one); None: the graph's links say (:attr:`Puzzle.has_warps`).
    """

    nodes: tuple[Node, ...]
    number: Mapping[Node, int]
    links: np.ndarray
    order: range | tuple[int, ...]
    warps: bool | None = None

    @cached_property
    def linked(self) -> frozenset[int]:
        """Every link both ways round, as ``u * len(nodes) + v`` (are nodes u and v linked: that number in it)."""
        import numpy as np

        u, v = self.links[:, 0], self.links[:, 1]
        n = len(self.nodes)
        return frozenset(np.concatenate([u * n + v, v * n + u]).tolist())

    @cached_property
    def link_codes(self) -> np.ndarray:
        """Every link once, as ``min(u, v) * len(nodes) + max(u, v)``, sorted (for ``np.searchsorted``)."""
        import numpy as np

        u, v = self.links[:, 0], self.links[:, 1]
        codes = np.sort(np.minimum(u, v) * len(self.nodes) + np.maximum(u, v))
        codes.setflags(write=False)
        return codes

    @classmethod
    def of(cls, graph: nx.Graph) -> CellIndex:
        """Number the nodes of ``graph`` and list its edges as number pairs."""
        return cls.of_adjacency(graph.adj)

    @classmethod
    def of_adjacency(cls, adjacency: Mapping[Node, Mapping[Node, Any]]) -> CellIndex:
        """Index a graph given by its adjacency mapping.

        :meth:`of` the graph whose node -> neighbour -> attributes mapping is ``adjacency`` (networkx's
        ``Graph.adj``: its nodes in the graph's order, each link both ways round), read as ``graph.edges``
        reads it, so that a reader numbers a board without making a networkx graph."""
        import numpy as np

        nodes = tuple(sorted(adjacency, key=node_key))
        number = {n: i for i, n in enumerate(nodes)}
        pairs = [(number[u], number[v]) for u, v, _ in adjacency_edges(adjacency)]
        links = np.array(pairs, np.int64).reshape(-1, 2)
        links.setflags(write=False)  # shared by the engines
        order = tuple(number[n] for n in adjacency)
        return cls(nodes, number, links, range(len(nodes)) if order == tuple(range(len(nodes))) else order)


#: A node's place on the board as drawn, in cells: ``(x, y)`` (x across, y down), or ``(x, y, z)``.
Place = tuple[float, ...]


@dataclass(frozen=True, eq=False)
class Drawing:
    """Where a board's nodes are drawn: what its reader knew of the board's geometry, kept beside the graph.

    Every reader records one on the :class:`Puzzle` it makes (:attr:`Puzzle.drawing`), and everything that
    shows a board to a person (pictures, the text output, explain's and the studio's cell names, the studio's
    views) asks it, never the format's name. The engines ask it one fact, :attr:`ids_on_grid`.

    Attributes
    ----------
    xy : Mapping[Node, Place]
        The places a reader read, in cells (a JSON graph's or a grid's ``xy``); a bridge lane is at its
        cell's place.
    text_rows : Mapping[int, int] or None
        For a board whose own text (:attr:`Puzzle.lines`) is its drawing in the neighbor-link format: file
        line (1-based) -> board row (0-based). The node at ``(line, column)`` of that text is at
        ``((column - 1) / 2, row / 2)``: two text characters a cell, the links between.
    ids_on_grid : bool
        Whether the node ids, read as ``(line, column)``, are places of a drawing of the board on a grid:
        a link joins two nodes next to each other on one line, one column or a diagonal of it, or is a
        flagged warp. The exhaustive search's nesting check orders a planar board's frontier by them.
        False where the ids are only where a node stands in its file (a JSON graph's).
    outlines : Mapping[Node, tuple of Place]
        Each cell's outline, a polygon in cells (x across, y down), where the reader read one: a shape
        board's (a ring's sectors); a lattice's outlines the picture works out from its links.
    names : Mapping[Node, str]
        What a player calls each cell, where the board names its cells in its own terms (``ring 2 sector 5``);
        else cells are named by :attr:`Puzzle.cell_places` (``r3c5``).
    over : frozenset of Node
        The bridge lanes whose pipes the pictures draw over their bridge's other lane, where the board says
        (a shape board's crossings: Borromean rings, each over one ring and under the other); empty where it
        does not (then :meth:`passes_over` decides by the axes).
    """

    xy: Mapping[Node, Place] = field(default_factory=dict)
    text_rows: Mapping[int, int] | None = None
    ids_on_grid: bool = False
    outlines: Mapping[Node, tuple[Place, ...]] = field(default_factory=dict)
    names: Mapping[Node, str] = field(default_factory=dict)
    over: frozenset = frozenset()

    def passes_over(self, lane: Node) -> bool:
        """Whether the pictures draw the pipe on bridge lane ``lane`` (a 3-tuple node) over its bridge's other
        lane: the lanes the board names in :attr:`over`, where it names one of that bridge's; else a ``-`` or ``/`` lane, or an
        angle's under 90 degrees (then over a ``|``, ``\\`` or steeper lane, as the game's bridges are drawn).

        >>> Drawing().passes_over((2, 3, "-")), Drawing(over=frozenset({(2, 3, "|")})).passes_over((2, 3, "-"))
        (True, False)
        """
        if lane[:2] in self._over_bridges:
            return lane in self.over
        axis = str(lane[-1])
        return axis in "-/" or (axis not in "|\\" and (lane_angle(axis) or 0) < 90)

    @cached_property
    def _over_bridges(self) -> frozenset:
        return frozenset(lane[:2] for lane in self.over)

    def place(self, node: Node) -> Place | None:
        """The place of ``node`` (:data:`Place`, in cells), or None where the board's drawing gives it none.

        >>> Drawing(text_rows={2: 0, 3: 1}).place((3, 5, "-"))
        (2.0, 0.5)
        """
        xy = self.xy.get(node)
        if xy is None and self.text_rows is not None:
            row = self.text_rows.get(node[0])
            if row is not None:
                return ((node[1] - 1) / 2, row / 2)
        return xy


class BoardGraph(Protocol):
    """What a :class:`Puzzle` holds of its graph: the node and adjacency dicts a reader made, made into a
    frozen networkx graph when first asked for (:func:`flowgraph.io.seams.board_graph` makes them)."""

    def dicts(self) -> tuple[dict, dict]:
        """Node -> attributes and node -> neighbour -> link attributes, as networkx's ``Graph._node`` and
        ``Graph._adj`` hold them (read only)."""

    def graph(self) -> nx.Graph:
        """The frozen networkx graph over :meth:`dicts`, one object however often or wherever asked."""


@dataclass(frozen=True)
class Puzzle:
    """A parsed, valid puzzle.

    Attributes
    ----------
    board : BoardGraph
        The board's graph as its reader made it (:attr:`graph` is it as a networkx graph).
    flows : tuple of Flow
        In order of first appearance of their labels.
    family : Family or str
        The board's family (given as a :class:`Family` or its header word); a draft whose header is
        missing or unknown keeps that text.
    lines : tuple of str
        The source text, one entry per line, line ends removed.
    path : str or None
        Where the text came from.
    format : str
        The format the text is in (a name of :data:`flowgraph.io.formats.FORMATS`).
        Node ids are positions in that text; in formats other than
        neighbor-link the nodes also carry ``xy``, their place on the board.
    rules : Rules
        What counts as a solution (given as a :class:`Rules` or its name).
        The reader sets the source's own (a puzz.link ``numlin`` URL:
        ``numberlink``; Flow Free formats: ``flow``); :meth:`with_rules`
        chooses others.
    drawing : Drawing
        Where the board's nodes are drawn, as its reader knew (:class:`Drawing`).
    """

    board: BoardGraph
    flows: tuple[Flow, ...]
    family: Family | str
    lines: tuple[str, ...]
    path: str | None = None
    format: str = "neighbor-link"
    rules: Rules = Rules.FLOW
    drawing: Drawing = field(default_factory=Drawing, compare=False)

    def __post_init__(self) -> None:
        if type(self.rules) is not Rules:  # a name: the one place a name becomes the type
            object.__setattr__(self, "rules", Rules.of(self.rules))
        if type(self.family) is not Family and self.family in FAMILIES:  # the same for a header word
            object.__setattr__(self, "family", Family(self.family))

    def with_rules(self, rules: str | Rules | None) -> Puzzle:
        """This puzzle under ``rules`` (itself when None or the same).

        Raises
        ------
        ValueError
            Unknown rules; the message lists the valid ones.
        """
        if rules is None or rules == self.rules:
            return self
        other = replace(self, rules=Rules.of(rules))
        for known in ("places", "cell_places"):  # the same board: what was worked out of it
            if known in vars(self):
                vars(other)[known] = vars(self)[known]
        if "cell_index" in vars(self):  # the same graph: its numbering too (a reader's, made without the graph)
            vars(other)["cell_index"] = self.cell_index
        return other

    @property
    def graph(self) -> nx.Graph:
        """The board as a frozen networkx graph, built when first asked for (networkx is imported then).

        One node per cell and per bridge lane (attribute ``kind``: ``"cell"``, ``"endpoint"`` or ``"lane"``;
        endpoints carry ``label``, nodes read with a place ``xy``), one edge per link (attributes ``links``:
        the ``(line, column)`` of each link character joining the pair, ``axis``, and ``warp``). The engines
        read :attr:`cell_index` instead, and a command that only solves never builds it.
        """
        return self.board.graph()

    @cached_property
    def places(self) -> Mapping[Node, Place | None]:
        """Node -> its place on the board as drawn (:meth:`Drawing.place`, in cells), every node, in
        :attr:`cell_index` order."""
        place = self.drawing.place
        return {node: place(node) for node in self.cell_index.nodes}  # (a dict, read only: a puzzle pickles)

    @cached_property
    def cell_places(self) -> Mapping[Node, tuple[int, int] | None]:
        """Node -> its cell as a player names it: ``(row, column)`` on the board as drawn, from 1 at the top left.

        The scheme of every message a player reads (``explain``, the studio's hints): rows counted down and
        columns across from the board's top-left cell, whatever the format's own positions. A bridge's lanes
        share their cell's place; a node with no whole 2-D place (a 3-D JSON graph) maps to None.
        """
        placed = [xy for xy in self.places.values() if xy is not None]
        dx = min((xy[0] for xy in placed), default=0)
        dy = min((xy[1] for xy in placed), default=0)
        out: dict[Node, tuple[int, int] | None] = {}
        for node, xy in self.places.items():
            whole = xy is not None and len(xy) == 2 and all(float(v).is_integer() for v in xy)
            out[node] = (int(xy[1] - dy) + 1, int(xy[0] - dx) + 1) if whole else None  # type: ignore[index]
        return out

    @cached_property
    def cell_index(self) -> CellIndex:
        """The graph's nodes numbered and its links as number pairs (:class:`CellIndex`), built once."""
        return CellIndex.of_adjacency(self.board.dicts()[1])

    @cached_property
    def has_warps(self) -> bool:
        """Whether a link of the board is a warp: the reader's word (:attr:`CellIndex.warps`), else the graph's
        links' ``warp`` flags."""
        known = self.cell_index.warps
        if known is not None:
            return known
        return any(warp for *_, warp in self.graph.edges(data="warp"))

    @property
    def cells(self) -> int:
        """Number of nodes to fill: cells plus bridge lanes."""
        index = vars(self).get("cell_index")  # a reader's numbering, when it made one: the graph may be unbuilt
        return len(index.nodes) if index is not None else len(self.board.dicts()[0])

    def _repr_svg_(self) -> str:
        """The puzzle drawn as SVG (Jupyter shows it), endpoints as dots."""
        return str(_draw(self, "svg"))

    def render(self, fmt: str = "svg", **options: Any) -> str | bytes:
        """The puzzle drawn: ``svg`` (str), ``png`` (bytes) or ``text`` (its neighbor-link text), endpoints as
        dots; options and errors as :func:`flowgraph.render.draw`.

        >>> from flowgraph import parse_text
        >>> print(parse_text("STANDARD\\nA-.-A\\n").render("text"), end="")
        STANDARD
        A-.-A
        """
        return _draw(self, fmt, **options)

    def flow(self, label: str) -> Flow:
        """Return the flow with this label.

        Raises
        ------
        KeyError
            No flow has this label.
        """
        for f in self.flows:
            if f.label == label:
                return f
        raise KeyError(label)


@dataclass(frozen=True)
class Solution:
    """A solved puzzle: one path per flow, endpoint to endpoint.

    Attributes
    ----------
    puzzle : Puzzle
    paths : Mapping[str, tuple of Node]
        For each label, the nodes of its path from ``flow.ends[0]`` to
        ``flow.ends[1]``, both included. A path is the same path either way: one
        given from its second endpoint to its first (a player who drew the pipe from
        the other dot) is stored turned round.
    engine : str
        Name of the engine that found it.
    stats : Mapping[str, Any]
        ``seconds`` (wall time) and the engine's work: ``states`` (search
        states expanded) or ``sat_calls`` (SAT solver calls), plus engine
        fields.
    """

    puzzle: Puzzle
    paths: Mapping[str, tuple[Node, ...]]
    engine: str = "search"
    stats: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        paths = dict(self.paths)
        for flow in self.puzzle.flows:  # one drawn from the other dot runs the other way: turn it round
            path: Any = paths.get(flow.label)  # (a hand-made Solution may hold anything: the verifier names it)
            try:
                reversed_ = len(path) > 1 and path[0] == flow.ends[1] and path[-1] == flow.ends[0]
            except (TypeError, KeyError, IndexError):  # not a sequence: the verifier says what is wrong with it
                continue
            if reversed_:
                paths[flow.label] = path[::-1]
        object.__setattr__(self, "paths", MappingProxyType(paths))
        object.__setattr__(self, "stats", MappingProxyType(dict(self.stats)))

    def _repr_svg_(self) -> str:
        """The solution drawn as SVG (Jupyter shows it), pipes through the cells."""
        return str(_draw(self, "svg"))

    def render(self, fmt: str = "svg", **options: Any) -> str | bytes:
        """The solution drawn, pipes through the cells: ``svg`` (str), ``png`` (bytes) or ``text`` (as ``flowgraph
        solve`` prints it); options and errors as :func:`flowgraph.render.draw`."""
        return _draw(self, fmt, **options)

    def owner(self) -> dict[Node, str]:
        """Map every node to the label of the flow through it."""
        return {node: label for label, path in self.paths.items() for node in path}


#: What draws a puzzle or a solution for :meth:`Puzzle.render` and the notebooks' ``_repr_svg_``: the package sets
#: it (:func:`use_drawer`) to :func:`flowgraph.render.draw`, loaded when first used, so the core names no layer
#: above it (as a plotting backend is named to pandas) and every object that exists can draw, the package having
#: been imported to make it.
_DRAWERS: list[Callable[..., str | bytes]] = []


def use_drawer(draw: Callable[..., str | bytes]) -> None:
    """Make ``draw(board, fmt, **options)`` the function :meth:`Puzzle.render` and :meth:`Solution.render` call."""
    _DRAWERS[:] = [draw]


def _draw(board: Puzzle | Solution, fmt: str, **options: Any) -> str | bytes:
    if not _DRAWERS:  # pragma: no cover - flowgraph/__init__.py sets it before any model exists
        raise RuntimeError("no drawing function: import flowgraph first")
    return _DRAWERS[0](board, fmt, **options)


DEFAULT_MEMORY_BYTES = 1 << 30



@dataclass(frozen=True)
class Limits:
    """Budgets for one solve; ``None`` means no limit.

    Attributes
    ----------
    max_states : int or None
        Search states expanded (the heap search's budget).
    time_limit_s : float or None
        Wall time in seconds, for the whole solve.
    memory_bytes : int or None
        The memory one puzzle may take, bytes (1 GiB by default, as ``--memory-limit``), bounded
        where it is spent: reading refuses a board estimated to take more (a batch's reading); the
        heap search stops with ``SearchLimitError("memory")`` when its frontier (the states waiting
        on the heap, by their estimated size) would; a count, an explanation or a rating stops so
        once the call has grown the process's resident memory by more (measured while it runs,
        :mod:`flowgraph.engines.memory`).
    max_sat_calls : int or None
        Calls of the SAT solver (the SAT engine's budget; a solve makes one
        call, plus one per detached cycle it cuts).
    search_first : bool
        For the ``auto`` engine: try the search first on small boards (see
        :data:`flowgraph.engines.auto.SEARCH_FIRST_CELLS`) where it is loaded
        in this process. Callers that load the search anyway ask for it (a
        batch of many puzzles, ``bench``, the studio); one puzzle's solve
        does not, whatever ran before it in the process.
    """

    max_states: int | None = None
    time_limit_s: float | None = None
    memory_bytes: int | None = DEFAULT_MEMORY_BYTES
    max_sat_calls: int | None = None
    search_first: bool = False
