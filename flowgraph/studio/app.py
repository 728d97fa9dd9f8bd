"""The studio's web app: a thin JSON API over :mod:`.handlers`, and the page in ``static/``.

Endpoints (all JSON; ``POST`` bodies are objects, at most :data:`MAX_BODY` bytes):

=====================================  ==============================================================
``POST /api/check``                    ``{text, format?}`` -> validity, problems (line, column), the board as SVG
``POST /api/render``                   ``{text, paths?, theme?, labels?, png?}`` -> ``{svg}`` or ``{png}`` (base64)
``POST /api/count``                    ``{text, time_limit_s?}`` -> ``{verdict, solutions, differ, svgs}``
``POST /api/new``                      ``{family, width, height, wrap?}`` -> ``{text}`` (a template)
``POST /api/generate``                 ``{family, width, height, seed?, bridges?}`` -> ``{text, figures}``
``POST /api/convert``                  ``{text, format?, to}`` -> ``{text, rules}``
``POST /api/levels``                   ``{text, name?, offset?, count?}`` -> a page of a pack's levels, thumbnails
``POST /api/verify``                   ``{text, paths}`` -> ``{solved, problems}``: a player's paths, by the verifier
``POST /api/edit``                     ``{text, action, xy?, to?, index?}`` -> ``{text}``: cells, bridges, links, warps
``POST /api/hint``                     ``{text, done?}`` -> ``{label, path}``: one flow of the solution
``POST /api/solve``                    ``{text, time_limit_s?, frames?}`` -> ``{job}`` (202); the previous solve stops
``GET /api/solve/{job}``               -> ``{status, paths, stats, svg, frames}`` once it is done
``POST /api/solve/{job}/stop``         stops it on the server
``GET /api/constants``                 -> ``{labels, families, rules, formats, max_time_limit_s}``
``GET /api/file``                      -> ``{path, text}`` of the FILE the studio was started with (path null without;
                                         ``level``: N of ``PACK#N``, the level to open first);
                                       for a folder ``{path, folder: true, files: [{name, text}], skipped}``
``POST /api/save``                     ``{text}`` -> writes FILE (atomically, the old content to FILE.bak)
``POST /api/scan``                     ``{image}`` (base64) -> ``{text, valid, summary}``: a screenshot read
=====================================  ==============================================================

Positions are ``[line, column]`` everywhere (a cell's place in the neighbor-link text, as in
solutions; a bridge's two lanes share theirs), except ``/api/edit``'s ``xy``, a place on the
board's grid, since a hole has no text of its own. Every body that carries ``text`` may carry
``rules`` (``flow`` or ``numberlink``; default: the text's own, a puzz.link ``numlin`` URL
being Numberlink's).

Errors: 400 ``{error}`` for a malformed request, 413 for a body over the
limit or a request that alone takes more memory than :data:`MEMORY_BUDGET`,
422 ``{error, problems}`` for puzzle text that cannot be used, 429 and 503
from the gate (and 429 when bodies being received hold
:data:`MAX_BODIES_BYTES`, 408 for a body that stalls), each raised as an
exception and answered by the app's exception handlers; 404 (no FILE, an unknown job), 409 (FILE cannot be
saved) and 422 (FILE cannot be read) are answered where they arise, by the
routes of FILE and of solves; 403 and 415 by :mod:`.guard`. The server
reads and writes no path but FILE (and FILE.bak), never through a symlink, and reads FILE only
while it is a regular file of at most :data:`flowgraph.io.files.MAX_BYTES`. Started with a
folder, it saves nothing and reads only the folder's own regular files (no symlink, no
subfolder, none hidden), at most :data:`.file.MAX_FOLDER_FILES` of them and :data:`.file.MAX_FOLDER_BYTES` in all.

Who may call it: :mod:`.guard` (the Host, the Origin, JSON bodies and the per-launch token,
``Authorization: token TOKEN``), before any route runs.

Heavy requests (check, render, count, generate, convert, levels, hint, scan, starting a
solve, and reading a folder given as FILE: each reads a whole board or many) run in the
thread pool through one :class:`.gate.Gate`: at most
:data:`WORKERS` at once and :data:`QUEUE` waiting; beyond that the answer is 429 with
``Retry-After``, so a flood of large boards cannot hold the memory or the event loop, and the
light requests (constants, file, save, verify, edit, a solve's status) answer at once.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..io.problems import exact_int
from . import costs, handlers, hints, solves
from .file import HeldFile, read_file, save_file
from .gate import Gate, HttpError
from .guard import Guard, new_token
from .solves import solve_json

__all__ = ["create_app", "MAX_BODY", "Gate", "Bodies", "Capacity", "WORKERS", "QUEUE", "MEMORY_BUDGET",
           "MAX_BODIES_BYTES", "BODY_STALL_S", "MAX_REQUESTS"]

#: The largest request body the studio reads (bytes; reading stops there: 413).
MAX_BODY = 4 * 1024 * 1024
#: Heavy requests (a whole board read) that run at once: the cores, 2 to 4.
WORKERS = max(2, min(4, os.cpu_count() or 2))
#: Heavy requests that may wait for a turn; more are answered 429.
QUEUE = 2 * WORKERS
#: Memory the heavy requests running at once may take together (bytes, as weighed by flowgraph.io.footprint before
#: each runs): a request that alone takes more is 413, others wait their turn; the studio stays under 1 GB.
MEMORY_BUDGET = 768 * 1024 * 1024
#: Bytes of request bodies being received at once, all connections together (beyond it: 429).
MAX_BODIES_BYTES = 32 * 1024 * 1024
#: Seconds a request body may stall between two of its parts (then 408: a slow client holds nothing long).
BODY_STALL_S = 10.0
#: Requests the studio answers at once, all kinds together; beyond them 429 (with MAX_BODIES_BYTES, what slow
#: clients can hold).
MAX_REQUESTS = 64


class Capacity:
    """ASGI middleware: at most ``limit`` requests in flight; the next is 429 with ``Retry-After``, at once.

    (uvicorn's ``limit_concurrency`` answers 503, a server fault to every client; a client that sends
    too much at once is told to slow down instead.)
    """

    def __init__(self, app, limit: int):
        self.app, self.limit, self.open = app, limit, 0

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.open >= self.limit:
            payload = json.dumps({"error": "the studio is answering too many requests: try again in a moment"})
            await send({"type": "http.response.start", "status": 429, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                (b"retry-after", b"1")]})
            await send({"type": "http.response.body", "body": payload.encode()})
            return
        self.open += 1  # (on the event loop: no lock needed)
        try:
            await self.app(scope, receive, send)
        finally:
            self.open -= 1
STATIC = Path(__file__).parent / "static"


def create_app(file: str | None = None, *, token: str | None = None, hosts: tuple[str, ...] = (),
               level: int | None = None) -> Starlette:
    """The studio app behind its :class:`.guard.Guard`.

    Parameters
    ----------
    file : str, optional
        The one path it may read and save (None: no file); a symlink given
        here is resolved once, and none is followed after. A folder is
        read, never written: its puzzle files open in the level browser.
    token : str, optional
        The secret every ``/api/`` request must carry (default: a fresh
        :func:`.guard.new_token`); ``app.state.token``.
    hosts : tuple of str
        Host names to answer to besides ``localhost``, ``127.0.0.1`` and
        ``[::1]`` (the listening address, ``--allow-host`` names).
    level : int, optional
        The level of ``file`` (a level pack, ``PACK#N``) the page opens first, from 1.
    """
    routes = [
        Route("/", index),
        Route("/api/check", endpoint(handlers.check, costs.reading_cost), methods=["POST"]),
        Route("/api/render", endpoint(handlers.render, costs.render_cost), methods=["POST"]),
        Route("/api/count", endpoint(handlers.count, costs.solving_cost), methods=["POST"]),
        Route("/api/new", endpoint(handlers.new), methods=["POST"]),
        Route("/api/generate", endpoint(handlers.generate, costs.generate_cost), methods=["POST"]),
        Route("/api/convert", endpoint(handlers.convert, costs.convert_cost), methods=["POST"]),
        Route("/api/levels", endpoint(handlers.levels, costs.reading_cost), methods=["POST"]),
        Route("/api/constants", read_constants),
        Route("/api/verify", endpoint(handlers.verify_paths), methods=["POST"]),
        Route("/api/edit", endpoint(handlers.edit_board), methods=["POST"]),
        Route("/api/hint", endpoint(hints.hint, costs.solving_cost), methods=["POST"]),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/solve/{job}", job_status),
        Route("/api/solve/{job}/stop", job_stop, methods=["POST"]),
        Route("/api/file", read_file),
        Route("/api/save", save, methods=["POST"]),
        Route("/api/scan", endpoint(handlers.scan_picture, costs.scan_cost), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    token = token or new_token()
    app = Starlette(routes=routes, exception_handlers={
        HttpError: _http_error, handlers.BadRequest: _bad_request, handlers.Unprocessable: _unprocessable},
        middleware=[Middleware(Capacity, limit=MAX_REQUESTS), Middleware(Guard, token=token, hosts=hosts)])
    app.state.token = token
    app.state.gate = Gate(WORKERS, QUEUE, MEMORY_BUDGET)
    app.state.bodies = Bodies(MAX_BODIES_BYTES)
    app.state.solves = solves.Solves()
    target = Path(file).resolve() if file else None
    app.state.folder = target if target is not None and target.is_dir() else None
    app.state.file = None if app.state.folder is not None else target
    app.state.held = HeldFile(app.state.file) if app.state.file is not None else None  # FILE by its folder, now
    app.state.level = level if app.state.file is not None else None
    return app


async def body(request: Request) -> dict:
    """The request's JSON object (413 over :data:`MAX_BODY`, 400 when it is not a JSON object).

    The body is read in chunks and reading stops at :data:`MAX_BODY` bytes,
    whatever the headers say (a chunked upload has no length). The bytes
    being received count against the app's :class:`Bodies` (429 when all
    connections together hold :data:`MAX_BODIES_BYTES`); a body that stalls
    for :data:`BODY_STALL_S` is 408; a client that hangs up is answered
    nothing and leaves no trace.
    """
    too_big = HttpError(413, f"the request is over {MAX_BODY // (1024 * 1024)} MB")
    size = request.headers.get("content-length", "")
    if size.isascii() and size.isdigit() and len(size) < 20 and int(size) > MAX_BODY:
        raise too_big
    bodies: Bodies = request.app.state.bodies
    if bodies.stopping:
        raise HttpError(503, "the studio is stopping")
    chunks: list[bytes] = []
    held = 0
    stream = request.stream().__aiter__()
    reader = asyncio.current_task()
    bodies.reading.add(reader)
    try:
        while True:
            try:
                chunk = await asyncio.wait_for(stream.__anext__(), BODY_STALL_S)
            except StopAsyncIteration:
                break
            except asyncio.TimeoutError:
                raise HttpError(408, f"the request's body stalled for {BODY_STALL_S:g} s") from None
            except ClientDisconnect:
                raise HttpError(400, "the client hung up") from None
            except asyncio.CancelledError:
                if not bodies.stopping:
                    raise
                raise HttpError(503, "the studio is stopping") from None
            if held + len(chunk) > MAX_BODY:
                raise too_big
            bodies.take(len(chunk))
            held += len(chunk)
            chunks.append(chunk)
        raw = b"".join(chunks)
        chunks.clear()  # (one copy of the body at a time)
        return parse_body(raw)
    finally:
        bodies.give(held)
        bodies.reading.discard(reader)


class Bodies:
    """The bytes of request bodies being received, all connections together: at most ``limit`` (else 429).

    :meth:`stop` ends every body still being received (a stalled client held the server's exit for its
    graceful-shutdown second, and left a traceback): each is answered 503.
    """

    def __init__(self, limit: int):
        self.limit, self.held = limit, 0
        self.reading: set = set()  # the tasks receiving a body now
        self.stopping = False

    def stop(self) -> None:
        """Answer every body being received 503 now (on the event loop, from the server's exit)."""
        self.stopping = True
        for task in list(self.reading):
            task.cancel()

    def take(self, n: int) -> None:
        """Count ``n`` more bytes (on the event loop: no lock needed); 429 (``HttpError``) past the limit."""
        if self.held + n > self.limit:
            raise HttpError(429, "the studio is receiving too much at once: try again in a moment", {"Retry-After": "1"})
        self.held += n

    def give(self, n: int) -> None:
        """Give back ``n`` bytes of the gate's budget."""
        self.held -= n


def _whole_number(text: str) -> int:
    value = exact_int(text)
    if value is None:
        raise ValueError(f"the whole number {text[:20]}{'...' if len(text) > 20 else ''} is beyond 2**53")
    return value


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def parse_body(raw: bytes) -> dict:
    """A request body as a JSON object; 400 (``HttpError``) for anything else.

    Whole numbers are at most 2**53 (JSON's exact integers; Python's
    ``int`` would spend time on 4,300 digits and then refuse them), ``NaN``
    and ``Infinity`` are refused, and nesting deeper than the parser's stack
    is a 400 like any other malformed body.
    """
    try:
        value = json.loads(raw or b"{}", parse_int=_whole_number, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        message = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise HttpError(400, f"the body is not JSON: {message}") from None
    if not isinstance(value, dict):
        raise HttpError(400, "the body is a JSON object")
    return value


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HttpError)
    return JSONResponse({"error": exc.message}, status_code=exc.status, headers=exc.headers)


async def _bad_request(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=400)


async def _unprocessable(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, handlers.Unprocessable)
    return JSONResponse({"error": str(exc), "problems": [p.to_json() for p in exc.problems]}, status_code=422)


def endpoint(fn, cost=None):
    """An HTTP handler for one :mod:`.handlers` function, run in the thread pool: the event loop keeps answering.
    A heavy one (``cost(body) -> (bytes, cells)``, its memory weighed before it runs) goes through the app's
    :class:`Gate`. Its errors (``BadRequest``, ``Unprocessable``, a body too large or malformed, 429) are the
    app's exception handlers' to answer."""
    async def handle(request: Request) -> JSONResponse:
        data = await body(request)
        if cost is not None:  # (weighed off the event loop: counting a 4 MB text's cells takes 0.06 s)
            return JSONResponse(await request.app.state.gate.run(fn, data, cost=await run_in_threadpool(cost, data)))
        return JSONResponse(await run_in_threadpool(fn, data))

    return handle


async def solve(request: Request) -> JSONResponse:
    """Start a solve off the event loop (its board read through the gate); 202 with its job."""
    solves = request.app.state.solves
    data = await body(request)
    # weighed as the whole solve (it runs after the gate, one at a time: a new solve stops the last)
    job = await request.app.state.gate.run(solves.start, data, cost=await run_in_threadpool(costs.solving_cost, data))
    # a daemon thread: a stopping server tells it to stop (Solves.stop_all) and does not wait for it
    threading.Thread(target=solves.run, args=(job,), daemon=True, name="flowgraph-studio-solve").start()
    return JSONResponse(solve_json(job), status_code=202)


async def job_status(request: Request) -> JSONResponse:
    job = request.app.state.solves.get(request.path_params["job"])
    if job is None:
        return JSONResponse({"error": "no such solve"}, status_code=404)
    return JSONResponse(solve_json(job))


async def job_stop(request: Request) -> JSONResponse:
    if not request.app.state.solves.stop(request.path_params["job"]):
        return JSONResponse({"error": "no such solve"}, status_code=404)
    return JSONResponse({"stopping": True})


async def read_constants(request: Request) -> JSONResponse:
    return JSONResponse(handlers.constants())


async def save(request: Request) -> JSONResponse:
    return await save_file(request, body)


async def index(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")
