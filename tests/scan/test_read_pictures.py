"""``scan(image) -> Puzzle`` on the real screenshots of the corpus and on boards flowgraph draws itself."""

from __future__ import annotations

import io

import numpy as np
import pytest

from flowgraph import ScanError, parse_file
from flowgraph.io.sketch import same_board
from flowgraph.scan import image as image_module
from flowgraph.scan import read_board, scan
from tests.helpers import DATA, PUZZLES, corpus_file, corpus_params
from tests.scan.scan_helpers import picture, same_graph

SCREENSHOTS = corpus_params("screenshots/*.jpg")


@pytest.mark.parametrize("shot", SCREENSHOTS)
def test_every_screenshot_scans_to_its_transcription(shot):
    if shot.stem == "Classic5x5_1":  # the hex board with finger-drawn lines over it
        expected = parse_file(corpus_file("samgoldman/hex/Classic5x5_1.txt"))
        assert same_graph(scan(shot), expected)
        return
    expected = parse_file(DATA / "scan" / f"{shot.stem}.txt")
    found = scan(shot)
    assert same_board(found, expected)  # the same cells, links and labels (colours in the game's order)
    assert len(found.flows) == len(expected.flows)


def test_a_screenshot_that_has_a_neighbor_link_file_matches_it_exactly():
    shot = corpus_file("screenshots/Classic5x5_1.jpg")
    found = read_board(shot)
    assert found.board.lattice.family == "HEX" and found.size == (5, 5)
    assert [(f.label) for f in found.puzzle.flows] == list("CADEB")  # labels named after the dots' colours
    assert same_graph(found.puzzle, parse_file(corpus_file("samgoldman/hex/Classic5x5_1.txt")))


# Boards flowgraph draws: both hex layouts, holes and walls, sizes, scales, JPEG, both themes. The light theme
# draws flow J white on white, so only boards of at most nine flows are read back in it.
DRAWN = ["standard/regular_5x5.txt", "standard/garden_9x7_holes.txt", "standard/heart_9x7.txt",
         "standard/regular_10x10.txt", "hex/hive_8x7.txt", "hex/hive_7x6_holes.txt", "hex/honeycomb_5x4.txt",
         "hex/lens_11x7.txt", "warps/torus_6x6.txt", "warps/ring_7x7_hole.txt", "warps/wrap_5x5.txt",
         "bridges/crossing_5x5.txt", "bridges/two_bridges_6x6.txt", "bridges/warped_bridges_7x7.txt"]
LOOKS = [
    dict(theme="dark", cell_px=40),
    dict(theme="dark", cell_px=24, jpeg=80),
    dict(theme="dark", cell_px=56, scale=0.6),
    dict(theme="dark", cell_px=40, jpeg=60),
    dict(theme="dark", cell_px=32, scale=1.7, jpeg=90),
    dict(theme="light", cell_px=30, scale=1.3, jpeg=70),
    dict(theme="light", cell_px=48, scale=0.75, jpeg=85),
]


@pytest.mark.parametrize("look", LOOKS, ids=lambda d: "-".join(f"{v}" for v in d.values()))
@pytest.mark.parametrize("rel", DRAWN)
def test_boards_flowgraph_draws_scan_back_to_the_same_board(rel, look):
    puzzle = parse_file(PUZZLES / rel)
    if look["theme"] == "light" and len(puzzle.flows) > 9:
        pytest.skip("flow J is white: invisible on the light theme")
    if rel.startswith("bridges") and look.get("scale", 1) < 1:
        pytest.skip("scaled below 1, the grid line between a bridge tile and a cell fades out (a known limit)")
    found = scan(picture(puzzle, **look))
    assert same_graph(found, puzzle)
    if not rel.startswith("hex"):
        assert same_board(found, puzzle)  # square boards: the same places, labels, bridges and warps too


def test_screenshots_have_no_bridges_or_warps_in_their_faded_decorations():
    for shot in corpus_params("screenshots/*.jpg"):
        if shot.values[0] is not None:
            found = read_board(shot.values[0])
            assert not found.bridges and not found.warps, shot.id


@pytest.mark.parametrize("path", corpus_params("generated/hex/hex_1[01]x*.txt"))
def test_pointy_topped_hex_boards_are_read_transposed(path):
    puzzle = parse_file(path)
    found = read_board(picture(puzzle))
    assert found.board.lattice.transposed
    assert same_graph(found.puzzle, puzzle)


def test_scan_takes_a_file_bytes_or_an_array():
    puzzle = parse_file(PUZZLES / "standard" / "regular_5x5.txt")
    data = picture(puzzle)
    from PIL import Image

    array = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
    for image in (data, array, np.dstack([array, np.full(array.shape[:2], 255, np.uint8)])):
        assert same_board(scan(image), puzzle)


def _blank(width=400, height=300, value=0):
    return np.full((height, width, 3), value, np.uint8)


def _noise():
    rng = np.random.default_rng(7)
    return rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)


def _cat():
    """A photo-like picture: smooth gradients and blobs, no grid."""
    y, x = np.mgrid[0:600, 0:800]
    img = np.stack([(x / 4) % 256, (y / 3) % 256, ((x + y) / 6) % 256], axis=2).astype(np.uint8)
    img[200:400, 300:500] = (200, 150, 90)
    return img


@pytest.mark.parametrize("image, message", [
    (b"not a picture at all", "not a picture"),
    (picture(parse_file(PUZZLES / "standard" / "regular_5x5.txt"))[:400], "cannot be decoded"),
    (_blank(), "no grid found"),
    (_blank(value=255), "no grid found"),
    (_noise(), "no grid found"),
    (_cat(), "no grid found"),
    (_blank(20, 20), "too small"),
    (np.zeros((50, 50), np.float32), "uint8"),
], ids=["text", "truncated", "black", "white", "noise", "photo", "tiny", "float-array"])
def test_what_is_no_board_is_a_scan_error_that_says_why(image, message):
    with pytest.raises(ScanError, match=message):
        scan(image)


def test_a_picture_above_the_size_limit_is_refused_before_decoding(monkeypatch, tmp_path):
    monkeypatch.setattr(image_module, "MAX_PIXELS", 100 * 100)
    from PIL import Image

    path = tmp_path / "big.png"
    Image.new("RGB", (200, 100)).save(path)
    with pytest.raises(ScanError, match=r"200x100 pixels, more than the 10,000") as err:
        scan(path)
    assert str(err.value).startswith(str(path))


def test_a_missing_dot_is_named_with_its_colour_and_place():
    puzzle = parse_file(PUZZLES / "standard" / "regular_5x5.txt")
    from PIL import Image

    img = np.array(Image.open(io.BytesIO(picture(puzzle))).convert("RGB"))
    found = read_board(img)
    gone = next(d for d in found.dots if d.label == "B")
    x, y = (round(v) for v in found.where(gone.xy))
    img[y - 14:y + 15, x - 14:x + 15] = (12, 12, 12)  # paint one green dot out
    with pytest.raises(ScanError, match=r"the dot of colour #00(7f|80)00 at \(\d+, \d+\) has no partner") as err:
        scan(img)
    assert "odd number of dots (9)" in str(err.value)


@pytest.mark.parametrize("name, first", [("regular_5x5", "no grid found"), ("regular_10x10", "14 dots of colour")])
def test_a_solved_picture_is_said_to_be_solved(name, first):
    from flowgraph import solve
    from flowgraph.render.raster import png

    solution = solve(parse_file(PUZZLES / "standard" / f"{name}.txt"))
    with pytest.raises(ScanError) as caught:
        scan(png(solution))
    message = str(caught.value)
    assert first in message and "the picture looks solved (pipes drawn over the cells)" in message
    assert "ΔE" not in message  # not "no partner ... differs by ΔE 0"


def test_a_glow_of_the_background_beyond_both_ends_of_a_column_is_no_warp():
    """Issue 70: on a real 8x8 iPhone screenshot (level 104) a blue glow below one column and a dim one above it
    were read as a warp tunnel; a tunnel is a stub narrower than a cell, a glow is wider."""
    import cv2
    from PIL import Image

    puzzle = parse_file(PUZZLES / "standard" / "regular_10x10.txt")
    rgb = np.array(Image.open(io.BytesIO(picture(puzzle, cell_px=40))).convert("RGB"))
    margin = np.zeros((rgb.shape[0] + 160, rgb.shape[1], 3), np.uint8)
    margin[80:-80] = rgb  # room above and below the board, as a phone's screen has
    glow = np.zeros(margin.shape[:2], np.float32)
    x = 80  # over the second column (the picture's margin, then one cell of 40 pixels)
    for y in (60, margin.shape[0] - 60):
        cv2.circle(glow, (x, y), 45, 1.0, -1)
    glow = cv2.GaussianBlur(glow, (0, 0), 18)
    margin[:, :, 2] = np.clip(margin[:, :, 2] + 160 * glow / glow.max(), 0, 255).astype(np.uint8)
    found = read_board(margin)
    assert found.puzzle is not None and not found.warps
    assert same_graph(found.puzzle, puzzle)
