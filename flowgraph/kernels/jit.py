"""Numba set-up every pass module imports first: where numba caches the passes, and :func:`njit_borrowed`.

Numba caches a function compiled with ``cache=True`` in the folder its documented setting ``NUMBA_CACHE_DIR``
names (numba's reference, "Environment variables"; read when numba is imported). Before numba is first
imported this module sets it to :func:`.cache.cache_dir`, a folder named after the hash of every pass's source,
so that an edit of any pass, even of a comment, compiles them all afresh (numba alone checks a cached function
against its own file only, numba issue #1833; ``tests/kernels/test_compile_cache.py``). It sets
``FLOWGRAPH_CACHE_DIR`` too, to the root it read, so that a process this one starts (a pool's worker) finds the
same folder. Other numba code in the process caches there as well.

Numba loads pickled index files from that folder, so it is used only where :func:`.cache.distrust` finds
nothing against it, its folders or the files in them; else a private folder, said once. Where numba was
imported before this module with another ``NUMBA_CACHE_DIR`` (a program that imported numba first), its
setting is read already: the passes are then compiled for this process only, said once.

Cache trouble never fails a solve: :func:`first_call` makes a pass's first call (binding the passes just in
time makes every entry point's, :func:`flowgraph.kernels.bind`); an error reading or writing the cache (a full
disk; a damaged, truncated index) is said once, the folder's files are removed and the call made again
(numba keeps a function it compiled even when saving it failed, so the next call finds it).

Only numba's public API is used here (``numba.njit``, ``NUMBA_CACHE_DIR``, a dispatcher's ``stats``):
``tests/kernels/test_cache_trust.py`` holds it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .cache import cache_dir, distrust, private_folder, say_once

__all__ = ["njit", "njit_borrowed", "first_call", "close_modes", "CACHE_DIR", "RETRIES"]


def _distrust_tree(folder: Path) -> str | None:
    """:func:`.cache.distrust` of a cache folder, of every folder in it and of every file (numba loads them)."""
    why = distrust(folder, "folder")
    if why is not None:
        return why
    for entry in os.scandir(folder):
        path = Path(entry.path)
        why = _distrust_tree(path) if entry.is_dir(follow_symlinks=False) else distrust(path, "file")
        if why is not None:
            return why
    return None


def _cache_folder() -> Path:
    """The folder the passes are cached in: this source's, where it can be trusted and written; else a private
    one, said once."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):  # made with the umask's mode: none that others could write
            info = os.lstat(folder)
            if info.st_mode & 0o022 and info.st_uid == os.getuid() and not os.path.islink(folder):
                os.chmod(folder, 0o755)
        why = _distrust_tree(folder)
        if why is None and not os.access(folder, os.W_OK):
            why = "it cannot be written"
    except OSError as exc:
        why = f"it cannot be written ({exc.strerror or exc})"
    if why is None:
        return folder
    say_once(f"flowgraph: not using the compile cache {folder}: {why}; the search's passes are cached in a "
             "private folder for this run only")
    return private_folder()


def _set_up() -> Path | None:
    """Point numba at the passes' folder before it is imported; None where numba was imported first with
    another folder (the passes are then not cached)."""
    folder = _cache_folder()
    if "numba" in sys.modules:
        import numba

        if str(getattr(numba.config, "CACHE_DIR", "")) != str(folder):
            say_once("flowgraph: numba was imported before flowgraph's search, with another NUMBA_CACHE_DIR: the "
                     "search's passes are compiled for this run only (import flowgraph first, or run "
                     "flowgraph warm-up to build them ahead of time)")
            return None
        return folder
    from .cache import cache_root

    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    os.environ.setdefault("FLOWGRAPH_CACHE_DIR", str(cache_root()))  # a child process finds the same folder
    return folder


#: Where numba caches the passes in this process (None: not cached, numba was imported first elsewhere).
CACHE_DIR = _set_up()

import numba  # noqa: E402  (after NUMBA_CACHE_DIR is set: numba reads it when imported)


def njit(fn=None, **options):
    """numba's ``njit``; ``cache=True`` caches in :data:`CACHE_DIR` (compiled for this process where it is None)."""
    if options.get("cache") and CACHE_DIR is None:
        options["cache"] = False

    def decorate(function):
        return numba.njit(**options)(function)

    return decorate(fn) if fn is not None else decorate


def njit_borrowed(fn):
    """Compile a helper that allocates nothing, without reference counting.

    ``@njit(cache=True)`` without numba's reference counting (NRT), for helpers that allocate nothing.

    Numba counts a reference to every array argument on entry to a compiled
    function and drops it on exit, each an atomic instruction; in the
    passes' helpers, called per node and per move, those counts were more
    than half the search's time (docs/benchmarks.md, "Design measurements",
    "Helpers without reference counting"). Compiled with
    ``_nrt=False`` a helper borrows its arrays from the caller, which holds
    them for the whole call. Such a helper cannot make arrays (``np.empty``
    and the like): its callers pass work space in.
    """
    return njit(cache=True, _nrt=False)(fn)


#: How many times a first call is made again after cache trouble (each gets one more function past it, at most).
RETRIES = 64


def _cache_trouble(exc: BaseException) -> bool:
    """Whether ``exc`` came out of numba's cache (its traceback passes through numba's caching module): reading
    or writing a file (a full disk), a damaged pickle. A pass's own error is not."""
    import traceback

    where = os.path.join("numba", "core", "caching.py")
    return any(frame.filename.endswith(where) for frame in traceback.extract_tb(exc.__traceback__))


def first_call(fn: Callable[..., Any], *args: Any) -> Any:
    """Make a pass's first call, recovering from a broken cache.

    ``fn(*args)``, the first call of a pass, where numba compiles it or loads it from the cache: an error of
    the cache is said once, the folder's files removed and the call made again.

    Raises
    ------
    Exception
        What ``fn`` raises that is not cache trouble, or cache trouble that :data:`RETRIES` calls do not get past.
    """
    for attempt in range(RETRIES + 1):
        try:
            return fn(*args)
        except Exception as exc:
            if attempt == RETRIES or not _cache_trouble(exc):
                raise
            reason = getattr(exc, "strerror", None) or type(exc).__name__
            say_once(f"flowgraph: the search's compile cache cannot be used ({reason}): its files are removed and "
                     "its passes compiled again")
            if CACHE_DIR is not None:
                _clear(CACHE_DIR)
    raise AssertionError("unreachable")  # pragma: no cover


def _clear(folder: Path) -> None:
    """Remove the files in the passes' cache folder (a damaged index is not read again); folders stay."""
    for root, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(root, name))


def close_modes() -> None:
    """Make the files numba wrote with the umask's mode (group- or other-writable) this user's alone, so that
    the next process trusts them (:func:`_distrust_tree`)."""
    if CACHE_DIR is None:
        return
    for root, _, files in os.walk(CACHE_DIR):
        for name in files:
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                info = os.lstat(path)
                if info.st_mode & 0o022 and info.st_uid == os.getuid() and not os.path.islink(path):
                    os.chmod(path, 0o644)
