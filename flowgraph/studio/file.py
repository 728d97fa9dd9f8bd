"""The studio's FILE (``flowgraph studio FILE``): read it (a folder: its puzzle files, within bounds), and Save.

The server reads and writes no other path: FILE, and FILE.bak for its previous content, held by FILE's folder
opened at start (:class:`HeldFile`). FILE is read only while it is a regular file of at most
:data:`~flowgraph.io.files.MAX_BYTES`, never through a symlink; Save writes a new file and renames it over
FILE.bak and FILE, replacing, never following, whatever stands there (docs/security.md). Names in replies are
UTF-8 (:func:`flowgraph.io.files.shown_name`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse

from ..io.files import MAX_BYTES, WRITTEN_BESIDE, describe_size, natural_key, read_bounded, shown_name

__all__ = ["MAX_FOLDER_FILES", "MAX_FOLDER_BYTES", "read_file", "save_file", "HeldFile"]



#: A folder given as FILE: the most puzzle files read (the rest are counted as passed over).
MAX_FOLDER_FILES = 500
#: A folder given as FILE: the most bytes read in all (each file also at most MAX_BYTES).
MAX_FOLDER_BYTES = 32 * 1024 * 1024
#: Files of a folder that are no puzzle text: pictures (scanned one by one in the page) and backups.
NOT_PUZZLES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg", ".bak", ".pyc")


async def read_file(request: Request) -> JSONResponse:
    """Answer ``GET /api/file``: FILE's text (or the folder's levels), or an empty board without one."""
    if request.app.state.folder is not None:  # up to MAX_FOLDER_BYTES: a heavy request, through the gate
        return JSONResponse(await request.app.state.gate.run(_read_folder, request.app.state.folder))
    held: HeldFile | None = request.app.state.held
    if held is None:  # not an error: the page starts on a new board (a 404 would be logged on every load)
        return JSONResponse({"path": None, "text": ""})
    try:
        text = await run_in_threadpool(_read_file, held)
    except (OSError, UnicodeDecodeError) as exc:
        return JSONResponse({"error": f"cannot read {held.shown}: {getattr(exc, 'strerror', None) or exc}"},
                            status_code=422)
    answer: dict = {"path": held.shown_path, "text": text}
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
        return {"path": shown_name(folder), "folder": True, "files": [], "skipped": 0,
                "error": f"cannot read the folder {shown_name(folder.name)}: {exc.strerror or exc}"}
    for name in names:
        if len(files) >= MAX_FOLDER_FILES or total >= MAX_FOLDER_BYTES:
            skipped += 1
            continue
        try:
            data = read_bounded(folder / name, min(MAX_BYTES, MAX_FOLDER_BYTES - total), follow_symlinks=False)
            files.append({"name": shown_name(name), "text": data.decode("utf-8")})
            total += len(data)
        except (OSError, UnicodeDecodeError):  # gone, replaced by a symlink, too large, not text
            skipped += 1
    return {"path": shown_name(folder), "folder": True, "files": files, "skipped": skipped}


def _read_file(held: HeldFile) -> str:
    """FILE's text, "" while it does not exist; only a regular file (no symlink) of at most MAX_BYTES is read."""
    data = held.read()
    return "" if data is None else data.decode("utf-8")


async def save_file(request: Request, read_body: Callable[[Request], Awaitable[dict]]) -> JSONResponse:
    """Answer ``POST /api/save``: save the board to FILE.

    ``POST /api/save`` ``{text}``: FILE written (its old content to FILE.bak); the body read by ``read_body``
    (the app's bounded reader) only once the studio has a FILE to write."""
    held: HeldFile | None = request.app.state.held
    if request.app.state.folder is not None:
        return JSONResponse({"error": "the studio was started with a folder: export instead"}, status_code=404)
    if held is None:
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
        await run_in_threadpool(held.save, content)
    except OSError as exc:
        return JSONResponse({"error": f"cannot save {held.shown}: {exc.strerror or exc}"}, status_code=409)
    return JSONResponse({"saved": held.shown_path, "bytes": len(content)})


class HeldFile:
    """The studio's FILE, held by its folder: the folder is opened once, at start, and FILE, FILE.bak and the
    temporary files are names in that open folder (``openat``-style calls, ``dir_fd``), never paths walked again.

    So a folder of the path swapped for a symlink after start changes nothing (the studio writes where it
    started), and no name is followed: FILE is opened with ``O_NOFOLLOW`` and its type checked on the open
    descriptor, and a save writes a new file under a temporary name and renames it over FILE.bak and FILE,
    replacing whatever stands there, a symlink renamed over FILE during the save included, never writing
    through it (the save raced such a swap when it checked first and wrote after). A FILE that is read-only,
    or has a second hard link (a save would part this name from the other), is not saved: the save says why.

    Parameters
    ----------
    path : Path
        FILE as resolved at start; its folder must exist.

    Raises
    ------
    OSError
        The folder cannot be opened.
    """

    def __init__(self, path: Path):
        self.path, self.name = path, path.name
        self.shown, self.shown_path = shown_name(path.name), shown_name(path)  # (a reply's text: names in UTF-8)
        self.folder = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))

    def read(self) -> bytes | None:
        """FILE's bytes (a regular file, no symlink, at most MAX_BYTES), None while there is no FILE."""
        try:
            return read_bounded(self.name, MAX_BYTES, follow_symlinks=False, dir_fd=self.folder)
        except FileNotFoundError:
            return None

    def save(self, content: bytes) -> None:
        """Save ``content`` as FILE, keeping the old content as FILE.bak.

        ``content`` as FILE, its old content as FILE.bak first; nothing changed when it fails (OSError)."""
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(self.name, flags, dir_fd=self.folder)
        except FileNotFoundError:  # a new FILE
            self._replace(self.name, content, None)
            return
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OSError(errno.EEXIST, f"{self.shown} is a symlink now: not saved") from None
            raise
        try:
            like = os.fstat(fd)  # the type of what was opened, not of what a name pointed to before
            if not stat.S_ISREG(like.st_mode):
                kind = "a folder" if stat.S_ISDIR(like.st_mode) else "not a regular file"
                raise OSError(errno.EEXIST, f"{self.shown} is {kind} now: not saved")
            if not like.st_mode & stat.S_IWUSR:
                raise OSError(errno.EACCES, f"{self.shown} is read-only (mode {stat.S_IMODE(like.st_mode):04o}): "
                              "not saved; make it writable to save over it")
            if like.st_nlink > 1:
                raise OSError(errno.EMLINK, f"{self.shown} has {like.st_nlink - 1} other name (hard link): a save "
                              "would write a new file under this name only and part it from the other; not saved")
            if like.st_size > MAX_BYTES:
                raise OSError(errno.EFBIG, f"{self.shown} is over the {describe_size(MAX_BYTES)} limit: not saved")
            with os.fdopen(os.dup(fd), "rb", buffering=0) as fh:
                old = fh.read(MAX_BYTES + 1)
        finally:
            os.close(fd)
        self._replace(self.name + ".bak", old, like)
        self._replace(self.name, content, like)

    def _replace(self, name: str, content: bytes, like: os.stat_result | None) -> None:
        """``content`` under a new temporary name in the folder, then renamed over ``name``: whatever stood
        at ``name`` is replaced, never written through; it keeps ``like``'s mode (and owner, where this
        process may give it)."""
        import secrets

        temp = f".{self.name}.{secrets.token_hex(6)}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_CLOEXEC", 0), 0o600, dir_fd=self.folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(content)
                fh.flush()
                if like is None:
                    mask = os.umask(0)
                    os.umask(mask)
                    os.fchmod(fh.fileno(), 0o666 & ~mask)  # the usual mode of a new file
                else:
                    os.fchmod(fh.fileno(), stat.S_IMODE(like.st_mode))
                    with contextlib.suppress(PermissionError):  # not ours to give away: keep this process's
                        os.fchown(fh.fileno(), like.st_uid, like.st_gid)
                os.fsync(fh.fileno())
            os.replace(temp, name, src_dir_fd=self.folder, dst_dir_fd=self.folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=self.folder)
            raise
