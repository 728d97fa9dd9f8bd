"""``flowgraph studio``: a local web page to draw, check, solve and export puzzles."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import webbrowser
from pathlib import Path
from urllib.parse import quote

from ..studio.guard import TOKEN_ENV
from .common import EXIT, add_command, console, positive_int

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "studio", run,
        description="Start the studio on this machine and open it in the browser: draw a board or start from "
        "a template or a generated puzzle, see every problem as you type, solve it (with a replay of the search "
        "and a Stop button), check uniqueness, export text, JSON, SVG or PNG; play a board as the game does (drag "
        "the paths, Hint, Restart); open a level pack, a file of puzz.link URLs or a folder of puzzles in the level "
        "browser; share a board as a link, a puzz.link URL or a level-pack line. With FILE, the page opens it and "
        "Save writes it back (the old content to FILE.bak); a level pack, a file of URLs or a FOLDER opens in the "
        "level browser, and Save is off. Ctrl-C stops the server.",
        epilog="examples:\n  flowgraph studio\n  flowgraph studio board.txt --port 8765 --no-browser\n"
        "  flowgraph studio puzzles/standard --no-browser\n"
        "  FLOWGRAPH_STUDIO_TOKEN=secret flowgraph studio --no-browser &\n"
        "  curl -H 'Authorization: token secret' -H 'Content-Type: application/json' \\\n"
        "       -d '{\"text\": \"STANDARD\\nA-.-A\\n\"}' http://localhost:8765/api/check\n\n"
        "Only the page the studio opens, and scripts that send its token, are answered: the\n"
        "address it prints carries a new secret token each launch (?token=...), and requests\n"
        "from other web pages or for other host names are refused (docs/security.md).\n\n"
        "exit status: 0 stopped, 2 usage error (a FILE in a folder that does not exist, or not a regular file or\n"
        "folder)",
    )
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="the puzzle to open and save (created on the first save), or a folder of puzzles to browse")
    p.add_argument("--port", type=positive_int, default=8765, help="the port (default 8765)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--token", metavar="TOKEN",
                   help=f"the secret the page and scripts send (default: ${TOKEN_ENV}, else a new random one each "
                   "launch; an option is seen by other users in the process list, the variable is not)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="answer requests for this host name too (repeatable; localhost, 127.0.0.1, [::1] and the "
                   "--host address always)")


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
    from ..studio.guard import new_token

    err = console("auto", sys.stderr)
    folder = bool(args.file) and Path(args.file).is_dir()  # a folder of puzzles: browsed, never written
    if args.file and not folder and not Path(args.file).resolve().parent.is_dir():
        err.print(f"flowgraph studio: no folder for {args.file}", markup=False)
        return EXIT["usage"]
    if args.file and not folder and Path(args.file).exists() and not Path(args.file).is_file():
        err.print(f"flowgraph studio: {args.file} is neither a regular file nor a folder: FILE is the puzzle file "
                  "to open and save, or a folder of puzzles to browse", markup=False)
        return EXIT["usage"]
    token = args.token or os.environ.get(TOKEN_ENV) or new_token()
    if any(c.isspace() or not c.isprintable() for c in token):
        err.print("flowgraph studio: the token is one word of printable characters", markup=False)
        return EXIT["usage"]
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        err.print(f"warning: listening on {args.host}: other machines can reach the studio and save to its FILE",
                  markup=False)
    threading.Thread(target=_compile_search, daemon=True, name="flowgraph-warm-up").start()
    name = "localhost" if args.host in ("127.0.0.1", "::1", "localhost") else args.host
    url = f"http://{f'[{name}]' if ':' in name else name}:{args.port}/?token={quote(token)}"
    print(f"flowgraph studio at {url}  (Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        threading.Timer(0.8, webbrowser.open, (url,)).start()
    app = create_app(args.file, token=token, hosts=(args.host, *args.allow_host))

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            # Ctrl-C or SIGTERM: solves stop, open heavy requests are answered 503 at once (their threads are
            # daemons, not waited for), the rest get 1 s: the server is gone in about a second.
            app.state.gate.stop()
            app.state.solves.stop_all()
            super().handle_exit(sig, frame)

    server = Server(uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                                   timeout_graceful_shutdown=1))
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped
        pass
    return 0
