"""The search's per-state passes, compiled with numba, one module per rule.

The search spends most of its time here: every settled state needs a pass
over the nodes near its last changes and one over all free nodes. The
passes are written over plain int arrays (the adjacency in CSR form, the
colour and link bytes, the head of every slot) so that numba compiles them to
machine code.

* :mod:`.cache` — where the compiled code is kept (imported first);
* :mod:`.codes` — colour bits, reason codes, the small shared tests;
* :mod:`.layout` — once per solve: link distances and the straight-on map;
* :mod:`.links` — links known to be used between free nodes (fragments);
* :mod:`.moves` — a head's moves (the self-touch rule) and a step;
* :mod:`.bends` — the loose-bend walk;
* :mod:`.regions` — regions and cut nodes: stranded regions and flows,
  parity, dead pockets, bottlenecks;
* :mod:`.chokepoints` — narrow corridors beside a head;
* :mod:`.settle` — forced moves, forced links and local dead ends near the
  changes until nothing changes, then the region pass; the one call per
  child state (:func:`.settle.move_pass`); :func:`.settle.warm_up`.

Functions return a reason code, 0 when the state survives;
:data:`.codes.REASONS` turns a code into the words
:func:`flowgraph.engines.search.prune_reason` reports.

Notes
-----
The compiled code is cached in one folder per hash of this package's
source (:mod:`.cache`), so only the first run on a machine pays the
compile, and an edit of any pass compiles them all again: numba alone
checks a cached function against its own file only, and would run a stale
copy of a pass that another pass calls. ``NUMBA_DISABLE_JIT=1`` runs the
passes as plain Python, to step through them in a debugger.

Flow sets are int64 bitmasks, so a board has at most 63 flows (the colour
byte's limit too).
"""

from . import cache  # noqa: F401  (before any pass is compiled: it places their cache)
