"""``flowgraph studio``: a local web page to draw, check, solve and export puzzles."""

from __future__ import annotations

import argparse
import sys
import threading
import webbrowser
from pathlib import Path

from .common import EXIT, add_command, console, positive_int

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "studio", run,
        description="Start the studio on this machine and open it in the browser: draw a board or start from "
        "a template or a generated puzzle, see every problem as you type, solve it (with a replay of the search "
        "and a Stop button), check uniqueness, export text, JSON, SVG or PNG. With FILE, the page opens it and "
        "Save writes it back (the old content to FILE.bak). Ctrl-C stops the server.",
        epilog="examples:\n  flowgraph studio\n  flowgraph studio board.txt --port 8765 --no-browser\n\n"
        "exit status: 0 stopped, 2 usage error (a FILE in a folder that does not exist)",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="the puzzle to open and save (created on the first save)")
    p.add_argument("--port", type=positive_int, default=8765, help="the port (default 8765)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")


def _compile_search() -> None:
    """Load (on a first run: build) the search in the background, so the first Solve does not wait for it."""
    from ..engines import freeze_loaded, get_engine
    from ..engines.search.passes import build_ahead

    build_ahead()  # where it fails the search is compiled just in time, as the studio's first Solve would
    get_engine("search").warm_up()
    freeze_loaded()


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..studio.app import create_app

    err = console("auto", sys.stderr)
    if args.file and Path(args.file).is_dir():
        err.print(f"flowgraph studio: {args.file} is a folder: FILE is the puzzle file to open and save", markup=False)
        return EXIT["usage"]
    if args.file and not Path(args.file).resolve().parent.is_dir():
        err.print(f"flowgraph studio: no folder for {args.file}", markup=False)
        return EXIT["usage"]
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        err.print(f"warning: listening on {args.host}: other machines can reach the studio and save to its FILE",
                  markup=False)
    threading.Thread(target=_compile_search, daemon=True, name="flowgraph-warm-up").start()
    url = f"http://{'localhost' if args.host in ('127.0.0.1', '::1') else args.host}:{args.port}/"
    print(f"flowgraph studio at {url}  (Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        threading.Timer(0.8, webbrowser.open, (url,)).start()
    uvicorn.run(create_app(args.file), host=args.host, port=args.port, log_level="warning")
    return 0
