"""The call path of one command, from argv to the printed answer: which of flowgraph's modules it enters, and how
often a call climbs back from a lower layer to a higher one.

    python bench/call_path.py solve puzzles/standard/regular_10x10.txt
    python bench/call_path.py --list solve puzzles/standard/regular_10x10.txt   # and each module, in order

A profile hook (``sys.setprofile``) sees every Python call while ``flowgraph.cli.main(argv)`` runs; a call
counts where its function is defined in a flowgraph module (a module's own code, run as it is imported, is
not a call of the path; the compiled kernels' code is not Python and is not seen). "Entered" counts the
distinct modules whose functions run; "climbs" counts the (caller, callee) module pairs of calls whose
callee's layer is above its caller's (a callback, or a lower layer reaching up), the layers as the import
graph stands them: the core, the kernels and the verifier, io and the engines, authoring and render, batch,
scan and the API, the studio and the package, the command line.
"""

from __future__ import annotations

import argparse
import io
import sys
from contextlib import redirect_stdout

LAYERS = [  # (prefix, layer): the first that matches
    ("flowgraph.cli", 7), ("flowgraph.studio", 6), ("flowgraph.batch", 5), ("flowgraph.scan", 5),
    ("flowgraph.api", 5), ("flowgraph.render", 4), ("flowgraph.authoring", 4), ("flowgraph.io", 3),
    ("flowgraph.engines", 3), ("flowgraph.kernels", 2), ("flowgraph.verification", 2), ("flowgraph", 1),
]
TOP = "flowgraph"  # the package's __init__: as high as the studio


def layer(module: str) -> int:
    if module == TOP:
        return 6
    return next(level for prefix, level in LAYERS if module == prefix or module.startswith(prefix + "."))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print each module entered, in order")
    parser.add_argument("argv", nargs=argparse.REMAINDER, help="the command's arguments (as after 'flowgraph')")
    args = parser.parse_args()
    from flowgraph.cli import main as cli_main

    entered: list[str] = []
    climbs: list[tuple[str, str]] = []  # each (caller, callee) pair once
    stack: list[str] = []

    def hook(frame, event, _arg):
        if event == "call":
            module = frame.f_globals.get("__name__", "")
            caller = stack[-1] if stack else None
            if (module == TOP or module.startswith(TOP + ".")) and frame.f_code.co_name != "<module>":
                if module not in entered:
                    entered.append(module)
                if caller and caller != module and layer(module) > layer(caller) and (caller, module) not in climbs:
                    climbs.append((caller, module))
                stack.append(module)
            else:
                stack.append(caller or "")
        elif event == "return" and stack:
            stack.pop()

    out = io.StringIO()
    sys.setprofile(hook)
    try:
        with redirect_stdout(out):
            code = cli_main(args.argv)
    finally:
        sys.setprofile(None)
    if args.list:
        for module in entered:
            print(f"  {layer(module)}  {module}")
        for caller, callee in climbs:
            print(f"  climb: {caller} ({layer(caller)}) -> {callee} ({layer(callee)})")
    print(f"flowgraph {' '.join(args.argv)}: exit {code}, {len(entered)} modules entered, {len(climbs)} climbs to a "
          "higher layer (caller, callee pairs)")


if __name__ == "__main__":
    main()
