"""What a batch runs: one :class:`Job` per puzzle, read on the machine that starts the batch.

Only a job's text travels to a worker (no shared file system is assumed), so
files are read here: folders become their ``*.txt`` files, a level pack
becomes one job per level, a file that cannot be read becomes a job that
reports it. Nothing here raises for bad input.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..io.problems import Problem, content_lines
from ..model import DEFAULT_MEMORY_BYTES, Puzzle

__all__ = ["Job", "expand_jobs", "puzzle_files", "EmptyFolderError"]


@dataclass(frozen=True)
class Job:
    """One puzzle of a batch.

    Attributes
    ----------
    key : str
        Unique in the batch and stable between runs (``--resume`` skips the
        keys the output holds): the file name, ``PACK#N`` for level ``N`` of a
        level pack, ``seed:S`` for a generated puzzle.
    name : str
        What rows and messages call it (the file name, or ``PACK#N``).
    data : bytes or None
        The puzzle's text.
    error : str or None
        Why the file could not be read (then ``data`` is None).
    at : (int, int)
        Where in the file ``error`` is (``(1, 1)``: a file that cannot be read
        at all, a level the pack does not hold).
    line : int
        The line of ``source`` where ``data`` begins: a level pack's level is
        its one line, read by the worker, its problems at the pack's lines.
    source : str or None
        The file the problems' lines are in (a level's pack), when not ``name``.
    """

    key: str
    name: str
    data: bytes | None = None
    error: str | None = None
    at: tuple[int, int] = (1, 1)
    line: int = 1
    source: str | None = None

    @property
    def where(self) -> str:
        """The file its problems' ``LINE:COLUMN`` are in."""
        return self.source or self.name

    @property
    def digest(self) -> str:
        """A hash of what the job reads (its text, or why it could not be read): ``--resume`` reruns a changed file."""
        return hashlib.sha256(self.data if self.data is not None else (self.error or "").encode()).hexdigest()[:16]

    def read(self, memory_bytes: int | None = DEFAULT_MEMORY_BYTES) -> tuple[Puzzle | None, list[Problem]]:
        """The job's puzzle and problems (:func:`flowgraph.io.files.load` of its text; lines in :attr:`where`)."""
        from ..io.files import load

        if self.data is None:
            return None, [self.error_problem()] if self.error else []
        return load(self.name, self.data, memory_bytes=memory_bytes, line=self.line)

    def error_problem(self) -> Problem:
        """``error`` as a problem at ``at`` (for a job that could not be read)."""
        return Problem(self.at[0], self.at[1], "error", self.error or "")


class EmptyFolderError(ValueError):
    """A folder given as input holds no puzzle file of any format."""


def puzzle_files(paths: Iterable[str], empty: list[str] | None = None) -> list[str]:
    """Files as given (missing ones too: they become rows); folders become their puzzle files, recursively, in
    name order with numbers by value (``_2`` before ``_10``).

    A folder's puzzle files are those with the suffix of a format flowgraph
    reads (``.txt``, ``.grid``, ``.nl``, ``.json``, ``.pack``), not what
    flowgraph writes beside them (:data:`~flowgraph.io.files.WRITTEN_BESIDE`);
    one that is no regular file (a FIFO) is listed too, and is its row.

    Parameters
    ----------
    empty : list of str, optional
        Receives each folder that holds no puzzle file; without it, such a folder is an error.

    Raises
    ------
    EmptyFolderError
        A folder holds no such file and ``empty`` is None.
    """
    from ..io.files import WRITTEN_BESIDE, natural_key
    from ..io.formats import FORMATS

    suffixes = {fmt.suffix for fmt in FORMATS.values()}
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted((f for f in path.rglob("*") if f.suffix in suffixes and not f.name.endswith(WRITTEN_BESIDE)
                            and not f.is_dir()), key=lambda f: natural_key(str(f)))
            if not found and empty is None:
                raise EmptyFolderError(f"{p} is a folder with no puzzle files ({', '.join(sorted(suffixes))})")
            if not found and empty is not None:
                empty.append(p)
            out.extend(str(f) for f in found)
        else:
            out.append(p)
    return out


def expand_jobs(paths: Iterable[str], stdin: bytes | None = None) -> list[Job]:
    """The jobs of a batch's inputs, in input order.

    Parameters
    ----------
    paths : iterable of str
        Files, folders (their ``*.txt`` files), level packs (a job per
        level) and ``PACK#N`` (its N-th level alone, from 1); ``-`` is standard input, given as ``stdin``.
    stdin : bytes, optional

    Returns
    -------
    list of Job
        A level pack gives a job per level line (its worker reads it, and
        reports a line that does not read); an unreadable file gives a job
        that reports it.

    A folder with no puzzle file is a job that reports it (the batch carries on).
    """
    jobs: list[Job] = []
    from ..io.files import level_ref, read_bounded
    from ..io.formats import FORMATS
    from ..io.puzzlink import is_url

    suffixes = ", ".join(sorted({fmt.suffix for fmt in FORMATS.values()}))
    for path, empty in _inputs(paths):
        if empty:  # a folder with no puzzle file: its row, where it stood; the batch carries on
            jobs.append(Job(path, path, None, f"a folder with no puzzle files ({suffixes})"))
            continue
        if path == "-":
            jobs.append(Job("-", "-", stdin or b""))
            continue
        if is_url(path):  # a puzz.link URL is its own text: read offline
            jobs.append(Job(path, path, path.encode()))
            continue
        level = level_ref(path)
        source = level[0] if level else path
        try:
            data = read_bounded(source)
        except OSError as err:
            jobs.append(Job(path, path, None, f"cannot read file: {err.strerror or err}"))
            continue
        every = _pack_levels(source, data)
        if level is None:
            jobs.extend(every or [Job(path, path, data)])
            continue
        levels = [job for job in every if job.key.startswith(f"{source}#")] or [Job(f"{source}#1", path, data)]
        picked = [job for job in levels if job.key == path]
        held = f"{len(levels)} puzzle" + ("" if len(levels) == 1 else "s")
        jobs.extend(picked or [Job(path, path, None, f"{source} holds {held}: there is no #{level[1]}")])
    return jobs


def _inputs(paths: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """``(path, False)`` for each of :func:`puzzle_files` of each input in turn; ``(folder, True)``, in its place,
    for a folder with none."""
    for p in paths:
        empty: list[str] = []
        found = puzzle_files([p], empty)
        yield from ((f, False) for f in found) if not empty else [(p, True)]


def _pack_levels(path: str, data: bytes) -> list[Job]:
    """A job per level when ``data`` is a Flow Free level pack, per URL for a file of URLs; [] otherwise."""
    from ..io.files import read_text
    from ..io.formats import format_for

    text, _ = read_text(data)
    if text is None or not text.strip():
        return []
    fmt = format_for(path, text, grid_by_content=False)
    if fmt == "puzzlink":  # each job carries its URL: the worker reads it with its rules
        lines = [line.strip() for _, line in content_lines(text)]
        if len(lines) == 1:
            return []
        return [Job(f"{path}#{i}", f"{path}#{i}", line.encode()) for i, line in enumerate(lines, 1)]
    if fmt != "level-pack":
        return []
    # A job per level line, read by the worker (a full parse of every level here took 3.7 ms a level before any
    # work began); PACK#N is the N-th level line, whatever becomes of the lines before it, and its problems are
    # at the pack's own lines (PACK:LINE:COLUMN, as convert reports them).
    return [Job(f"{path}#{n}", f"{path}#{n}", (line + "\n").encode(), line=no, source=path)
            for n, (no, line) in enumerate(content_lines(text), 1)]
