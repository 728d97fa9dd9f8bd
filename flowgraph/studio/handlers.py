"""What the studio's web page asks for, as plain functions over JSON-able values.

Each function is a thin call into the library; :mod:`.app` maps them to
HTTP. Puzzle text may be in any format :mod:`flowgraph.io.formats` reads.
A function raises :class:`BadRequest` (HTTP 400) for a request that is not
well formed and :class:`Unprocessable` (HTTP 422, with the problems) for
puzzle text that cannot be used; nothing else is expected. A hint from the
player's board is :mod:`.hints`'; what each request costs in memory, :mod:`.costs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..authoring.generate import GenerationError, bridged_board
from ..authoring.generate import generate as generate_puzzle
from ..authoring.solved import write_solved
from ..authoring.templates import board
from ..authoring.uniqueness import count_solutions, differing_cells
from ..budgets import STUDIO_GENERATE_SECONDS, STUDIO_SOLVE_SECONDS
from ..errors import ConversionError, SearchLimitError, UnsolvableError
from ..io.formats import MANY, format_names, read_entries, write
from ..io.neighbor_link import draft
from ..io.problems import Problem
from ..io.solution_json import path_nodes
from ..model import FAMILY_NAMES, RULES, Family, Limits, Puzzle, Rules, Solution
from ..verification import verify
from .publish import play_board, publish, slow_note

__all__ = ["BadRequest", "Unprocessable", "check", "render", "count", "new", "generate", "convert", "verify_paths",
           "edit_board", "levels", "constants", "MAX_TIME_LIMIT_S", "MAX_LEVELS_SHOWN", "picture_refusal", "drawn_places",
           "svg_of"]

#: The longest solve, count, hint or generation a request may ask for (seconds).
MAX_TIME_LIMIT_S = 120.0
#: Levels in one answer of /api/levels: a page of the level browser.
MAX_LEVELS_SHOWN = 48
#: Cells of the largest level that gets a thumbnail (48 of them would be megabytes).
MAX_THUMBNAIL_CELLS = 2_500
#: The largest board the studio draws and lets a player play (cells): a larger one is checked, not drawn (a
#: 200x200 URL's answer was 21 MB of SVG and links).
MAX_PICTURE_CELLS = 10_000
#: Text longer than this (characters) that is not a valid board is not drawn as a draft either.
MAX_DRAFT_CHARS = 200_000
_FAMILIES = FAMILY_NAMES


class BadRequest(ValueError):
    """The request is not well formed (HTTP 400)."""


class Unprocessable(ValueError):
    """The puzzle text cannot be used (HTTP 422); ``problems`` says why."""

    def __init__(self, message: str, problems: Sequence[Problem] = ()):
        super().__init__(message)
        self.problems = list(problems)


def _str(body: dict, key: str, default: str | None = None) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise BadRequest(f"{key!r} must be a string")
    return value


def int_field(body: dict, key: str, default: int, low: int, high: int) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"{key!r} must be a whole number from {low} to {high}")
    return value


def seconds_field(body: dict, default: float = STUDIO_SOLVE_SECONDS) -> float:
    value = body.get("time_limit_s", default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_TIME_LIMIT_S:
        raise BadRequest(f"'time_limit_s' must be a number of seconds above 0, at most {MAX_TIME_LIMIT_S:g}")
    return float(value)


def _rules(body: dict) -> str | None:
    rules = body.get("rules")
    if rules is not None and rules not in RULES:
        raise BadRequest(f"'rules' is one of {', '.join(RULES)}")
    return rules


def _entries(body: dict, name: str) -> tuple[str, list, list[Problem], str | None]:
    """``read_entries`` of the body's ``text`` in its ``format`` (if given), and the ``rules`` it asks for."""
    fmt = body.get("format")
    if fmt is not None and fmt not in format_names():
        raise BadRequest(f"unknown format {fmt!r}: expected one of {', '.join(format_names())}")
    text, rules = _str(body, "text"), _rules(body)
    return (*read_entries(text, name, fmt), rules)


def _read(body: dict) -> tuple[Puzzle | None, list[Problem], str]:
    fmt, entries, problems, rules = _entries(body, "board")
    if fmt in MANY and len(entries) > 1:
        raise Unprocessable(f"this {fmt} text holds {len(entries)} puzzles: open one", problems)
    return (entries[0].puzzle.with_rules(rules) if entries else None), problems, fmt


def puzzle_of(body: dict) -> Puzzle:
    puzzle, problems, _ = _read(body)
    if puzzle is None:
        raise Unprocessable("the puzzle has errors", problems)
    return puzzle


def _problems(problems: list[Problem]) -> list[dict]:
    return [p.to_json() for p in problems]


def picture_refusal(puzzle: Puzzle) -> str | None:
    """Say why the studio will not draw a board, if it will not.

    Why the studio does not draw ``puzzle``, or None: over :data:`MAX_PICTURE_CELLS` cells, or places that span
    a grid of more than :func:`drawn_places` places (two nodes of a JSON graph far apart were weighed as a few
    cells and drew a picture of gigabytes). A picture costs what its extent does, so its extent is
    what is bounded, as ``render`` bounds pixels. A shape board (cells with outlines) may span more than its
    cells (linked loops round wide holes): up to what the largest board the studio draws may span, which costs
    no more."""
    if puzzle.cells > MAX_PICTURE_CELLS:
        return f"{puzzle.cells:,} cells: the studio draws boards of at most {MAX_PICTURE_CELLS:,}"
    xys = [xy for xy in puzzle.places.values() if xy is not None and len(xy) == 2]
    if xys:
        span = (max(x for x, _ in xys) - min(x for x, _ in xys) + 1) * (max(y for _, y in xys) - min(y for _, y in xys) + 1)
        most = drawn_places(MAX_PICTURE_CELLS if puzzle.drawing.outlines else puzzle.cells)
        if span > most:
            return (f"its places span {span:,.0f} places for {puzzle.cells:,} cells: the studio draws a board whose "
                    f"places span at most {most:,} (flowgraph render draws it)")
    return None


def drawn_places(cells: int) -> int:
    """The most places a board of ``cells`` cells may span to be drawn by the studio: holes and a hexagonal
    layout's offsets leave places empty, not many more than its cells."""
    return 2 * cells + 64


def svg_of(board_or_solution, theme: str = "dark", labels: bool = False, paths: dict | None = None,
         ghosts: bool = False) -> str | None:
    """The board or solution as the studio draws it (rulers on), None where it has no 2-D drawing or the
    studio does not draw it (:func:`picture_refusal`)."""
    from ..render.svg import svg

    puzzle = board_or_solution.puzzle if isinstance(board_or_solution, Solution) else board_or_solution
    if picture_refusal(puzzle) is not None:
        return None

    try:  # the rows and columns numbered: the hints name cells by them
        return svg(board_or_solution, theme=theme, labels=labels, paths=paths, ghosts=ghosts, rulers=True)
    except ConversionError:
        return None  # a board with no 2-D drawing


def constants() -> dict:
    """What the page must agree on with the server: ``{labels, families, rules, formats, max_time_limit_s,
    build_note}`` (``rules``: ``{name, display_name, fills_every_cell}`` each; ``build_note``: what the search's
    first build on a machine takes, :data:`flowgraph.kernels.cache.BUILD_NOTE`).

    The page reads these instead of keeping copies.
    """
    from ..kernels.cache import BUILD_NOTE
    from ..model import LABELS

    rules = [{"name": r.value, "display_name": r.display_name, "fills_every_cell": r.fills_every_cell} for r in Rules]
    return {"labels": LABELS, "families": list(_FAMILIES), "rules": rules, "formats": format_names(),
            "max_time_limit_s": MAX_TIME_LIMIT_S, "build_note": BUILD_NOTE.split(" (", 1)[1].rstrip(")")}


def check(body: dict) -> dict:
    """Answer ``POST /api/check``: check a board.

    ``{text, format?, rules?}`` -> ``{valid, blank, format, problems, rules, family, width, height, flows, cells,
    svg}`` and, for a valid board, what a player needs of it (:func:`.publish.play_board`): what ``validate`` says,
    and the board; ``blank``: invalid only for having no endpoints yet."""
    puzzle, problems, fmt = _read(body)
    out: dict[str, Any] = {"valid": puzzle is not None, "format": fmt, "problems": _problems(problems)}
    errors = [p for p in problems if p.is_error]
    # a board with nothing wrong but no endpoints yet (a new board): the page greets it, it does not scold it
    out["blank"] = bool(errors) and all(p.message.startswith("the board has no flows") for p in errors)
    refused = picture_refusal(puzzle) if puzzle is not None else None
    if puzzle is not None and refused is not None:
        out.update(_shape(puzzle))
        out.update(rules=puzzle.rules, flows=len(puzzle.flows), cells=puzzle.cells, svg=None, links=[], endpoints=[],
                   colours={}, rims={}, bridges=[], picture=refused)
    elif puzzle is not None:
        out.update(_shape(puzzle))
        out.update(flows=len(puzzle.flows), svg=svg_of(puzzle, theme_field(body), bool(body.get("labels")), ghosts=True),
                   **play_board(puzzle, theme_field(body)))  # (its rules and cells too)
    elif len(body["text"]) <= MAX_DRAFT_CHARS:
        board_draft = draft(body["text"], fmt)  # an editor draws the board while it is still wrong
        if board_draft is not None:
            out["svg"] = svg_of(board_draft, theme_field(body), bool(body.get("labels")), ghosts=True)
    return out


def _shape(puzzle: Puzzle) -> dict:
    """``{family, width, height}`` of the board, so the page's controls follow the board shown."""
    places = [xy for xy in puzzle.places.values() if xy is not None]
    return {"family": (puzzle.family or Family.STANDARD).lower(),
            "width": int(max((x for x, _ in places), default=0)) + 1,
            "height": int(max((y for _, y in places), default=0)) + 1}


def cell_json(node) -> list[int]:
    """A node as ``[line, column]``: the API's one form of a position (a bridge's two lanes share theirs)."""
    return [node[0], node[1]]


#: The largest line or column number a request may name (beyond any board the studio reads).
MAX_POSITION = 10**9


def nodes_of(puzzle: Puzzle, positions: list) -> tuple:
    """A path of ``[line, column]`` positions as graph nodes (:func:`~flowgraph.io.solution_json.path_nodes`).

    Raises BadRequest for a position that is not two whole numbers, or not a cell of the board.
    """
    places = []
    for pos in positions:
        if not (isinstance(pos, list) and len(pos) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_POSITION for v in pos)):
            raise BadRequest(f"a path position is [line, column], not {pos!r:.40}")  # repr: JSON-safe
        places.append((pos[0], pos[1]))
    nodes = path_nodes(puzzle, places)
    for node in nodes:
        if node not in puzzle.graph:
            raise BadRequest(f"a path position is a cell of the board, not [{node[0]}, {node[1]}]")
    return nodes


def edit_board(body: dict) -> dict:
    """Answer ``POST /api/edit``: edit a board.

    ``{text, action, xy?, to?, index?}`` -> ``{text}``: one structural edit (:func:`.edit.edit`)."""
    from .edit import EditError, edit

    text = _str(body, "text")
    action = _str(body, "action")
    try:
        return {"text": edit(text, action, xy=_xy(body.get("xy")), to=_xy(body.get("to")), index=body.get("index"))}
    except EditError as exc:
        raise Unprocessable(str(exc)) from None


def _xy(value):
    if value is None:
        return None
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in value)):
        raise BadRequest("a place is [x, y], two whole numbers")
    return tuple(value)


def player_names(puzzle: Puzzle):
    """How the studio's words name a board's cells and flows to a player: cells as the board's rulers number them
    (``r3c5``), flows by colour (``the red pipe``): :class:`flowgraph.verification.Names`."""
    from ..io.sketch import cell_namer
    from ..render.scene import flow_colour_name
    from ..verification import Names

    return Names(cell=cell_namer(puzzle), pipe=lambda label: f"the {flow_colour_name(label)} pipe",
                 flow=lambda label: f"the {flow_colour_name(label)} flow")


def verify_paths(body: dict) -> dict:
    """Answer ``POST /api/verify``: check a player's paths.

    ``{text, paths: {label: [[line, column], ...]}}`` -> ``{solved, problems}``: a player's paths, checked by the
    verifier (a bridge's lane follows from the direction the path crosses it); the problems name cells and flows
    as :func:`player_names` does."""
    from ..verification import check as check_solution

    puzzle = puzzle_of(body)
    paths = body.get("paths")
    if not isinstance(paths, dict) or not all(isinstance(v, list) for v in paths.values()):
        raise BadRequest("'paths' maps labels to lists of [line, column] positions")
    solution = Solution(puzzle, {label: nodes_of(puzzle, path) for label, path in paths.items()}, "player")
    problems = check_solution(solution, player_names(puzzle))
    return {"solved": not problems, "problems": problems[:5]}


def theme_field(body: dict) -> str:
    theme = body.get("theme", "dark")
    if theme not in ("dark", "light"):
        raise BadRequest("'theme' is dark or light")
    return theme


def limits_of(body: dict) -> Limits:
    """A request's budget for ``auto``: its ``time_limit_s``, the search first on small boards (the studio
    loads the search when it starts)."""
    return Limits(time_limit_s=seconds_field(body), search_first=True)


def render(body: dict) -> dict:
    """Answer ``POST /api/render``: draw a board or its solution.

    ``{text, paths?, solution?, cell_px?, theme?, labels?, png?}`` -> ``{svg}`` (or ``{png}``, base64).

    The board, with ``paths`` drawn if given, or its solution (``solution``: true, found by
    ``auto`` within ``time_limit_s``; 422 when there is none); ``cell_px`` (8 to 96, default 40)
    sets the size. A template (neighbor-link text with no flows yet, or any text that is not a
    valid board but still draws) is drawn as it stands.
    """
    from ..engines import solve_puzzle

    puzzle, problems, fmt = _read(body)
    refused = picture_refusal(puzzle) if puzzle is not None else None
    if refused is not None:
        raise Unprocessable(refused)
    if puzzle is None:
        board_draft = draft(body["text"], fmt) if len(body["text"]) <= MAX_DRAFT_CHARS else None
        if board_draft is None or body.get("paths") or body.get("solution"):
            raise Unprocessable("the text is not a board: fix its problems first", problems)
        board_or_solution: Puzzle | Solution = board_draft
        paths = None
    else:
        board_or_solution = puzzle
        paths = _paths(puzzle, body["paths"]) if body.get("paths") is not None else None
        if body.get("solution"):
            try:
                board_or_solution = verify(solve_puzzle(puzzle, "auto", limits_of(body)))
            except (UnsolvableError, SearchLimitError) as exc:
                raise Unprocessable(f"no solution to draw: {exc}") from None
    cell_px = int_field(body, "cell_px", 40, 8, 96)
    theme, labels = theme_field(body), bool(body.get("labels"))
    if body.get("png"):
        import base64

        from ..render.raster import png

        try:
            data = png(board_or_solution, paths=paths, theme=theme, labels=labels, cell_px=cell_px)
        except ConversionError as exc:
            raise Unprocessable(str(exc)) from None
        return {"png": base64.b64encode(data).decode("ascii")}
    from ..render.svg import svg

    try:
        return {"svg": svg(board_or_solution, paths=paths, theme=theme, labels=labels, cell_px=cell_px)}
    except ConversionError as exc:
        raise Unprocessable(str(exc)) from None


def _paths(puzzle: Puzzle, paths: Any) -> dict:
    """``{label: [[line, column(, axis)], ...]}`` from the page, as node lists (unknown nodes refused)."""
    if not isinstance(paths, dict):
        raise BadRequest("'paths' maps labels to lists of [line, column] positions")
    out = {}
    for label, path in paths.items():
        if label not in {f.label for f in puzzle.flows} or not isinstance(path, list):
            raise BadRequest(f"'paths': no flow {label!r}, or not a list")
        nodes = [tuple(p) for p in path if isinstance(p, list)]
        if len(nodes) != len(path) or any(n not in puzzle.graph for n in nodes):
            raise BadRequest(f"'paths': flow {label!r} names a node that is not on the board")
        out[label] = nodes
    return out


def count(body: dict) -> dict:
    """Answer ``POST /api/count``: count a board's solutions.

    ``{text, time_limit_s?}`` -> ``{verdict, solutions, differ, svgs}``: unique / multiple / none / limit.

    For "multiple": ``differ`` the ``[line, column]`` of the cells two solutions fill differently
    and ``svgs`` the two solutions drawn (none for a board over 10,000 cells)."""
    puzzle = puzzle_of(body)
    result = count_solutions(puzzle, 2, Limits(time_limit_s=seconds_field(body)))
    differ, svgs = [], []
    if result.verdict == "multiple":
        differ = sorted(map(list, differing_cells(*result.solutions[:2])))
        if puzzle.cells <= MAX_THUMBNAIL_CELLS * 4:
            svgs = [svg_of(solution, theme_field(body)) for solution in result.solutions[:2]]
    return {"verdict": result.verdict, "solutions": result.count, "differ": differ, "svgs": svgs}


def new(body: dict) -> dict:
    """Answer ``POST /api/new``: make a template.

    ``{family, width, height, wrap?}`` -> ``{text}``: a template."""
    family = _str(body, "family", "standard")
    if family not in _FAMILIES:
        raise BadRequest(f"'family' is one of {', '.join(_FAMILIES)}")
    wrap = body.get("wrap")
    try:
        return {"text": board(family, int_field(body, "width", 5, 1, 60), int_field(body, "height", 5, 1, 60),
                              wrap=wrap).text()}
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def generate(body: dict) -> dict:
    """Answer ``POST /api/generate``: generate a puzzle.

    ``{family, width, height, seed?, bridges?, rules?, time_limit_s?}`` -> ``{text, figures}``: a puzzle unique
    under ``rules`` (default ``flow``)."""
    family = _str(body, "family", "standard")
    if family not in _FAMILIES:
        raise BadRequest(f"'family' is one of {', '.join(_FAMILIES)}")
    width, height = int_field(body, "width", 7, 2, 30), int_field(body, "height", 7, 2, 30)
    seed = body.get("seed", 0)
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise BadRequest("'seed' is a whole number or a string")
    try:
        shape = bridged_board(family, width, height, seed=seed,
                              bridges=int_field(body, "bridges", 1 if Family.of(family).bridged else 0, 0, 20))
        made = generate_puzzle(shape, seed=seed, time_limit_s=seconds_field(body, STUDIO_GENERATE_SECONDS),
                               rules=_rules(body) or "flow")
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    except GenerationError as exc:
        raise Unprocessable(str(exc)) from None
    return {"text": made.text, "figures": made.figures}


def levels(body: dict) -> dict:
    """Answer ``POST /api/levels``: read a pack's levels.

    ``{text, name?, format?, rules?, offset?, count?}`` -> ``{format, total, offset, levels, problems}``: a pack's levels.

    Any text of a format that holds many puzzles (a level pack, a file of puzz.link URLs) or
    one puzzle. ``levels`` holds ``count`` (at most :data:`MAX_LEVELS_SHOWN`) from ``offset``:
    each ``{index, name, text, rules, family, width, height, flows, cells, svg}``, ``text``
    its neighbor-link text to edit and ``svg`` a thumbnail (None for a board with no drawing or
    more than :data:`MAX_THUMBNAIL_CELLS` cells).
    """
    name = _str(body, "name", "pack")[:200]
    if not name.isprintable():  # (a lone surrogate is not: it could not be sent back as JSON)
        raise BadRequest("'name' is a file name: printable text")  # it names every level in the answer
    fmt, entries, problems, rules = _entries(body, name)
    offset = int_field(body, "offset", 0, 0, max(0, len(entries) - 1))
    count = int_field(body, "count", MAX_LEVELS_SHOWN, 1, MAX_LEVELS_SHOWN)
    shown = []
    for index, entry in enumerate(entries[offset:offset + count], offset):
        puzzle = entry.puzzle.with_rules(rules)
        try:
            board_text = write(puzzle, "neighbor-link")
        except ValueError:
            continue  # (every board read has a neighbor-link text; kept from a 500 all the same)
        shown.append({"index": index, "name": entry.name, "text": board_text, "rules": puzzle.rules, **_shape(puzzle),
                      "flows": len(puzzle.flows), "cells": puzzle.cells,
                      "svg": svg_of(puzzle, theme_field(body)) if puzzle.cells <= MAX_THUMBNAIL_CELLS else None})
    return {"format": fmt, "total": len(entries), "offset": offset, "levels": shown, "problems": _problems(problems)}


def convert(body: dict) -> dict:
    """Answer ``POST /api/convert``: convert a board to another format.

    ``{text, format?, rules?, to}`` -> ``{text, rules}`` in the target format (422 where it cannot express the
    board); ``rules`` are the source's (a puzz.link ``numlin`` URL: ``numberlink``), which neighbor-link text cannot say.
    ``to: "html"`` is the board as a page anyone can open and play (:func:`.publish.publish`): what the studio's
    Share gives a friend."""
    puzzle = puzzle_of(body)
    target = _str(body, "to", "neighbor-link")
    if target == "html":
        try:
            page = publish([("board", puzzle)], "a Flow Free board")
            return {"text": page, "rules": puzzle.rules, "note": slow_note([("the board", puzzle)])}
        except ConversionError as exc:
            raise Unprocessable(str(exc)) from None
    try:
        return {"text": write_solved(puzzle, target, limits_of(body)), "rules": puzzle.rules}
    except ValueError as exc:  # unknown or read-only format, or ConversionError
        raise Unprocessable(str(exc)) from None


def scan_picture(body: dict) -> dict:
    """``{image}`` (base64 PNG/JPEG/...) -> ``{text, valid, summary}``: a screenshot read by :func:`flowgraph.scan.scan`.

    422 with the scanner's message when no board is found (or OpenCV is missing).
    """
    import base64
    import binascii

    from ..errors import ScanError

    try:
        data = base64.b64decode(_str(body, "image"), validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest("'image' must be a picture in base64") from None
    from ..scan import read_board

    try:
        found = read_board(data, "screenshot")
    except ScanError as exc:
        raise Unprocessable(exc.message) from None
    return {"text": found.text, "valid": found.puzzle is not None, "summary": found.summary}
