"""A level pack, or a folder of puzzles, published as one HTML page that plays every level offline.

The page is one self-contained file: the boards as SVG, each board's graph
(:func:`play_board`), and the studio's own play code (``static/game.js``, the
rules of play, and ``static/player.js``, the page around them) inlined. It
needs no server, no network and no token: it can be opened from ``file://``,
mailed, or hosted anywhere. It ships no solution: "Solved!" is checked in
the page from the puzzle's own graph (every flow joined, every cell and
bridge lane filled under Flow Free rules; Numberlink's rules let cells stay
empty). Progress is kept in the browser's storage.

Its Content-Security-Policy allows only its own two scripts and its style
(by their SHA-256) and pictures given inline: the page cannot load or send
anything, whatever a level's name says.

>>> from flowgraph import parse_text
>>> page = publish([("first", parse_text("STANDARD\\nA-.-A\\n"))], "tiny")
>>> page.startswith("<!doctype html>") and "connect-src" not in page and "'none'" in page
True
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from html import escape
from pathlib import Path

from ..errors import ConversionError
from ..model import Puzzle
from ..render.scene import THEMES, flow_colour_name, flow_ink, shade

__all__ = ["MAX_PAGE_CELLS", "MAX_PAGE_LEVELS", "PLAYABLE_CELLS", "play_board", "publish", "slow_note"]

#: The most levels one page holds (a pack of the game holds 150; a folder may hold more).
MAX_PAGE_LEVELS = 10_000
#: The most cells all the levels of one page hold together (the boards' drawings weigh ~0.42 kB a cell: a page of at most ~45 MB).
MAX_PAGE_CELLS = 100_000

#: The largest board a page plays without lag: its drawing is one SVG element a cell and more, and the browser's
#: hit testing walks them at every pointer move. Measured in Chromium on open boards (docs/benchmarks.md,
#: "Published pages of large boards", ``python bench/page_play.py``): 100x100 loads in 1.0-1.5 s and answers a
#: drag step in 110-160 ms, 150x150 in 2-3 s and 240-400 ms, 240x240 in 8 s and 750-880 ms.
PLAYABLE_CELLS = 10_000

STATIC = Path(__file__).parent / "static"


def slow_note(levels: Sequence[tuple[str, Puzzle]]) -> str | None:
    """What a page of ``levels`` says at publish time when some board is over :data:`PLAYABLE_CELLS` cells (it
    loads and plays, slowly), else None."""
    slow = [(name, puzzle.cells) for name, puzzle in levels if puzzle.cells > PLAYABLE_CELLS]
    if not slow:
        return None
    name, cells = max(slow, key=lambda item: item[1])
    more = f" and {len(slow) - 1:,} more" if len(slow) > 1 else ""
    return (f"note: {name}{more} has {cells:,} cells: a page plays boards of up to {PLAYABLE_CELLS:,} cells "
            "without lag (100x100); a larger one loads for seconds and lags at each move (240x240: 8 s to load, "
            "0.8 s a move)")
_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def play_board(puzzle: Puzzle, theme: str = "dark") -> dict:
    """What a player needs of a board, as ``static/game.js`` reads it.

    Parameters
    ----------
    puzzle : Puzzle
    theme : {"dark", "light"}
        The theme whose flow colours the pipes take.

    Returns
    -------
    dict
        ``{endpoints: [{cell, label}], links: [[cell, cell, axis, warp(, [lane, lane])]], bridges: [cell],
        over: [[line, column, axis]],
        colours: {label: "#rrggbb"},
        rims: {label: "#rrggbb"}, shades: {label: "#rrggbb"}, gap: "#rrggbb", names: {label: str}, cells, rules,
        fills_every_cell}``: a cell is ``[line, column]`` (a bridge's two lanes share theirs), ``axis`` the lane axis
        of the bridge a link enters or ``""`` (where a link joins two bridges' lanes of different axes, a fifth
        item gives each end's), ``warp`` whether the link wraps round the board's edge (the page
        draws its pipe off one edge and on at the other), ``rims`` a darker edge for the colours close to the
        background, ``shades`` each colour in the shadow of a bridge's deck (its ``|`` lane runs under, as render
        draws it) and ``gap`` the edge of the ``-`` lane over it, ``over`` the lanes whose pipes pass over their bridge
        (:meth:`~flowgraph.model.Drawing.passes_over`), ``names`` what players call each colour ("red"),
        ``cells`` every cell and bridge lane a solution fills.
    """
    ink = THEMES[theme]
    links = []
    for u, v, data in puzzle.graph.edges(data=True):
        axis = u[2] if len(u) == 3 else v[2] if len(v) == 3 else ""
        link = [[u[0], u[1]], [v[0], v[1]], axis, bool(data.get("warp"))]
        if len(u) == len(v) == 3 and u[2] != v[2]:  # two bridges' lanes at their own angles (a shape's crossing)
            link.append([u[2], v[2]])
        links.append(link)
    return {"endpoints": [{"cell": [end[0], end[1]], "label": f.label} for f in puzzle.flows for end in f.ends],
            "links": links,
            "bridges": sorted(map(list, {(n[0], n[1]) for n in puzzle.graph if len(n) == 3})),
            "over": sorted([n[0], n[1], n[2]] for n in puzzle.graph if len(n) == 3 and puzzle.drawing.passes_over(n)),
            "colours": {f.label: _hex(flow_ink(f.label, ink)[0]) for f in puzzle.flows},
            "rims": {f.label: _hex(rim) for f in puzzle.flows if (rim := flow_ink(f.label, ink)[1]) is not None},
            "shades": {f.label: _hex(shade(flow_ink(f.label, ink)[0], ink)) for f in puzzle.flows}, "gap": _hex(ink["rim"]),
            "names": {f.label: flow_colour_name(f.label) for f in puzzle.flows},
            "cells": puzzle.cells, "rules": str(puzzle.rules), "fills_every_cell": puzzle.rules.fills_every_cell}


def _level(name: str, puzzle: Puzzle, theme: str) -> dict:
    from ..io.formats import write
    from ..render.svg import svg

    try:  # the level's key (its progress in the browser): its text, a JSON graph where no text draws it (a shape)
        board_text = write(puzzle, "neighbor-link")
    except ConversionError:
        board_text = write(puzzle, "json-graph")
    try:
        drawing = svg(puzzle, theme=theme)
    except ConversionError as exc:
        raise ConversionError(f"{name}: a page draws every board: {exc}") from None
    return {"name": name, "key": hashlib.sha256(board_text.encode()).hexdigest()[:20],
            "flows": len(puzzle.flows), "svg": drawing, "board": play_board(puzzle, theme)}


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def publish(levels: Sequence[tuple[str, Puzzle]], title: str, theme: str = "dark") -> str:
    """One HTML page that plays ``levels`` in order, with no server and no network.

    Parameters
    ----------
    levels : sequence of (name, Puzzle)
        The levels in the order they are played (a pack's order; a folder's in natural order of names).
    title : str
        The page's title (a pack's file name, say): shown as text, never as markup.
    theme : {"dark", "light"}

    Returns
    -------
    str
        The page: ``<!doctype html>…``, UTF-8.

    Raises
    ------
    ConversionError
        No level, more than :data:`MAX_PAGE_LEVELS` levels or :data:`MAX_PAGE_CELLS` cells together, or a board
        with no 2-D drawing (a JSON graph without positions).
    """
    if not levels:
        raise ConversionError("no level to publish")
    if len(levels) > MAX_PAGE_LEVELS:
        raise ConversionError(f"{len(levels):,} levels: a page holds at most {MAX_PAGE_LEVELS:,}")
    cells = sum(p.cells for _, p in levels)
    if cells > MAX_PAGE_CELLS:
        raise ConversionError(f"{cells:,} cells in all: a page holds at most {MAX_PAGE_CELLS:,}; publish fewer levels")
    from ..io.files import shown_name

    title = shown_name(title)  # (a folder's name need not be UTF-8: the page is)
    data = {"title": title, "levels": [_level(shown_name(name), puzzle, theme) for name, puzzle in levels]}
    # a data block, never run; <, > and & escaped (as Django's json_script) so no name or drawing can end it early
    blob = json.dumps(data, separators=(",", ":")).translate(_SCRIPT_SAFE)
    scripts = [(STATIC / "game.js").read_text(encoding="utf-8"), (STATIC / "player.js").read_text(encoding="utf-8")]
    style = (STATIC / "player.css").read_text(encoding="utf-8")
    policy = (f"default-src 'none'; script-src {' '.join(map(_sha256, scripts))}; style-src {_sha256(style)}; "
              "img-src data:; base-uri 'none'; form-action 'none'")
    return "\n".join([
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
        f"<title>{escape(title)}</title>",
        f'<link rel="icon" href="{_ICON}">',
        f"<style>{style}</style>",
        "</head>",
        "<body>",
        _BODY.format(title=escape(title), total=len(levels)),
        f'<script type="application/json" id="levels">{blob}</script>',
        *(f"<script>{script}</script>" for script in scripts),
        "</body>",
        "</html>",
        "",
    ])


_ICON = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cpath d='M3 3v10h10' "
         "fill='none' stroke='%23e33' stroke-width='3' stroke-linecap='round'/%3E%3C/svg%3E")

# The page around the board: the level (n of N, a list to jump), moves, time, Undo, Restart; the board fills the rest.
_BODY = """<header>
  <button id="prev" aria-label="the level before">◀</button>
  <label class="level"><span class="title">{title}</span>
    <select id="level" aria-label="level"></select> <span id="of">of {total}</span></label>
  <button id="next" aria-label="the next level">▶</button>
</header>
<div class="bar" aria-live="polite">
  <span id="score"></span>
  <button id="undo" title="Ctrl+Z or U">Undo</button>
  <button id="restart" title="R">Restart</button>
</div>
<main id="board" tabindex="0" aria-label="the board: drag from a dot, or arrows and Enter"></main>
<div id="solved" hidden role="status"><strong>Solved!</strong> <span id="figures"></span>
  <button id="solved-next">next level ▶</button></div>
<p id="help">Join the dots of each colour; pipes may not cross<span id="fills"> and every cell is filled</span>.
  Drag from a dot (back over a pipe shortens it).<span class="keys"> Keys: arrows, Enter picks up or drops, ] and [ the
  next dot or turn the last step, U undo, R restart. Made with flowgraph.</span></p>"""
