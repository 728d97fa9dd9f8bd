"""Numba set-up every pass module imports first: the cache locator and :func:`njit_borrowed`.

Numba picks a function's cache place when the function is decorated, so
this module plugs :class:`_PassesLocator` into numba's list of cache
locators (``CacheImpl``; the mechanism numba itself uses to choose between a
source tree, a user-wide folder and IPython's cells) before any pass is
defined. It answers only for this package's files, caching them in
:func:`.cache.cache_dir`, so other numba code in the process keeps numba's
own locators. ``tests/engines/test_compile_cache.py`` checks that an edit
recompiles.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import numba
from numba import njit
from numba.core import caching

from .cache import _HASH, PASSES_DIR, cache_dir

__all__ = ["njit", "njit_borrowed"]


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
    return njit(cache=True, _nrt=False)(fn)  # type: ignore[call-overload]  # (numba's stubs omit _nrt)


@functools.cache
def _private_dir() -> str:
    return tempfile.mkdtemp(prefix="flowgraph-passes-")


class _PassesLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for the pass modules: one folder per source hash."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir(numba.__version__))

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return _HASH

    @classmethod
    def from_function(cls, py_func, py_file):
        if Path(py_file).resolve().parent != PASSES_DIR:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:  # no writable cache: a fresh private folder (a shared one could be planted)
            self._cache_path = _private_dir()
        return self


# numba's list of cache locators (``_CacheImpl`` in older numba)
_LOCATORS = (getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl"))._locator_classes  # noqa: B009
if _PassesLocator not in _LOCATORS:
    _LOCATORS.insert(0, _PassesLocator)
