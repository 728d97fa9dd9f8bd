"""Only the studio's own page and scripts with its token reach it (flowgraph/studio/guard.py, docs/security.md).

The first two tests are issue 33's reproducers: another web page overwrote FILE with a text/plain post
(CSRF), and a request for another host name read it (DNS rebinding).
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from flowgraph.cli import main
from flowgraph.studio.app import create_app
from tests.helpers import PUZZLES
from tests.studio import AUTH, TOKEN, studio_client

HEX = (PUZZLES / "hex" / "honeycomb_5x4.txt").read_text()


@pytest.fixture
def mine(tmp_path):
    target = tmp_path / "mine.txt"
    target.write_text(HEX)
    return target


def test_another_page_cannot_overwrite_file(mine):
    client = studio_client(str(mine))
    res = client.post("/api/save", headers={"Origin": "http://evil.example", "Content-Type": "text/plain"},
                      content=b'{"text":"STANDARD\\nA-.-A\\n"}')
    assert res.status_code == 403 and mine.read_text() == HEX
    # the same post without an Origin (a form in an old browser): not JSON, so refused before any route
    res = client.post("/api/save", headers={"Content-Type": "text/plain"}, content=b'{"text":"STANDARD\\nA-.-A\\n"}')
    assert res.status_code == 415 and mine.read_text() == HEX


def test_a_rebinding_host_cannot_read_file(mine):
    client = studio_client(str(mine))
    res = client.get("/api/file", headers={"Host": "attacker.example"})
    assert res.status_code == 403 and HEX not in res.text
    assert "--allow-host" in res.json()["error"]


@pytest.mark.parametrize("host, allowed", [
    ("localhost", True), ("localhost:8765", True), ("127.0.0.1:8765", True), ("[::1]:8765", True),
    ("LOCALHOST:8765", True), ("studio.lan:8765", True), ("attacker.example", False),
    ("localhost.attacker.example:8765", False), ("127.0.0.1.nip.io", False), ("", False), ("[::1", False),
])
def test_hosts_are_the_listening_address_localhost_and_allowed_names(mine, host, allowed):
    client = studio_client(str(mine), hosts=("studio.lan",))
    res = client.get("/api/constants", headers={"Host": host})
    assert (res.status_code == 200) is allowed, res.text
    assert client.get("/", headers={"Host": host}).status_code == (200 if allowed else 403)


@pytest.mark.parametrize("origin, allowed", [
    (None, True), ("http://localhost:8765", True), ("http://localhost:9999", False),
    ("https://localhost:8765", False), ("http://evil.example", False), ("null", False),
])
def test_an_origin_must_be_the_studios_own(origin, allowed):
    client = studio_client()
    headers = {"Host": "localhost:8765"} | ({"Origin": origin} if origin else {})
    res = client.post("/api/check", json={"text": HEX}, headers=headers)
    assert (res.status_code == 200) is allowed, res.text


@pytest.mark.parametrize("kind, status", [
    ("application/json", 200), ("application/json; charset=utf-8", 200), ("Application/JSON", 200),
    ("text/plain", 415), ("application/x-www-form-urlencoded", 415), ("multipart/form-data; boundary=x", 415),
    (None, 415),
])
def test_posts_are_json_only(kind, status):
    client = studio_client()
    res = client.post("/api/check", content=b'{"text": "STANDARD\\nA-.-A\\n"}',
                      headers={"Content-Type": kind} if kind else {})
    assert res.status_code == status, res.text


@pytest.mark.parametrize("header", [None, "token wrong", f"Bearer {TOKEN}", f"token {TOKEN}x", "token ", TOKEN])
def test_every_api_call_needs_the_token(mine, header):
    client = studio_client(str(mine), token=False)
    headers = {"Authorization": header} if header else {}
    for res in (client.get("/api/file", headers=headers), client.get("/api/constants", headers=headers),
                client.post("/api/save", json={"text": "STANDARD\nA-A\n"}, headers=headers)):
        assert res.status_code == 403 and "token" in res.json()["error"]
    assert mine.read_text() == HEX
    assert client.get("/api/file", headers=AUTH).json()["text"] == HEX


def test_the_page_and_its_files_need_no_token():
    client = studio_client(token=False)
    assert "flowgraph studio" in client.get("/?token=anything").text
    assert client.get("/static/page.js").status_code == 200


def test_each_app_has_its_own_token_unless_one_is_given():
    first, second = create_app(), create_app()
    assert first.state.token != second.state.token and len(first.state.token) >= 40
    assert create_app(token="mine").state.token == "mine"


def _studio_run(argv, monkeypatch):
    """``main(['studio', ...])`` with uvicorn's server replaced: the app and what was printed."""
    import uvicorn

    seen = {}
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: seen.update(
                            app=self.config.app, server=self, sockets=sockets,
                            timeout_graceful_shutdown=self.config.timeout_graceful_shutdown))
    monkeypatch.setattr("flowgraph.cli.studio._compile_search", lambda err=None: None)
    port = [] if "--port" in argv else ["--port", str(_free_port())]
    status = main(["studio", "--no-browser", *port, *argv])
    return status, seen


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_printed_address_carries_the_token(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("FLOWGRAPH_STUDIO_TOKEN", raising=False)
    port = _free_port()
    status, seen = _studio_run(["--port", str(port)], monkeypatch)
    out = capsys.readouterr().out
    # the address bound, not localhost (whose [::1] another user's process may hold: issue 51)
    assert status == 0 and f"http://127.0.0.1:{port}/?token={seen['app'].state.token}" in out
    assert seen["timeout_graceful_shutdown"] == 0.5
    monkeypatch.setenv("FLOWGRAPH_STUDIO_TOKEN", "from-the-environment")
    _, seen = _studio_run([], monkeypatch)
    assert seen["app"].state.token == "from-the-environment"
    _, seen = _studio_run(["--token", "from-the-option"], monkeypatch)
    assert seen["app"].state.token == "from-the-option"
    status, _ = _studio_run(["--token", "two words"], monkeypatch)
    assert status == 2


def test_allow_host_and_the_listening_address_are_answered(monkeypatch):
    _, seen = _studio_run(["--host", "0.0.0.0", "--allow-host", "studio.lan", "--token", TOKEN], monkeypatch)
    client = studio_client(app=seen["app"], base_url="http://testserver")
    for host in ("studio.lan:8765", "0.0.0.0:8765", "localhost:8765"):
        assert client.get("/api/constants", headers={"Host": host}).status_code == 200
    assert client.get("/api/constants", headers={"Host": "other.lan:8765"}).status_code == 403


def test_file_must_be_a_regular_file_at_start(monkeypatch, tmp_path, capsys):
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    status, seen = _studio_run([str(fifo)], monkeypatch)
    assert status == 2 and not seen and "neither a regular file nor a folder" in capsys.readouterr().err


def test_a_folder_as_file_starts_the_studio_read_only(monkeypatch, tmp_path):
    (tmp_path / "a.txt").write_text("STANDARD\nA-.-A\n")
    status, seen = _studio_run([str(tmp_path), "--token", TOKEN], monkeypatch)
    assert status == 0 and seen["app"].state.folder == tmp_path.resolve() and seen["app"].state.file is None
    client = studio_client(app=seen["app"], base_url="http://testserver")
    assert [f["name"] for f in client.get("/api/file", headers={"Host": "localhost:8765"}).json()["files"]] == ["a.txt"]


def test_file_swapped_for_a_fifo_symlink_or_a_huge_file_is_refused_at_once(tmp_path):
    target = tmp_path / "board.txt"
    client = studio_client(str(target))
    assert client.get("/api/file").json()["text"] == ""  # absent: an empty board
    os.mkfifo(target)
    t0 = time.monotonic()
    res = client.get("/api/file")  # a FIFO blocked the event loop until a writer came
    assert res.status_code == 422 and "not a regular file (a FIFO)" in res.json()["error"]
    assert time.monotonic() - t0 < 5
    assert client.post("/api/save", json={"text": HEX}).status_code == 409
    target.unlink()
    elsewhere = tmp_path / "secret.txt"
    elsewhere.write_text("not the studio's to read")
    target.symlink_to(elsewhere)
    assert client.get("/api/file").status_code == 422
    assert client.post("/api/save", json={"text": HEX}).status_code == 409
    assert elsewhere.read_text() == "not the studio's to read"
    target.unlink()
    with open(target, "wb") as fh:
        fh.truncate(200_000_000)
    res = client.get("/api/file")
    assert res.status_code == 422 and "over the 4 MB limit" in res.json()["error"]


def test_other_requests_are_answered_while_file_is_read(tmp_path):
    target = tmp_path / "board.txt"
    os.mkfifo(target)
    with studio_client(str(target)) as client:
        answers = []
        threads = [threading.Thread(target=lambda: answers.append(client.get("/api/file").status_code))
                   for _ in range(4)]
        for t in threads:
            t.start()
        assert client.get("/api/constants").status_code == 200
        for t in threads:
            t.join(10)
        assert answers == [422] * 4


HEAVY_URL = "https://puzz.link/p?numlin/200/200/1zzzz1"  # 42 bytes, 40,000 cells: issue 33's heavy request


def test_a_board_above_the_picture_bound_is_checked_not_drawn():
    from flowgraph.studio.handlers import MAX_PICTURE_CELLS

    client = studio_client()
    res = client.post("/api/check", json={"text": HEAVY_URL})
    assert res.status_code == 200 and len(res.content) < 10_000  # was a 21 MB answer
    data = res.json()
    assert data["valid"] and data["cells"] == 40_000 and data["svg"] is None and data["links"] == []
    assert f"at most {MAX_PICTURE_CELLS:,}" in data["picture"]
    res = client.post("/api/render", json={"text": HEAVY_URL})
    assert res.status_code == 422 and "at most" in res.json()["error"]


def test_the_gate_runs_a_few_heavy_requests_queues_some_and_refuses_the_rest():
    import asyncio

    from flowgraph.studio.gate import Gate, HttpError

    started = []

    def slow(n):
        started.append(n)
        time.sleep(0.3)
        return n

    async def flood():
        gate = Gate(workers=2, queue=1)
        return await asyncio.gather(*(gate.run(slow, n) for n in range(5)), return_exceptions=True)

    answers = asyncio.run(flood())
    assert answers[:3] == [0, 1, 2] and sorted(started) == [0, 1, 2]
    assert all(isinstance(a, HttpError) and a.status == 429 and a.headers == {"Retry-After": "1"} for a in answers[3:])


def test_heavy_requests_beyond_the_queue_are_429_and_light_ones_still_answer(monkeypatch):
    from flowgraph.studio import app, handlers

    release = threading.Event()
    monkeypatch.setattr(handlers, "check", lambda body: release.wait(10) and {"valid": True})
    client = studio_client()
    codes: list[int] = []
    threads = [threading.Thread(target=lambda: codes.append(client.post("/api/check", json={"text": "x"}).status_code))
               for _ in range(app.WORKERS + app.QUEUE + 3)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and len(codes) < 3:
        time.sleep(0.05)
    t0 = time.monotonic()
    assert client.get("/api/constants").status_code == 200 and time.monotonic() - t0 < 1
    release.set()
    for t in threads:
        t.join(10)
    assert sorted(codes) == [200] * (app.WORKERS + app.QUEUE) + [429] * 3


def test_convert_to_a_level_pack_keeps_to_its_time_limit(monkeypatch):
    """Issue 33: asked 1 s, the level-pack writer's solve took 59.7 s."""
    import flowgraph.authoring.solved
    from flowgraph.errors import SearchLimitError

    asked = []

    def out_of_time(puzzle, engine, limits):
        asked.append(limits)
        raise SearchLimitError("time", {})

    monkeypatch.setattr(flowgraph.authoring.solved, "solve_puzzle", out_of_time)  # where the writer's solve is
    res = studio_client().post("/api/convert", json={"text": HEX, "to": "level-pack", "time_limit_s": 1})
    assert res.status_code == 422 and "no solution found in 1 s" in res.json()["error"]
    assert [(a.time_limit_s, a.search_first) for a in asked] == [(1, True)]


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_the_server_stops_within_a_second_whatever_it_is_doing(sig, tmp_path):
    """Issue 33: with a FIFO as FILE or large boards being read the server did not stop (or took seconds)."""
    import http.client
    import json
    import signal
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    fifo = tmp_path / "fifo.txt"
    board = tmp_path / "board.txt"
    server = subprocess.Popen([sys.executable, "-m", "flowgraph", "studio", str(board), "--no-browser", "--port",
                               str(port)], env={**os.environ, "FLOWGRAPH_STUDIO_TOKEN": TOKEN},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def send(method, path, data=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request(method, path, body=data, headers={**AUTH, "Content-Type": "application/json"})
            return conn.getresponse().status
        except OSError:
            return 0
        finally:
            conn.close()

    try:
        for _ in range(200):
            if send("GET", "/api/constants") == 200:
                break
            time.sleep(0.05)
        os.mkfifo(fifo)
        os.replace(fifo, board)  # FILE is now a FIFO with no writer
        large = json.dumps({"text": HEAVY_URL, "time_limit_s": 100})
        busy = [threading.Thread(target=send, args=("POST", path, large), daemon=True)
                for path in ("/api/check", "/api/check", "/api/check", "/api/solve")]
        busy.append(threading.Thread(target=send, args=("GET", "/api/file"), daemon=True))
        for t in busy:
            t.start()
        stalled = socket.create_connection(("127.0.0.1", port))  # a body that never ends (issue 51: 1.4 s, a traceback)
        stalled.sendall(f"POST /api/check HTTP/1.1\r\nHost: localhost\r\nAuthorization: token {TOKEN}\r\n"
                        "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"text\": ".encode())
        time.sleep(1.0)
        t0 = time.monotonic()
        server.send_signal(getattr(signal, sig))
        server.wait(10)
        assert time.monotonic() - t0 < 1.0  # issue 51: it took 1.8-2.1 s
        assert "Traceback" not in server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()


def _studio_process(argv, env=None):
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "flowgraph", "studio", *argv],
                            env={**os.environ, "FLOWGRAPH_STUDIO_TOKEN": TOKEN, **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_browser_is_given_a_private_redirect_file_not_the_token_and_never_keeps_the_studio_alive(tmp_path):
    """Issue 51: the token URL was the browser's argv (every user reads it), a blocking BROWSER outlived Ctrl-C,
    and the address opened was localhost, whose [::1] a port squatter may hold."""
    import signal
    import stat

    seen = tmp_path / "argv.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {seen}.part && mv {seen}.part {seen}\nexec sleep 30 >/dev/null 2>&1\n')
    browser.chmod(0o755)
    port = _free_port()
    server = _studio_process(["--port", str(port)], {"BROWSER": str(browser)})
    try:
        for _ in range(400):
            if seen.exists():
                break
            time.sleep(0.05)
        argv = seen.read_text().split()
        assert len(argv) == 1 and argv[0].startswith("file://") and TOKEN not in argv[0]
        page = argv[0].removeprefix("file://")
        assert stat.S_IMODE(os.stat(page).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.dirname(page)).st_mode) == 0o700
        assert f"http://127.0.0.1:{port}/?token={TOKEN}" in open(page).read()
        t0 = time.monotonic()
        server.send_signal(signal.SIGINT)
        server.wait(10)
        assert time.monotonic() - t0 < 2.0 and not os.path.exists(os.path.dirname(page))
    finally:
        if server.poll() is None:
            server.kill()
    assert f"http://127.0.0.1:{port}/?token=" in server.stdout.read()


def test_a_busy_port_is_one_line_and_status_2_before_any_address_is_printed():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        server = _studio_process(["--no-browser", "--port", str(taken.getsockname()[1])])
        out, err = server.communicate(timeout=30)
    assert server.returncode == 2 and out == "" and "the port is in use" in err and len(err.splitlines()) == 1


def test_a_symlink_loop_as_file_is_one_line_and_status_2(tmp_path, capsys, monkeypatch):
    loop = tmp_path / "a"
    os.symlink(loop, loop)
    status, seen = _studio_run([str(loop)], monkeypatch)
    err = capsys.readouterr().err
    assert status == 2 and not seen and "a loop of symlinks" in err and len(err.splitlines()) == 1


def test_pack_n_opens_the_pack_at_level_n_and_never_makes_a_file_of_that_name(monkeypatch, tmp_path):
    """Issue 53: ``flowgraph studio 'pack.txt#3'`` opened a blank board and Save would have made ``pack.txt#3``."""
    pack = tmp_path / "pack.txt"
    pack.write_text("5,0,1,5;18,17,12;21,16,11,6;3,4,9;0,1,2,7,8,13,14,19,24,23,22;20,15,10,5\n" * 3)
    status, seen = _studio_run([f"{pack}#3", "--token", TOKEN], monkeypatch)
    assert status == 0
    answer = studio_client(app=seen["app"], base_url="http://127.0.0.1:8765").get("/api/file").json()
    assert answer["path"] == str(pack) and answer["level"] == 3 and answer["text"] == pack.read_text()
    assert not (tmp_path / "pack.txt#3").exists()
    _, seen = _studio_run([str(pack), "--token", TOKEN], monkeypatch)
    assert "level" not in studio_client(app=seen["app"], base_url="http://127.0.0.1:8765").get("/api/file").json()


def test_a_first_run_says_the_search_is_being_compiled_on_the_terminal(monkeypatch):
    """Issue 53: the first Solve on a fresh machine said "solving..." for 34 s, with no word of the build."""
    import io

    from rich.console import Console

    from flowgraph.cli import studio
    from flowgraph.kernels import cache

    monkeypatch.setattr(cache, "compiled", lambda ahead=False: False)
    monkeypatch.setattr("flowgraph.kernels.build_ahead", lambda: None)
    said = io.StringIO()
    studio._compile_search(Console(file=said, width=200))
    lines = said.getvalue().splitlines()
    assert lines[0].startswith("flowgraph studio: compiling the search engine, once for this machine")
    assert lines[1].startswith("flowgraph studio: search engine compiled in")
    monkeypatch.setattr(cache, "compiled", lambda ahead=False: True)
    said = io.StringIO()
    studio._compile_search(Console(file=said))
    assert said.getvalue() == ""
