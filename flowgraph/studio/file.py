"""The studio's FILE (``flowgraph studio FILE``): read it (a folder: its puzzle files, within bounds), and Save.

The server reads and writes no other path: FILE, and FILE.bak for its previous content. FILE is read only while
it is a regular file of at most :data:`~flowgraph.io.files.MAX_BYTES`, never through a symlink; Save writes
atomically and replaces, never follows, a symlink at FILE.bak (docs/security.md).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from ..io.files import MAX_BYTES, WRITTEN_BESIDE, describe_size, natural_key, read_bounded, write_atomic

__all__ = ["MAX_FOLDER_FILES", "MAX_FOLDER_BYTES", "read_file", "save_file"]



#: A folder given as FILE: the most puzzle files read (the rest are counted as passed over).
MAX_FOLDER_FILES = 500
#: A folder given as FILE: the most bytes read in all (each file also at most MAX_BYTES).
MAX_FOLDER_BYTES = 32 * 1024 * 1024
#: Files of a folder that are no puzzle text: pictures (scanned one by one in the page) and backups.
NOT_PUZZLES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg", ".bak", ".pyc")


async def read_file(request: Request) -> JSONResponse:
    if request.app.state.folder is not None:  # up to MAX_FOLDER_BYTES: a heavy request, through the gate
        return JSONResponse(await request.app.state.gate.run(_read_folder, request.app.state.folder))
    target = request.app.state.file
    if target is None:  # not an error: the page starts on a new board (a 404 would be logged on every load)
        return JSONResponse({"path": None, "text": ""})
    try:
        text = await run_in_threadpool(_read_file, target)
    except (OSError, UnicodeDecodeError) as exc:
        return JSONResponse({"error": f"cannot read {target.name}: {getattr(exc, 'strerror', None) or exc}"},
                            status_code=422)
    answer: dict = {"path": str(target), "text": text}
    if request.app.state.level is not None:
        answer["level"] = request.app.state.level
    return JSONResponse(answer)


def _read_folder(folder: Path) -> dict:
    """The puzzle files of ``folder`` in name order: its regular files only (no symlink followed, no
    subfolder, none hidden, no picture), each of at most MAX_BYTES and UTF-8, within MAX_FOLDER_FILES and
    MAX_FOLDER_BYTES; every file passed over is counted in ``skipped``."""
    files: list[dict] = []
    skipped = total = 0
    try:
        with os.scandir(folder) as entries:
            listed = [e for e in entries if not e.name.startswith(".")
                      and not e.name.lower().endswith((*NOT_PUZZLES, *WRITTEN_BESIDE))]
            names = sorted((e.name for e in listed if e.is_file(follow_symlinks=False)), key=natural_key)
            skipped = sum(e.is_symlink() for e in listed)  # never followed, but said
    except OSError as exc:
        return {"path": str(folder), "folder": True, "files": [], "skipped": 0,
                "error": f"cannot read the folder {folder.name}: {exc.strerror or exc}"}
    for name in names:
        if len(files) >= MAX_FOLDER_FILES or total >= MAX_FOLDER_BYTES:
            skipped += 1
            continue
        try:
            data = read_bounded(folder / name, min(MAX_BYTES, MAX_FOLDER_BYTES - total), follow_symlinks=False)
            files.append({"name": name, "text": data.decode("utf-8")})
            total += len(data)
        except (OSError, UnicodeDecodeError):  # gone, replaced by a symlink, too large, not text
            skipped += 1
    return {"path": str(folder), "folder": True, "files": files, "skipped": skipped}


def _read_file(target: Path) -> str:
    """FILE's text, "" while it does not exist; only a regular file (no symlink) of at most MAX_BYTES is read."""
    try:
        data = read_bounded(target, MAX_BYTES, follow_symlinks=False)
    except FileNotFoundError:
        return ""
    return data.decode("utf-8")


async def save_file(request: Request, read_body: Callable[[Request], Awaitable[dict]]) -> JSONResponse:
    """``POST /api/save`` ``{text}``: FILE written (its old content to FILE.bak); the body read by ``read_body``
    (the app's bounded reader) only once the studio has a FILE to write."""
    target = request.app.state.file
    if request.app.state.folder is not None:
        return JSONResponse({"error": "the studio was started with a folder: export instead"}, status_code=404)
    if target is None:
        return JSONResponse({"error": "the studio was started without a FILE: export instead"}, status_code=404)
    data = await read_body(request)
    text = data.get("text")
    if not isinstance(text, str):
        return JSONResponse({"error": "'text' must be a string"}, status_code=400)
    try:
        content = text.encode("utf-8")  # before any file is touched: a lone surrogate cannot be written
    except UnicodeEncodeError as exc:
        return JSONResponse({"error": f"'text' cannot be written as UTF-8: {exc.reason}"}, status_code=400)
    if len(content) > MAX_BYTES:
        return JSONResponse({"error": f"'text' is over the {describe_size(MAX_BYTES)} limit of a puzzle file"},
                            status_code=413)
    try:
        await run_in_threadpool(_save, target, content)
    except OSError as exc:
        return JSONResponse({"error": f"cannot save {target.name}: {exc.strerror or exc}"}, status_code=409)
    return JSONResponse({"saved": str(target), "bytes": len(content)})


def _save(target: Path, content: bytes) -> None:
    """Write ``content`` to ``target`` atomically; the old content goes to ``target.bak`` first.

    Both files are written as a temporary file in the same folder, then
    renamed over the name (:func:`flowgraph.io.files.write_atomic`): a
    symlink at ``target.bak`` is replaced, never followed, and both keep
    ``target``'s permission bits (and its owner, where this process may
    set it).
    """
    try:
        like = os.lstat(target)
    except FileNotFoundError:
        write_atomic(target, content)
        return
    if not stat.S_ISREG(like.st_mode):
        kind = "a symlink" if stat.S_ISLNK(like.st_mode) else "a folder" if stat.S_ISDIR(like.st_mode) else \
            "not a regular file"
        raise OSError(errno.EEXIST, f"{target.name} is {kind} now: not saved")
    old = read_bounded(target, MAX_BYTES, follow_symlinks=False)
    write_atomic(target.with_name(target.name + ".bak"), old, like=like, replace_special=True)
    write_atomic(target, content, like=like)
