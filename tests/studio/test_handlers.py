"""The studio's JSON API through Starlette's test client: every endpoint, bad input included."""

from __future__ import annotations

import json
import time

import pytest

from flowgraph import parse_file, parse_text, verify
from flowgraph.model import Solution
from flowgraph.studio.app import MAX_BODY, create_app
from tests.helpers import PUZZLES
from tests.studio import studio_client

HEX = (PUZZLES / "hex" / "honeycomb_5x4.txt").read_text()
OPEN = (PUZZLES / "standard" / "open_field_8x8.txt").read_text()


def test_page_and_static(client):
    assert "flowgraph studio" in client.get("/").text
    for module in ("main", "page", "board", "actions", "play", "levels", "share"):
        assert client.get(f"/static/{module}.js").status_code == 200
    constants = client.get("/api/constants").json()
    assert constants["families"] == ["standard", "hex", "warps", "bridges"]
    assert constants["rules"] == [{"name": "flow", "display_name": "Flow Free", "fills_every_cell": True},
                                  {"name": "numberlink", "display_name": "Numberlink", "fills_every_cell": False}]
    assert constants["labels"].startswith("ABC") and "level-pack" in constants["formats"]


def test_the_board_numbers_its_rows_and_columns_as_the_hints_name_cells(client):
    """The studio's board numbers its rows and columns as every message names a cell (r3c5: row 3, column 5)."""
    import re

    board = client.post("/api/check", json={"text": (PUZZLES / "standard" / "regular_5x5.txt").read_text()}).json()
    rulers = re.findall(r'<text class="ruler"[^>]*>(\d+)</text>', board["svg"])
    assert rulers == [str(n) for n in range(1, 6)] * 2  # the rows, then the columns
    picture = client.post("/api/render", json={"text": HEX}).json()["svg"]
    assert 'class="ruler"' not in picture  # a picture to download: only when it asks for labels


def test_check_valid_and_invalid(client):
    ok = client.post("/api/check", json={"text": HEX}).json()
    assert ok["valid"] and ok["flows"] == 4 and ok["svg"].startswith("<svg")
    bad = client.post("/api/check", json={"text": "STANDARD\nA-.-B\n"}).json()
    assert not bad["valid"] and bad["problems"][0] == {
        "line": 2, "column": 1, "severity": "error", "message": "label 'A' appears once; each label appears exactly twice"}
    grid = client.post("/api/check", json={"text": "A.A\nB.B\n", "format": "plain-grid"}).json()
    assert grid["valid"] and grid["format"] == "plain-grid"


@pytest.mark.parametrize("path, body, code", [
    ("/api/check", b"not json", 400),
    ("/api/check", b"[1, 2]", 400),
    ("/api/check", b'{"text": 5}', 400),
    ("/api/check", b'{"text": "A", "format": "svg"}', 400),
    ("/api/render", b'{"text": "STANDARD\\nA-.-B\\n", "solution": true}', 422),
    ("/api/render", b'{"text": "HEX\\n"}', 422),
    ("/api/count", b'{"text": "STANDARD\\nA-A\\n", "time_limit_s": -1}', 400),
    ("/api/new", b'{"family": "cube"}', 400),
    ("/api/new", b'{"width": 0}', 400),
    ("/api/generate", b'{"family": "standard", "width": 3, "height": 3, "bridges": 9}', 400),
    ("/api/convert", b'{"text": "STANDARD\\nA-.-B\\n| | |\\nB-.-A\\n", "to": "level-pack"}', 422),  # no solution
    ("/api/solve", b'{"text": "STANDARD\\nA-.-B\\n"}', 422),
])
def test_bad_input_is_400_or_422_never_500(client, path, body, code):
    res = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert res.status_code == code, res.text
    assert "error" in res.json()
    if code == 422 and path != "/api/convert":
        assert isinstance(res.json()["problems"], list)


def test_bodies_over_the_limit_are_413(client):
    res = client.post("/api/check", content=b"{" + b" " * (MAX_BODY + 1) + b"}",
                      headers={"Content-Type": "application/json"})
    assert res.status_code == 413


def test_render_svg_png_and_paths(client):
    assert client.post("/api/render", json={"text": HEX, "theme": "light"}).json()["svg"].startswith("<svg")
    assert len(client.post("/api/render", json={"text": HEX, "png": True}).json()["png"]) > 100
    assert client.post("/api/render", json={"text": HEX, "paths": {"Q": []}}).status_code == 400


def test_render_a_solution_at_a_size_and_a_template_as_it_stands(client):
    import base64
    import io

    from PIL import Image

    small = client.post("/api/render", json={"text": HEX, "png": True, "cell_px": 16}).json()["png"]
    large = client.post("/api/render", json={"text": HEX, "png": True, "cell_px": 64}).json()["png"]
    w_small = Image.open(io.BytesIO(base64.b64decode(small))).width
    assert Image.open(io.BytesIO(base64.b64decode(large))).width > 3 * w_small
    solved = client.post("/api/render", json={"text": HEX, "solution": True}).json()["svg"]
    assert solved.count('class="pipe"') == len(parse_text(HEX).flows)
    template = client.post("/api/new", json={"family": "standard", "width": 4, "height": 3}).json()["text"]
    drawn = client.post("/api/render", json={"text": template, "png": True}).json()
    assert Image.open(io.BytesIO(base64.b64decode(drawn["png"]))).width > 100  # no flows yet, drawn all the same
    assert client.post("/api/render", json={"text": template, "solution": True}).status_code == 422
    assert client.post("/api/render", json={"text": HEX, "cell_px": 500}).status_code == 400


def test_count_new_generate_convert(client):
    assert client.post("/api/count", json={"text": HEX}).json()["verdict"] == "unique"
    several = client.post("/api/count", json={"text": OPEN}).json()
    assert several["verdict"] == "multiple" and several["differ"]
    template = client.post("/api/new", json={"family": "hex", "width": 4, "height": 3}).json()["text"]
    assert template.startswith("HEX\n")
    made = client.post("/api/generate", json={"family": "warps", "width": 5, "height": 5, "seed": 3}).json()
    assert made["figures"]["flows"] >= 2 and client.post("/api/count", json={"text": made["text"]}).json()["verdict"] == "unique"
    as_json = client.post("/api/convert", json={"text": HEX, "to": "json-graph"}).json()["text"]
    assert client.post("/api/check", json={"text": as_json}).json()["valid"]
    page = client.post("/api/convert", json={"text": HEX, "to": "html"}).json()  # issue 72: Share's page
    assert page["text"].startswith("<!doctype html>") and page["rules"] == "flow"


def _wait(client, job, seconds=30):
    t0 = time.time()
    while time.time() - t0 < seconds:
        data = client.get(f"/api/solve/{job}").json()
        if data["status"] != "running":
            return data
        time.sleep(0.05)
    raise AssertionError("the solve did not finish")


def test_while_the_search_is_built_solve_and_hint_answer_with_sat_at_once(client, monkeypatch):
    """Issue 53: the first Solve on a fresh machine said "solving…" for 34 s without a word of the build. Issue 72:
    it then waited 92 s for a 5x5 SAT answers in 0.03 s, and a Hint 47 s: while the build runs, SAT answers."""
    import flowgraph.kernels
    from flowgraph.engines import get_engine

    monkeypatch.setattr(flowgraph.kernels, "ready", lambda: False)
    monkeypatch.setattr(get_engine("search"), "warm_up", lambda: pytest.fail("the Solve waited for the search"))
    done = _wait(client, client.post("/api/solve", json={"text": HEX}).json()["job"])
    assert (done["status"], done["engine"], done["building"]) == ("solved", "sat", True)
    verify(Solution(parse_text(HEX), {k: tuple(tuple(n) for n in v) for k, v in done["paths"].items()}))
    hint = client.post("/api/hint", json={"text": HEX, "paths": {}}).json()
    assert hint["label"] and hint["path"] and "technique" not in hint  # the flow, without explain's words
    assert "up to 4 minutes" in client.get("/api/constants").json()["build_note"]


def test_solve_gives_a_verified_solution_and_frames(client):
    res = client.post("/api/solve", json={"text": HEX, "frames": 5})
    assert res.status_code == 202
    data = _wait(client, res.json()["job"])
    assert data["status"] == "solved" and data["frames"] and data["svg"].startswith("<svg")
    puzzle = parse_text(HEX)
    verify(Solution(puzzle, {k: tuple(tuple(n) for n in v) for k, v in data["paths"].items()}))


def test_stop_really_stops_the_search(client):
    big = (PUZZLES / "standard" / "open_field_8x8.txt").read_text()
    from flowgraph.studio import solves as solving

    stop = solving.Solves()
    job = stop.start({"text": big, "time_limit_s": 60})
    job.stop.set()  # Stop pressed before the first state is expanded
    stop.run(job)
    assert job.status == "cancelled"
    assert client.post("/api/solve/999/stop", json={}).status_code == 404
    assert client.get("/api/solve/999").status_code == 404


def test_a_new_solve_stops_the_one_before():
    from flowgraph.studio import solves as solving

    solves = solving.Solves()
    first = solves.start({"text": OPEN})
    second = solves.start({"text": HEX})
    assert first.stop.is_set() and not second.stop.is_set()


def test_file_read_and_atomic_save_with_backup(tmp_path):
    target = tmp_path / "board.txt"
    target.write_text(HEX)
    client = studio_client(str(target))
    assert client.get("/api/file").json()["text"] == HEX
    assert client.post("/api/save", json={"text": "STANDARD\nA-A\n"}).status_code == 200
    assert target.read_text() == "STANDARD\nA-A\n"
    assert (tmp_path / "board.txt.bak").read_text() == HEX
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.txt", "board.txt.bak"]  # no temporary left
    assert client.post("/api/save", json={"text": 5}).status_code == 400


def test_without_a_file_nothing_is_read_or_saved(client):
    assert client.get("/api/file").json() == {"path": None, "text": ""}  # a 200: the page starts a new board
    assert client.post("/api/save", json={"text": "x"}).status_code == 404


def test_verify_and_hint(client):
    from flowgraph.engines import get_engine

    get_engine("search").warm_up()  # (built: the hint names its technique; while it is built, see below)
    text = "STANDARD\nA-.-A\n| | |\nB-.-B\n"
    good = {"A": [[2, 1], [2, 3], [2, 5]], "B": [[4, 1], [4, 3], [4, 5]]}
    assert client.post("/api/verify", json={"text": text, "paths": good}).json() == {"solved": True, "problems": []}
    half = client.post("/api/verify", json={"text": text, "paths": {"A": good["A"]}}).json()
    assert not half["solved"] and "the green flow has no path" in half["problems"]  # issue 72: by colour
    cut = client.post("/api/verify", json={"text": text, "paths": {**good, "B": [[4, 1], [4, 3]]}}).json()
    assert "the green pipe does not run from r2c1 to r2c3" in cut["problems"]  # cells as the rulers number them
    for bad in (["x"], ["2:1"], ["\ud800"], [[2]], [[2, 1.5]], [[True, 1]], [[-1, 1]], [[10**10, 1]]):
        body = json.dumps({"text": text, "paths": {"A": bad}})  # (a lone surrogate escaped, as a browser sends it)
        assert client.post("/api/verify", content=body, headers={"Content-Type": "application/json"}).status_code == 400
    hint = client.post("/api/hint", json={"text": text, "done": ["A"]}).json()
    assert {k: hint[k] for k in ("label", "path")} == {"label": "B", "path": good["B"]}
    assert hint["technique"] == "forced move" and hint["tier"] == 1 and hint["cells"] and hint["note"]
    bridge = (PUZZLES / "bridges" / "crossing_5x5.txt").read_text()  # a path over a bridge: its lane by direction
    from flowgraph import solve

    solution = solve(parse_text(bridge))
    paths = {k: [[n[0], n[1]] for n in v] for k, v in solution.paths.items()}
    assert client.post("/api/verify", json={"text": bridge, "paths": paths}).json()["solved"]
    backwards = {k: v[::-1] for k, v in paths.items()}  # issue 72: every pipe drawn from its other dot
    assert client.post("/api/verify", json={"text": bridge, "paths": backwards}).json()["solved"]
    assert client.post("/api/verify", json={"text": text, "paths": {"A": good["A"][::-1], "B": good["B"]}}).json() == {
        "solved": True, "problems": []}


@pytest.mark.parametrize("board", ["bridges/crossing_5x5.txt", "shapes/figure_eight_2x10.json"])
def test_a_players_paths_over_a_bridge_take_the_lane_they_are_linked_to(client, board):
    """Issue 70: a figure-eight's crossing is bridges of ``/`` and ``\\`` lanes, whose cells share their line and
    column as a text bridge's do; a path over one is on the lane linked to its cell before (a 400 before: the
    lane was guessed as ``-`` or ``|`` by the line)."""
    from flowgraph import solve

    text = (PUZZLES / board).read_text()
    solution = solve(parse_file(PUZZLES / board))
    paths = {k: [[n[0], n[1]] for n in v] for k, v in solution.paths.items()}
    assert any(len(n) == 3 for path in solution.paths.values() for n in path)
    assert client.post("/api/verify", json={"text": text, "paths": paths}).json() == {"solved": True, "problems": []}
    reversed_paths = {k: v[::-1] for k, v in paths.items()}  # drawn from the other dot
    assert client.post("/api/verify", json={"text": text, "paths": reversed_paths}).json()["solved"]


def test_edit(client):
    text = "STANDARD\n.-.-.\n| | |\n.-.-.\n| | |\n.-.-.\n"
    hole = client.post("/api/edit", json={"text": text, "action": "cycle", "xy": [1, 1]}).json()["text"]
    assert hole.splitlines()[3] == ".   ."
    bridge = client.post("/api/edit", json={"text": hole, "action": "cycle", "xy": [1, 1]}).json()["text"]
    assert bridge.splitlines()[3] == ".-*-."
    wall = client.post("/api/edit", json={"text": text, "action": "link", "xy": [0, 0], "to": [1, 0]}).json()["text"]
    assert wall.splitlines()[1] == ". .-."
    warp = client.post("/api/edit", json={"text": text, "action": "warp-col", "index": 2}).json()["text"]
    assert warp.splitlines()[6] == "    |"
    for body, code in [({"text": text, "action": "link", "xy": [0, 0], "to": [2, 2]}, 422),
                       ({"text": text, "action": "fold", "xy": [0, 0]}, 422),
                       ({"text": text, "action": "cycle", "xy": [0, "x"]}, 400),
                       ({"text": "nothing here", "action": "cycle", "xy": [0, 0]}, 422)]:
        assert client.post("/api/edit", json=body).status_code == code, body


def test_a_solve_that_breaks_ends_as_an_error_not_a_page_polling_forever(monkeypatch):
    from flowgraph import engines
    from flowgraph.studio import solves as solving

    class Broken:
        TRACES = True

        @staticmethod
        def warm_up():
            pass

        @staticmethod
        def solve(*args, **kwargs):
            raise RuntimeError("compiled pass failed to load")

    monkeypatch.setattr(engines, "get_engine", lambda name: Broken)
    monkeypatch.setattr(engines, "solve_puzzle", lambda *args, **kwargs: Broken.solve())  # the answer, by auto
    solves = solving.Solves()
    job = solves.start({"text": HEX})
    solves.run(job)
    assert job.status == "error"
    assert solving.solve_json(job)["message"] == "internal error: RuntimeError: compiled pass failed to load"


def test_scan_reads_a_screenshot_into_neighbor_link_text(client):
    import base64

    from flowgraph.render.raster import png

    board = parse_text(HEX)
    reply = client.post("/api/scan", json={"image": base64.b64encode(png(board)).decode()})
    assert reply.status_code == 200
    data = reply.json()
    assert data["valid"] and data["summary"] == "5x4 hex board, 20 cells, 4 flows, 0 walls"  # (scan's own words)
    assert len(parse_text(data["text"]).flows) == len(board.flows)
    assert client.post("/api/scan", json={"image": "not base64!"}).status_code == 400
    blank = base64.b64encode(png(board)[:100]).decode()  # a truncated picture
    reply = client.post("/api/scan", json={"image": blank})
    assert reply.status_code == 422 and "cannot be decoded" in reply.json()["error"]


def test_scan_reads_a_shape_levels_screenshot_into_a_json_graph(client):
    """Issue 70: the studio's Scan took only lattices ("no grid found")."""
    import base64

    from tests.helpers import corpus_file

    shot = corpus_file("screenshots/shapes/circle_2x8_level61.png")
    reply = client.post("/api/scan", json={"image": base64.b64encode(shot.read_bytes()).decode()})
    assert reply.status_code == 200
    data = reply.json()
    assert data["valid"] and data["summary"] == "shape board, 16 cells, 24 links, 4 flows"
    assert client.post("/api/check", json={"text": data["text"]}).json()["valid"]


@pytest.mark.parametrize("path, body", [
    ("/api/check", b'{"text": ' + b"1" * 4400 + b"}"),  # int() refuses 4,300 digits and more
    ("/api/check", b'{"text": "A", "x": 1' + b"0" * 30 + b"}"),
    ("/api/check", b'{"text": "A", "x": 9007199254740993}'),  # 2**53 + 1
    ("/api/check", b"[" * 100_000 + b"]" * 100_000),  # deeper than the parser's stack
    ("/api/check", b'{"text": NaN}'),
    ("/api/check", b'{"text": "A", "x": -Infinity}'),
    ("/api/check", b'\xff\xfe{"text": "A"}'),
    ("/api/verify", '{"text": "STANDARD\\nA-.-A\\n", "paths": {"A": ["\u00b2:1"]}}'.encode()),
    ("/api/verify", b'{"text": "STANDARD\\nA-.-A\\n", "paths": {"A": [[99, 99], 5]}}'),
    ("/api/verify", b'{"text": "STANDARD\\nA-.-A\\n", "paths": {"A": [[99, 99]]}}'),
    ("/api/hint", b'{"text": "STANDARD\\nA-.-A\\n", "done": 5}'),
    ("/api/hint", b'{"text": "STANDARD\\nA-.-A\\n", "done": [[1]]}'),
])
def test_malformed_bodies_are_400(client, path, body):
    res = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert res.status_code == 400, res.text
    assert "error" in res.json()


def test_a_chunked_body_is_read_no_further_than_the_limit():
    import asyncio

    app = create_app()
    received, sent = 0, []

    async def receive():
        nonlocal received
        received += 1
        return {"type": "http.request", "body": b" " * (1 << 20), "more_body": received < 64}  # 64 MB offered

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/check",
             "headers": [(b"content-type", b"application/json"), (b"host", b"localhost"),
                         (b"authorization", f"token {app.state.token}".encode())],
             "query_string": b"", "http_version": "1.1", "scheme": "http", "server": ("test", 80), "client": ("t", 1),
             "root_path": ""}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 413
    assert received <= 5  # the server stopped reading at 4 MB


def test_save_checks_the_text_before_touching_any_file(tmp_path):
    target = tmp_path / "board.txt"
    target.write_text(HEX)
    (tmp_path / "board.txt.bak").write_text("the previous backup")
    client = studio_client(str(target))
    res = client.post("/api/save", content=b'{"text": "\\ud800"}', headers={"Content-Type": "application/json"})
    assert res.status_code == 400
    assert target.read_text() == HEX and (tmp_path / "board.txt.bak").read_text() == "the previous backup"


def test_save_keeps_the_mode_and_replaces_a_symlinked_backup(tmp_path):
    import os
    import stat

    target = tmp_path / "board.txt"
    target.write_text(HEX)
    os.chmod(target, 0o644)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("not the studio's to write")
    (tmp_path / "board.txt.bak").symlink_to(elsewhere)
    client = studio_client(str(target))
    assert client.post("/api/save", json={"text": "STANDARD\nA-A\n"}).status_code == 200
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644
    assert elsewhere.read_text() == "not the studio's to write"
    backup = tmp_path / "board.txt.bak"
    assert not backup.is_symlink() and backup.read_text() == HEX


def test_a_file_that_became_a_folder_is_409(tmp_path):
    target = tmp_path / "board.txt"
    client = studio_client(str(target))
    target.mkdir()
    assert client.post("/api/save", json={"text": "STANDARD\nA-A\n"}).status_code == 409


def test_a_folder_gives_its_own_puzzle_files_and_saves_nothing(tmp_path):
    folder = tmp_path / "levels"
    folder.mkdir()
    (folder / "b.txt").write_text(HEX)
    (folder / "a.txt").write_text(OPEN)
    (folder / ".hidden.txt").write_text(OPEN)
    (folder / "shot.png").write_bytes(b"\x89PNG")
    (folder / "latin1.txt").write_bytes(b"\xff\xfe")
    (folder / "sub").mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("not to be read")
    (folder / "link.txt").symlink_to(outside)
    before = sorted(p.name for p in folder.iterdir())
    client = studio_client(str(folder))
    data = client.get("/api/file").json()
    assert data["folder"] and data["path"] == str(folder)
    assert [f["name"] for f in data["files"]] == ["a.txt", "b.txt"] and data["files"][1]["text"] == HEX
    assert data["skipped"] == 2  # the symlink (never followed) and the file that is no UTF-8 text
    res = client.post("/api/save", json={"text": "STANDARD\nA-A\n"})
    assert res.status_code == 404 and "folder" in res.json()["error"]
    assert sorted(p.name for p in folder.iterdir()) == before and outside.read_text() == "not to be read"


def test_a_folder_is_read_through_the_gate_of_heavy_requests(tmp_path):
    from flowgraph.studio.gate import Gate

    (tmp_path / "a.txt").write_text(HEX)
    client = studio_client(str(tmp_path))
    client.app.state.gate = Gate(0, 0)  # no room: a folder's read waits its turn like any large request
    res = client.get("/api/file")
    assert res.status_code == 429 and res.headers["Retry-After"] == "1"


def test_a_folder_is_read_within_its_bounds(tmp_path, monkeypatch):
    from flowgraph.studio import file as studio_file

    for i in range(5):
        (tmp_path / f"{i}.txt").write_text(HEX)
    monkeypatch.setattr(studio_file, "MAX_FOLDER_FILES", 3)
    data = studio_client(str(tmp_path)).get("/api/file").json()
    assert len(data["files"]) == 3 and data["skipped"] == 2
    monkeypatch.setattr(studio_file, "MAX_FOLDER_FILES", 500)
    monkeypatch.setattr(studio_file, "MAX_FOLDER_BYTES", len(HEX.encode()) + 10)  # the second file would pass the total
    data = studio_client(str(tmp_path)).get("/api/file").json()
    assert len(data["files"]) == 1 and data["skipped"] == 4


@pytest.mark.parametrize("xy", ["[1e999, 0]", "[NaN, 0]", "[300000, 0]", "[151000000000000000000, 7]", "[99999, 9]"])
@pytest.mark.parametrize("path", ["/api/check", "/api/render", "/api/convert", "/api/solve"])
def test_json_graph_places_never_give_500(client, xy, path):
    text = ('{"nodes": [{"id": 1, "label": "A", "xy": [0, 0]}, {"id": 2, "label": "A", "xy": ' + xy + '}], '
            '"links": [[1, 2]]}')
    res = client.post(path, json={"text": text, "to": "neighbor-link"})
    assert res.status_code in (200, 202, 422), res.text


def test_a_puzzlink_url_and_rules_in_the_studio(client):
    url = "https://puzz.link/p?numlin/4/4/1h2n1h2"
    assert client.post("/api/check", json={"text": url}).json()["format"] == "puzzlink"
    assert client.post("/api/count", json={"text": url}).json()["verdict"] == "multiple"
    only = "STANDARD\nA-.-A-.\n"
    assert client.post("/api/count", json={"text": only}).json()["verdict"] == "none"
    assert client.post("/api/count", json={"text": only, "rules": "numberlink"}).json()["verdict"] == "unique"
    assert client.post("/api/count", json={"text": only, "rules": "nikoli"}).status_code == 400
    # the source's rules travel with the text the page edits, which cannot say them
    assert client.post("/api/check", json={"text": url}).json()["rules"] == "numberlink"
    assert client.post("/api/check", json={"text": only}).json()["rules"] == "flow"
    assert client.post("/api/check", json={"text": url, "rules": "flow"}).json()["rules"] == "flow"
    converted = client.post("/api/convert", json={"text": url, "to": "neighbor-link"}).json()
    assert converted["rules"] == "numberlink" and converted["text"].startswith("STANDARD")
    made = client.post("/api/generate", json={"family": "standard", "width": 5, "height": 5, "seed": 3,
                                              "rules": "numberlink"}).json()
    assert client.post("/api/count", json={"text": made["text"], "rules": "numberlink"}).json()["verdict"] == "unique"
    assert client.post("/api/generate", json={"rules": "nikoli"}).status_code == 400


def test_a_solve_under_numberlink_rules_is_answered_by_sat():
    from flowgraph.studio import solves as solving

    solves = solving.Solves()
    job = solves.start({"text": "STANDARD\nA-.-A-.\n", "rules": "numberlink"})
    solves.run(job)
    assert job.status == "solved" and job.result["paths"]


def test_levels_of_a_pack_a_page_at_a_time(client):
    from flowgraph.authoring.solved import write_many_solved as write_many
    from flowgraph.io.formats import Entry
    from flowgraph.studio.handlers import MAX_LEVELS_SHOWN

    boards = [parse_file(PUZZLES / "standard" / name) for name in ("regular_5x5.txt", "heart_9x7.txt", "regular_10x10.txt")]
    pack = write_many([Entry(f"level{i}", b) for i, b in enumerate(boards)], "level-pack")
    data = client.post("/api/levels", json={"text": pack, "name": "pack.txt"}).json()
    assert data["format"] == "level-pack" and data["total"] == 3 and data["offset"] == 0
    assert [(lv["index"], lv["width"], lv["height"], lv["rules"]) for lv in data["levels"]] == [
        (0, 5, 5, "flow"), (1, 9, 7, "flow"), (2, 10, 10, "flow")]
    for level, board in zip(data["levels"], boards):
        assert level["svg"].startswith("<svg") and level["flows"] == len(board.flows)
        again = client.post("/api/check", json={"text": level["text"]}).json()  # each level opens as its own text
        assert again["valid"] and again["cells"] == board.cells
    page = client.post("/api/levels", json={"text": pack, "offset": 2, "count": 1}).json()
    assert [lv["index"] for lv in page["levels"]] == [2]
    urls = "https://puzz.link/p?numlin/4/1/1g1g\nhttps://puzz.link/p?arukone/4/1/1g1g\n"
    assert [lv["rules"] for lv in client.post("/api/levels", json={"text": urls}).json()["levels"]] == ["numberlink", "flow"]
    assert client.post("/api/levels", json={"text": "STANDARD\nA-A\n"}).json()["total"] == 1
    assert client.post("/api/levels", json={"text": pack, "offset": 3}).status_code == 400
    assert client.post("/api/levels", json={"text": pack, "count": MAX_LEVELS_SHOWN + 1}).status_code == 400
    assert client.post("/api/levels", json={"text": pack, "name": 5}).status_code == 400
    body = json.dumps({"text": pack, "name": "\ud800"})  # a fuzzer's 500: the name is sent back in every level
    assert client.post("/api/levels", content=body, headers={"Content-Type": "application/json"}).status_code == 400


def test_every_position_in_the_api_is_line_column(client):
    bridge = (PUZZLES / "bridges" / "crossing_5x5.txt").read_text()
    data = client.post("/api/check", json={"text": bridge}).json()
    puzzle = parse_text(bridge)
    assert sorted(tuple(e["cell"]) for e in data["endpoints"]) == sorted(end for f in puzzle.flows for end in f.ends)
    assert all(isinstance(b, list) and len(b) == 2 for b in data["bridges"]) and data["bridges"]
    assert all(len(u) == 2 and len(v) == 2 and axis in ("", "-", "|") and warp in (True, False)
               for u, v, axis, warp in data["links"])
    hint = client.post("/api/hint", json={"text": bridge}).json()
    assert all(isinstance(p, list) and len(p) == 2 for p in hint["path"])


def test_a_hint_is_the_next_step_from_the_players_board(client):
    """With what the player has drawn, the hint is the next step of the solving path from there (its flow,
    the hardest technique on the way to the line it draws), and a path off the solution is the hint."""
    from flowgraph import solve
    from flowgraph.authoring.explain import next_steps

    text = (PUZZLES / "standard" / "regular_10x10.txt").read_text()
    puzzle = parse_text(text)
    solution = solve(puzzle)
    first = next(iter(solution.paths))
    drawn = {first: [[n[0], n[1]] for n in solution.paths[first][:3]]}
    hint = client.post("/api/hint", json={"text": text, "paths": drawn}).json()
    pairs = [tuple(map(tuple, p)) for p in zip(drawn[first], drawn[first][1:])]
    steps = next_steps(solution, pairs)
    assert steps[-1].lines and hint["label"] == solution.owner()[steps[-1].lines[0][0]]
    assert hint["path"] == [[n[0], n[1]] for n in solution.paths[hint["label"]]]
    assert hint["tier"] == max(s.tier for s in steps) and hint["technique"] and hint["note"]
    # of the hardest steps, the one nearest the line it draws (a run of forced moves: the one drawing the line)
    assert hint["note"] == next(s for s in reversed(steps) if s.tier == hint["tier"]).note
    other = next(n for n in puzzle.graph[solution.paths[first][0]] if n != solution.paths[first][1])
    off = {first: [[n[0], n[1]] for n in (solution.paths[first][0], other)]}  # a first move the solution does not make
    wrong = client.post("/api/hint", json={"text": text, "paths": off}).json()
    assert wrong["label"] == first and "leaves the solution" in wrong["note"] and wrong["technique"] is None
    for bad in ([], {"A": "x"}, {"A": [[1]]}, {"A": [[99, 99]]}):
        assert client.post("/api/hint", json={"text": text, "paths": bad}).status_code == 400


def test_a_hint_under_numberlink_rules_says_why_as_under_flow_free_rules(client):
    """Explain follows Numberlink's rules too: a hint says its technique and note (it said none before)."""
    text = (PUZZLES / "standard" / "regular_5x5.txt").read_text()
    hint = client.post("/api/hint", json={"text": text, "rules": "numberlink"}).json()
    assert hint["technique"] and hint["tier"] >= 1 and hint["note"]


def test_a_hint_tells_the_step_that_draws_its_line_not_a_cut_elsewhere(client):
    """Of the hardest steps on the way to the hint's line, the last: after a run of forced moves the hint said
    the first of them ("r1c1 has all its lines", a cut far from the pipe), the same for pipe after pipe."""
    from flowgraph import solve
    from flowgraph.authoring.explain import next_steps

    text = (PUZZLES / "standard" / "regular_10x10.txt").read_text()
    solution = solve(parse_text(text))
    told = 0
    for k in range(1, len(solution.paths)):
        drawn = {label: [[n[0], n[1]] for n in path] for label, path in list(solution.paths.items())[:k]}
        pairs = [tuple(map(tuple, p)) for path in drawn.values() for p in zip(path, path[1:])]
        steps = next_steps(solution, pairs)
        hardest = [s for s in steps if s.tier == max(t.tier for t in steps)]
        if len({s.note for s in hardest}) < 2:
            continue
        hint = client.post("/api/hint", json={"text": text, "paths": drawn}).json()
        assert hint["note"] == hardest[-1].note != hardest[0].note
        told += 1
    assert told  # the board has such runs


def test_next_steps_end_at_the_first_line():
    from flowgraph import solve
    from flowgraph.authoring.explain import explain, next_steps

    puzzle = parse_text((PUZZLES / "standard" / "regular_5x5.txt").read_text())
    solution = solve(puzzle)
    steps = next_steps(solution, [])
    first_line = next(i for i, s in enumerate(explain(puzzle, solution=solution).steps) if s.lines)
    assert steps == list(explain(puzzle, solution=solution).steps[: first_line + 1])
    every = [pair for path in solution.paths.values() for pair in zip(path, path[1:])]
    assert not any(s.lines for s in next_steps(solution, every))  # only the cuts are left


def test_a_first_hint_on_a_fresh_board_is_the_first_line_of_the_solving_path(client):
    from flowgraph import solve
    from flowgraph.authoring.explain import next_steps

    text = (PUZZLES / "standard" / "regular_5x5.txt").read_text()
    solution = solve(parse_text(text))
    hint = client.post("/api/hint", json={"text": text, "paths": {}}).json()
    steps = next_steps(solution, [])
    assert hint["label"] == solution.owner()[steps[-1].lines[0][0]] and hint["tier"] == max(s.tier for s in steps)


def test_the_studio_shows_the_solution_the_command_line_prints(client):
    """Issue 69: the studio's Solve chose its own engine (the search), the command line auto's (SAT first): on a
    board with many solutions they showed different ones. Both ask auto now; the replay is the search's way to
    that same answer, or no replay when the search ends elsewhere."""
    from flowgraph import solve

    board = (PUZZLES / "standard" / "open_field_8x8.txt").read_text()
    puzzle = parse_text(board)
    assert dict(solve(puzzle, "search").paths) != dict(solve(puzzle).paths)  # (a board where the two differ)
    done = _wait(client, client.post("/api/solve", json={"text": board}).json()["job"])
    assert done["status"] == "solved"
    assert {k: tuple(tuple(n) for n in v) for k, v in done["paths"].items()} == dict(solve(puzzle).paths)
