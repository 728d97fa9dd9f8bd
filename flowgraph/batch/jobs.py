"""What a batch runs: one :class:`Job` per puzzle, read on the machine that starts the batch.

Only a job's text travels to a worker (no shared file system is assumed), so
files are read here: folders become their ``*.txt`` files, a level pack
becomes one job per level, a file that cannot be read becomes a job that
reports it. Nothing here raises for bad input.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..io.problems import Problem
from ..model import DEFAULT_MEMORY_BYTES, Puzzle

__all__ = ["Job", "Jobs", "expand_jobs", "puzzle_files", "EmptyFolderError"]


@dataclass(frozen=True, slots=True)
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
        """Make a read error a problem.

        ``error`` as a problem at ``at`` (for a job that could not be read)."""
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
    from ..io.files import WRITTEN_BESIDE, files_under, natural_key
    from ..io.formats import FORMATS

    suffixes = {fmt.suffix for fmt in FORMATS.values()}
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):  # (False for a name too long or unreadable: the file's read says what)
            found = sorted((f for f in files_under(p) if f.suffix in suffixes and not f.name.endswith(WRITTEN_BESIDE)),
                           key=lambda f: natural_key(str(f)))
            if not found and empty is None:
                raise EmptyFolderError(f"{p} is a folder with no puzzle files ({', '.join(sorted(suffixes))})")
            if not found and empty is not None:
                empty.append(p)
            out.extend(str(f) for f in found)
        else:
            out.append(p)
    return out


class Jobs:
    """The jobs of a batch's inputs, counted when made and read one file at a time as they are iterated.

    A batch of any size holds one input file at a time (at most
    :data:`~flowgraph.io.files.MAX_BYTES`), never every puzzle's text: the
    count (``len``) comes from a first pass that reads each file and keeps
    only how many jobs it gives; iterating reads each again and yields its
    jobs (a level pack's lines one by one). Folders are listed once, here.

    Parameters
    ----------
    paths : iterable of str
        Files, folders (their puzzle files, :func:`puzzle_files`), level
        packs (a job per level line) and ``PACK#N`` (its N-th level alone,
        from 1); ``-`` is standard input, given as ``stdin``.
    stdin : bytes, optional

    Notes
    -----
    A file changed between the two passes gives the jobs it holds when
    iterated (each job's :attr:`Job.digest` is of what is sent); only the
    count said beforehand is off.
    """

    def __init__(self, paths: Iterable[str], stdin: bytes | None = None):
        self._inputs = list(_inputs(paths))
        self._stdin = stdin
        self._count = sum(_count(path, empty) for path, empty in self._inputs)

    def __len__(self) -> int:
        return self._count

    @property
    def paths(self) -> list[str]:
        """The input files, folders' files listed (a level pack once, not per level)."""
        return [path for path, _ in self._inputs]

    def __iter__(self) -> Iterator[Job]:
        for path, empty in self._inputs:
            yield from _jobs_of(path, empty, self._stdin)


def expand_jobs(paths: Iterable[str], stdin: bytes | None = None) -> list[Job]:
    """The jobs of a batch's inputs, in input order, as a list (:class:`Jobs` holds them one file at a time).

    Parameters
    ----------
    paths : iterable of str
        As :class:`Jobs`.
    stdin : bytes, optional

    Returns
    -------
    list of Job
        A level pack gives a job per level line (its worker reads it, and
        reports a line that does not read); an unreadable file gives a job
        that reports it; a folder with no puzzle file, a job that reports it
        (the batch carries on).
    """
    return list(Jobs(paths, stdin))


def _count(path: str, empty: bool) -> int:
    """How many jobs :func:`_jobs_of` makes of ``path`` (one, but a pack's or a URL file's lines)."""
    from ..io.files import level_ref, read_bounded
    from ..io.puzzlink import is_url

    if empty or path == "-" or is_url(path) or level_ref(path):
        return 1
    try:
        data = read_bounded(path)
    except OSError:
        return 1
    from ..io.files import puzzle_lines

    return len(puzzle_lines(path, data)[1]) or 1


def _jobs_of(path: str, empty: bool, stdin: bytes | None) -> Iterator[Job]:
    """The jobs of one input (:func:`_inputs`)."""
    from ..io.files import level_ref, read_bounded
    from ..io.formats import FORMATS
    from ..io.puzzlink import is_url

    if empty:  # a folder with no puzzle file: its row, where it stood; the batch carries on
        suffixes = ", ".join(sorted({fmt.suffix for fmt in FORMATS.values()}))
        yield Job(path, path, None, f"a folder with no puzzle files ({suffixes})")
        return
    if path == "-":
        yield Job("-", "-", stdin or b"")
        return
    if is_url(path):  # a puzz.link URL is its own text: read offline
        yield Job(path, path, path.encode())
        return
    level = level_ref(path)
    source = level[0] if level else path
    try:
        data = read_bounded(source)
    except OSError as err:
        yield Job(path, path, None, f"cannot read file: {err.strerror or err}")
        return
    if level is None:
        shown = False
        for job in _pack_levels(source, data):
            shown = True
            yield job
        if not shown:
            yield Job(path, path, data)
        return
    count = 0
    for job in _pack_levels(source, data):
        count += 1
        if job.key == path:
            yield job
            return
    held = f"{count or 1} puzzle" + ("" if count == 1 or not count else "s")
    if not count and level[1] == 1:  # a file of one puzzle is its own #1
        yield Job(f"{source}#1", path, data)
        return
    yield Job(path, path, None, f"{source} holds {held}: there is no #{level[1]}")


def _inputs(paths: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """``(path, False)`` for each of :func:`puzzle_files` of each input in turn; ``(folder, True)``, in its place,
    for a folder with none."""
    for p in paths:
        empty: list[str] = []
        found = puzzle_files([p], empty)
        yield from ((f, False) for f in found) if not empty else [(p, True)]


def _pack_levels(path: str, data: bytes) -> Iterator[Job]:
    """A job per level when ``data`` is a Flow Free level pack, per URL for a file of URLs; none otherwise.

    A level is its line, read by the worker (a full parse of every level here made a large pack wait before any
    work began); PACK#N is the N-th level line, whatever becomes of the lines before it, and its problems are
    at the pack's own lines (PACK:LINE:COLUMN, as convert reports them). A URL carries the worker's rules.
    """
    from ..io.files import level_key, puzzle_lines

    urls, lines = puzzle_lines(path, data)
    for n, (no, line) in enumerate(lines, 1):
        key = level_key(path, n)
        if urls:  # a URL is its own source
            yield Job(key, key, line.encode())
        else:
            yield Job(key, key, (line + "\n").encode(), line=no, source=path)
