"""Numba set-up every pass module imports first: the cache locator and :func:`njit_borrowed`.

Numba picks a function's cache place when the function is decorated, so
this module plugs :class:`_PassesLocator` into numba's list of cache
locators (``CacheImpl``; the mechanism numba itself uses to choose between a
source tree, a user-wide folder and IPython's cells) before any pass is
defined. It answers only for this package's files, caching them in
:func:`.cache.cache_dir`, so other numba code in the process keeps numba's
own locators. ``tests/kernels/test_compile_cache.py`` checks that an edit
recompiles.

Numba loads pickled index files from that folder, so the locator uses it
only where :func:`.cache.distrust` finds nothing against the folder or the
files in it; else a private folder, said once. And cache trouble never fails
a solve: :class:`_PassesCache` turns an error reading or writing the cache (a
full disk, say) into one line, and the pass is compiled for this process
only (numba's own hook for spurious I/O errors, which it uses on Windows).

Numba's private API used here, in this module only (numba 0.59-0.68; the
upper bound in pyproject.toml): ``caching._CacheLocator`` and
``_SourceFileBackedLocatorMixin``, the locator list ``CacheImpl._locator_classes``,
``caching.FunctionCache._guard_against_spurious_io_errors`` and a dispatcher's
``_cache``. ``tests/kernels/test_cache_trust.py`` names each.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import numba
from numba.core import caching

from .cache import PASSES_DIR, SOURCE_HASH, cache_dir, distrust, private_folder, say_once

__all__ = ["njit", "njit_borrowed"]


class _PassesCache(caching.FunctionCache):
    """Numba's cache of a compiled function, where reading or writing the cache never fails the call.

    A full disk, a read-only or damaged cache: one line, and the function is
    compiled in this process (numba compiles when a load finds nothing).
    """

    @contextlib.contextmanager
    def _guard_against_spurious_io_errors(self):
        try:
            yield
        except (OSError, EOFError, ValueError) as exc:  # EOFError, ValueError: a damaged (truncated) pickle
            reason = getattr(exc, "strerror", None) or type(exc).__name__
            say_once(f"flowgraph: the search's compile cache cannot be used ({reason}): its passes are compiled "
                     "for this run only")

    def save_overload(self, sig, data):
        super().save_overload(sig, data)
        with contextlib.suppress(OSError):  # numba writes with the umask's mode: none that others could write
            for entry in os.scandir(self.cache_path):
                info = entry.stat(follow_symlinks=False)
                if entry.is_file(follow_symlinks=False) and info.st_mode & 0o022 and info.st_uid == os.getuid():
                    os.chmod(entry.path, 0o644)


def njit(fn=None, **options):
    """numba's ``njit``; with ``cache=True`` the function is cached through :class:`_PassesCache`."""
    cache = options.pop("cache", False)

    def decorate(function):
        dispatcher = numba.njit(**options)(function)
        if cache and hasattr(dispatcher, "_cache"):  # NUMBA_DISABLE_JIT gives the plain function back
            dispatcher._cache = _PassesCache(dispatcher.py_func)
        return dispatcher

    return decorate(fn) if fn is not None else decorate


def njit_borrowed(fn):
    """``@njit(cache=True)`` without numba's reference counting (NRT), for helpers that allocate nothing.

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


class _PassesLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for the pass modules: one folder per source hash."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir(numba.__version__))

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return SOURCE_HASH

    @classmethod
    def from_function(cls, py_func, py_file):
        if Path(py_file).resolve().parent != PASSES_DIR:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
            with contextlib.suppress(OSError):  # made with the umask's mode: none that others could write
                info = os.lstat(self._cache_path)
                if info.st_mode & 0o022 and info.st_uid == os.getuid() and not os.path.islink(self._cache_path):
                    os.chmod(self._cache_path, 0o755)
            why = _distrust_folder(Path(self._cache_path))
        except OSError as exc:
            why = f"it cannot be written ({exc.strerror or exc})"
        if why is not None:  # a fresh private folder (never a shared one, which could be planted)
            say_once(f"flowgraph: not using the compile cache {self._cache_path}: {why}; the search's passes are "
                     "cached in a private folder for this run only")
            self._cache_path = str(private_folder())
        return self


def _distrust_folder(folder: Path) -> str | None:
    """:func:`.cache.distrust` of a cache folder and of every file in it (numba loads them all)."""
    why = distrust(folder, "folder")
    if why is None:
        for entry in os.scandir(folder):
            why = distrust(Path(entry.path), "file")
            if why is not None:
                return why
    return why


# numba's list of cache locators (``_CacheImpl`` in older numba)
_LOCATORS = (getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl"))._locator_classes  # noqa: B009
if _PassesLocator not in _LOCATORS:
    _LOCATORS.insert(0, _PassesLocator)
