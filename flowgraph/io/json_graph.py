"""The JSON graph format: any board as nodes and links, including ones no text layout can draw.

Schema (``version`` 1)::

    {
      "format": "flowgraph-graph",         // what this file is (used to guess the format)
      "version": 1,
      "family": "STANDARD",                // optional: a header word of docs/format.md
      "nodes": [                           // cells and bridge lanes
        {"id": "a", "label": "A", "xy": [0, 0]},
        {"id": "b", "xy": [1, 0]},
        {"id": "c-", "xy": [2, 0], "lane": "-"},   // a lane of the bridge at (2, 0)
        {"id": 7, "xyz": [0, 0, 1]}               // 3-D boards: any coordinates
      ],
      "links": [["a", "b"], ["b", "c-"], ["a", "c-", "warp"]]
    }

* ``id``: a string or a whole number, unique; ``label``: one of ``A``-``Z``
  ``a``-``z`` ``0``-``9``, on exactly two nodes (an endpoint each);
  ``xy`` / ``xyz``: the node's place (cells; optional, but a text format
  needs ``xy``); ``lane``: the node is the lane of a bridge along that
  axis (``-`` ``|`` ``/`` ``\\``); lanes of one bridge share ``xy``.
* ``links``: pairs of ids; a third element ``"warp"`` marks a link that
  wraps around the board's edge (for drawing; to the solver a link is a link).

A node's id in the puzzle is the ``(line, column)`` of its ``{`` in the
file (``(line, column, axis)`` for a lane, the line and column of its bridge's first lane, so a bridge's
lanes share one cell as in a text board: :func:`_decode` places every object
and array, :func:`_quick_decode` the document and its nodes where that is all a
plain document needs), so solutions and problems point into the JSON text. :func:`write_json_graph` writes this schema from any
puzzle.
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import re

from ..model import FAMILIES, LABELS, Family, Node, Puzzle, lane_angle
from .json_arrays import JsonObject, quick_puzzle
from .neighbor_link import MAX_CELLS
from .problems import Problem, exact_int
from .seams import positioned_scanner
from .sketch import PlacedNode, Sketch, sketch_of, to_puzzle

__all__ = ["analyse_json_graph", "read_json_graph", "write_json_graph", "graph_text", "looks_like_json", "FORMAT_TAG",
           "ON_AXIS", "on_axis", "LANE_SLACK"]

FORMAT_TAG = "flowgraph-graph"
#: The largest coordinate a node may have (either sign).
MAX_COORD = 100_000

class _LongNumber(str):
    """A whole number beyond 2**53 (what JSON readers everywhere hold exactly), kept as its text."""


def _whole_number(text: str) -> int | _LongNumber:
    value = exact_int(text)
    return _LongNumber(text) if value is None else value


class _Arr(list):
    pos: tuple[int, int] = (1, 1)


def _problem(at: tuple[int, int], severity: str, message: str) -> Problem:
    return Problem(at[0], at[1], severity, message)


class _Decoder(json.JSONDecoder):
    """The standard library's decoder, run by its pure-Python scanner so that every object and array
    learns where it starts (the scanner calls ``parse_object``/``parse_array`` with that offset)."""

    def __init__(self, text: str):
        # Numbers are checked where they are used; here they must only not cost time or crash:
        # int() refuses 4,300 digits and more, so long ones stay text, and NaN / Infinity are floats.
        super().__init__(parse_int=_whole_number, parse_constant=float)
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        plain_object, plain_array = self.parse_object, self.parse_array  # type: ignore[has-type]

        def parse_object(s_and_end, *args):
            value, end = plain_object(s_and_end, *args)
            out = JsonObject(value)
            out.pos = self.position(s_and_end[1] - 1)
            return out, end

        def parse_array(s_and_end, *args):
            value, end = plain_array(s_and_end, *args)
            out = _Arr(value)
            out.pos = self.position(s_and_end[1] - 1)
            return out, end

        self.parse_object, self.parse_array = parse_object, parse_array
        self.scan_once = positioned_scanner(self)

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1


#: 16 digits in a row: maybe a whole number past 2**53 (16 digits), which :class:`_Decoder` keeps as text.
_LONG_DIGITS = re.compile(r"\d{16}")
#: A string (skipped) or where an object or array starts.
_STARTS = re.compile(r'"(?:[^"\\]|\\.)*"|[{\[]')


def _decode(text: str) -> object:
    """The document, every object and array knowing where it starts (``pos``) and whole numbers beyond
    2**53 kept as text (:class:`_LongNumber`), as :class:`_Decoder` reads it.

    The standard library's C decoder reads it (a tenth of the pure-Python scanner's time), then the
    objects and arrays are given the places of the ``{`` and ``[`` outside strings, in the file's order (the
    order a walk of the document meets them). Where the C decoder fails (bad JSON: the error is placed
    as the pure-Python scanner places it) or a run of 16 digits could be a number past 2**53,
    :class:`_Decoder` reads it.

    Raises
    ------
    json.JSONDecodeError, RecursionError
        As :class:`_Decoder`.
    """
    import numpy as np

    if _LONG_DIGITS.search(text):
        return _Decoder(text).decode(text)
    try:
        doc = json.loads(text, object_pairs_hook=JsonObject.of_pairs)
    except (ValueError, RecursionError):  # a JSONDecodeError is a ValueError
        return _Decoder(text).decode(text)
    if not isinstance(doc, (dict, list)):
        return doc
    starts = np.array([m.start() for m in _STARTS.finditer(text) if text[m.start()] != '"'], np.int64)
    line_starts = np.array([0, *itertools.accumulate(len(line) + 1 for line in text.split("\n"))][:-1], np.int64)
    lines = np.searchsorted(line_starts, starts, side="right")
    columns = starts - line_starts[lines - 1] + 1
    return _place(doc, zip(lines.tolist(), columns.tolist()))


def _place(value: dict | list, places) -> JsonObject | _Arr:
    """``value`` with every object and array in it placed (the next of ``places`` each, in a walk of the
    document's order, a repeated key's lost value too)."""
    if isinstance(value, JsonObject):
        value.pos = next(places)
        for key, item in value.__dict__.pop("pairs"):
            if isinstance(item, (dict, list)):
                made = _place(item, places)
                if value[key] is item:  # (a repeated key: only the value kept)
                    value[key] = made
        return value
    placed = _Arr(value)
    placed.pos = next(places)
    for i, item in enumerate(value):
        if isinstance(item, (dict, list)):
            placed[i] = _place(item, places)
    return placed


def _quick_decode(text: str) -> JsonObject | None:
    """The document with only itself and its nodes placed, or None where that is not quick to do exactly.

    Most JSON graphs are ASCII with no escape, and their only objects are the document and its nodes.
    For those the places of the ``{`` outside strings (found on the bytes at once: with no escape, a
    ``"`` always opens or closes a string) are the document's and then its nodes', in order, and the
    plain decoder's values are :func:`_decode`'s. The arrays are not placed: a reading that finds
    any problem must be made again from :func:`_decode` to place it (:func:`analyse_json_graph` does).
    None for any other text: not ASCII, an escape, a run of 16 digits, bad JSON, other objects (a
    repeated key that lost one included), or no list of node objects.
    """
    import numpy as np

    if not text.isascii() or "\\" in text:
        return None
    codes = np.frombuffer(text.encode("ascii"), np.uint8)
    digits = np.concatenate([[0], np.cumsum((codes >= ord("0")) & (codes <= ord("9")))])
    if (digits[16:] - digits[:-16] == 16).any():  # (as _LONG_DIGITS, a tenth of its time)
        return None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return None
    nodes = doc.get("nodes") if type(doc) is dict else None
    if type(nodes) is not list or not all(type(node) is dict for node in nodes):
        return None
    opens = np.flatnonzero((codes == ord("{")) & (np.cumsum(codes == ord('"')) & 1 == 0))
    if len(opens) != 1 + len(nodes):
        return None
    line_starts = np.concatenate([[0], np.flatnonzero(codes == ord("\n")) + 1])
    rows = np.searchsorted(line_starts, opens, side="right")
    places = zip(rows.tolist(), (opens - line_starts[rows - 1] + 1).tolist())
    placed = JsonObject(doc)
    placed.pos = next(places)
    placed["nodes"] = made = []
    for node, at in zip(nodes, places):
        obj = JsonObject(node)
        obj.pos = at
        made.append(obj)
    return placed


def looks_like_json(text: str) -> bool:
    """Whether the text starts with ``{``."""
    return text.lstrip().startswith("{")


def analyse_json_graph(text: str, path: str | None = None, family: str | None = None) -> tuple[Puzzle | None, list[Problem]]:
    """Read a JSON graph; the puzzle (None on an error) and every problem, with positions in the JSON text.

    ``family`` is not used: every one-puzzle reader takes it (:class:`flowgraph.io.formats.Format`).
    """
    lines = tuple(text.splitlines())
    quick = _quick_decode(text)
    if quick is not None:  # the common kind: on arrays, else the general reader; with any problem, placed again
        made = quick_puzzle(quick, lines, path, MAX_COORD, MAX_CELLS) or _analyse_doc(quick, lines, path)
        if made[0] is not None and not made[1]:
            return made
    try:
        doc = _decode(text)
    except json.JSONDecodeError as err:
        return None, [Problem(err.lineno, err.colno, "error", f"not valid JSON here: {err.msg}")]
    except RecursionError:
        return None, [Problem(1, 1, "error", "not valid JSON here: nested too deeply")]
    return _analyse_doc(doc, lines, path)


def _analyse_doc(doc: object, lines: tuple[str, ...], path: str | None) -> tuple[Puzzle | None, list[Problem]]:
    """:func:`analyse_json_graph` of a decoded document."""
    if not isinstance(doc, JsonObject):
        return None, [Problem(1, 1, "error", "a JSON graph is an object with \"nodes\" and \"links\"")]
    problems: list[Problem] = []
    family = doc.get("family", "STANDARD")
    if family not in FAMILIES:
        problems.append(_problem(doc.pos, "error", f"unknown family {family!r}: expected one of {', '.join(FAMILIES)}"))
    sketch = Sketch(family if family in FAMILIES else Family.STANDARD)
    keys = _read_nodes(doc, sketch, problems)
    _check_extent(doc, sketch, problems)
    _read_links(doc, sketch, keys, problems)
    if any(p.is_error for p in problems):
        return None, sorted(problems)
    puzzle, more = to_puzzle(sketch, lines, path, "json-graph", doc.pos)
    return puzzle, sorted(problems + more)


def _check_extent(doc: JsonObject, sketch: Sketch, problems: list[Problem]) -> None:
    """The grid the 2-D places span holds at most :data:`MAX_CELLS` places (a text or a picture is that big)."""
    xys = [s.xy for s in sketch.spots.values() if s.xy is not None and len(s.xy) == 2]
    if not xys:
        return
    width = max(x for x, _ in xys) - min(x for x, _ in xys) + 1
    height = max(y for _, y in xys) - min(y for _, y in xys) + 1
    if width * height > MAX_CELLS:
        problems.append(_problem(doc.pos, "error", f"the places span {width:,.0f} x {height:,.0f} cells: a board "
                                 f"spans at most {MAX_CELLS:,}"))


def _read_nodes(doc: JsonObject, sketch: Sketch, problems: list[Problem]) -> dict:
    nodes = doc.get("nodes")
    keys: dict = {}
    if not isinstance(nodes, list):
        problems.append(_problem(doc.pos, "error", "\"nodes\" must be a list of node objects"))
        return keys
    spots = sketch.spots
    bridges: dict[tuple, tuple[int, int]] = {}  # a bridge's place -> the (line, column) its lanes share
    for node in nodes:
        if not isinstance(node, JsonObject):
            problems.append(_problem(getattr(nodes, "pos", doc.pos), "error", "every node is an object"))
            continue
        at = node.pos
        nid = node.get("id")
        if not isinstance(nid, (str, int)) or isinstance(nid, (bool, _LongNumber)):
            problems.append(_problem(at, "error", "a node needs an \"id\": a string or a whole number from -2**53 to "
                                     "2**53"))
            continue
        if nid in keys:
            problems.append(_problem(at, "error", f"node id {nid!r} is used twice"))
            continue
        label = node.get("label")
        if label is not None and (not isinstance(label, str) or label not in LABELS or len(label) != 1):
            problems.append(_problem(at, "error", f"label {label!r} is not one of A-Z a-z 0-9"))
            label = None
        lane = node.get("lane")
        if isinstance(lane, (int, float)) and not isinstance(lane, bool) and 0 <= lane < 180:
            lane = f"{lane:g}"  # an angle written as a number: the same lane as its text
        if lane is not None and lane_angle(lane) is None:
            problems.append(_problem(at, "error", f"lane {lane!r} is not one of - | / \\ nor an angle in degrees "
                                     "from 0 up to 180 (\"60\")"))
            lane = None
        over = node.get("over", False)
        if not isinstance(over, bool) or (over and not lane):
            problems.append(_problem(at, "error", "\"over\" is true or false, on a bridge lane (its pipe drawn over "
                                     "the other lane)"))
            over = False
        if lane and label:
            problems.append(_problem(at, "error", "a bridge lane is never an endpoint"))
        place = node.get("xy", node.get("xyz"))
        if place is not None and not _is_place(place):
            problems.append(_problem(at, "error", f"\"xy\" is [x, y] and \"xyz\" is [x, y, z], numbers from "
                                     f"-{MAX_COORD:,} to {MAX_COORD:,}"))
            place = None
        outline = _outline(node, at, problems)
        name = node.get("name")
        if name is not None and not (isinstance(name, str) and 0 < len(name) <= MAX_NAME_CHARS and name.isprintable()):
            problems.append(_problem(at, "error", f"a cell's \"name\" is text of 1 to {MAX_NAME_CHARS} characters"))
            name = None
        key = at + (lane,) if lane else at
        if lane and place is not None:  # one bridge, one cell: its lanes keyed by the first lane's place in the text
            key = bridges.setdefault(tuple(place), at) + (lane,)
            if key in spots:
                problems.append(_problem(at, "error", f"two {lane!r} lanes at {list(place)}: a bridge has one lane an "
                                         "axis"))
                continue
            near = next((other[2] for other in spots if other[:2] == key[:2] and len(other) == 3
                         and _apart(lane, other[2]) < 2 * LANE_SLACK), None)
            if near is not None:
                problems.append(_problem(at, "error", f"lanes {near!r} and {lane!r} at {list(place)} are "
                                         f"{_apart(lane, near):g} degrees apart: a bridge's lanes are at least "
                                         f"{2 * LANE_SLACK} (each takes the links within {LANE_SLACK} of its axis)"))
                continue
        keys[nid] = key
        spots[key] = PlacedNode(tuple(place) if place is not None else None, label, lane, outline, name, over)
    return keys


#: The most corners a cell's outline may have (a ring's sector drawn round: 2 x 16 corners).
MAX_OUTLINE_POINTS = 256
#: The longest name a cell may have (``ring 12 sector 40``).
MAX_NAME_CHARS = 40


def _outline(node: JsonObject, at: tuple[int, int], problems: list[Problem]) -> tuple | None:
    """A node's ``"outline"``: 3 to :data:`MAX_OUTLINE_POINTS` corners ``[x, y]`` (board units), else a problem."""
    outline = node.get("outline")
    if outline is None:
        return None
    if not (isinstance(outline, list) and 3 <= len(outline) <= MAX_OUTLINE_POINTS
            and all(_is_place(p) and len(p) == 2 for p in outline)):
        problems.append(_problem(at, "error", f"an \"outline\" is a polygon: 3 to {MAX_OUTLINE_POINTS} corners "
                                 f"[x, y], numbers from -{MAX_COORD:,} to {MAX_COORD:,}"))
        return None
    return tuple(tuple(p) for p in outline)


def _is_place(place: object) -> bool:
    """Whether ``place`` is a list of 2 or 3 finite numbers (not booleans) of at most :data:`MAX_COORD` either sign."""
    if not isinstance(place, list) or len(place) not in (2, 3):
        return False
    for v in place:
        kind = type(v)
        if kind is int:  # the common case first: no float() of a long whole number
            if not -MAX_COORD <= v <= MAX_COORD:
                return False
        elif not (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and abs(v) <= MAX_COORD):
            return False
    return True


def _read_links(doc: JsonObject, sketch: Sketch, keys: dict, problems: list[Problem]) -> None:
    links = doc.get("links")
    if not isinstance(links, list):
        problems.append(_problem(doc.pos, "error", "\"links\" must be a list of [id, id] pairs"))
        return
    known = sketch.links
    around = getattr(links, "pos", doc.pos)
    for link in links:
        if not (isinstance(link, list) and len(link) in (2, 3) and (len(link) == 2 or link[2] == "warp")):
            problems.append(_problem(getattr(link, "pos", around), "error", "a link is [id, id] or [id, id, \"warp\"]"))
            continue
        a, b = link[0], link[1]
        u = keys.get(a) if isinstance(a, (str, int)) else None
        v = keys.get(b) if isinstance(b, (str, int)) else None
        if u is None or v is None:
            problems.append(_problem(getattr(link, "pos", around), "error",
                                     f"link to an unknown node id {a if u is None else b!r}"))
            continue
        if u == v:
            problems.append(_problem(getattr(link, "pos", around), "error", "a link joins two different nodes"))
            continue
        off = _off_axis(sketch, u, v) or _off_axis(sketch, v, u)
        if off:
            problems.append(_problem(getattr(link, "pos", around), "error", off))
            continue
        pair = frozenset((u, v))
        if pair in known:
            problems.append(_problem(getattr(link, "pos", around), "warning", "this link repeats an earlier one"))
        known[pair] = len(link) == 3


#: A lane's axis -> whether a link along (dx, dy) runs on it (a warp too: it runs along a row or a column); the
#: shape templates link their bridges by it.
#: Up to a thousandth of the step: a shape's diagonal places are rounded (a cell's side 1, a step of 1/sqrt(2) each
#: way; the templates write places to four decimals, so far from the origin a step's two parts differ by 1e-4).
ON_AXIS = {"-": lambda dx, dy: abs(dy) <= 1e-3 * abs(dx) and dx != 0,
            "|": lambda dx, dy: abs(dx) <= 1e-3 * abs(dy) and dy != 0,
            "/": lambda dx, dy: dx != 0 and abs(dx + dy) <= 1e-3 * abs(dx),
            "\\": lambda dx, dy: dx != 0 and abs(dx - dy) <= 1e-3 * abs(dx)}


#: How far, in degrees, a link may run from an angle lane's axis (``"60"``; the four axes of the text formats
#: take links only on them): a curved band's neighbours lie either side of its tangent.
LANE_SLACK = 25


def _apart(one: str, other: str) -> float:
    """The angle between two lanes' axes, in degrees (0 to 90)."""
    turn = abs((lane_angle(one) or 0.0) - (lane_angle(other) or 0.0)) % 180
    return min(turn, 180 - turn)


def on_axis(lane: str, dx: float, dy: float) -> bool:
    """Whether a link along ``(dx, dy)`` (board units, y down) runs on bridge lane axis ``lane``: exactly (to
    :data:`ON_AXIS`'s thousandth) for the four axes of the text formats, within :data:`LANE_SLACK` degrees for
    an angle (a shape board's crossing of two curved bands: ``"60"``).

    >>> on_axis("-", 1, 0), on_axis("60", 0.5, -0.8), on_axis("60", 1, 0)
    (True, True, False)
    """
    if lane in ON_AXIS:
        return ON_AXIS[lane](dx, dy)
    if dx == dy == 0:
        return False
    heading = math.degrees(math.atan2(-dy, dx)) % 180
    turn = abs(heading - (lane_angle(lane) or 0.0)) % 180
    return min(turn, 180 - turn) <= LANE_SLACK


def _off_axis(sketch: Sketch, lane: Node, other: Node) -> str | None:
    """What is wrong with the link from ``lane`` to ``other`` when ``lane`` is a bridge lane linked off its
    axis (a ``-`` lane to the cell above it, or to the other lane of its bridge); None when it is not.

    A path crosses a bridge straight over: the page that plays a published board, as the game does, tells a
    bridge's lanes apart by the direction a pipe comes in, so a lane linked across the axes would let two
    flows share one lane and a cell stay empty while the page says "Solved!" (issue 71). Nodes without
    a place are not checked (no page draws them)."""
    spot, there = sketch.spots[lane], sketch.spots[other]
    if not spot.lane or spot.xy is None or there.xy is None or len(spot.xy) != len(there.xy):
        return None
    dx, dy = there.xy[0] - spot.xy[0], there.xy[1] - spot.xy[1]
    if on_axis(spot.lane, dx, dy):
        return None
    return (f"a bridge lane {spot.lane!r} at {tuple(spot.xy)} links only along its axis (a path crosses a bridge "
            f"straight over): not to {tuple(there.xy)}{' (its own bridge)' if dx == dy == 0 else ''}")


def read_json_graph(text: str, path: str | None = None) -> Puzzle:
    """Read a JSON graph.

    Raises
    ------
    PuzzleError
        The first error, with its position in the JSON text.
    """
    puzzle, problems = analyse_json_graph(text, path)
    if puzzle is None:
        raise next(p for p in problems if p.is_error).to_error(path)
    return puzzle


def write_json_graph(puzzle: Puzzle) -> str:
    """The puzzle as a JSON graph (any puzzle can be written: nothing is lost).

    Node ids are whole numbers in the order of the puzzle's nodes; one node
    or link per line.
    """
    sketch = sketch_of(puzzle)
    order = sorted(sketch.spots, key=lambda k: (k[0], k[1], k[2:]))
    ids = {key: i for i, key in enumerate(order)}
    nodes = []
    for key in order:
        spot = sketch.spots[key]
        obj: dict = {"id": ids[key]}
        if spot.label:
            obj["label"] = spot.label
        if spot.xy is not None:
            obj["xy" if len(spot.xy) == 2 else "xyz"] = [_number(v) for v in spot.xy]
        if spot.lane:
            obj["lane"] = spot.lane
        if spot.over:
            obj["over"] = True
        if spot.name:
            obj["name"] = spot.name
        if spot.outline:
            obj["outline"] = [[_number(v) for v in p] for p in spot.outline]
        nodes.append(obj)
    links: list[list] = []
    for pair, warp in sorted(sketch.links.items(), key=lambda kv: sorted(ids[k] for k in kv[0])):
        a, b = sorted(ids[k] for k in pair)
        links.append([a, b, "warp"] if warp else [a, b])
    return graph_text(nodes, links, str(sketch.family))


def graph_text(nodes: list[dict], links: list[list], family: str = "STANDARD", shape: str | None = None) -> str:
    """JSON graph text of these nodes and links, one a line (the layout every writer of the format uses).

    Parameters
    ----------
    nodes : list of dict
        Each node's fields (``id``, and any of ``label``, ``xy``, ``lane``, ``name``, ``outline``).
    links : list of list
        ``[a, b]`` or ``[a, b, "warp"]``, by node ids.
    family : str
        The header's family word.
    shape : str, optional
        The board's shape (``ring``, ``star``, ``scanned``...), written after the family.

    >>> print(graph_text([{"id": 0, "label": "A"}, {"id": 1, "label": "A"}], [[0, 1]]), end="")
    {"format": "flowgraph-graph", "version": 1, "family": "STANDARD",
     "nodes": [
      {"id": 0, "label": "A"},
      {"id": 1, "label": "A"}
     ],
     "links": [
      [0, 1]
     ]
    }
    """
    head = f'{{"format": "{FORMAT_TAG}", "version": 1, "family": "{family}"' + \
        (f', "shape": {json.dumps(shape)}' if shape else "") + ",\n"
    return (head + ' "nodes": [\n  ' + ",\n  ".join(json.dumps(node) for node in nodes) + "\n ],\n"
            + ' "links": [\n  ' + ",\n  ".join(json.dumps(link) for link in links) + "\n ]\n}\n")


def _number(v: float) -> float | int:
    return int(v) if float(v).is_integer() else v
