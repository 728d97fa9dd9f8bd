"""Where the compiled passes are kept, keyed on the source of every pass; imports no numba.

The passes run compiled in one of two forms (:mod:`flowgraph.kernels`):

* **ahead of time**: one extension module built by ``flowgraph warm-up`` (or a
  machine's first search run) with ``numba.pycc`` (:mod:`.aot`), at
  :func:`aot_path`. Loading it takes a fraction of a millisecond and needs
  neither numba nor LLVM in the process;
* **just in time**: numba compiles each pass on first use and caches it in
  :func:`cache_dir` (:mod:`.jit`): where no C compiler was found for the
  build, with ``FLOWGRAPH_PASSES=jit``, and with ``NUMBA_DISABLE_JIT=1``
  (plain Python, to step through the passes in a debugger; about 100 times
  slower).

Both are named after a hash of every ``*.py`` file of this package
(:func:`source_hash`), so an edit of any pass, even of a comment, sends
both to new, empty places: numba alone checks a cached function against its
own source file only (numba issue #1833) and would run a stale copy of a
pass that another pass calls.

The folder is ``$FLOWGRAPH_CACHE_DIR``, else ``$NUMBA_CACHE_DIR``, else
``$XDG_CACHE_HOME/flowgraph`` (``~/.cache/flowgraph``). Places of other
hashes (older versions, edited passes; a few MB each) are deleted by the
next build once unused for :data:`STALE_DAYS` days (:func:`prune`).

Loading either form runs code (a shared library; numba's pickled index
files), so nothing is loaded from a place another user could have written:
one rule, :func:`flowgraph.caches.distrust` (the root and the rule are
:mod:`flowgraph.caches`', shared with the parser's tables), for every file
and folder loaded and for the cache root. Where the root fails it, the passes are cached in a private
temporary folder for this process only (removed at exit), and one line
says why.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import sysconfig
from pathlib import Path

from ..caches import cache_root, checked_root, distrust, private_folder, say_once  # noqa: F401 (the one rule)

__all__ = [
    "PASSES_DIR", "AOT_MODULE", "STALE_DAYS", "python_only", "jit_only", "built_ahead", "source_hash", "cache_root", "cache_dir",
    "aot_path", "distrust", "trusted", "compiled", "prune", "say_once", "BUILD_NOTE",
]

#: What the first build of the passes takes, said wherever a command or the studio waits for it: measured on a
#: fresh cache (``flowgraph warm-up``: 39 s on this project's 2-core VM, a first ``validate --unique`` 52 s, 2026-12-02;
#: 96-244 s on a slower or busy machine, issue 72), the commands in docs/benchmarks.md ("The first build").
BUILD_NOTE = ("compiling the search engine, once for this machine and version (40-60 s on a 2-core machine, "
              "up to 4 minutes when it is busy)")

#: The folder of the pass modules (the source hashed; the files the build checks it compiled).
PASSES_DIR = Path(__file__).resolve().parent
#: The name the ahead-of-time module is built and imported under.
AOT_MODULE = "flowgraph_search_passes"
#: Days a cache folder of another source hash may go unused before a build deletes it.
STALE_DAYS = 30


def python_only() -> bool:
    """Whether ``NUMBA_DISABLE_JIT`` asks for the passes as plain Python (nothing is compiled)."""
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def jit_only() -> bool:
    """Whether the passes are not to run built ahead of time (``FLOWGRAPH_PASSES=jit``, or plain Python)."""
    return python_only() or os.environ.get("FLOWGRAPH_PASSES") == "jit"


def built_ahead() -> bool:
    """Whether the kernels run built ahead of time here: wanted (not ``FLOWGRAPH_PASSES=jit``, not plain Python)
    and the module of the current source is on this machine."""
    return not jit_only() and aot_path().is_file()


def source_hash(folder: Path = PASSES_DIR) -> str:
    """A hash of every ``*.py`` file in ``folder`` (names and bytes).

    Returns
    -------
    str
        16 hex digits.
    """
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


SOURCE_HASH = source_hash()


def cache_dir(numba_version: str | None = None) -> Path:
    """The folder numba caches the passes compiled from the current source in (just in time).

    Parameters
    ----------
    numba_version : str, optional
        Numba's version (read from its installed metadata when not given,
        without importing numba): a new numba compiles into a new folder.

    Raises
    ------
    importlib.metadata.PackageNotFoundError
        ``numba_version`` not given and numba not installed.
    """
    if numba_version is None:
        from importlib.metadata import version

        numba_version = version("numba")
    return cache_root() / f"search-passes-{SOURCE_HASH}-numba{numba_version}"


def aot_path() -> Path:
    """The ahead-of-time module built from the current source, for this Python and numpy.

    The name holds the numpy version (the module is built against its C
    API) and Python's extension suffix (version, ABI, platform); the code is
    for the platform's baseline CPU, so a cache built in a container image
    runs on any machine of the same architecture.
    """
    import numpy

    folder = cache_root() / f"search-passes-{SOURCE_HASH}-aot-numpy{numpy.__version__}"
    return folder / (AOT_MODULE + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))


def trusted(path: Path) -> bool:
    """Whether ``path`` is a module this process may load: nobody but this user (or root) could have written it.

    :func:`distrust` finds nothing against the file, nor against its folder
    (so that nobody else could swap the file either): loading a module runs
    its code.
    """
    return distrust(path, "file") is None and distrust(path.parent, "folder") is None


def compiled(ahead: bool = False) -> bool:
    """Whether the passes of the current source are built, ahead of time or just in time.

    Else the next warm-up (or first search run) builds them. Just in time,
    every entry point (:data:`.entry_points.ENTRY_POINTS`) must have its
    index file.

    Parameters
    ----------
    ahead : bool
        Only the build ahead of time counts (unless ``FLOWGRAPH_PASSES=jit``
        asks for the other).
    """
    from .entry_points import ENTRY_POINTS

    if python_only():
        return True  # nothing to compile
    if not jit_only():
        if trusted(aot_path()):
            return True
        if ahead:
            return False
    try:
        folder = cache_dir()
    except Exception:  # numba's metadata unreadable: it will say so when imported
        return False
    return all(any(folder.glob(f"*/{entry.module}.{entry.name}-*.nbi")) for entry in ENTRY_POINTS)


def prune(stale_days: float = STALE_DAYS) -> list[Path]:
    """Delete the cache folders of other sources that no process has used for ``stale_days`` days.

    A folder's last use is the latest modification or access time of its
    files (Linux's default ``relatime`` updates access times about daily).
    Only folders named like this module's (``search-passes-*``), owned by
    this user, are deleted; symlinks are left alone. Another installed
    version that still uses its folder keeps it; one that comes back after
    longer builds it again.

    Returns
    -------
    list of Path
        The folders deleted.
    """
    import time

    cutoff = time.time() - stale_days * 86400
    deleted: list[Path] = []
    try:
        folders = list(cache_root().glob("search-passes-*"))
    except OSError:
        return deleted
    for folder in folders:
        if folder.name.startswith(f"search-passes-{SOURCE_HASH}"):  # this source's, either form
            continue
        try:
            st = os.lstat(folder)
            if not stat.S_ISDIR(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
                continue
            last = max([st.st_mtime] + [max(f.stat().st_mtime, f.stat().st_atime) for f in folder.rglob("*")])
        except OSError:
            continue
        if last < cutoff:
            shutil.rmtree(folder, ignore_errors=True)
            deleted.append(folder)
    return deleted
