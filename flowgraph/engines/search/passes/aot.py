"""The passes built ahead of time into one extension module, loaded without numba.

Loading numba costs a small run most of its time and memory: ``import
numba`` 0.14 s, its compiler's set-up on the first cached function 0.12 s,
and about 100 MiB with LLVM (docs/benchmarks.md, issue 27). The functions
the search calls from Python (:data:`SIGNATURES`) are compiled once with
numba's ahead-of-time compiler, ``numba.pycc`` (numba's "Compiling code
ahead of time"), into one module; a process then imports that module,
which needs numpy only, in a fraction of a millisecond.

The build (:func:`build`) runs in a child process for two reasons: the
passes the exported functions call are compiled by numba's just-in-time
compiler and linked in, and only where both compile for the same CPU
(``NUMBA_CPU_NAME=generic``, set before numba is imported) can LLVM inline
them (with the host CPU on one side and the generic one on the other, the
search was 12 % slower on inputs10); and the child's just-in-time cache is
a temporary folder, so nothing but the module is left behind. ``numba.pycc``
is pending deprecation since numba 0.57 (its replacement is not out); the
build needs a C compiler and setuptools, and where either is missing the
passes run just in time as before (:func:`flowgraph.engines.search.passes.bind`).

An exported function checks no argument types: an array of another dtype or
layout is read as if it had the declared one. Its only callers are the
search's own (``heap``, ``board``, ``state``), and
``tests/engines/test_passes_aot.py`` checks that every call they make has
exactly the declared signature.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from types import ModuleType

from .cache import AOT_MODULE, aot_path, prune, trusted

__all__ = ["SIGNATURES", "BuildError", "build", "load"]

_C = "u1[::1]"  # colour and link bytes
_I = "i8[::1]"  # node and slot arrays
#: Each function the search calls from Python, and its numba signature (the module that defines it is
#: :data:`SOURCES`'s).
SIGNATURES = {
    "link_distances": f"i8[:, ::1]({_I}, {_I}, {_I})",
    "straight_ahead": f"{_I}({_I}, {_I})",
    "settle_pass": f"UniTuple(i8, 4)({_C}, {_C}, {_I}, {_I}, {_I}, i8, i8, {_I}, b1, i8, i1[::1], {_C}, {_I})",
    "move_pass": f"UniTuple(i8, 4)({_C}, {_C}, {_I}, {_I}, {_I}, i8, i8, b1, i8, i1[::1], {_C}, {_I}, i8, i8, "
                 f"{_I}, i8)",
    "log_size": "i8(i8, i8)",
    "chokepoint_pass": f"i8({_C}, {_I}, {_I}, {_I}, {_I}, i8, i8, i8, i8)",
    "fewest_moves": f"UniTuple(i8, 2)({_C}, {_C}, {_I}, {_I}, {_I}, {_I}, i8, b1, {_C}, i8[:, ::1], {_I}, {_I}, "
                    f"{_I})",
    "moves_buffer": f"{_I}({_I})",
    "step_head": f"UniTuple(i8, 2)({_C}, {_I}, i8, i8, i8, i8)",
}
#: The pass module each exported function is defined in.
SOURCES = {
    "link_distances": "layout", "straight_ahead": "layout", "settle_pass": "settle", "move_pass": "settle",
    "log_size": "settle", "chokepoint_pass": "chokepoints", "fewest_moves": "moves", "moves_buffer": "moves",
    "step_head": "moves",
}


class BuildError(RuntimeError):
    """The ahead-of-time build failed; the message says why in one line (e.g. no C compiler)."""


def build(timeout_s: float = 600.0) -> Path:
    """Build the module for the current source into the cache (:func:`.cache.aot_path`).

    Takes 15-20 s on a 2-core machine. The module is written beside its
    final place and renamed into it, so a process never loads half a file,
    and two builds at once both succeed. Then the folders of other sources
    unused for a month are deleted (:func:`.cache.prune`).

    Parameters
    ----------
    timeout_s : float
        Seconds the child process may take.

    Returns
    -------
    Path
        The module's path.

    Raises
    ------
    BuildError
        The cache folder cannot be written, the child failed (no C
        compiler, no setuptools, a numba error) or ran out of time.
    """
    target = aot_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.parent.chmod(0o755)  # whatever the umask: load() takes no folder others can write
        work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
        (work / "tmp").mkdir()  # the child's TMPDIR: numba.pycc leaves its compiler probes (temp.c, temp.o)
    except OSError as exc:
        raise BuildError(f"cannot write {target.parent}: {exc.strerror or exc}") from None
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "NUMBA_CPU_FEATURES")}
    env.update(NUMBA_CPU_NAME="generic", FLOWGRAPH_CACHE_DIR=str(work / "jit"), PYTHONWARNINGS="ignore",
               TMPDIR=str(work / "tmp"))
    try:
        done = subprocess.run([sys.executable, "-m", __name__, str(work)], env=env, capture_output=True,
                              text=True, timeout=timeout_s)
        built = work / target.name
        if done.returncode or not built.is_file():
            said = [line[len(_FAILED):] for line in done.stderr.splitlines() if line.startswith(_FAILED)]
            raise BuildError(said[-1] if said else f"the build exited with status {done.returncode}")
        built.chmod(0o755)
        os.replace(built, target)  # replaces a planted symlink too, never writes through it
        prune()
    except subprocess.TimeoutExpired:
        raise BuildError(f"the build took more than {timeout_s:.0f} s") from None
    except OSError as exc:  # the child could not start, or the module could not be moved into place
        raise BuildError(f"{exc.strerror or exc}: {exc.filename or target}") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
        with contextlib.suppress(OSError):
            target.parent.rmdir()  # only where it is empty: a failed build leaves nothing
    return target


def load() -> ModuleType | None:
    """The module built from the current source, or None where there is none or it cannot be trusted.

    Only a module :func:`.cache.trusted` is loaded (importing it runs its
    code); one that fails to load (another numpy's C API, a damaged file)
    is skipped.
    """
    path = aot_path()
    if not trusted(path):
        return None
    spec = importlib.util.spec_from_file_location(AOT_MODULE, path)
    if spec is None or spec.loader is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)  # loads the shared library
        spec.loader.exec_module(module)
    except Exception:
        return None
    return module if all(hasattr(module, name) for name in SIGNATURES) else None


def _compile(out_dir: str) -> None:
    """The child's work: compile every function of :data:`SIGNATURES` into ``out_dir``."""
    import importlib

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc's pending deprecation
        from numba.pycc import CC

    cc = CC(AOT_MODULE, source_module=__name__)
    cc.output_dir = out_dir
    cc.verbose = False
    for name, signature in SIGNATURES.items():
        module = importlib.import_module(f"{__package__}.{SOURCES[name]}")
        cc.export(name, signature)(getattr(module, name).py_func)
    cc.compile()


_FAILED = "flowgraph-aot: "  # the child's one line on stderr when it fails


def _why(exc: BaseException) -> str:
    """One line for a failed build (numba's own message on a missing compiler runs over several lines)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "without the compiler" in text:
        return "no C compiler found"
    if isinstance(exc, ImportError):
        return f"cannot import {exc.name or 'a module'} ({text})"
    return f"{type(exc).__name__}: {text}"[:300]


if __name__ == "__main__":
    try:
        _compile(sys.argv[1])
    except Exception as exc:
        print(_FAILED + _why(exc), file=sys.stderr)
        sys.exit(1)
