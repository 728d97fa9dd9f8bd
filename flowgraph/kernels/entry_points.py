"""The one table of the functions the search calls from Python: where each is defined and its signature.

Everything else is derived from :data:`ENTRY_POINTS`: the module built ahead
of time exports these (:mod:`.aot`), the facade binds them and checks their
array arguments (:mod:`flowgraph.kernels`), the just-in-time
cache counts as complete when each has its index file (:mod:`.cache`), and
the tests check that the search's calls have exactly these signatures.
Adding an entry point: define it in its pass module, add its row here and a
sample call in :func:`flowgraph.kernels.sample_calls` (a test
names a row without one). Imports no numba.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EntryPoint", "ENTRY_POINTS", "NAMES", "array_arguments"]

_C = "u1[::1]"  # colour and link bytes
_I = "i8[::1]"  # node and slot arrays


@dataclass(frozen=True)
class EntryPoint:
    """One function the search calls from Python.

    Attributes
    ----------
    name : str
        The function's name, in its pass module and in the built module.
    module : str
        The pass module that defines it (``settle`` for ``passes/settle.py``).
    signature : str
        Its numba signature: the one the module built ahead of time is
        compiled for, and the only one the facade lets through.
    """

    name: str
    module: str
    signature: str


#: Every entry point, in the order :func:`flowgraph.kernels.warm_up` calls them.
ENTRY_POINTS: tuple[EntryPoint, ...] = (
    EntryPoint("link_distances", "layout", f"i8[:, ::1]({_I}, {_I}, {_I})"),
    EntryPoint("straight_ahead", "layout", f"{_I}({_I}, {_I})"),
    EntryPoint("moves_buffer", "moves", f"{_I}({_I})"),
    EntryPoint("log_size", "settle", "i8(i8, i8)"),
    EntryPoint("settle_pass", "settle",
               f"UniTuple(i8, 4)({_C}, {_C}, {_I}, {_I}, {_I}, i8, i8, {_I}, b1, i8, i1[::1], {_C}, {_I})"),
    EntryPoint("chokepoint_pass", "chokepoints", f"i8({_C}, {_I}, {_I}, {_I}, {_I}, i8, i8, i8, i8)"),
    EntryPoint("move_pass", "settle",
               f"UniTuple(i8, 4)({_C}, {_C}, {_I}, {_I}, {_I}, i8, i8, b1, i8, i1[::1], {_C}, {_I}, i8, i8, {_I}, i8)"),
    EntryPoint("fewest_moves", "moves",
               f"UniTuple(i8, 2)({_C}, {_C}, {_I}, {_I}, {_I}, {_I}, i8, b1, {_C}, i8[:, ::1], {_I}, {_I}, {_I})"),
    EntryPoint("step_head", "moves", f"UniTuple(i8, 2)({_C}, {_I}, i8, i8, i8, i8)"),
    EntryPoint("exhaust_pass", "exhaust",
               f"i8({_I}, {_I}, {_I}, i8[:, ::1], {_I}, i8[:, ::1], {_I}, {_I}, i8, i8, i8, {_C}, {_I}, {_C}, i8[:, ::1], "
               f"{_I}, i8[:, ::1], {_I}, {_C}, i8[:, ::1], u1[:, ::1], i8[:, ::1], i8[:, ::1])"),
    EntryPoint("sweep_trials", "trials",
               f"UniTuple(i8, 4)(i8[:, ::1], {_I}, {_I}, {_I}, {_I}, i1[::1], i8, {_I}, i1[::1], i8, i8, b1, i1[:, ::1], {_I})"),
)
#: The entry points by name.
NAMES: dict[str, EntryPoint] = {entry.name: entry for entry in ENTRY_POINTS}


def array_arguments(signature: str) -> tuple[tuple[int, str, int], ...]:
    """The array arguments of a numba signature: (position, dtype name, dimensions) each.

    >>> array_arguments("i8(u1[::1], i8, i8[:, ::1])")
    ((0, 'uint8', 1), (2, 'int64', 2))
    """
    depth, start = 0, len(signature) - 1
    for start in range(len(signature) - 1, -1, -1):  # the argument list: the last top-level parentheses
        depth += (signature[start] == ")") - (signature[start] == "(")
        if depth == 0:
            break
    args, depth, word = [], 0, ""
    for char in signature[start + 1:-1] + ",":
        depth += (char in "([") - (char in ")]")
        if char == "," and depth == 0:
            args.append(word.strip())
            word = ""
        else:
            word += char
    names = {"i8": "int64", "u1": "uint8", "i1": "int8"}
    return tuple((i, names[a[:a.index("[")]], a.count(",") + 1) for i, a in enumerate(args) if "[" in a)
