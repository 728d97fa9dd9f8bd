"""Where the compiled kernels' entry points are declared: each with :func:`kernel` where it is defined.

An entry point is a kernel the rest of flowgraph calls from Python. It is declared once, above its
``@njit`` in its own module, with the numba signature it is built for::

    @kernel("i8[::1](i8[::1], i8[::1])")
    @njit(cache=True)
    def straight_ahead(ptr, nbr):
        ...

Everything else is derived from those declarations (:data:`ENTRY_POINTS`): the module built ahead
of time exports them (:mod:`.aot`), the facade binds them, lists them in its ``__all__`` and checks
their array arguments (:mod:`flowgraph.kernels`), the just-in-time cache counts as complete when each
has its index file (:mod:`.cache`). The table is read from the package's source text, not by importing
its modules, so that a process running the kernels built ahead of time never imports numba; the
signature is therefore written as string literals (adjacent ones may continue it over lines). A test
checks that the declarations seen on import are the ones read from the text, and names a kernel that
has no sample call in :func:`flowgraph.kernels.sample_calls` or no line in the facade's type-checking
imports. Imports no numba.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

__all__ = ["EntryPoint", "ENTRY_POINTS", "NAMES", "kernel", "declared", "array_arguments"]

_F = TypeVar("_F", bound=Callable)
# A declaration in the source: @kernel("..." "...") with the next decorators, then the function's name.
_DECLARATION = re.compile(r'^@kernel\(((?:\s*"[^"\n]*")+)\s*\)[ \t]*\n(?:@[^\n]*\n)*def (\w+)\(', re.M)
#: What :func:`kernel` saw, as modules were imported: (module, name) -> signature (the tests compare it with the
#: table read from the text).
SEEN: dict[tuple[str, str], str] = {}


def kernel(signature: str) -> Callable[[_F], _F]:
    """Declare the function below as an entry point built for the numba ``signature``; it is returned as is.

    Parameters
    ----------
    signature : str
        Its numba signature, e.g. ``"i8(u1[::1], i8)"``: the one the module built ahead of time is
        compiled for and the only one the facade lets through. String literals only (the table is
        read from the source text).
    """

    def declare(fn: _F) -> _F:
        py = getattr(fn, "py_func", fn)  # numba's dispatcher, or the function itself (NUMBA_DISABLE_JIT)
        SEEN[(py.__module__.rsplit(".", 1)[-1], py.__name__)] = signature
        return fn

    return declare


@dataclass(frozen=True)
class EntryPoint:
    """One function the search calls from Python.

    Attributes
    ----------
    name : str
        The function's name, in its pass module and in the built module.
    module : str
        The pass module that defines it (``settle`` for ``kernels/settle.py``).
    signature : str
        Its numba signature: the one the module built ahead of time is
        compiled for, and the only one the facade lets through.
    """

    name: str
    module: str
    signature: str

def declared(folder: Path | None = None) -> tuple[EntryPoint, ...]:
    """Every :func:`kernel` declaration in the ``*.py`` files of ``folder`` (this package), read from their text:
    by module name, then in the order they stand.

    Raises
    ------
    RuntimeError
        Two declarations share a name.
    """
    found: list[EntryPoint] = []
    for path in sorted((folder or Path(__file__).parent).glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "@kernel(" not in text:
            continue
        for match in _DECLARATION.finditer(text):
            signature = "".join(re.findall(r'"([^"\n]*)"', match.group(1)))
            found.append(EntryPoint(match.group(2), path.stem, signature))
    names = [entry.name for entry in found]
    if len(set(names)) != len(names):
        raise RuntimeError(f"two kernels share a name: {sorted(n for n in names if names.count(n) > 1)}")
    return tuple(found)


#: Every entry point: :func:`flowgraph.kernels.warm_up` calls them in this order.
ENTRY_POINTS: tuple[EntryPoint, ...] = declared()
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
