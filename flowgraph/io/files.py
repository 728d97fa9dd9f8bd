"""Puzzle files: bytes to text within the limits, files to puzzles."""

from __future__ import annotations

from pathlib import Path

from ..model import Puzzle
from .neighbor_link import BOM, analyse
from .problems import Problem
from .puzzlink import is_url

__all__ = ["read_text", "load", "parse_file", "MAX_BYTES"]


#: Files larger than this are refused before parsing (bytes).
MAX_BYTES = 4_000_000



def read_text(data: bytes) -> tuple[str | None, list[Problem]]:
    """Decode a puzzle file's bytes as UTF-8, within the size limit.

    Parameters
    ----------
    data : bytes

    Returns
    -------
    text : str or None
        None when the bytes cannot be read as a puzzle.
    problems : list of Problem
        The reason when ``text`` is None, else empty.
    """
    if len(data) > MAX_BYTES:
        return None, [Problem(1, 1, "error", f"file is {len(data):,} bytes; the limit is {MAX_BYTES:,}")]
    try:
        return data.decode("utf-8").removeprefix(BOM), []
    except UnicodeDecodeError as err:
        before = data[: err.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        return None, [Problem(line, column, "error", "invalid UTF-8 (a puzzle file is UTF-8 text)")]



def load(path: str | Path, data: bytes | None = None, fmt: str | None = None
         ) -> tuple[Puzzle | None, list[Problem]]:
    """Read, decode and analyse a puzzle file; never raises for bad input.

    Parameters
    ----------
    path : str or Path
        The file name (also used in the puzzle and its errors).
    data : bytes, optional
        The file's content when already read (standard input, say).
    fmt : str, optional
        A name of :data:`flowgraph.io.formats.FORMATS`. By default a file
        is neighbor-link unless it clearly is another format: JSON (it
        starts with ``{``), numberlink (``W H`` first), a level pack, or a
        plain grid named ``*.grid``.

    Returns
    -------
    puzzle : Puzzle or None
        None when the file cannot be read or has an error (a level pack,
        which holds many puzzles, is one: convert it first).
    problems : list of Problem
        Every error and warning, in file order.
    """
    from .formats import format_for, read_entries  # the formats import this module's limits

    if data is None and is_url(str(path)):  # a puzz.link URL given as the "file": its own text, read offline
        data = str(path).encode("utf-8")
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError as err:
            return None, [Problem(1, 1, "error", f"cannot read file: {err.strerror or err}")]
    text, problems = read_text(data)
    if text is None:
        return None, problems
    if fmt is None and text.strip():
        fmt = format_for(str(path), text, grid_by_content=False)
    if fmt in (None, "neighbor-link"):
        return analyse(text, str(path))
    fmt, entries, problems = read_entries(text, str(path), fmt)
    if fmt in ("level-pack", "puzzlink") and len(entries) != 1:
        if problems:
            return None, problems
        return None, [Problem(1, 1, "error", f"{path} holds {len(entries)} puzzles: write them to files "
                              f"with 'flowgraph convert {path} -o DIR' first")]
    return (entries[0].puzzle if entries else None), problems



def parse_file(path: str | Path) -> Puzzle:
    """Read and parse a puzzle file.

    Raises
    ------
    PuzzleError
        The file cannot be read, is not UTF-8, is too large, or has an error.
    """
    puzzle, problems = load(path)
    if puzzle is None:
        raise next(p for p in problems if p.severity == "error").to_error(str(path))
    return puzzle
