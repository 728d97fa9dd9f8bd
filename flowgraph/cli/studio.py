"""``flowgraph studio``: a local web page to draw, check, solve and export puzzles."""

from __future__ import annotations

import argparse
import errno
import html
import os
import shutil
import socket
import sys
import tempfile
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..io.files import level_ref

if TYPE_CHECKING:
    from rich.console import Console
from ..studio.guard import TOKEN_ENV
from .common import EXIT, add_command, console, positive_int

__all__ = ["add_parser", "run", "listen", "open_in_browser"]

#: Seconds an idle keep-alive connection stays open (requests at once are bounded by the app, MAX_REQUESTS).
KEEP_ALIVE_S = 5


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add ``flowgraph studio`` and its options to the command line."""
    p = add_command(
        sub, "studio", run,
        description="Start the studio on this machine and open it in the browser: draw a board or start from "
        "a template or a generated puzzle, see every problem as you type, solve it (with a replay of the search "
        "and a Stop button), check uniqueness, export text, JSON, SVG or PNG; play a board as the game does (drag "
        "the paths, Hint, Restart); open a level pack, a file of puzz.link URLs or a folder of puzzles in the level "
        "browser; share a board as a page anyone can open and play, a puzz.link URL or a level-pack line. "
        "With FILE, the page opens it and "
        "Save writes it back (the old content to FILE.bak); a level pack, a file of URLs or a FOLDER opens in the "
        "level browser, and Save is off. Ctrl-C stops the server.",
        epilog="examples:\n  flowgraph studio\n  flowgraph studio board.txt --port 8765 --no-browser\n"
        "  flowgraph studio puzzles/standard --no-browser\n"
        "  FLOWGRAPH_STUDIO_TOKEN=secret flowgraph studio --no-browser &\n"
        "  curl -H 'Authorization: token secret' -H 'Content-Type: application/json' \\\n"
        "       -d '{\"text\": \"STANDARD\\nA-.-A\\n\"}' http://127.0.0.1:8765/api/check\n\n"
        "Only the page the studio opens, and scripts that send its token, are answered: the\n"
        "address it prints carries a new secret token each launch (?token=...), and requests\n"
        "from other web pages or for other host names are refused (docs/security.md).\n\n"
        "exit status: 0 stopped, 2 usage error (a FILE in a folder that does not exist, or not a regular file or\n"
        "folder; the port in use)",
    )
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="the puzzle to open and save (created on the first save), a folder of puzzles to browse, "
                   "or PACK#N: a level pack opened at its level N")
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


def _compile_search(err: Console | None = None) -> None:
    """Load (on a first run: build) the search in the background, so the first Solve does not wait for it.

    A first run's build (:data:`flowgraph.kernels.cache.BUILD_NOTE`) is said on ``err`` as it starts and ends; a
    Solve or Hint meanwhile answers with SAT (no replay, no technique named) and never waits for it.
    """
    import time

    from ..engines import freeze_loaded, get_engine
    from ..kernels import build_ahead
    from ..kernels.cache import BUILD_NOTE, compiled

    t0 = time.perf_counter()
    building = err is not None and not compiled()
    if building and err is not None:
        err.print(f"flowgraph studio: {BUILD_NOTE}; a Solve or Hint meanwhile answers with SAT", markup=False)
    build_ahead()  # where it fails the search is compiled just in time, as the studio's first Solve would
    get_engine("search").warm_up()
    freeze_loaded()
    if building and err is not None:
        err.print(f"flowgraph studio: search engine compiled in {time.perf_counter() - t0:.1f} s", markup=False)


def _target(path: str) -> tuple[Path | None, str | None]:
    """FILE resolved once, or why it cannot be the studio's FILE (a symlink loop, no folder for it, a FIFO)."""
    try:
        target = Path(path).resolve()
        folder = target.is_dir()
        exists = target.exists()
        parent = target.parent.is_dir()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python < 3.13)
        why = "a loop of symlinks" if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP \
            else (exc.strerror or str(exc))
        return None, f"{path}: cannot be opened: {why}"
    if folder:
        return target, None
    if not parent:
        return None, f"no folder for {path}"
    if exists and not target.is_file():
        return None, (f"{path} is neither a regular file nor a folder: FILE is the puzzle file to open and save, "
                      "or a folder of puzzles to browse")
    return target, None


def listen(host: str, port: int) -> tuple[socket.socket, str]:
    """A socket listening on ``host``:``port``, and the address a browser on this machine opens to reach it.

    The address printed and opened is the one bound (``127.0.0.1``, not ``localhost``): a browser tries
    ``localhost``'s ``[::1]`` first, where another user's process could be listening on the same port and
    take the token.

    Raises
    ------
    OSError
        The port is in use, or the address is not this machine's.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    bind = "127.0.0.1" if host == "localhost" else host
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((bind, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(bind, bind)
    return sock, f"http://{f'[{shown}]' if ':' in shown else shown}:{sock.getsockname()[1]}"


def open_in_browser(url: str) -> Path | None:
    """Open ``url`` in the browser through a private redirect file; the file, or None when it could not be written.

    The token never reaches a command line (every user of the machine reads the browser's), as Jupyter
    Server does (its ``jpserver-PID-open.html``): the browser is given a file readable by this user only
    (mode 0600, in a 0700 folder) whose page goes on to ``url``. The caller removes the file's folder.
    """
    folder = Path(tempfile.mkdtemp(prefix="flowgraph-studio-"))
    page = folder / "open.html"
    escaped = html.escape(url, quote=True)
    try:
        fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={escaped}">'
                     f'<title>flowgraph studio</title><p><a href="{escaped}">Open the flowgraph studio</a></p>\n')
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)
        return None
    # a daemon thread: a BROWSER command that blocks never keeps the studio alive after Ctrl-C
    threading.Thread(target=webbrowser.open, args=(page.as_uri(),), daemon=True, name="flowgraph-browser").start()
    return folder


def run(args: argparse.Namespace) -> int:
    """Run ``flowgraph studio`` on its parsed options; returns the exit status."""
    import uvicorn

    from ..studio.app import create_app
    from ..studio.guard import new_token

    err = console("auto", sys.stderr)
    target = level = None
    if args.file:
        ref = level_ref(args.file)  # PACK#N of an existing PACK: the pack, opened at level N (no file "PACK#N")
        if ref is not None:
            args.file, level = ref
        target, why = _target(args.file)
        if why is not None:
            err.print(f"flowgraph studio: {why}", markup=False)
            return EXIT["usage"]
    token = args.token or os.environ.get(TOKEN_ENV) or new_token()
    if any(c.isspace() or not c.isprintable() for c in token):
        err.print("flowgraph studio: the token is one word of printable characters", markup=False)
        return EXIT["usage"]
    try:
        sock, address = listen(args.host, args.port)
    except OSError as exc:
        in_use = exc.errno == errno.EADDRINUSE
        err.print(f"flowgraph studio: cannot listen on {args.host}:{args.port}: "
                  + ("the port is in use (another studio?): choose another with --port" if in_use
                     else exc.strerror or str(exc)), markup=False)
        return EXIT["usage"]
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        err.print(f"warning: listening on {args.host}: other machines can reach the studio and save to its FILE",
                  markup=False)
    threading.Thread(target=_compile_search, args=(err,), daemon=True, name="flowgraph-warm-up").start()
    app = create_app(str(target) if target is not None else None, token=token,
                     hosts=(args.host, *args.allow_host), level=level)
    url = f"{address}/?token={quote(token)}"
    print(f"flowgraph studio at {url}  (Ctrl-C stops it)", flush=True)  # listening already: connections wait
    opened = None if args.no_browser else open_in_browser(url)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            # Ctrl-C or SIGTERM: solves stop, open heavy requests and bodies being received are answered 503 at
            # once (their threads are daemons, not waited for), the rest get half a second: gone within a second.
            sys.setswitchinterval(1e-4)  # the event loop gets the GIL from boards still being read, and ends fast
            app.state.gate.stop()
            app.state.solves.stop_all()
            app.state.bodies.stop()  # (uvicorn calls this on the event loop's thread)
            super().handle_exit(sig, frame)

    # (uvicorn types the grace as whole seconds; it waits with asyncio.wait_for, which takes half of one)
    grace: Any = 0.5
    server = Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=grace,
                                   timeout_keep_alive=KEEP_ALIVE_S))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped
        pass
    finally:
        sock.close()
        if opened is not None:
            shutil.rmtree(opened, ignore_errors=True)
    return 0
