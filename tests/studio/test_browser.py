"""The studio in a real headless Chromium (Debian's ``chromium``), driven by Playwright.

Locally these skip when Chromium or Playwright is missing; in CI (``CI`` set)
they fail instead: ``.ci/run`` installs Chromium when it is absent.
"""

from __future__ import annotations

import base64
import contextlib
import threading
import time

import pytest

from flowgraph import parse_file, parse_text
from flowgraph.engines import solve_puzzle
from tests.helpers import PUZZLES, ROOT, corpus_file, corpus_params
from tests.studio import TOKEN, live_studio
from tests.studio.drive import DEVICES, FAMILY_LEVELS, centre, drag_path, solution_cells


@contextlib.contextmanager
def _studio(target):
    """A studio on a free port with FILE ``target``: its address with the token."""
    pytest.importorskip("uvicorn")
    with live_studio(str(target)) as port:
        yield f"http://127.0.0.1:{port}/?token={TOKEN}"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    target = tmp_path_factory.mktemp("studio") / "board.txt"
    with _studio(target) as url:
        yield url, target


@pytest.fixture
def page(browser, server):
    url, _ = server
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page.goto(url)
    page.wait_for_selector("#board svg")
    yield page
    page.close()


def _pack(path, names: list[str]):
    """A level pack of the bundled standard boards ``names``, written at ``path``."""
    from flowgraph import parse_file
    from flowgraph.authoring.solved import write_many_solved as write_many
    from flowgraph.io.formats import Entry

    path.write_text(write_many([Entry(n, parse_file(PUZZLES / "standard" / f"{n}.txt")) for n in names], "level-pack"))
    return path


def _hint_until_solved(page, tries: int) -> None:
    """In play: Hint (each fills one flow from the solution) until the Solved! banner shows."""
    for _ in range(tries):
        if page.is_visible("#solved"):
            break
        with page.expect_response("**/api/hint"):
            page.click("#hint")
        page.wait_for_timeout(100)
    _solved(page)


def _solved(page) -> None:
    page.wait_for_function("!document.querySelector('#solved').hidden")


def _badge(page, start: str) -> None:
    page.wait_for_function(f"document.querySelector('#badge').textContent.startsWith({start!r})")


def _new(page, family: str, w: int, h: int) -> None:
    """A template, waited for: its answer, then a board of that size (the page may already show a board of
    that family, so the header alone would not tell)."""
    page.select_option("#family", family)
    page.fill("#width", str(w))
    page.fill("#height", str(h))
    with page.expect_response("**/api/new"):
        page.click("#new")
    header = "STANDARD" if family == "standard" else family.upper()
    page.wait_for_function(f"document.querySelector('#text').value.startsWith({header!r}) && "
                           f"document.querySelectorAll('#board polygon.cell').length === {w * h} && "
                           "document.querySelector('#badge').textContent.startsWith('new board')")


@pytest.mark.parametrize("family, w, h, first, second", [("standard", 5, 5, 0, 24), ("hex", 4, 3, 0, 11)])
def test_make_a_board_place_endpoints_see_it_valid_and_solve(page, family, w, h, first, second):
    _new(page, family, w, h)
    _badge(page, "new board")  # a template has no flows yet: greeted, not called invalid
    cells = page.locator("#board polygon.cell")
    assert cells.count() == w * h
    page.select_option("#label", "A")
    page.evaluate("document.querySelector('#board svg').dataset.stale = '1'")
    cells.nth(first).click()
    # the first endpoint is in the text and the board is redrawn before the second click: a click on the
    # board while it is being replaced is lost (the flaky run: the badge never said valid)
    page.wait_for_function(
        "(document.querySelector('#text').value.split('\\n').slice(1).join('').match(/A/g) || []).length === 1 && "
        "!document.querySelector('#board svg').dataset.stale")
    cells.nth(second).click()
    _badge(page, "valid")
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('solved')")
    # the replay ends on the solution: one pipe (waited for, not slept on: a loaded machine is slow)
    page.wait_for_function("document.querySelectorAll('#board g.pipe').length === 1")
    assert "A" in page.input_value("#text")


def test_a_broken_board_shows_a_positioned_problem(page):
    _new(page, "standard", 3, 2)
    text = page.input_value("#text").replace(".", "@", 1)
    page.fill("#text", text)
    page.wait_for_function("document.querySelector('#problems').textContent.includes('unexpected character')")
    assert "2:1: error: unexpected character '@'" in page.inner_text("#problems")


def test_generate_export_text_and_parse_it_back(page, tmp_path):
    page.click("#generate")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('generated')")
    _badge(page, "valid")
    with page.expect_download() as info:
        page.click("[data-export=txt]")
    path = tmp_path / "board.txt"
    info.value.save_as(path)
    assert parse_text(path.read_text()).flows


def test_save_writes_the_file(page, server):
    _, target = server
    page.fill("#text", (PUZZLES / "hex" / "honeycomb_5x4.txt").read_text())
    _badge(page, "valid")
    page.click("#save")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('saved')")
    assert target.read_text() == (PUZZLES / "hex" / "honeycomb_5x4.txt").read_text()


def test_play_a_board_to_solved_by_dragging_and_take_a_hint(page):
    page.fill("#text", "STANDARD\nA-.-A\n| | |\nB-.-.\n| | |\nC-C-B\n")
    _badge(page, "valid · 3 flows · 9 cells")  # this board, not the one the page opened with
    page.click("#play")
    drag_path(page, ["2:1", "2:3", "2:5"])
    assert page.inner_text("#score").startswith("flows 1/3")
    drag_path(page, ["4:1", "4:3", "4:5", "6:5"])
    page.click("#hint")  # fills the last flow, C, from the solution
    _solved(page)
    assert page.inner_text("#score").startswith("flows 3/3 · cells 9/9 · moves 2 · 0:")
    assert " ".join(page.inner_text("#solved").split()).startswith("Solved! moves 2 · 0:")  # the game's banner, with its figures
    assert not page.is_visible("#solved-next")  # no level browser: no next level
    assert page.locator("#board g.player polygon.tint").count() == 9  # every cell tinted in its flow's colour
    drag_path(page, ["2:1", "4:1"])  # redrawing A from its endpoint cuts B where it crosses
    assert not page.inner_text("#score").startswith("flows 3/3")


def test_a_quick_drag_crosses_a_bridge_straight_and_keys_play_too(page):
    """Issue 53: a flick over a bridge drew nothing (the route never passed one); play by keyboard on a desktop."""
    page.fill("#text", "BRIDGES\n.-B-.\n| | |\nA-*-A\n| | |\n.-B-.\n")
    _badge(page, "valid · 2 flows · 10 cells")
    page.click("#play")
    _flick(page, "4:1", "4:5")  # A, from its endpoint over the bridge to its other end in one move
    page.wait_for_function("document.querySelector('#score').textContent.startsWith('flows 1/2 · cells 3/10')")
    page.focus("#board")
    # the cursor shows on the endpoint nearest the top left (B), which is drawn down over the bridge
    for key in ["ArrowRight", "Enter", "ArrowDown", "ArrowDown", "Enter"]:
        page.keyboard.press(key)
    page.wait_for_function("document.querySelector('#score').textContent.startsWith('flows 2/2 · cells 6/10')")


def test_a_hint_names_the_pipe_that_cannot_pass_before_it_redraws_it(page):
    """Issue 53: a hint in the player's terms: which colour, which cell (row and column as drawn), lit; the
    player's board is left as it is until Hint is asked again."""
    page.fill("#text", "STANDARD\nA-.-A\n| | |\nB-.-.\n| | |\nC-C-B\n")
    _badge(page, "valid · 3 flows · 9 cells")
    page.click("#play")
    drag_path(page, ["2:1", "2:3", "4:3"])  # red turns down into blue's cell: no solution goes there
    with page.expect_response("**/api/hint"):
        page.click("#hint")
    page.wait_for_function("document.querySelector('#status').textContent.includes('cannot pass')")
    assert page.inner_text("#status") == "hint: the red pipe cannot pass here (r2c2); Hint again redraws it"
    assert page.locator('#board polygon.hint[data-cell="4:3"]').count() == 1
    assert page.inner_text("#score").startswith("flows 0/3 · cells 3/9")  # nothing changed on the board
    with page.expect_response("**/api/hint"):
        page.click("#hint")
    page.wait_for_function("document.querySelector('#score').textContent.startsWith('flows 1/3')")
    assert page.inner_text("#status") == "hint: the red pipe, redrawn as the solution has it"


def _flick(page, start, end):
    """Press on ``start`` and jump straight to ``end`` in one pointer move (a quick drag), release."""
    page.mouse.move(*centre(page, start))
    page.mouse.down()
    page.mouse.move(*centre(page, end), steps=1)
    page.mouse.up()


def test_a_quick_drag_that_skips_cells_fills_them_in(page):
    """Issue 53: a pointer move that skipped cells was ignored, so a flick drew nothing."""
    page.fill("#text", "STANDARD\nA-.-.-A\n| | | |\nB-.-.-.\n| | | |\nC-C-B-.\n")
    _badge(page, "valid · 3 flows · 12 cells")
    page.click("#play")
    _flick(page, "2:1", "2:7")  # A, end to end in one move: the two cells between are filled in
    page.wait_for_function("document.querySelector('#score').textContent.startsWith('flows 1/3')")
    assert page.locator('#board g.player polygon.tint[data-flow="A"]').count() == 4
    _flick(page, "4:1", "6:7")  # B, round the corner by the fewest links, to the cell beside its endpoint
    assert page.locator('#board g.player polygon.tint[data-flow="B"]').count() >= 5
    page.click("#play")


def test_play_after_solve_starts_from_the_bare_board(page):
    """Issue 53: Solve, then Play, left the solver's pipes drawn under "flows 0/3"."""
    page.fill("#text", "STANDARD\nA-.-A\n| | |\nB-.-.\n| | |\nC-C-B\n")
    _badge(page, "valid · 3 flows · 9 cells")
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('solved in')")
    page.wait_for_function("document.querySelectorAll('#board g.pipe').length === 3")
    page.click("#play")
    page.wait_for_function("document.querySelectorAll('#board g.pipe').length === 0")
    assert page.inner_text("#score").startswith("flows 0/3")
    drag_path(page, ["2:1", "2:3", "2:5"])  # and play goes on as usual
    assert page.inner_text("#score").startswith("flows 1/3")
    page.click("#play")


def test_edit_cells_links_and_warps(page):
    _new(page, "standard", 3, 3)
    page.select_option("#tool", "cell")
    page.locator('#board polygon[data-xy="1,1"]').click()  # the middle cell: a hole
    page.wait_for_function("document.querySelector('#text').value.split('\\n')[3] === '.   .'")
    page.locator('#board polygon.hole[data-xy="1,1"]').click()  # the hole: a bridge
    page.wait_for_function("document.querySelector('#text').value.split('\\n')[3] === '.-*-.'")
    # measured on the board drawn for this text (it has the bridge), not one being replaced: a box read from
    # a board that is swapped out mid-read is None (only the newest check's board is ever shown after it)
    page.wait_for_selector("#board polygon.bridge")
    page.select_option("#tool", "link")
    a = page.locator('#board polygon[data-xy="0,0"]').bounding_box()
    b = page.locator('#board polygon[data-xy="1,0"]').bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=4)
    page.mouse.up()
    page.wait_for_function("document.querySelector('#text').value.split('\\n')[1] === '. .-.'")  # a wall
    page.select_option("#tool", "warp")
    page.locator('#board polygon[data-xy="0,2"]').click()
    page.wait_for_function("document.querySelector('#text').value.split('\\n')[5] === '.-.-.-'")  # the row wraps


def test_open_a_screenshot_and_get_the_board(page, tmp_path):
    from flowgraph.render.raster import png

    shot = tmp_path / "level.png"
    shot.write_bytes(png(parse_text((PUZZLES / "standard" / "regular_5x5.txt").read_text())))
    page.set_input_files("#upload", str(shot))
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('scanned')")
    assert "5x5 square board, 25 cells, 5 flows" in page.inner_text("#status")
    _badge(page, "valid")


# -- a phone: the page at 390x844, played by touch (issue 26's first steps) -------------------

@pytest.fixture
def phone(browser, server):
    url, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                  device_scale_factor=2, bypass_csp=True)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#board svg")
    yield page
    context.close()


def test_a_phone_plays_a_generated_board_to_solved_by_touch(phone):
    from flowgraph import solve

    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no horizontal scroll
    phone.select_option("#family", "standard")
    phone.fill("#width", "6")
    phone.fill("#height", "6")
    phone.tap("#generate")
    phone.wait_for_function("document.querySelector('#badge').textContent.startsWith('valid') && "
                            "document.querySelectorAll('#board polygon.cell').length === 36")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    solution = solve(parse_text(phone.input_value("#text")))
    phone.tap("#play")
    phone.locator("#board").scroll_into_view_if_needed()
    for path in solution.paths.values():
        drag_path(phone, [f"{n[0]}:{n[1]}" for n in path], by="touch")
    _solved(phone)


def test_a_phone_opening_a_pack_at_the_bottom_sees_the_level_browser(phone, tmp_path):
    pack = _pack(tmp_path / "two.txt", ["regular_5x5", "heart_9x7"])
    phone.locator("#upload").scroll_into_view_if_needed()  # the file picker sits at the bottom of a phone's page
    phone.set_input_files("#upload", str(pack))
    phone.wait_for_function("document.querySelectorAll('#levels button.level').length === 2")
    phone.wait_for_timeout(300)
    box = phone.locator("#pack").bounding_box()
    assert box is not None and 0 <= box["y"] < 844  # brought into view, not left at the top out of sight


def test_play_counts_moves_undoes_a_stroke_and_restarts(page):
    page.fill("#text", "STANDARD\nA-.-A\n| | |\nB-.-.\n| | |\nC-C-B\n")
    _badge(page, "valid · 3 flows · 9 cells")
    page.click("#play")
    drag_path(page, ["2:1", "2:3"])
    drag_path(page, ["2:3", "2:5"])  # the same flow again: still one move
    drag_path(page, ["4:1", "4:3"])
    assert " · moves 2 · " in page.inner_text("#score")
    page.click("#play-undo")  # the player's view: its Undo takes back the last stroke, and its move (issue 72)
    assert page.inner_text("#score").startswith("flows 1/3 · cells 3/9 · moves 1 · ")
    page.click("#restart")
    assert page.inner_text("#score").startswith("flows 0/3 · cells 0/9 · moves 0 · 0:0")
    assert page.locator("#board g.player polygon.tint").count() == 0


def test_a_hints_outline_goes_with_undo_restart_and_solved(page):
    """Issue 72: a hint's "cannot pass here" outline survived Undo, Restart and "Solved!"."""
    page.fill("#text", "STANDARD\nA-.-A\n| | |\nB-.-.\n| | |\nC-C-B\n")
    _badge(page, "valid · 3 flows · 9 cells")
    page.click("#play")
    lit = "#board polygon.hint"

    def wrong_turn_and_hint():
        drag_path(page, ["2:1", "2:3", "4:3"])  # red turns down into blue's cell: no solution goes there
        with page.expect_response("**/api/hint"):
            page.click("#hint")
        page.wait_for_function("document.querySelector('#status').textContent.includes('cannot pass')")
        assert page.locator(lit).count() == 1

    wrong_turn_and_hint()
    page.click("#play-undo")
    assert page.locator(lit).count() == 0
    wrong_turn_and_hint()
    page.click("#restart")
    assert page.locator(lit).count() == 0
    wrong_turn_and_hint()
    for path in (["2:1", "2:3", "2:5"], ["4:1", "4:3", "4:5", "6:5"], ["6:1", "6:3"]):
        drag_path(page, path)
    _solved(page)
    assert page.locator(lit).count() == 0


def test_at_a_bridge_the_dash_lane_passes_over_whichever_pipe_came_last(page):
    """Issue 72: the pipe drawn last covered the other lane; render draws the | lane under, in the deck's shadow."""
    page.fill("#text", "BRIDGES\n.-B-.\n| | |\nA-*-A\n| | |\n.-B-.\n")
    _badge(page, "valid · 2 flows · 10 cells")
    page.click("#play")
    for first, second in ((["4:1", "4:3", "4:5"], ["2:3", "4:3", "6:3"]), (["2:3", "4:3", "6:3"], ["4:1", "4:3", "4:5"])):
        drag_path(page, first)
        drag_path(page, second)
        crossings = page.locator("#board g.player polyline.crossing")
        flows = [crossings.nth(i).get_attribute("stroke") for i in range(crossings.count())]
        colours = page.evaluate("(() => { const s = [...document.querySelectorAll('#board g.player polyline')];"
                                "return Object.fromEntries(s.filter((l) => !l.classList.contains('crossing'))"
                                ".map((l) => [l.dataset.flow, l.getAttribute('stroke')])); })()")
        assert flows[-1] == colours["A"] and colours["B"] not in flows  # A's - lane last, on top; B's in the shade
        page.click("#restart")


def test_a_file_opened_on_a_phone_shows_play_and_the_status_on_the_first_screen(browser, tmp_path):
    """Issue 72: a single FILE opened in edit mode with Play at the bottom of the first screen, the status below
    the fold."""
    target = tmp_path / "board.txt"
    target.write_text((PUZZLES / "standard" / "regular_10x10.txt").read_text())
    with _studio(target) as url:
        context = browser.new_context(**DEVICES["touch"], bypass_csp=True)
        page = context.new_page()
        try:
            page.goto(url)
            page.wait_for_selector("#board svg")
            _badge(page, "valid")
            page.evaluate("document.querySelector('#status').textContent = 'a word from the studio'")
            for selector in ("#play", "#status", "#board svg"):
                box = page.locator(selector).bounding_box()
                assert box is not None and box["y"] + box["height"] <= 844, selector
        finally:
            context.close()


def test_typing_p_in_a_field_or_list_does_not_toggle_play(page):
    page.fill("#text", "STANDARD\nA-.-A\n| | |\nB-.-B\n")  # a board that can be played, whatever ran before
    _badge(page, "valid · 2 flows · 6 cells")
    page.focus("#label")
    page.keyboard.press("p")
    page.focus("#limit")
    page.keyboard.press("p")
    assert "on" not in (page.get_attribute("#play", "class") or "")
    page.focus("body")
    page.locator("h1").click()
    page.keyboard.press("p")
    page.wait_for_function("document.querySelector('#play').classList.contains('on')")


def test_a_numberlink_url_opens_under_numberlink_rules_and_plays_with_a_cell_left_empty(page, tmp_path):
    # A joins its two ends; the last cell stays empty: no solution under Flow Free rules, one under Nikoli's.
    level = tmp_path / "level.url"
    level.write_text("https://puzz.link/p?numlin/4/1/1g1g\n")
    page.set_input_files("#upload", str(level))
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('opened level.url')")
    assert page.input_value("#rules") == "numberlink"
    _badge(page, "valid · 1 flows · 4 cells · Numberlink")
    page.click("#unique")
    page.wait_for_function("document.querySelector('#status').textContent === 'unique solution'")
    page.click("#play")
    drag_path(page, ["2:1", "2:3", "2:5"])
    _solved(page)
    page.click("#play")
    page.select_option("#rules", "flow")  # the same board under Flow Free rules has no solution
    _badge(page, "valid · 1 flows · 4 cells")
    page.wait_for_function("!document.querySelector('#badge').textContent.includes('Numberlink')")
    page.click("#unique")
    page.wait_for_function("document.querySelector('#status').textContent === 'no solution'")
    page.click("#solve")  # Solve says why, and outlines what to move
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('no solution: every flow')")
    assert page.inner_text("#status") == "no solution: every flow can be joined, but never with cell r1c4 filled"
    assert page.locator('#board polygon.problem[data-cell="2:7"]').count() == 1


def test_a_5x5_authored_with_the_keyboard_alone_until_unique(page):
    page.select_option("#family", "standard")
    page.fill("#width", "5")  # the controls follow the board the page opened with
    page.fill("#height", "5")
    page.focus("#new")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#board polygon.cell').length === 25 && "
                           "document.querySelector('#badge').textContent.startsWith('new board')")
    page.focus("#board")
    rows = ["A..B.", ".C...", "..DA.", "..E..", "C.DEB"]  # puzzles/standard/regular_5x5.txt
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                page.keyboard.press(ch)
                page.wait_for_function(f"document.querySelector('#text').value.split('\\n')[{1 + 2 * y}][{2 * x}] === {ch!r}")
            if x < 4:
                page.keyboard.press("ArrowRight")
        if y < 4:
            page.keyboard.press("ArrowDown")
            for _ in range(4):
                page.keyboard.press("ArrowLeft")
    _badge(page, "valid · 5 flows · 25 cells")
    page.keyboard.press("?")
    page.wait_for_function("document.querySelector('#status').textContent === 'unique solution'")
    assert "unique" in page.get_attribute("#badge", "class")
    page.keyboard.press("#")  # the cursor's corner cell (an endpoint B) becomes a hole
    page.wait_for_function("document.querySelectorAll('#board polygon.cell').length === 24")
    page.keyboard.press("Control+z")
    page.wait_for_function("document.querySelectorAll('#board polygon.cell').length === 25")


def test_share_page_saves_a_page_a_friend_opens_and_plays_with_no_studio(page, browser, tmp_path):
    """Issue 72: the button "share: link" made a link only this browser could open (a friend got an empty studio
    and a token error; each click logged a 422). "page" saves the board as a published page anyone can open."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.fill("#text", (PUZZLES / "hex" / "honeycomb_5x4.txt").read_text())  # hex: no puzz.link URL
    _badge(page, "valid · 4 flows")
    with page.expect_download() as got:
        page.click("#share-page")
    saved = tmp_path / "board.html"
    got.value.save_as(saved)
    assert got.value.suggested_filename == "board.html" and "anyone can open" in page.inner_text("#status")
    page.click("#share-link")  # named for what it is, and it asks the server nothing
    page.wait_for_function("document.querySelector('#shared').value.includes('#board=')")
    assert not errors, errors
    friend = browser.new_context()  # no token, no studio: a file opened from the disk
    try:
        other = friend.new_page()
        other.goto(saved.as_uri())
        other.wait_for_selector("svg polygon")
        assert other.locator("svg polygon").count() >= 20
    finally:
        friend.close()


def test_a_share_link_opens_the_same_board_in_a_fresh_page_and_copies_other_formats(page, browser):
    board = (PUZZLES / "hex" / "honeycomb_5x4.txt").read_text()  # no puzz.link URL for hex: a studio link
    page.fill("#text", board)
    _badge(page, "valid · 4 flows")
    page.click("#share-link")
    page.wait_for_function("document.querySelector('#shared').value.includes('#board=')")
    # said when the box is filled, whether or not the clipboard ever answers (headless Chromium may not)
    page.wait_for_function("document.querySelector('#status').textContent.includes('this browser only')")
    assert "for anyone: page" in page.inner_text("#status")
    link = page.input_value("#shared")
    fresh = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    try:
        fresh.goto(link)  # a browser without the token: the board is not lost, and it says what to do
        fresh.wait_for_function("document.querySelector('#status').textContent.includes(\"this link's board is kept\")")
        fresh.goto(page.url.split("#")[0] + f"?token={TOKEN}")  # the studio's address, once
        fresh.wait_for_selector("#board svg")
        fresh.goto("about:blank")  # the link differs only after '#': load it afresh
        fresh.goto(link)
        fresh.wait_for_function("document.querySelector('#status').textContent.startsWith('opened the board of a shared link')")
        assert fresh.input_value("#text") == board
        _badge(fresh, "valid · 4 flows")
    finally:
        fresh.close()
    page.fill("#text", (PUZZLES / "standard" / "regular_5x5.txt").read_text())
    _badge(page, "valid · 5 flows · 25 cells")
    page.click("[data-copy=puzzlink]")
    page.wait_for_function("document.querySelector('#shared').value.startsWith('https://puzz.link/p?')")
    page.click("[data-copy=level-pack]")
    page.wait_for_function("document.querySelector('#shared').value.startsWith('5,0,')")


def test_a_pack_opens_in_the_level_browser_and_its_third_level_is_played(page, tmp_path):
    pack = _pack(tmp_path / "pack.txt", ["regular_5x5", "heart_9x7", "regular_10x10"])
    page.evaluate("localStorage.removeItem('flowgraph.solved')")  # no progress yet (the token stays)
    page.set_input_files("#upload", str(pack))
    page.wait_for_function("document.querySelectorAll('#levels button.level').length === 3")
    assert page.inner_text("#pack-name") == "pack.txt: 3 levels"
    assert page.locator("#levels button.level svg").count() == 3  # thumbnails
    assert page.inner_text("#levels button.level >> nth=2").endswith("10×10 · unsolved")
    page.click("#levels button.level >> nth=2")
    page.wait_for_function("document.querySelector('#status').textContent === 'pack.txt: level 3 of 3'")
    _badge(page, "valid")
    page.wait_for_function("document.querySelectorAll('#board polygon.cell').length === 100")
    page.click("#play")
    _hint_until_solved(page, 30)
    page.wait_for_function("document.querySelectorAll('#levels button.level.solved').length === 1")
    assert page.inner_text("#levels button.level >> nth=2").endswith("✓ solved")
    page.click("#prev-level")  # in play: the level before is played
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('pack.txt: level 2 of 3 · play')")
    page.reload()  # progress is kept in the browser: the pack opened again shows level 3 solved
    page.wait_for_selector("#board svg")
    page.set_input_files("#upload", str(pack))
    page.wait_for_function("document.querySelectorAll('#levels button.level.solved').length === 1")


def _in_view(page, selector: str, height: int = 800) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_a_solved_level_offers_the_next_level_in_play_and_every_answer_is_above_the_fold(page, tmp_path):
    pack = _pack(tmp_path / "three.txt", ["regular_5x5", "heart_9x7", "open_field_8x8"])
    page.set_input_files("#upload", str(pack))
    page.wait_for_function("document.querySelector('#status').textContent === 'three.txt: level 1 of 3'")
    _badge(page, "valid · 5 flows")
    for part in ("#play", "#hint", "#unique", "#status", "#board svg"):  # 1280x800, the level browser open
        assert _in_view(page, part), part
    page.click("#play")
    _hint_until_solved(page, 10)
    assert _in_view(page, "#solved") and page.is_visible("#solved-next")
    page.click("#solved-next")  # the next level opens in play: no Play again
    page.wait_for_function("document.querySelectorAll('#board polygon.cell').length === 45")
    assert page.inner_text("#level-at") == "level 2 of 3" and "on" in page.get_attribute("#play", "class")
    assert not page.is_visible("#solved") and page.is_enabled("#hint")
    page.click("#next-level")  # next ▶ keeps play too
    page.wait_for_function("document.querySelectorAll('#board polygon.cell').length === 64")
    assert "on" in page.get_attribute("#play", "class")
    page.click("#play")  # out of play, for Unique?
    page.click("#unique")  # open_field_8x8 has two: both shown where the eye is
    page.wait_for_function("!document.querySelector('#compare').hidden")
    assert page.locator("#compare").bounding_box()["y"] < 800


def test_a_folder_as_file_opens_in_the_level_browser_with_save_off(browser, tmp_path):
    folder = tmp_path / "standard"
    folder.mkdir()
    for name in ("regular_5x5", "heart_9x7"):
        (folder / f"{name}.txt").write_text((PUZZLES / "standard" / f"{name}.txt").read_text())
    with _studio(folder) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        try:
            page.goto(url)
            page.wait_for_function("document.querySelectorAll('#levels button.level').length === 2")
            assert page.inner_text("#pack-name") == "standard: 2 levels" and page.is_disabled("#save")
            _badge(page, "valid · 7 flows · 45 cells")  # heart_9x7 sorts first by name
        finally:
            page.close()
    assert sorted(p.name for p in folder.iterdir()) == ["heart_9x7.txt", "regular_5x5.txt"]


def test_unique_shows_two_solutions_side_by_side(page):
    page.fill("#text", (PUZZLES / "standard" / "open_field_8x8.txt").read_text())
    _badge(page, "valid · 7 flows · 64 cells")  # this board's own check: a later one would redraw the board
    page.click("#unique")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('several solutions')")
    assert page.locator("#compare svg").count() == 2 and page.is_visible("#compare")
    differ = page.locator("#board polygon.problem").count()
    assert differ > 0 and page.locator("#compare polygon.problem").count() == 2 * differ
    assert page.locator("#compare g.pipe").count() > 0  # solutions, not boards
    page.fill("#text", (PUZZLES / "standard" / "regular_5x5.txt").read_text())
    _badge(page, "valid · 5 flows · 25 cells")
    page.wait_for_function("document.querySelector('#compare').hidden")


def test_export_the_solution_as_a_large_png(page, tmp_path):
    from PIL import Image

    page.fill("#text", (PUZZLES / "standard" / "regular_5x5.txt").read_text())
    _badge(page, "valid · 5 flows · 25 cells")
    page.check("#export-solution")
    page.select_option("#export-size", "96")
    with page.expect_download() as info:
        page.click("[data-export=png]")
    assert info.value.suggested_filename == "solution.png"
    path = tmp_path / "solution.png"
    info.value.save_as(path)
    assert Image.open(path).width >= 5 * 96


def test_a_folder_opens_every_puzzle_in_it_in_the_level_browser(page, tmp_path):
    from flowgraph import parse_file
    from flowgraph.authoring.solved import write_many_solved as write_many
    from flowgraph.io.formats import Entry

    folder = tmp_path / "levels"
    folder.mkdir()
    for name in ("regular_5x5", "heart_9x7"):
        (folder / f"{name}.txt").write_text((PUZZLES / "standard" / f"{name}.txt").read_text())
    boards = [parse_file(PUZZLES / "standard" / "regular_10x10.txt"), parse_file(PUZZLES / "hex" / "hive_8x7.txt")]
    (folder / "pack.txt").write_text(write_many([Entry(f"l{i}", b) for i, b in enumerate(boards)], "level-pack"))
    page.set_input_files("#upload-folder", str(folder))
    page.wait_for_function("document.querySelectorAll('#levels button.level').length === 4")
    assert page.inner_text("#pack-name") == "levels: 4 levels"
    page.click("#next-level")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('levels: level 2 of 4')")


@pytest.mark.parametrize("level", [2, 9])
def test_pack_n_opens_the_level_browser_at_level_n(browser, tmp_path, level):
    """Issue 53: ``flowgraph studio 'pack.txt#N'`` opened a blank board (the page now gets ``level`` with FILE)."""
    from flowgraph import parse_file
    from flowgraph.authoring.solved import write_many_solved as write_many
    from flowgraph.io.formats import Entry

    boards = [parse_file(PUZZLES / "standard" / name) for name in ("regular_5x5.txt", "heart_9x7.txt",
                                                                     "regular_10x10.txt")]
    pack = tmp_path / "pack.txt"
    pack.write_text(write_many([Entry(f"l{i}", b) for i, b in enumerate(boards)], "level-pack"))
    with live_studio(str(pack), level=level) as port:
        page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page.goto(f"http://127.0.0.1:{port}/?token={TOKEN}")
        page.wait_for_function("document.querySelectorAll('#levels button.level').length === 3")
        if level == 2:
            page.wait_for_function("document.querySelector('#level-at').textContent === 'level 2 of 3'")
            _badge(page, f"valid · {len(boards[1].flows)} flows · {boards[1].cells} cells")
        else:
            page.wait_for_function("document.querySelector('#status').textContent.endsWith('holds 3 levels: "
                                   "there is no #9')")
        assert page.is_disabled("#save")
        page.close()


def test_an_answer_is_cleared_when_the_board_changes(page):
    board = (PUZZLES / "standard" / "regular_5x5.txt").read_text()
    page.fill("#text", board)
    _badge(page, "valid · 5 flows · 25 cells")
    page.click("#solve")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('solved in')")
    page.fill("#text", board.replace("C-.-D-E-B", "C-.-D-E-."))  # B's second end gone: another board
    page.wait_for_function("document.querySelector('#badge').textContent.startsWith('invalid')")
    page.wait_for_function("document.querySelector('#status').textContent === ''")


_ATTACK = """<!doctype html><title>attack</title>
<form id="form" method="POST" action="STUDIO/api/save" enctype="text/plain" target="sink">
<input name='{"text": "STANDARD\\nA-.-A\\n", "x": "' value='"}'></form><iframe name="sink"></iframe>
<script>
const studio = "STUDIO", text = JSON.stringify({ text: "STANDARD\\nA-.-A\\n" }), said = [];
const tries = [
  fetch(studio + "/api/save", { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" }, body: text })
    .then(() => said.push("no-cors sent"), () => said.push("no-cors failed")),
  fetch(studio + "/api/save", { method: "POST", headers: { "Content-Type": "application/json" }, body: text })
    .then(() => said.push("json answered"), () => said.push("json blocked")),
  fetch(studio + "/api/file").then((r) => r.text()).then((t) => said.push("read " + t), () => said.push("read blocked")),
];
document.getElementById("form").submit();
Promise.all(tries).then(() => setTimeout(() => { document.title = said.sort().join(" | "); }, 500));
</script>"""


@contextlib.contextmanager
def _another_page(page: bytes):
    """A web page on another loopback port (the same site as the studio): its address."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Evil(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()


@pytest.fixture
def attacker(server):
    """A web page on another loopback port that tries to write and read the studio's FILE."""
    studio = server[0].split("/?")[0]
    with _another_page(_ATTACK.replace("STUDIO", studio).encode()) as url:
        yield url


def test_a_page_on_another_port_can_neither_write_nor_read_file(page, server, attacker, browser):
    _, target = server
    target.write_text("STANDARD\nB-.-B\n")  # the studio page is open in this browser, its token kept
    evil = browser.new_page(bypass_csp=True)  # another tab; the studio's token is in its own origin's storage only
    try:
        evil.goto(attacker)
        evil.wait_for_function("document.title.includes('read')", timeout=15_000)
        title = evil.title()
    finally:
        evil.close()
    assert "read blocked" in title and "json blocked" in title and "B-.-B" not in title, title
    time.sleep(0.5)
    assert target.read_text() == "STANDARD\nB-.-B\n"


def test_a_pack_as_file_opens_the_level_browser_and_a_pasted_pack_says_why(browser, server):
    url, target = server
    before = target.read_bytes() if target.exists() else None
    target.write_text((ROOT / "tests" / "data" / "packs" / "every_kind.txt").read_text())
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    try:
        page.goto(url)
        page.wait_for_function("!document.querySelector('#pack').hidden")
        assert "5 levels" in page.inner_text("#pack-name") and page.is_disabled("#save")
        _badge(page, "valid")  # its first level, on the board
        page.click("#next-level")
        page.wait_for_function("document.querySelector('#status').textContent.includes('level 2 of 5')")
        second = page.input_value("#text")
        page.click("#undo")  # opening a level is no edit: nothing to undo, level 2 stays
        page.wait_for_timeout(200)
        assert page.input_value("#text") == second
        page.fill("#text", target.read_text())  # the whole pack typed in: the server's reason is shown
        page.wait_for_function("document.querySelector('#problems').textContent.includes('holds 5 puzzles')")
    finally:
        page.close()
        target.write_bytes(before) if before is not None else target.unlink()


_FRAMER = """<!doctype html><title>win a prize</title>
<button style="position:absolute;left:0;top:0;width:1280px;height:800px">click anywhere to win</button>
<iframe id="studio" src="STUDIO" style="position:absolute;left:0;top:0;width:1280px;height:800px;opacity:0.05;border:0"></iframe>
"""


@pytest.fixture
def framer(server):
    """A web page on another loopback port that frames the studio, a shared board in its address, over a decoy."""
    studio = server[0].split("/?")[0]
    board = base64.urlsafe_b64encode(b"STANDARD\nZ-.-Z\n").decode().rstrip("=")
    with _another_page(_FRAMER.replace("STUDIO", f"{studio}/#board={board}").encode()) as url:
        yield url


def test_a_page_on_another_port_cannot_frame_the_studio_and_click_save(server, framer, browser):
    """Issue 51: a framed studio had the token and loaded the link's board; one click on the decoy saved it."""
    url, target = server
    target.write_text("STANDARD\nB-.-B\n")
    context = browser.new_context(viewport={"width": 1280, "height": 800})  # the page's own CSP in force
    try:
        studio = context.new_page()  # the studio was opened in this browser: its token is kept for its origin
        studio.goto(url)
        studio.wait_for_selector("#board svg")
        save = studio.locator("#save").bounding_box()
        evil = context.new_page()
        evil.on("dialog", lambda d: d.accept())  # even a user who says yes to everything
        evil.goto(framer)
        evil.wait_for_timeout(1500)
        framed = [f for f in evil.frames if f != evil.main_frame]
        assert framed and not any(f.query_selector("#save") for f in framed if not f.is_detached())
        evil.mouse.click(save["x"] + save["width"] / 2, save["y"] + save["height"] / 2)
        evil.wait_for_timeout(500)
    finally:
        context.close()
    assert target.read_text() == "STANDARD\nB-.-B\n"


def test_the_studio_says_it_may_not_be_framed(server):
    import urllib.request

    url, _ = server
    with urllib.request.urlopen(url.split("?")[0]) as res:
        assert res.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in res.headers["Content-Security-Policy"]


def test_a_shared_board_is_saved_over_file_only_when_the_user_says_so(browser, server):
    url, target = server
    target.write_text("STANDARD\nB-.-B\n")
    board = base64.urlsafe_b64encode(b"STANDARD\nZ-.-Z\n").decode().rstrip("=")
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    try:
        page.goto(url)
        page.wait_for_selector("#board svg")
        page.goto("about:blank")
        page.goto(url.split("?")[0] + f"#board={board}")
        page.wait_for_function("document.querySelector('#status').textContent.includes('shared link')")
        asked = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.click("#save")
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('not saved')")
        assert target.read_text() == "STANDARD\nB-.-B\n" and "shared link" in asked[0]
        page.once("dialog", lambda d: d.accept())
        page.click("#save")
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('saved')")
        assert target.read_text() == "STANDARD\nZ-.-Z\n"
    finally:
        page.close()


def test_a_share_link_with_a_huge_board_is_not_opened(browser, server):
    """Issue 51: a ~2 MB #board= opened by another page's navigation made the studio read it, with no token."""
    url, _ = server
    board = base64.urlsafe_b64encode(b"STANDARD\n" + b"A-.-A\n" * 40_000).decode().rstrip("=")
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    sent: list[int] = []  # the bodies the page posts
    page.on("request", lambda r: sent.append(len(r.post_data or "")) if r.method == "POST" else None)
    try:
        page.goto(url)
        page.wait_for_selector("#board svg")
        page.goto("about:blank")
        page.goto(url.split("?")[0] + f"#board={board}")
        page.wait_for_function("document.querySelector('#status').textContent.includes('too large')")
        assert page.input_value("#text").count("\n") < 100 and max(sent) < 10_000
    finally:
        page.close()


@pytest.mark.parametrize("start", ["first", "second"])
@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("family", list(FAMILY_LEVELS))
def test_every_family_plays_to_solved_in_the_studio(browser, server, family, device, start):
    """Issue 53: a bridges level could not be finished (the bridge's deck took the pointer; the score counted 25
    cells of 26), and a pipe could not go through a warp by dragging. Each family, by mouse, pen and finger.
    Issue 72: a board solved with any pipe drawn from its second dot was refused ("not yet: path 'J' does not
    run from ..."): every pipe is drawn from its first dot, then from its second."""
    rel, rules = FAMILY_LEVELS[family]
    source = corpus_file(rel)
    paths = solution_cells(solve_puzzle(parse_file(source).with_rules(rules)))
    if start == "second":
        paths = {label: path[::-1] for label, path in paths.items()}
    url, _ = server
    context = browser.new_context(**DEVICES[device], bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_selector("#board svg")
        page.select_option("#rules", rules)
        page.fill("#text", source.read_text())
        _badge(page, f"valid · {len(paths)} flows")
        cells = int(page.inner_text("#badge").split(" · ")[2].split()[0])
        page.click("#play")
        assert page.locator("#board").is_visible() and page.locator("#right").is_hidden()  # the player's view
        box = page.locator("#board svg").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= DEVICES[device]["viewport"]["height"]  # the whole board
        for path in paths.values():
            drag_path(page, path, by=device)
        page.wait_for_selector("#solved:not([hidden])", timeout=5000)
        if rules == "flow":  # every cell and bridge lane, counted as the badge counts them
            assert f" · cells {cells}/{cells} · " in page.inner_text("#score")
    finally:
        context.close()


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("board", ["ring_3x12_centre", "figure_eight_2x10", "figure_eight_2x10_cells",
                                   "linked_loops_3x1", "borromean_1x24", "triquetra_1x16",
                                   "triangles_3"])
def test_a_shape_board_plays_to_solved_in_the_studio(browser, server, board, device):
    """Issue 70: a ring of sectors, a figure-eight, linked loops, the Borromean rings and a triquetra whose
    crossings' cells are bridges, and a hexagon cut from a triangle tiling, pasted into the studio, are drawn by
    their outlines and played to "Solved!" by mouse, pen and finger."""
    _play_to_solved(browser, server, PUZZLES / "shapes" / f"{board}.json", device)


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("shot", corpus_params("screenshots/shapes/*.png"))
def test_a_scanned_shape_level_plays_to_solved_in_the_studio(browser, server, shot, device, tmp_path):
    """Issue 70: each shape screenshot of the corpus, scanned, plays to "Solved!" by mouse, pen and finger."""
    from flowgraph.cli import main

    board = tmp_path / f"{shot.stem}.json"
    assert main(["scan", str(shot), "-o", str(board)]) == 0
    _play_to_solved(browser, server, board, device)


def _play_to_solved(browser, server, source, device: str) -> None:
    """Paste ``source`` into the studio, Play, draw its solution by ``device``: "Solved!"."""
    paths = solution_cells(solve_puzzle(parse_file(source)))
    url, _ = server
    context = browser.new_context(**DEVICES[device], bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_selector("#board svg")
        page.fill("#text", source.read_text())
        _badge(page, f"valid · {len(paths)} flows")
        page.click("#play")
        for path in paths.values():
            drag_path(page, path, by=device)
        page.wait_for_selector("#solved:not([hidden])", timeout=5000)
    finally:
        context.close()
