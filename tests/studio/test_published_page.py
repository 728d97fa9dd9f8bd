"""A published pack's page (``flowgraph convert PACK -o pack.html``) in a real headless Chromium, opened from
``file://`` as anyone would open a file they were sent: every family plays to "Solved!" by mouse, pen and
finger; the page makes no network request; progress stays in the browser."""

from __future__ import annotations

import pytest

from flowgraph import parse_file
from flowgraph.cli import main
from flowgraph.engines import solve_puzzle
from tests.helpers import PUZZLES, corpus_file, corpus_params
from tests.studio.drive import DEVICES, FAMILY_LEVELS, drag_path, solution_cells


def _open(browser, page_file, device: str):
    """The page in a fresh browser context of ``device``; every request it makes is kept in ``page.requests``."""
    context = browser.new_context(**DEVICES[device])
    page = context.new_page()
    page.requests = []
    page.errors = []
    page.on("request", lambda r: page.requests.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.goto(page_file.as_uri())
    page.wait_for_selector("#board svg")
    return context, page


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("family", list(FAMILY_LEVELS))
def test_every_family_plays_to_solved_offline(browser, tmp_path, family, device):
    rel, rules = FAMILY_LEVELS[family]
    source = corpus_file(rel)
    out = tmp_path / "pack.html"
    assert main(["convert", str(source), "--rules", rules, "-o", str(out)]) == 0
    paths = solution_cells(solve_puzzle(parse_file(source).with_rules(rules)))
    context, page = _open(browser, out, device)
    try:
        for path in paths.values():
            assert page.locator("#solved").is_hidden()
            drag_path(page, path, by=device)
        page.wait_for_selector("#solved:not([hidden])", timeout=5000)
        assert page.inner_text("#score").startswith(f"flows {len(paths)}/{len(paths)}")
        assert [url for url in page.requests if not url.startswith("file:")] == []  # nothing loaded, nothing sent
        assert page.errors == []  # (the page's own policy let its scripts run: none was refused)
    finally:
        context.close()


def test_a_pack_keeps_its_progress_and_goes_on_to_the_next_level(browser, tmp_path):
    boards = tmp_path / "boards"
    boards.mkdir()
    for name in ("crossing_5x5", "two_bridges_6x6"):
        (boards / f"{name}.txt").write_text((PUZZLES / "bridges" / f"{name}.txt").read_text())
    out = tmp_path / "bridges.html"
    assert main(["convert", str(boards), "-o", str(out)]) == 0
    paths = solution_cells(solve_puzzle(parse_file(boards / "crossing_5x5.txt")))
    context, page = _open(browser, out, "mouse")
    try:
        assert page.inner_text("#of") == "of 2"
        drag_path(page, next(iter(paths.values()))[:2])
        page.click("#undo")  # the stroke taken back
        assert page.locator("#board g.player polyline").count() == 0
        for path in paths.values():
            drag_path(page, path)
        page.wait_for_selector("#solved:not([hidden])")
        page.click("#solved-next")
        assert page.input_value("#level") == "1" and page.locator("#solved").is_hidden()
        page.reload()  # the level played last, and the first one marked solved
        page.wait_for_selector("#board svg")
        assert page.input_value("#level") == "1"
        assert page.locator("#level option").first.inner_text() == "1 ✓"
    finally:
        context.close()


def test_a_board_plays_by_keyboard(browser, tmp_path):
    out = tmp_path / "one.html"
    board = tmp_path / "one.txt"
    board.write_text("STANDARD\nA-.-A\n| | |\nB-.-B\n")
    assert main(["convert", str(board), "-o", str(out)]) == 0
    context, page = _open(browser, out, "mouse")
    try:
        page.focus("#board")
        keys = ["ArrowRight",  # the cursor appears on the first endpoint (A, top left)
                "Enter", "ArrowRight", "ArrowRight", "Enter",  # A drawn to its other end
                "ArrowDown", "Enter", "ArrowLeft", "ArrowLeft", "Enter"]  # B, from the right
        for key in keys:
            page.keyboard.press(key)
        page.wait_for_selector("#solved:not([hidden])", timeout=5000)
    finally:
        context.close()


#: The keyboard's cursor cell (the cell polygon its outline repeats), or None.
_CURSOR = """() => { const mark = document.querySelector('#board .play-cursor'); if (!mark) return null;
  const cell = [...document.querySelectorAll('#board polygon.cell')].find(
    (p) => p.getAttribute('points') === mark.getAttribute('points'));
  return cell ? cell.dataset.cell : null; }"""


def play_by_keys(page, paths: dict[str, list[str]]) -> None:
    """Draw each path with keys alone, as a keyboard player does: ] to the path's first endpoint, Enter, then per
    cell the arrow that takes the head there (the neighbour most in line with it, as the page chooses), or else one
    that takes it to a free cell and ] until the head is there (the step turned round the cell before it)."""
    import math

    def centre(cell: str) -> tuple[float, float]:  # as the page measures it: the mean of the polygon's corners
        return tuple(page.evaluate("""(cell) => { const pts = document.querySelector(
          `#board polygon.cell[data-cell="${cell}"]`).getAttribute('points').trim().split(/\\s+/)
          .map((p) => p.split(',').map(Number));
          return [0, 1].map((k) => pts.reduce((s, p) => s + p[k], 0) / pts.length); }""", cell))

    board = page.evaluate("JSON.parse(document.getElementById('levels').textContent).levels[0].board")
    links, bridges = board["links"], {f"{line}:{column}" for line, column in board["bridges"]}
    ends = {f"{e['cell'][0]}:{e['cell'][1]}": e["label"] for e in board["endpoints"]}  # another's: refused
    # each cell's neighbours in the page's order (the links' order: a tie in line with a key goes to the first,
    # as the page's stable sort keeps it)
    adj: dict[str, dict[str, None]] = {}
    axis: dict[tuple[str, str], str] = {}  # (a bridge, a neighbour) -> the bridge's lane their link runs on
    for u, v, lane, _, *each in links:
        a, b = f"{u[0]}:{u[1]}", f"{v[0]}:{v[1]}"
        adj.setdefault(a, {})[b] = None
        adj.setdefault(b, {})[a] = None
        axis[a, b], axis[b, a] = each[0] if each else (lane, lane)  # each end's own where the page gives them
    arrows = {"ArrowRight": (1, 0), "ArrowDown": (0, 1), "ArrowLeft": (-1, 0), "ArrowUp": (0, -1)}

    def choice(drawn: list[str], dx: int, dy: int) -> str | None:  # the cell an arrow takes the head to
        head = drawn[-1]
        x0, y0 = centre(head)
        way = []  # as the page ranks them: every neighbour that way, the most in line with the key first
        for n in adj[head]:
            vx, vy = centre(n)[0] - x0, centre(n)[1] - y0
            along, across = vx * dx + vy * dy, abs(vx * dy - vy * dx)
            if along > 0.2 * math.hypot(vx, vy) and across <= along:
                way.append((across / along, n))
        mine, back = ends.get(drawn[0]), drawn[-2] if len(drawn) > 1 else None
        # (stable, as the page's: of two alike in line, back last, then another pipe's cell)
        way.sort(key=lambda item: (round(item[0] * 1e9), 2 * (item[1] == back) + (item[1] in taken)))
        lane = axis[head, drawn[-2]] if head in bridges and len(drawn) > 1 else None  # straight over a bridge
        for k, (_, n) in enumerate(way):  # the first the page may step to (the game refuses the others)
            if (k == 0 if n == back else n not in drawn) and ends.get(n, mine) == mine and \
                    (lane is None or axis[head, n] == lane):
                return n
        return None

    page.focus("#board")
    page.keyboard.press("]")
    taken: set[str] = set()  # the cells of the pipes drawn: never stepped on (it would cut them)
    for path in paths.values():
        for _ in range(2 * len(paths) + 2):
            if page.evaluate(_CURSOR) == path[0]:
                break
            page.keyboard.press("]")
        assert page.evaluate(_CURSOR) == path[0]
        page.keyboard.press("Enter")
        for i, cell in enumerate(path[1:], 1):
            picks = {key: choice(path[:i], *step) for key, step in arrows.items()}
            key = next((k for k, n in picks.items() if n == cell), None) or \
                next((k for k, n in picks.items() if n is not None and n not in path[:i] and n not in taken), None)
            assert key, (path[:i], cell, picks)  # no key reaches the cell, nor a free one to turn from
            page.keyboard.press(key)
            for _ in range(len(adj[path[i - 1]]) + 1):
                if page.evaluate(_CURSOR) == cell:
                    break
                page.keyboard.press("]")
            assert page.evaluate(_CURSOR) == cell, (path, cell)
        page.keyboard.press("Enter")
        taken.update(path)
        taken -= bridges  # a bridge's other lane is the other pipe's


@pytest.mark.parametrize("board", ["shapes/ring_3x12_centre.json", "shapes/figure_eight_2x10.json",
                                   "shapes/figure_eight_2x10_cells.json",
                                   "shapes/linked_loops_3x1.json", "shapes/borromean_1x24.json",
                                   "shapes/triquetra_1x16.json", "shapes/cube_3.json", "shapes/star_3.json",
                                   "shapes/triangles_3.json", "hex/honeycomb_5x4.txt"])
def test_any_board_plays_to_solved_by_keys_alone(browser, tmp_path, board):
    """Issue 70: arrows reach four neighbours and a shape's cell may have more (the ring's centre has twelve):
    ] and [ turn the last step round the cell before it, and take the cursor to the next endpoint."""
    out = tmp_path / "one.html"
    assert main(["convert", str(PUZZLES / board), "-o", str(out)]) == 0
    context, page = _open(browser, out, "mouse")
    try:
        play_by_keys(page, solution_cells(solve_puzzle(parse_file(PUZZLES / board))))
        page.wait_for_selector("#solved:not([hidden])", timeout=5000)
        assert page.errors == []
    finally:
        context.close()


def test_a_phone_sees_the_rules_and_a_solved_level_offers_no_undo(browser, tmp_path):
    """Issue 72: the page hid its one help line on phones; Undo after "Solved!" looked enabled and did nothing."""
    source = PUZZLES / "bridges" / "crossing_5x5.txt"
    out = tmp_path / "one.html"
    assert main(["convert", str(source), "-o", str(out)]) == 0
    paths = solution_cells(solve_puzzle(parse_file(source)))
    context, page = _open(browser, out, "touch")
    try:
        help_line = page.locator("#help")
        assert help_line.is_visible() and "Join the dots" in help_line.inner_text()
        assert "Enter picks up" not in help_line.inner_text()  # no keyboard on a phone: the keys' words stay out
        assert page.locator("#undo").is_disabled()  # nothing drawn yet
        for path in paths.values():
            drag_path(page, path, by="touch")
        page.wait_for_selector("#solved:not([hidden])", timeout=5000)
        assert page.locator("#undo").is_disabled()
        page.click("#restart")
        assert page.locator("#solved").is_hidden() and page.locator("#board g.player polyline").count() == 0
    finally:
        context.close()


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("shot", corpus_params("screenshots/shapes/*.png"))
def test_a_scanned_shape_level_plays_to_solved_offline(browser, tmp_path, shot, device):
    """Issue 70: each shape screenshot of the corpus, scanned and published, plays to "Solved!" on a phone, with
    a pen and with a mouse."""
    board = tmp_path / f"{shot.stem}.json"
    assert main(["scan", str(shot), "-o", str(board)]) == 0
    test_a_shape_board_plays_to_solved_offline(browser, tmp_path, board, device)


def _template_id(entry) -> str:
    shape, size = entry
    return "-".join([shape, *(str(v) if v is None or len(str(v)) < 12 else "cut" for v in size.values())])


@pytest.mark.slow
@pytest.mark.parametrize("template", __import__("tests.authoring.test_shapes", fromlist=["TEMPLATES"]).TEMPLATES,
                         ids=_template_id)
def test_every_template_at_three_sizes_plays_to_solved_on_a_published_page(browser, tmp_path, template):
    """Issue 70's "every template at three sizes: ... play": the puzzle generated on each (seed 1, as the template
    test makes it), published, played to "Solved!" with the mouse."""
    from flowgraph.authoring.generate import generate
    from flowgraph.authoring.shapes import shape_board

    shape, size = template
    board = tmp_path / "made.json"
    board.write_text(generate(shape_board(shape, **size), seed=1, time_limit_s=60).text)
    test_a_shape_board_plays_to_solved_offline(browser, tmp_path, board, "mouse")


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("board", sorted((PUZZLES / "shapes").glob("*.json")), ids=lambda p: p.stem)
def test_a_shape_board_plays_to_solved_offline(browser, tmp_path, board, device):
    """Issue 70, a first shape: a ring of sectors is drawn by its cells' outlines and plays as any board."""
    out = tmp_path / "ring.html"
    assert main(["convert", str(board), "-o", str(out)]) == 0
    paths = solution_cells(solve_puzzle(parse_file(board)))
    context, page = _open(browser, out, device)
    try:
        for path in paths.values():
            drag_path(page, path, by=device)
        page.wait_for_selector("#solved:not([hidden])", timeout=5000)
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("device", ["mouse", "touch"])
def test_a_pipe_cut_by_a_stroke_is_whole_again_when_the_stroke_draws_back(browser, tmp_path, device):
    """As the game plays: a stroke through another pipe cuts it, and drawn back off it before it ends, the pipe
    is whole again; a stroke that ends on it leaves it cut (one Undo takes the stroke back)."""
    source = PUZZLES / "standard" / "regular_5x5.txt"  # A's pipe runs through r2c3 (5:5), beside C's dot (5:3)
    out = tmp_path / "one.html"
    assert main(["convert", str(source), "-o", str(out)]) == 0
    paths = solution_cells(solve_puzzle(parse_file(source)))
    assert "5:5" in paths["A"] and "5:3" in (paths["C"][0], paths["C"][-1])
    context, page = _open(browser, out, device)
    try:
        drag_path(page, paths["A"], by=device)
        assert page.inner_text("#score").startswith("flows 1/5")
        drag_path(page, ["5:3", "5:5", "5:3"], by=device)  # over A's pipe and back, in one stroke
        assert page.inner_text("#score").startswith("flows 1/5")  # A whole again
        drag_path(page, ["5:3", "5:5"], by=device)  # a stroke that ends on it
        assert page.inner_text("#score").startswith("flows 0/5")
        page.click("#undo")
        assert page.inner_text("#score").startswith("flows 1/5")
        assert page.errors == []
    finally:
        context.close()
