"""Global prunings over the free cells, compiled with numba.

The search spends most of its time here: every settled state needs one
pass over all free nodes. The pass is written over plain int arrays (the
adjacency in CSR form, the colour bytes, the head of every slot) so that
numba compiles it to machine code; the compiled code is cached beside the
package, so only the first run on a machine pays the compile (a few
seconds).

Functions return a reason code, 0 when the state survives; :data:`REASONS`
turns a code into the words :func:`flowgraph.engines.search.prune_reason` reports.

Notes
-----
Regions and cut nodes come from one iterative depth-first pass with
Tarjan's low-link numbers (R. Tarjan, "Depth-first search and linear graph
algorithms", SIAM J. Computing 1(2), 1972). Flow sets are int64 bitmasks,
so a board has at most 63 flows (the colour byte's limit too).
"""
