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
