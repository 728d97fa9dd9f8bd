"""Puzzle files: bytes to text within the limits, files to puzzles."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..model import DEFAULT_MEMORY_BYTES, Puzzle
from .footprint import cells_bound, over_budget, reading_bytes
from .neighbor_link import BOM, analyse
from .problems import Problem, whole_number
from .puzzlink import is_url

__all__ = ["read_text", "puzzle_lines", "files_under", "shown_name", "picture_kind", "read_bounded", "read_stdin",
           "describe_size", "load", "parse_file", "MAX_BYTES", "ReadError", "WriteError", "write_atomic", "writing", "level_key",
           "split_level_key", "level_ref"]


#: Files larger than this are refused before parsing (bytes).
MAX_BYTES = 4_000_000


class ReadError(OSError):
    """A path that is not read: not a regular file, or over its size limit (an ``OSError``, so a caller that
    reports "cannot read file: ..." reports these the same way; ``strerror`` is the one-line reason)."""


class WriteError(OSError):
    """An output that could not be written; ``str()`` is one line naming the destination and the OS's reason."""

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


@contextlib.contextmanager
def writing(path: str | Path) -> Iterator[None]:
    """Turn an ``OSError`` raised inside into a :class:`WriteError` naming ``path`` (an output's one line)."""
    try:
        yield
    except WriteError:
        raise
    except OSError as exc:
        raise WriteError(exc.errno or errno.EIO, exc.strerror or str(exc), str(path)) from None


def write_atomic(path: str | Path, data: bytes | str | Iterable[bytes], *, like: os.stat_result | None = None,
                 replace_special: bool = False) -> None:
    """Write ``data`` to ``path`` whole or not at all.

    A regular file (or a new one) is written under a temporary name in the
    same folder and renamed over ``path``, so a full disk or an interrupt
    leaves the old file (or none), never half of the new one; a symlink at
    ``path`` is replaced, never written through. The file keeps the mode and,
    where this process may give it, the owner of ``like`` (default: of the
    file it replaces; a new file gets ``0666`` less the umask). Anything else
    at ``path`` (a device such as ``/dev/stdout``, a FIFO) is written in place
    and never replaced, unless ``replace_special``.

    Parameters
    ----------
    path : str or Path
    data : bytes, str or iterable of bytes
        Text is written as UTF-8; an iterable's pieces one after another
        (a large file written without holding it).
    like : os.stat_result, optional
        Whose mode and owner the file gets (the studio's FILE.bak takes FILE's).
    replace_special : bool
        Replace a device or FIFO at ``path`` too, as any other file.

    Raises
    ------
    WriteError
        The folder or the device cannot be written (no space, read-only,
        no permission); nothing is left behind.
    """
    import tempfile

    pieces = [data.encode("utf-8")] if isinstance(data, str) else [data] if isinstance(data, bytes) else data
    target = Path(path)
    with writing(path):
        try:
            info = os.stat(target)
        except FileNotFoundError:
            info = None
        if info is not None and not stat.S_ISREG(info.st_mode) and not replace_special:
            with open(target, "wb") as fh:
                fh.writelines(pieces)
            return
        like = like or (info if info is not None and stat.S_ISREG(info.st_mode) else None)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.writelines(pieces)
            if like is None:
                mask = os.umask(0)
                os.umask(mask)
                os.chmod(tmp, 0o666 & ~mask)  # the usual mode of a new file, not mkstemp's 0600
            else:
                os.chmod(tmp, stat.S_IMODE(like.st_mode))
                if hasattr(os, "chown"):
                    with contextlib.suppress(PermissionError):  # not ours to give away: keep this process's
                        os.chown(tmp, like.st_uid, like.st_gid)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def describe_size(size: int) -> str:
    """A byte count as a person reads it: ``4 MB``, ``2.1 GB``, ``512 bytes`` (powers of 1,000)."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value == int(value) or value >= 100 else f"{value:.1f} {unit}"
    return f"{size} bytes"


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def read_bounded(path: str | Path, limit: int = MAX_BYTES, *, follow_symlinks: bool = True,
                 dir_fd: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, refused before reading when it is another kind or over ``limit``.

    The file is opened without blocking (a FIFO with no writer answers at
    once), checked on the open descriptor (so a swap after a check is
    seen), and read to at most ``limit + 1`` bytes, so a file that grows
    after the check still costs at most ``limit`` bytes of memory.

    Parameters
    ----------
    path : str or Path
    limit : int
        The largest size read, in bytes.
    follow_symlinks : bool
        False: a symlink at ``path`` is refused (``ELOOP``), as the studio
        does for its FILE.
    dir_fd : int, optional
        ``path`` is a name in the folder open as this descriptor (the studio holds FILE's folder so).

    Returns
    -------
    bytes
        At most ``limit`` bytes.

    Raises
    ------
    ReadError
        ``path`` is a folder, FIFO, device or socket (``not a regular file (a FIFO)``), or over ``limit``
        (``2.1 GB is over the 4 MB limit``); an ``OSError`` subclass.
    OSError
        The file cannot be opened (missing, no permission, a symlink where none is followed).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, dir_fd=dir_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "another kind of file")
            raise ReadError(errno.EINVAL, f"not a regular file ({kind})", str(path))
        if info.st_size > limit:
            raise ReadError(errno.EFBIG, f"{describe_size(info.st_size)} is over the {describe_size(limit)} limit",
                            str(path))
        with os.fdopen(os.dup(fd), "rb", buffering=0) as fh:
            data = _read_at_most(fh, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew after the check
        raise ReadError(errno.EFBIG, f"more than {describe_size(limit)}: over the limit", str(path))
    return data


def read_stdin(limit: int = MAX_BYTES) -> bytes:
    """Standard input's bytes, at most ``limit + 1`` of them read.

    One byte more than ``limit`` is kept so that :func:`read_text` refuses
    the input as over the limit, with the caller's usual problem line.
    """
    return _read_at_most(sys.stdin.buffer, limit + 1)


def _read_at_most(fh, size: int) -> bytes:
    chunks, got = [], 0
    while got < size:
        chunk = fh.read(min(size - got, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)



def bounded_text(data: bytes, memory_bytes: int | None = DEFAULT_MEMORY_BYTES) -> tuple[str | None, list[Problem]]:
    """:func:`read_text`, then the memory its boards would take (:func:`.budget.cells_bound` cells) against
    ``memory_bytes`` (None: no bound): the text, or None and the reason at 1:1, before anything is parsed."""
    text, problems = read_text(data)
    if text is None:
        return None, problems
    cells = cells_bound(text)
    refused = over_budget(reading_bytes(cells), memory_bytes, cells)
    if refused is not None:
        return None, [Problem(1, 1, "error", refused)]
    return text, problems


#: The first bytes of the picture formats a user may hand a command by mistake (a screenshot), and their names.
PICTURE_MAGIC = ((b"\x89PNG\r\n\x1a\n", "PNG"), (b"\xff\xd8\xff", "JPEG"), (b"GIF87a", "GIF"), (b"GIF89a", "GIF"),
                 (b"BM", "BMP"), (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"))


def picture_kind(data: bytes) -> str | None:
    r"""The picture format whose signature ``data`` starts with (``"PNG"``, ``"JPEG"``, ...), or None.

    >>> picture_kind(b"\x89PNG\r\n\x1a\n..."), picture_kind(b"STANDARD\n")
    ('PNG', None)
    """
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    # (BMP's two letters alone could open a text: its header's size field must hold the file's length too)
    for magic, name in PICTURE_MAGIC:
        if data.startswith(magic) and (name != "BMP" or int.from_bytes(data[2:6], "little") == len(data)):
            return name
    return None


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
        return None, [Problem(1, 1, "error", f"over the {describe_size(MAX_BYTES)} limit ({MAX_BYTES:,} bytes)")]
    picture = picture_kind(data)
    if picture is not None:
        return None, [Problem(1, 1, "error", f"a {picture} picture, not a puzzle file: flowgraph scan FILE reads a "
                                             "screenshot of the game")]
    try:
        return data.decode("utf-8").removeprefix(BOM), []
    except UnicodeDecodeError as err:
        before = data[: err.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        return None, [Problem(line, column, "error", "invalid UTF-8 (a puzzle file is UTF-8 text)")]



def load(path: str | Path, data: bytes | None = None, fmt: str | None = None, *,
         memory_bytes: int | None = DEFAULT_MEMORY_BYTES, line: int = 1) -> tuple[Puzzle | None, list[Problem]]:
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
    memory_bytes : int or None
        The memory reading may take (bytes; ``--memory-limit``, 1 GiB by
        default; None: no bound): a text whose boards would take more
        (:func:`flowgraph.io.footprint.cells_bound` cells at
        :data:`~flowgraph.io.footprint.READ_BYTES_PER_CELL`) is an error at 1:1,
        found before anything is parsed.
    line : int
        The line of its file where ``data`` begins (a level pack's level line,
        read alone): the problems are given at the file's lines.

    Returns
    -------
    puzzle : Puzzle or None
        None when the file cannot be read or has an error (a level pack,
        which holds many puzzles, is one: convert it first).
    problems : list of Problem
        Every error and warning, in file order.
    """
    from .formats import MANY, format_for, read_entries  # the formats import this module's limits

    if data is None and is_url(str(path)):  # a puzz.link URL given as the "file": its own text, read offline
        data = str(path).encode("utf-8")
    level = level_ref(path) if data is None else None  # PACK#N: level N of a pack
    if data is None:
        try:
            data = read_bounded(level[0] if level else path)
        except OSError as err:
            return None, [Problem(1, 1, "error", f"cannot read file: {err.strerror or err}")]
    if line != 1:
        puzzle, problems = load(path, data, fmt, memory_bytes=memory_bytes)
        return puzzle, [dataclasses.replace(p, line=p.line + line - 1) for p in problems]
    text, problems = bounded_text(data, memory_bytes)
    if text is None:
        return None, problems
    if level is not None:
        return _pick_level(text, *level)
    if fmt is None and text.strip():
        fmt = format_for(str(path), text, grid_by_content=False)
    if fmt in (None, "neighbor-link"):
        return analyse(text, str(path))
    fmt, entries, problems = read_entries(text, str(path), fmt)
    if fmt in MANY and len(entries) != 1:
        if problems:
            return None, problems
        return None, [Problem(1, 1, "error", f"{path} holds {len(entries)} puzzles: write them to files "
                              f"with 'flowgraph convert {path} -o DIR' first")]
    return (entries[0].puzzle if entries else None), problems



#: What flowgraph writes beside the puzzles of a folder (``convert -o DIR --solutions``): never read as a puzzle.
WRITTEN_BESIDE = (".solution.json",)


def natural_key(name: str) -> tuple:
    """Sort key that orders the numbers in names by value: ``pack_2`` before ``pack_10`` (a level pack's levels
    written to a folder come back in level order).

    Examples
    --------
    >>> sorted(["p_10.txt", "p_2.txt", "p_1.txt"], key=natural_key)
    ['p_1.txt', 'p_2.txt', 'p_10.txt']
    """
    # a run of digits compares by its value, read as (length, digits) without leading zeros: int() of 4,300
    # digits and more raises, and str.isdigit takes "²", which int() refuses
    return tuple((0, len(part.lstrip("0")), part.lstrip("0"), part) if i % 2 else (1, 0, "", part)
                 for i, part in enumerate(re.split(r"([0-9]+)", name)))


def shown_name(name: str | os.PathLike) -> str:
    """A file's name as text any page, reply or terminal holds: a name's bytes that are not UTF-8 (which
    ``os.fsdecode`` keeps as lone surrogates, and no encoder writes) shown as U+FFFD.

    >>> shown_name(os.fsdecode(b"pack\\xff.txt"))
    'pack\ufffd.txt'
    """
    return os.fspath(name).encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def files_under(folder: str | Path) -> Iterator[Path]:
    """Every entry under ``folder`` that is not a folder, at any depth, in no set order.

    A folder's walk keeps its own stack (pathlib's ``rglob`` and ``os.walk`` recurse, and a folder nested a
    thousand deep raised ``RecursionError``); a link to a folder is not followed (a loop of links ends no
    walk), as ``rglob`` does not; a folder that cannot be read is passed over, as ``rglob`` does.
    """
    stack = [os.fspath(folder)]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as entries:
                found = list(entries)
        except OSError:  # unreadable, gone, or a name too long: nothing to list
            continue
        for entry in found:
            try:
                is_dir = entry.is_dir()
                linked = is_dir and entry.is_symlink()
            except OSError:
                continue
            if not is_dir:
                yield Path(entry.path)
            elif not linked:
                stack.append(entry.path)


def puzzle_lines(path: str, data: bytes) -> tuple[bool, list[tuple[int, str]]]:
    """The puzzle lines of a file that holds one puzzle a line: a level pack, or a file of several URLs.

    Returns
    -------
    urls : bool
        Whether the lines are URLs (each its own source), not a level pack's levels.
    lines : list of (int, str)
        ``(line number, line)`` of each puzzle line, from 1; none for a file of one puzzle.
    """
    from .formats import format_for
    from .problems import content_lines

    text, _ = read_text(data)
    if text is None or not text.strip():
        return False, []
    fmt = format_for(path, text, grid_by_content=False)
    if fmt == "puzzlink":
        lines = [(no, line.strip()) for no, line in content_lines(text)]
        return (True, lines) if len(lines) > 1 else (False, [])
    return False, (list(content_lines(text)) if fmt == "level-pack" else [])


def level_key(path: str | Path, number: int) -> str:
    """Name the N-th puzzle of a file.

    ``FILE#N``: how every command names the N-th puzzle of a file (a level pack, a file of URLs), N from 1.

    >>> level_key("packs/classic.txt", 3)
    'packs/classic.txt#3'
    """
    return f"{path}#{number}"


def split_level_key(name: str | Path) -> tuple[str, int | None]:
    """Split a level's name into its file and number.

    ``(FILE, N)`` for a name written as :func:`level_key` writes it (the last ``#`` and up to 9 digits), else
    ``(name, None)``; by the text alone (:func:`level_ref` also asks the file system). The one reader of the
    syntax.

    >>> split_level_key("a#b/pack.txt#12"), split_level_key("notes#draft.txt")
    (('a#b/pack.txt', 12), ('notes#draft.txt', None))
    """
    text = str(name)
    base, sep, number = text.rpartition("#")
    value = whole_number(number, 999_999_999) if sep else None
    if value is None:
        return text, None
    return base, value


def level_ref(path: str | Path) -> tuple[str, int] | None:
    """Find which file and level a ``FILE#N`` name means.

    ``(FILE, N)`` when ``path`` is ``FILE#N`` (:func:`split_level_key`), the N-th puzzle of a file that exists
    (a level pack or a file of puzz.link URLs; N from 1), and no file of that very name exists; None otherwise."""
    base, number = split_level_key(path)
    if number is None or Path(str(path)).exists() or not Path(base).is_file():
        return None
    return base, number


def _pick_level(text: str, base: str, number: int) -> tuple[Puzzle | None, list[Problem]]:
    """The ``number``-th puzzle of the text of file ``base`` (:func:`level_ref`), its problems in the file's terms."""
    from .formats import MANY, format_for, numbered, read_entries

    fmt, entries, problems = read_entries(text, base, format_for(base, text, grid_by_content=False))
    if fmt not in MANY:  # one puzzle: #1 is the file itself
        return (entries[0].puzzle, problems) if number == 1 and entries else \
            (None, problems or [Problem(1, 1, "error", f"{base} holds 1 puzzle: there is no #{number}")])
    lines = numbered(text, entries, problems)
    for n, line, entry, problem in lines:  # N is the N-th puzzle line, whatever became of the lines before it
        if n == number and entry is not None:
            return entry.puzzle, [p for p in problems if not p.is_error and p.line == line]
        if n == number:
            return None, [problem] if problem else []
    if any(n == 0 for n, *_ in lines):  # the file as a whole cannot be read
        return None, [p for n, _, _, p in lines if n == 0 and p is not None]
    most = max((n for n, *_ in lines), default=0)
    held = f"{most} puzzle" + ("" if most == 1 else "s")
    return None, [Problem(1, 1, "error", f"{base} holds {held}: there is no #{number}")]


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
