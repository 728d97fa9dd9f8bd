"""Where the compiled passes are cached, keyed on the source of every pass.

Numba checks a cached function against its own source file only (numba
issue #1833): after an edit of :mod:`.moves`, :func:`.settle.settle_pass`,
which calls it, would load its old compiled copy and run stale code. Here
every pass module caches into one folder named after a hash of all the
``*.py`` files of this package (and the numba version), so an edit of any
pass, even of a comment, sends every pass to a new, empty folder and the
next run compiles them all again.

The folder is ``$FLOWGRAPH_CACHE_DIR``, else ``$NUMBA_CACHE_DIR``, else
``$XDG_CACHE_HOME/flowgraph`` (``~/.cache/flowgraph``), then
``search-passes-<hash>/``; where that cannot be written, a fresh private
temporary folder (compiled again each process). Folders of older hashes are
left for the user to delete; each holds a few MB.

To step through the passes in a debugger as plain Python, run with
``NUMBA_DISABLE_JIT=1`` (the search is then about 100 times slower).

Notes
-----
The locator plugs into numba's list of cache locators (``CacheImpl``),
the mechanism numba itself uses to choose between a source tree, a
user-wide folder and IPython's cells; it answers only for this package's
files, so other numba code in the process keeps numba's own locators.
``tests/engines/test_compile_cache.py`` checks that an edit recompiles.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path

import numba
from numba.core import caching

__all__ = ["PASSES_DIR", "cache_dir", "compiled", "source_hash"]

#: The folder of the pass modules; only functions defined here use the locator.
PASSES_DIR = Path(__file__).resolve().parent


def source_hash(folder: Path = PASSES_DIR) -> str:
    """A hash of every ``*.py`` file in ``folder`` (names and bytes) and of numba's version.

    Returns
    -------
    str
        16 hex digits.
    """
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _cache_root() -> Path:
    for name in ("FLOWGRAPH_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(name):
            return Path(os.environ[name])
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "flowgraph"


_HASH = source_hash()


def cache_dir() -> Path:
    """The folder the passes compiled from the current source are cached in."""
    return _cache_root() / f"search-passes-{_HASH}"


def compiled() -> bool:
    """Whether the passes of the current source are in the cache (else the next warm-up compiles them).

    The warm-up compiles the passes in one order and :func:`.settle.move_pass`
    and :func:`.moves.fewest_moves` come last, so their index files mean the
    whole set is there.
    """
    folder = cache_dir()
    return all(any(folder.glob(f"{name}-*.nbi")) for name in ("settle.move_pass", "moves.fewest_moves"))


@functools.cache
def _private_dir() -> str:
    return tempfile.mkdtemp(prefix="flowgraph-passes-")


class _PassesLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Numba cache locator for the pass modules: one folder per source hash."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_dir())

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
