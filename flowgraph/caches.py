"""Where flowgraph keeps its caches, and the one rule for loading anything from them.

Two things are cached between runs, both under :func:`cache_root`: the search's
compiled passes (:mod:`flowgraph.kernels.cache`) and the parser
tables of the neighbor-link grammar (:mod:`flowgraph.io.neighbor_link`).
Loading either runs code (a shared library, a pickle), so nothing is loaded
from a place another user could have written: :func:`distrust` is the rule
for every file and folder loaded and for the root itself, and
:func:`open_trusted` opens a file and checks what it opened (no window between
the check and the read). The root is ``$FLOWGRAPH_CACHE_DIR``, else
``$NUMBA_CACHE_DIR``, else ``$XDG_CACHE_HOME/flowgraph`` (``~/.cache/flowgraph``).
Where the root fails the rule, a private temporary folder serves this process
only (removed at exit), and one line says why. Cache trouble is never fatal.

Imports nothing beyond the standard library: the parser loads it on every run.
"""

from __future__ import annotations

import contextlib
import functools
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

__all__ = ["cache_root", "distrust", "open_trusted", "private_folder", "say_once", "write_private"]


def _configured_root() -> Path:
    for name in ("FLOWGRAPH_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(name):
            return Path(os.environ[name])
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "flowgraph"


def cache_root() -> Path:
    """The folder every cache of flowgraph is kept under (see the module's text).

    The configured folder where :func:`distrust` finds nothing against it
    (or against the folders it would be made in); else a private temporary
    folder for this process, with one line on standard error saying why.
    """
    configured = _configured_root()
    return checked_root(str(configured), os.environ.get("FLOWGRAPH_CACHE_DIR", ""))


@functools.lru_cache(maxsize=8)
def checked_root(configured: str, _key: str) -> Path:
    path = Path(configured)
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent  # a root not made yet: the folders it would be made in must be safe
    # The root only holds the folders loaded from (each checked as it is used): like them, or sticky like /tmp.
    why = distrust(existing, kind="parent")
    if why is None:
        return path
    say_once(f"flowgraph: not using the compile cache {configured}: {why}; the search's passes and the parser's "
             "tables are cached in a private folder for this run only")
    return private_folder()


@functools.lru_cache(maxsize=1)
def private_folder() -> Path:
    """A folder of this process's own (mode 0700, removed at exit) for a cache that cannot be trusted or written."""
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="flowgraph-passes-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


_SAID: set[str] = set()


def say_once(line: str) -> None:
    """Print ``line`` to standard error once per process (cache trouble is said, never fatal)."""
    if line not in _SAID:
        _SAID.add(line)
        print(line, file=sys.stderr, flush=True)

def distrust(path: Path, kind: str = "file") -> str | None:
    """Why ``path`` may not be loaded from (or cached in), in a few words; None when nothing is against it.

    The rule, for everything the passes' caches load (loading runs code):

    * ``path`` itself (``kind`` "file" or "folder") is a regular file or a
      folder, not a symlink, owned by this user or root, and writable by
      nobody else (no group or other write bit; what flowgraph writes there
      it makes so, whatever the umask);
    * every folder above it (``kind`` "parent" starts there) is owned by this
      user or root and is writable by others only where it is sticky (like
      ``/tmp``: nobody can rename or delete another's entries), by its group
      only where the group is this user's own primary group (a umask of 002
      with a group per user, Debian's and Fedora's scheme, makes folders so).

    Parameters
    ----------
    path : Path
    kind : {"file", "folder", "parent"}
        "parent": ``path`` is a folder above what will be made.

    Returns
    -------
    str or None
    """
    if not hasattr(os, "getuid"):
        return None  # no owners to check (Windows): the user's profile folders are private
    owners = (0, os.getuid())
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
    if kind != "parent":
        why = _entry_problem(path, info, kind)
        if why is not None:
            return why
        above = Path(os.path.realpath(path.parent))
    else:
        above = Path(os.path.realpath(path))
    for folder in (above, *above.parents):
        try:
            info = os.stat(folder)
        except OSError as exc:
            return f"{folder} cannot be read ({exc.strerror or exc})"
        if info.st_uid not in owners:
            return f"{folder} belongs to another user (uid {info.st_uid})"
        others = info.st_mode & 0o002 or (info.st_mode & 0o020 and info.st_gid != os.getgid())
        if others and not info.st_mode & stat.S_ISVTX:
            return f"{folder} can be written by other users (mode {stat.S_IMODE(info.st_mode):o})"
    return None




def _entry_problem(path: Path, info: os.stat_result, kind: str) -> str | None:
    """:func:`distrust`'s rule for the entry itself (``kind`` "file" or "folder"), on its stat."""
    want = stat.S_ISREG if kind == "file" else stat.S_ISDIR
    if not want(info.st_mode):
        return f"{path} is not a regular {'file' if kind == 'file' else 'folder'} (a symlink or another kind)"
    if not hasattr(os, "getuid"):
        return None
    if info.st_uid not in (0, os.getuid()):
        return f"{path} belongs to another user (uid {info.st_uid})"
    if info.st_mode & 0o022:
        return f"{path} can be written by other users (mode {stat.S_IMODE(info.st_mode):o})"
    return None


def open_trusted(path: Path) -> BinaryIO | None:
    """Open a cached file only when nobody else could have written it.

    ``path`` opened for reading when :func:`distrust` finds nothing against it or its folder, else None.

    The file is opened first (never through a symlink, never waiting on a FIFO) and
    what was opened is checked, so it cannot be swapped between the check and the read.

    Returns
    -------
    BinaryIO or None
        None when the file is absent, unreadable, or fails the rule.
    """
    # no symlink followed; a FIFO or device opened without waiting (then refused: not a regular file)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    file = os.fdopen(fd, "rb")
    try:
        if _entry_problem(path, os.fstat(fd), "file") is None and distrust(path.parent, "folder") is None:
            return file
    except OSError:
        pass
    file.close()
    return None


def write_private(path: Path, write: Callable[[BinaryIO], None]) -> bool:
    """Write a cache file whole: into a new file of mode 0600 beside ``path``, then renamed over it.

    Readers never see half a file, and the file passes :func:`distrust` whatever the umask.
    Its folder is made (mode 0700) when missing.

    Parameters
    ----------
    path : Path
    write : callable
        Called with the open file.

    Returns
    -------
    bool
        False when the folder or file could not be written, or ``write`` raised (nothing is left
        behind); never raises.
    """
    import tempfile

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as file:
            write(file)
        os.replace(temp, path)
        return True
    except Exception:  # a cache that cannot be written only costs the next run the work
        with contextlib.suppress(OSError):
            os.unlink(temp)
        return False
