"""The passes built ahead of time into one extension module, loaded without numba.

Loading numba costs a small run most of its time and memory: ``import
numba``, its compiler's set-up on the first cached function, and LLVM
(docs/benchmarks.md, issue 27 and issue 69's part 4). The functions
the search calls from Python (:data:`.entry_points.ENTRY_POINTS`) are compiled once with
numba's ahead-of-time compiler, ``numba.pycc`` (numba's "Compiling code
ahead of time"), into one module; a process then imports that module,
which needs numpy only, in a fraction of a millisecond.

The build (:func:`build`) runs in a child process for two reasons: the
passes the exported functions call are compiled by numba's just-in-time
compiler and linked in, and only where both compile for the same CPU
(``NUMBA_CPU_NAME=generic``, set before numba is imported) can LLVM inline
them (with the host CPU on one side and the generic one on the other, the
search was slower: docs/benchmarks.md); and the child's just-in-time cache is
a temporary folder, so nothing but the module is left behind. ``numba.pycc``
is pending deprecation since numba 0.57 (its replacement is not out); the
build needs a C compiler and setuptools, and where either is missing the
passes run just in time as before (:func:`flowgraph.kernels.bind`).

The child is isolated from the folder it is started in (``python -I``, its
work folder as the current folder, the parent's own import path with the
folder of the installed ``flowgraph`` first): a ``flowgraph/`` package in
the current folder once ran in the child and its edited passes were cached
under the installed source's hash. Before it writes anything the child
checks that every pass it compiled is a file of the folder the hash was
taken of, and that the hash of that folder is still the parent's. It dies
with its parent (Linux's parent-death signal, else a watch on the parent),
and a later build deletes work folders a killed build left.

An exported function checks no argument types: an array of another dtype or
layout is read as if it had the declared one. Its only callers are the
search's own (``heap``, ``board``, ``state``), and
``tests/kernels/test_passes_aot.py`` checks that every call they make has
exactly the declared signature.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from .cache import AOT_MODULE, PASSES_DIR, SOURCE_HASH, aot_path, distrust, prune, source_hash, trusted
from .entry_points import ENTRY_POINTS

__all__ = ["BuildError", "build", "load"]

class BuildError(RuntimeError):
    """The ahead-of-time build failed; the message says why in one line (e.g. no C compiler)."""


def build(timeout_s: float = 600.0) -> Path:
    """Build the module for the current source into the cache (:func:`.cache.aot_path`).

    Takes what :data:`.cache.BUILD_NOTE` says (measured in docs/benchmarks.md). The module is written beside its
    final place and renamed into it, so a process never loads half a file.
    One build runs at a time on a machine (a lock on the cache folder,
    :func:`_one_build`): the four workers a cluster starts on one machine
    wait for the first one's build and load its module, instead of building
    it four times at once. Then the folders of other sources unused for a
    month are deleted (:func:`.cache.prune`).

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
        compiler, no setuptools, a numba error) or ran out of time, or
        another process's build took longer than ``timeout_s``.
    """
    target = aot_path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if os.lstat(target.parent).st_uid == getattr(os, "getuid", lambda: 0)():
            target.parent.chmod(0o755)  # whatever the umask: load() takes no folder others can write
        why = distrust(target.parent, "folder")
        if why is not None:
            raise BuildError(f"cannot build into {target.parent}: {why}")
    except OSError as exc:
        raise BuildError(f"cannot write {target.parent}: {exc.strerror or exc}") from None
    with _one_build(target.parent.parent, timeout_s):
        if target.is_file() and trusted(target):  # built by the process this one waited for
            return target
        return _build(target, timeout_s)


#: The file whose lock one build holds, in the cache's root (not the build's folder: a failed build leaves that
#: folder as it found it, and a lock file must outlive its holders).
LOCK_NAME = ".search-passes-build.lock"


@contextlib.contextmanager
def _one_build(root: Path, timeout_s: float) -> Iterator[None]:
    """Hold the machine's build lock (``flock`` on :data:`LOCK_NAME` in ``root``), waiting up to ``timeout_s``.

    Where there is no ``fcntl`` (Windows) builds run at once, and both succeed (the module is renamed into place).

    Raises
    ------
    BuildError
        The lock file cannot be opened (a symlink planted there is not followed), or the wait ran out.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        fd = os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as exc:
        raise BuildError(f"cannot open {root / LOCK_NAME}: {exc.strerror or exc}") from None
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise BuildError(f"another process's build took more than {timeout_s:.0f} s") from None
                time.sleep(0.2)
        yield
    finally:
        os.close(fd)  # (releases the lock)


def _build(target: Path, timeout_s: float) -> Path:
    """:func:`build`'s work, under the lock."""
    try:
        _remove_stale_work(target.parent, timeout_s)
        work = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
        (work / "tmp").mkdir()  # the child's TMPDIR: numba.pycc leaves its compiler probes (temp.c, temp.o)
    except OSError as exc:
        raise BuildError(f"cannot write {target.parent}: {exc.strerror or exc}") from None
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "NUMBA_CPU_FEATURES")}
    env.update(NUMBA_CPU_NAME="generic", FLOWGRAPH_CACHE_DIR=str(work / "jit"), PYTHONWARNINGS="ignore",
               TMPDIR=str(work / "tmp"))
    import flowgraph

    package_root = str(Path(flowgraph.__file__).resolve().parent.parent)  # the flowgraph this process runs
    path = [package_root] + [entry for entry in sys.path if entry and entry != package_root]
    command = [sys.executable, "-I", "-c", _CHILD, json.dumps(path), str(work), SOURCE_HASH, str(PASSES_DIR),
               str(os.getpid())]
    try:
        done = subprocess.run(command, env=env, cwd=work, capture_output=True, text=True, timeout=timeout_s,
                              stdin=subprocess.DEVNULL)
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


def _remove_stale_work(folder: Path, timeout_s: float) -> None:
    """Delete the work folders of builds that cannot still be running (their process was killed)."""
    cutoff = time.time() - timeout_s - 60
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.startswith(".build-") and entry.is_dir(follow_symlinks=False) \
                    and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                shutil.rmtree(entry.path, ignore_errors=True)


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
    return module if all(hasattr(module, entry.name) for entry in ENTRY_POINTS) else None


# The child: ``python -I -c _CHILD PATH_JSON WORK HASH PASSES_DIR PARENT_PID`` (isolated: no current folder,
# no PYTHONPATH, no user site on its path; the parent's path is given whole, its flowgraph's folder first).
_CHILD = ("import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
          "from flowgraph.kernels.aot import _child_main; _child_main(sys.argv[2:])")


def _child_main(argv: list[str]) -> None:
    """The build child's entry point: die with the parent, compile, say one line on failure."""
    work, expected_hash, passes_dir, parent = argv[0], argv[1], argv[2], int(argv[3])
    _die_with(parent)
    try:
        _compile(work, expected_hash, Path(passes_dir))
    except Exception as exc:
        print(_FAILED + _why(exc), file=sys.stderr)
        sys.exit(1)


def _die_with(parent: int) -> None:
    """End this process when ``parent`` ends (a killed ``flowgraph`` leaves no build running)."""
    import signal
    import threading

    signalled = False
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            signalled = ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL) == 0  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # gone before the signal was asked for
        os._exit(1)
    if signalled:
        return

    def watch() -> None:  # where there is no parent-death signal
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _compile(out_dir: str, expected_hash: str = SOURCE_HASH, passes_dir: Path = PASSES_DIR) -> None:
    """The child's work: compile every entry point (:data:`.entry_points.ENTRY_POINTS`) into ``out_dir``.

    Raises
    ------
    RuntimeError
        A pass came from another file than ``passes_dir``'s, or that
        folder's source no longer hashes to ``expected_hash``: nothing is
        written.
    """
    import importlib

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba.pycc's pending deprecation
        from numba.pycc import CC

    cc = CC(AOT_MODULE, source_module=__name__)
    cc.output_dir = out_dir
    cc.verbose = False
    for entry in ENTRY_POINTS:
        module = importlib.import_module(f"{__package__}.{entry.module}")
        cc.export(entry.name, entry.signature)(getattr(module, entry.name).py_func)
    _check_sources(expected_hash, passes_dir)
    cc.compile()


def _check_sources(expected_hash: str, passes_dir: Path) -> None:
    """Every pass module loaded is a file of ``passes_dir``, whose source hashes to ``expected_hash``."""
    prefix = f"{__package__}."
    for name, module in list(sys.modules.items()):
        if name.startswith(prefix) or name == __package__:
            origin = Path(getattr(module, "__file__", "") or "").resolve()
            if origin.parent != passes_dir.resolve():
                raise RuntimeError(f"the build loaded {name} from {origin}, not from {passes_dir}")
    found = source_hash(passes_dir)
    if found != expected_hash:
        raise RuntimeError(f"the passes' source changed during the build (hash {found}, expected {expected_hash})")


_FAILED = "flowgraph-aot: "  # the child's one line on stderr when it fails


def _why(exc: BaseException) -> str:
    """One line for a failed build (numba's own message on a missing compiler runs over several lines)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if "without the compiler" in text:
        return "no C compiler found"
    if isinstance(exc, ImportError):
        return f"cannot import {exc.name or 'a module'} ({text})"
    return f"{type(exc).__name__}: {text}"[:300]


if __name__ == "__main__":  # pragma: no cover - the build runs _CHILD; this is kept for hand runs
    _child_main([sys.argv[1], SOURCE_HASH, str(PASSES_DIR), str(os.getppid())])
