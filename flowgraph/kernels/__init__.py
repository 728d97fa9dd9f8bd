"""The compiled kernels, one package used by three callers as equals: the search's per-state passes, the link
search's core (:mod:`.link_search`, ``validate --unique``, ``--count``) and explain's trials (:mod:`.trials`).

They are one package because they are built and cached as one: one source hash, one module built ahead of
time, one just-in-time cache (:mod:`.cache`), one table of the functions called from Python
(:mod:`.entry_points`, read from each kernel's declaration where it is defined). Of the rest of flowgraph they
import only :mod:`flowgraph.caches` (its trust rule).

The search spends most of its time here: every settled state needs a pass
over the nodes near its last changes and one over all free nodes. The
passes are written over plain int arrays (the adjacency in CSR form, the
colour and link bytes, the head of every slot) so that numba compiles them to
machine code.

* :mod:`.cache` — where the compiled code is kept (no numba);
* :mod:`.aot` — the passes built ahead of time into one module;
* :mod:`.jit` — numba's set-up, imported by every pass module first;
* :mod:`.codes` — colour bits and reason codes (no numba);
* :mod:`.common` — the small compiled tests every pass shares;
* :mod:`.layout` — once per solve: link distances and the straight-on map;
* :mod:`.fragments` — links known to be used between free nodes (fragments);
* :mod:`.moves` — a head's moves (the self-touch rule) and a step;
* :mod:`.bends` — the loose-bend walk;
* :mod:`.regions` — regions and cut nodes: stranded regions and flows,
  parity, dead pockets, bottlenecks;
* :mod:`.chokepoints` — narrow corridors beside a head;
* :mod:`.settle` — forced moves, forced links and local dead ends near the
  changes until nothing changes, then the region pass; the one call per
  child state (:func:`.settle.move_pass`);
* :mod:`.link_search` — the exhaustive link search (``validate --unique``, ``--count``);
* :mod:`.steps` — ``flowgraph explain``'s rules of tiers 1-4, the only statement
  of them: the next step on a board, and the easy deductions in sight;
* :mod:`.trials` — the same rules to their end on one board: explain's one-step
  trials.

Functions return a reason code, 0 when the state survives;
:data:`.codes.REASONS` turns a code into the words
:func:`flowgraph.engines.search.prune_reason` reports.

The search calls the passes through this package (``kernels.move_pass``
and so on, each declared with :func:`.entry_points.kernel` where it is defined), which binds them on first use
(:func:`bind`) to the module built ahead of time (:mod:`.aot`) where there
is one for the current source, and else to numba's just-in-time functions,
compiled on first use and cached. ``FLOWGRAPH_PASSES=jit`` asks for the
latter; ``NUMBA_DISABLE_JIT=1`` runs the passes as plain Python, to step
through them in a debugger.

Notes
-----
Both compiled forms are kept in places named after a hash of this
package's source (:mod:`.cache`), so only the first run on a machine pays
the compile, and an edit of any pass compiles them all again: numba alone
checks a cached function against its own file only, and would run a stale
copy of a pass that another pass calls.

Flow sets are int64 bitmasks, so a board has at most 63 flows (the colour
byte's limit too).

The other modules: :mod:`.memo`, the exhaustive link search's failure memo; :mod:`.nesting`, the exhaustive
link search's nesting check on planar boards; :mod:`.trial_bottleneck`, explain's bottleneck rule, compiled,
for the one-step trials.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .cache import built_ahead, jit_only, python_only
from .entry_points import ENTRY_POINTS, NAMES, array_arguments

if TYPE_CHECKING:  # what bind() binds, for type checkers and go-to-definition (a test keeps it whole)
    from .chokepoints import chokepoint_pass as chokepoint_pass
    from .layout import link_distances as link_distances
    from .layout import straight_ahead as straight_ahead
    from .link_search import exhaust_pass as exhaust_pass
    from .moves import fewest_moves as fewest_moves
    from .moves import moves_buffer as moves_buffer
    from .moves import step_head as step_head
    from .settle import log_size as log_size
    from .settle import move_pass as move_pass
    from .settle import settle_pass as settle_pass
    from .steps import first_step as first_step
    from .steps import in_sight as in_sight
    from .trials import sweep_trials as sweep_trials

__all__ = ["ENTRY_POINTS", "Runtime", "runtime", "ready", "bind", "build_ahead", "sample_calls", "trusted", "warm_up",
           *NAMES]  # the entry points, bound on first use


@dataclass(frozen=True)
class Runtime:
    """How the kernels stand in a process: a value that loading returns and callers pass on (``auto`` decides
    which engine goes first from it, never from module globals).

    Attributes
    ----------
    kind : str or None
        How the entry points run once bound: "ahead of time", "just in time" or "plain Python"; None
        before :func:`bind`.
    warm : bool
        :func:`warm_up` ran: every entry point is loaded (``auto`` then tries the search first on small
        boards of a batch).
    build_failed : str or None
        Why this process's build ahead of time failed (it is not tried again), in one line.
    built_ahead : bool
        Not bound yet, a build ahead of time of this source is on this machine: binding is quick.
    """

    kind: str | None = None
    warm: bool = False
    build_failed: str | None = None
    built_ahead: bool = False

    @property
    def compiled_at_once(self) -> bool:
        """Whether a kernel runs as compiled code without compiling first: bound so, or built ahead of time."""
        return self.built_ahead if self.kind is None else self.kind != "plain Python"


# This process's kernels (only bind, build_ahead and warm_up replace it).
_RUNTIME = Runtime()
# Held while the passes are bound or built: a search thread waits for a build in another (the studio's).
_LOCK = threading.RLock()


def runtime() -> Runtime:
    """This process's kernels as they stand now, as a value (``built_ahead`` looked up when not bound)."""
    state = _RUNTIME
    return replace(state, built_ahead=built_ahead()) if state.kind is None else state


def ready() -> bool:
    """Tell whether a kernel can run now without waiting.

    Whether a kernel can run now without waiting: loaded, or compiled for this source and no build or load
    under way in another thread (the studio's). Where it is False, a caller that can answer otherwise (SAT)
    does, and the board never waits for the build."""
    if _RUNTIME.warm:
        return True
    if not _LOCK.acquire(blocking=False):  # another thread builds or binds: using a kernel would wait for it
        return False
    try:
        from .cache import compiled

        return compiled()
    finally:
        _LOCK.release()


def bind() -> Runtime:
    """Bind the entry points in this process, once: the ahead-of-time module, else numba's functions.

    Returns
    -------
    Runtime
        With its ``kind`` set.
    """
    global _RUNTIME
    if _RUNTIME.kind is not None:
        return _RUNTIME
    with _LOCK:
        if _RUNTIME.kind is not None:
            return _RUNTIME
        from . import aot

        module = None if jit_only() else aot.load()
        if module is None:
            import importlib

            functions = {e.name: getattr(importlib.import_module(f"{__name__}.{e.module}"), e.name)
                         for e in ENTRY_POINTS}
            kind = "plain Python" if python_only() else "just in time"
        else:
            functions = {e.name: getattr(module, e.name) for e in ENTRY_POINTS}
            kind = "ahead of time"
        globals().update({name: _typed(name, fn) for name, fn in functions.items()})
        if kind == "just in time":
            _first_calls(functions)
        _RUNTIME = replace(_RUNTIME, kind=kind)
        return _RUNTIME


def _first_calls(functions: dict) -> None:
    """Compile (or load) every entry point just in time now, through cache trouble (:func:`.jit.first_call`)."""
    from . import jit

    jit.first_call(functions["log_size"], 4, 1)  # (sample_calls sizes a buffer with it)
    calls = sample_calls()
    for name, fn in functions.items():
        jit.first_call(fn, *calls[name])
    jit.close_modes()


def _typed(name: str, fn):
    """``fn`` behind a check of its array arguments' dtype, dimensions and layout (a TypeError, in every mode).

    A function built ahead of time checks nothing: an int32 array is read as
    int64 (a crash, or wrong answers); one compiled just in time would compile
    a new version for it. About 1 microsecond a call (docs/benchmarks.md).
    """
    import numpy as np

    ndarray = np.ndarray
    arrays = tuple((i, np.dtype(dtype), ndim) for i, dtype, ndim in array_arguments(NAMES[name].signature))
    count = max((i for i, _, _ in arrays), default=-1) + 1

    def check(args: tuple) -> None:
        if len(args) < count:
            raise TypeError(f"{name}() takes more arguments ({len(args)} given)")
        for i, dtype, ndim in arrays:
            a = args[i]
            if type(a) is not ndarray or a.dtype != dtype or a.ndim != ndim or not a.flags.c_contiguous:
                raise TypeError(f"{name}(): argument {i + 1} must be a C-contiguous {ndim}-D {dtype} array, not "
                                f"{getattr(a, 'dtype', type(a).__name__)} {getattr(a, 'shape', '')}")

    def checked(*args):
        check(args)
        return fn(*args)

    checked.__name__ = checked.__qualname__ = name
    checked.__doc__ = fn.__doc__
    checked.__wrapped__ = fn  # type: ignore[attr-defined]
    checked.check = check  # type: ignore[attr-defined]
    return checked


def trusted(name: str, *args: Any):
    """The entry point ``name`` without its per-call check, once ``args`` pass that check.

    For a loop that calls a pass many times with arrays of one making: the search's states are copies
    of its root's arrays, so their dtype, dimensions and layout are those checked here (the check costs
    about a microsecond a call, a few per cent of a small board's solve; docs/benchmarks.md).

    Parameters
    ----------
    name : str
        An entry point (:data:`.entry_points.NAMES`).
    *args
        A call's arguments, as every later call will pass them (arrays of the same dtype, dimensions and
        layout).

    Returns
    -------
    callable
        The bound function itself (a function put in its place, as it is).

    Raises
    ------
    TypeError
        An array of ``args`` is not of the declared dtype, dimensions or layout.
    """
    checked = globals()[name] if name in globals() else __getattr__(name)
    check = getattr(checked, "check", None)
    if check is None:  # replaced in this process (a test's or a profiler's wrapper): called as it is
        return checked
    check(args)
    return checked.__wrapped__


def __getattr__(name: str) -> Any:
    if name in NAMES:
        bind()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def build_ahead() -> str | None:
    """Build the passes ahead of time if that is how this process would run them and they are not built.

    Call before the search's first use (``flowgraph warm-up``, a machine's
    first search run and the studio's start do): once the passes are bound,
    a build serves the next process only. A search in another thread waits
    for the build (:func:`bind`).

    Returns
    -------
    str or None
        None when built (or not wanted: ``FLOWGRAPH_PASSES=jit``,
        ``NUMBA_DISABLE_JIT``); else why not, in one line (the passes then
        run just in time).
    """
    global _RUNTIME
    if jit_only():
        return None
    with _LOCK:
        if _RUNTIME.build_failed is not None:  # once a process: a full disk is not tried again by the next caller
            return _RUNTIME.build_failed
        from . import aot

        if aot.load() is not None:
            return None
        try:
            aot.build()
        except aot.BuildError as exc:
            _RUNTIME = replace(_RUNTIME, build_failed=str(exc))
            return _RUNTIME.build_failed
        return None


def sample_calls() -> dict[str, tuple]:
    """Arguments for one call of every entry point, on a 2x2 board with one flow on a diagonal.

    :func:`warm_up` makes these calls; the tests use them to check that every
    entry point refuses arrays of another dtype, shape or layout.
    """
    import numpy as np

    from .codes import ACTIVE, CUT

    # The 2x2 board's adjacency in CSR form (board.csr of ((1, 2), (0, 3), (0, 3), (1, 2))), written out so that
    # the passes import nothing of the search that imports them.
    ptr, nbr = np.array([0, 2, 4, 6, 8], np.int64), np.array([1, 2, 0, 3, 0, 3, 1, 2], np.int64)
    color = np.frombuffer(bytearray((1 | ACTIVE, 0, 0, 1 | ACTIVE)), np.uint8)
    link = np.zeros(4, np.uint8)
    heads = np.array([0, 3], np.int64)
    side = np.array([0, 1, 1, 0], np.int8)
    endpoint = np.array([1, 0, 0, 1], np.uint8)
    log = np.empty(sys.modules[__name__].log_size(4, 1), np.int64)  # sized by the pass itself
    no_chord = np.full(nbr.shape[0], -1, np.int64)
    fresh = np.array([1 | ACTIVE, 0, 0, 1 | ACTIVE], np.uint8)
    # explain's board of it: links, each node's links (start, ids), lines needed, an endpoint's flow, Flow Free
    board = (np.array([[0, 1], [0, 2], [1, 3], [2, 3]], np.int64), np.array([0, 2, 4, 6, 8], np.int64),
             np.array([0, 1, 0, 2, 1, 3, 2, 3], np.int64), np.array([1, 2, 2, 1], np.int64),
             np.array([0, -1, -1, 0], np.int64), False)
    return {
        "link_distances": (ptr, nbr, np.array([0, 3], np.int64)),
        "straight_ahead": (ptr, nbr),
        "moves_buffer": (ptr,),
        "log_size": (4, 1),
        "settle_pass": (color, link, ptr, nbr, heads, 0, 2, np.array([0, 3], np.int64), True, 1, side, endpoint, log),
        "chokepoint_pass": (color, ptr, nbr, no_chord, heads, 0, 1, 0, 3),
        "move_pass": (fresh.copy(), link, ptr, nbr, np.array([0, 3], np.int64), 0, 2, True, 1, side, endpoint, log,
                      0, 1, no_chord, 3),
        "fewest_moves": (fresh.copy(), link, ptr, nbr, heads, np.array([0, 1], np.int64), 0, True, endpoint,
                         np.zeros((2, 4), np.int64), np.empty(4, np.int64), np.empty(4, np.int64),
                         np.zeros(2, np.int64)),
        "step_head": (fresh.copy(), np.array([0, 3], np.int64), 0, 1, 0, 2),
        # the 2x2 board's four links (0-1, 0-2, 1-3, 2-3), one 4-cycle, flow 0 from node 0 to node 3
        "exhaust_pass": (ptr, nbr, np.array([0, 1, 0, 2, 1, 3, 2, 3], np.int64),
                         np.array([[0, 1], [0, 2], [1, 3], [2, 3]], np.int64), np.array([0, -1, -1, 0], np.int64),
                         np.array([[0, 2, 3, 1, 1, 3, 2, 0]], np.int64), np.array([0, 1, 2, 3, 4], np.int64),
                         np.zeros(4, np.int64), 2, 2, 100, np.zeros(4, np.uint8), np.array([-2, 1, 2, -2], np.int64),
                         np.zeros(4, np.uint8), np.zeros((32, 3), np.int64), np.zeros(10, np.int64),
                         np.zeros((5, 6), np.int64), np.zeros(4, np.int64), np.zeros(4, np.uint8),
                         np.zeros((128, 2), np.int64), np.zeros((2, 4), np.uint8), np.zeros((4, 2), np.int64),
                         np.array([[0, 0, -1], [2, 0, -1], [0, 1, -1], [2, 1, -1]], np.int64)),
        # the same four links, every node's links in link order, nothing decided yet: two trials, node 0's links
        # each ruled out
        "sweep_trials": (*board, np.zeros(4, np.int8), 4, np.array([0, 1], np.int64), np.array([CUT, CUT], np.int8),
                         0, 2, False, np.zeros((2, 4), np.int8), np.zeros(4, np.int64)),
        # the same board: its first step (node 1 needs both its links: tier 1), the deductions in sight
        "first_step": (*board, np.zeros(4, np.int8), 4, np.zeros(4, np.int64), np.zeros(4, np.int64)),
        "in_sight": (*board, np.zeros(4, np.int8)),
    }


def warm_up() -> Runtime:
    """Load the passes now (compiling them just in time on a machine's first run without a build).

    Batches, ``bench`` and the studio call this before their first puzzle
    so that no puzzle's time includes a load. Every entry point is called
    once (:func:`sample_calls`): numba compiles a function on its first call
    or loads it from its cache, which takes longer than solving a small board.

    Returns
    -------
    Runtime
        With ``warm`` set.
    """
    global _RUNTIME
    bind()
    p = sys.modules[__name__]  # this package, its entry points bound
    calls = sample_calls()
    for entry in ENTRY_POINTS:
        getattr(p, entry.name)(*calls[entry.name])
    with _LOCK:
        _RUNTIME = replace(_RUNTIME, warm=True)
    return _RUNTIME
