"""puzz.link / pzv.jp Numberlink URLs: read offline, written for square boards.

``https://puzz.link/p?PID/[FLAGS/]W/H/DATA`` (also ``http://pzv.jp/p.html?...``),
parsed as pzprjs parses it (``src/pzpr/parser.js``: the puzzle id runs to
the first ``/`` after ``?``; tokens before the first number are flags).
``numlin`` is Numberlink (Numberlink rules: cells may stay empty); ``arukone``
carries the same data under Flow Free rules unless its flags hold ``e``.

DATA lists the W*H cells row by row, top row first, as pzprjs's
``decodeNumber16`` reads them (``src/variety-common/Encode.js``): ``0``-``9``,
``a``-``f`` one cell holding that hex number; ``-`` and 2 hex digits one cell
holding 16-255; ``+`` and 3 hex digits one cell holding 256-4095; ``.`` a
``?`` clue; ``g``-``z`` that many empty cells (``g`` = 1 ... ``z`` = 20);
other characters are skipped; cells past the end are empty. Equal numbers
are the two endpoints of one flow; the distinct numbers, smallest first,
become the labels ``A``, ``B``, ... Writing is ``encodeNumber16``: so a URL
whose numbers are 1 to k reads and writes back unchanged.

A file may hold many URLs, one per line (``//`` comments and blank lines
skipped): a puzzle each. Like a level's, a URL's board is drawn as
neighbor-link text and parsed, so its node ids are positions in that text;
problems of the URL itself are reported at its line and column.

>>> [entry] = analyse_puzzlink("https://puzz.link/p?numlin/4/4/1h2n1h2", "u.txt")[0]
>>> str(entry.puzzle.rules), [f.label for f in entry.puzzle.flows]
('numberlink', ['A', 'B'])
>>> write_puzzlink(entry.puzzle)
'https://puzz.link/p?numlin/4/4/1h2n1h2'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import ConversionError
from ..model import LABELS, Family, Puzzle, Rules
from .grids import grid_sketch
from .neighbor_link import analyse
from .problems import LineError, Problem, content_lines, iter_content_lines
from .sketch import draw_neighbor_link, sketch_of

__all__ = ["analyse_puzzlink", "write_puzzlink", "looks_like_puzzlink", "is_url", "PIDS", "MAX_URL_CELLS"]

#: Puzzle ids read, and the rules each means (``arukone`` with the flag ``e``: Numberlink rules).
PIDS = {rules.puzzlink: rules for rules in (Rules.NUMBERLINK, Rules.FLOW)}  # numlin: Numberlink, arukone: Flow Free
#: Other names of a puzzle id, as pzprjs reads them (``src/pzpr/variety.js``: ``numlin`` is also ``numberlink``).
ALIASES = {"numberlink": "numlin"}
#: Cells one URL's board may have (checked from W and H first).
MAX_URL_CELLS = 40_000
#: Cells a file of URLs may have altogether.
MAX_FILE_CELLS = 200_000

_URL = re.compile(r"^\s*(?:https?://)?(?:puzz\.link/p|pzv\.jp/p(?:\.html)?)\?(\S*)\s*$")


def is_url(text: str) -> bool:
    """Whether ``text`` (one line) is a puzz.link or pzv.jp puzzle URL."""
    return bool(_URL.match(text))


def looks_like_puzzlink(text: str) -> bool:
    """Whether the first line that is not blank or a ``//`` comment is a puzz.link / pzv.jp URL."""
    first = next((line for _, line in iter_content_lines(text)), "")
    return is_url(first)



@dataclass(frozen=True)
class UrlEntry:
    """One puzzle of a file of URLs: its name and the puzzle (node ids: positions in its drawn text)."""

    name: str
    puzzle: Puzzle
    line: int = 0  #: the line of the file it was read from (1-based)


def analyse_puzzlink(text: str, path: str | None = None) -> tuple[list[UrlEntry], list[Problem]]:
    """Every URL of a text as a puzzle, and the problems of the lines that could not be read.

    Returns
    -------
    entries : list of UrlEntry
        Named ``<stem>`` for a single URL, ``<stem>_<line>`` for several.
    problems : list of Problem
        At the line and column of the URL's field that is wrong.
    """
    stem = (path.rsplit("/", 1)[-1].rsplit(".", 1)[0] if path and not is_url(path) else "puzzle") or "puzzle"
    lines = content_lines(text)
    entries: list[UrlEntry] = []
    problems: list[Problem] = []
    cells = 0
    for no, line in lines:
        try:
            pid, flags, width, height, data, at = _split(line)
            if cells + width * height > MAX_FILE_CELLS:
                problems.append(Problem(no, 1, "error", f"the file has more than {MAX_FILE_CELLS:,} cells: this URL "
                                        "and those below it are not read"))
                break
            cells += width * height
            puzzle = _puzzle(pid, flags, width, height, data, at, path)
        except LineError as bad:
            problems.append(Problem(no, bad.column, "error", bad.message))
            continue
        entries.append(UrlEntry(stem if len(lines) == 1 else f"{stem}_{no}", puzzle, no))
    if not entries and not problems:
        problems.append(Problem(1, 1, "error", "no URL: expected https://puzz.link/p?numlin/W/H/DATA"))
    return entries, problems


def _split(line: str) -> tuple[str, list[str], int, int, str, int]:
    """``(pid, flags, width, height, data, column of data)`` of a URL line."""
    m = _URL.match(line)
    if not m:
        raise LineError(1, "expected a puzz.link or pzv.jp URL: https://puzz.link/p?numlin/W/H/DATA")
    query, start = m.group(1), m.start(1) + 1
    pid, _, rest = query.partition("/")
    pid = ALIASES.get(pid, pid)
    if pid not in PIDS:
        raise LineError(start, f"puzzle {pid!r}: flowgraph reads {', '.join([*PIDS, *ALIASES])} URLs")
    parts = rest.split("/")
    col = start + len(pid) + 1
    flags = []
    while parts and parts[0] and not (parts[0].isascii() and parts[0].isdigit()):
        flags.append(parts[0])
        col += len(parts.pop(0)) + 1
    if len(parts) < 2 or not all(re.fullmatch(r"[0-9]{1,4}", p) for p in parts[:2]):
        raise LineError(col, "expected the width and the height: .../W/H/DATA")
    width, height = int(parts[0]), int(parts[1])
    if not 1 <= width * height <= MAX_URL_CELLS:
        raise LineError(col, f"a {width}x{height} board: a URL's board has 1 to {MAX_URL_CELLS:,} cells")
    data_col = col + len(parts[0]) + len(parts[1]) + 2
    return pid, flags, width, height, "/".join(parts[2:]), data_col


def _decode(data: str, cells: int, at: int) -> list[tuple[int, int]]:
    """``(cell index, number)`` of every number cell (pzprjs ``decodeNumber16``; ``at``: DATA's column)."""
    out = []
    c = i = 0
    while i < len(data) and c < cells:
        ch = data[i]
        if ch in "0123456789abcdef":
            out.append((c, int(ch, 16)))
        elif ch in "-+":
            digits = data[i + 1:i + (3 if ch == "-" else 4)]
            if not re.fullmatch(r"[0-9a-f]{%d}" % (2 if ch == "-" else 3), digits):
                raise LineError(at + i, f"{ch!r} is followed by {2 if ch == '-' else 3} hex digits")
            out.append((c, int(digits, 16)))
            i += len(digits)
        elif ch == ".":
            raise LineError(at + i, "a '?' clue (a number not given): every endpoint needs its number")
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        else:
            c -= 1  # skipped, as pzprjs skips it
        c += 1
        i += 1
    return out


def _puzzle(pid: str, flags: list[str], width: int, height: int, data: str, at: int, path: str | None) -> Puzzle:
    numbers = _decode(data, width * height, at)
    distinct = sorted({n for _, n in numbers})
    if len(distinct) > len(LABELS):
        raise LineError(at, f"{len(distinct)} different numbers: at most {len(LABELS)} flows")
    # Number n is the n-th label, as in numberlink files, so a board written as a URL reads back with its own
    # labels (B and C stay B and C); numbers beyond the labels are given labels in their order.
    fits = bool(distinct) and distinct[0] >= 1 and distinct[-1] <= len(LABELS)
    label = {n: LABELS[n - 1] if fits else LABELS[k] for k, n in enumerate(distinct)}
    number = {v: k for k, v in label.items()}
    cells = {(x, y): "." for y in range(height) for x in range(width)}
    for c, n in numbers:
        cells[c % width, c // width] = label[n]
    sketch, _ = grid_sketch(cells, Family.STANDARD)
    puzzle, problems = analyse(draw_neighbor_link(sketch), path)
    if puzzle is None:
        first = next(p for p in problems if p.is_error)
        message = re.sub(r"label '(.)'", lambda m: f"number {number[m.group(1)]}", first.message)
        raise LineError(at, f"the board is not a puzzle: {message.replace('each label', 'each number')}")
    rules = Rules.NUMBERLINK if any("e" in flag for flag in flags) else PIDS[pid]  # "e": cells may stay empty
    return replace(puzzle, rules=rules)  # node ids are positions in the drawn neighbor-link text, as for a level


def write_puzzlink(puzzle: Puzzle) -> str:
    """The puzzle as a puzz.link URL: ``numlin`` under Numberlink rules, ``arukone`` under Flow Free rules.

    Labels become numbers in label order (``A`` = 1). pzprjs's
    ``encodeNumber16``: a number below 16 as one hex digit, below 256 as
    ``-`` and two, runs of empty cells as ``g`` (1) to ``z`` (20).

    Raises
    ------
    ConversionError
        The board is not a full square grid a URL can carry: a hole, a
        wall, a warp, a bridge, a hex or irregular board.
    """
    sketch = sketch_of(puzzle)
    places: dict[tuple[int, int], str] = {}
    xy_of: dict = {}
    for key, spot in sketch.spots.items():
        if spot.lane:
            raise ConversionError("a puzz.link URL has no bridges")
        if spot.xy is None or len(spot.xy) != 2 or any(v != int(v) for v in spot.xy):
            raise ConversionError(f"the node at {key[0]}:{key[1]} has no place on a square grid")
        xy_of[key] = (int(spot.xy[0]), int(spot.xy[1]))
        places[xy_of[key]] = spot.label or "."
    x0, y0 = min(x for x, _ in places), min(y for _, y in places)
    width = max(x for x, _ in places) - x0 + 1
    height = max(y for _, y in places) - y0 + 1
    if len(places) != width * height:
        raise ConversionError(f"a puzz.link URL has no holes: {width * height - len(places)} of the {width}x{height} "
                              "places are not cells")
    if any(sketch.links.values()):
        raise ConversionError("a puzz.link URL has no warps")
    links = {frozenset((xy_of[u], xy_of[v])) for u, v in sketch.links}
    grid = {frozenset(((x, y), n)) for x, y in places for n in ((x + 1, y), (x, y + 1)) if n in places}
    if links != grid:
        what = "a diagonal link" if links - grid else f"a wall between {sorted(next(iter(grid - links)))}"
        raise ConversionError(f"a puzz.link URL links every cell to its 4 neighbours: this board has {what}")
    numbers = {label: LABELS.index(label) + 1 for label in sorted({f.label for f in puzzle.flows}, key=LABELS.index)}
    out, count = [], 0
    for y in range(y0, y0 + height):
        for x in range(x0, x0 + width):
            ch = places[x, y]
            if ch == ".":
                count += 1
                if count == 20:
                    out.append("z")
                    count = 0
                continue
            if count:
                out.append(_base36(count + 15))
                count = 0
            n = numbers[ch]
            out.append(format(n, "x") if n < 16 else "-" + format(n, "02x"))
    if count:
        out.append(_base36(count + 15))
    pid = puzzle.rules.puzzlink
    return f"https://puzz.link/p?{pid}/{width}/{height}/{''.join(out)}"


def _base36(n: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n]
