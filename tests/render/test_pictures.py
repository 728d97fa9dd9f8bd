"""Pictures: SVG structure per family, PNG colours at the endpoints, the GIF of the search; every solution verified."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from flowgraph import parse_file, parse_text, solve, verify
from flowgraph.cli import main
from flowgraph.io.sketch import sketch_of
from flowgraph.render import animate
from flowgraph.render.raster import gif, png
from flowgraph.render.scene import flow_colour, flow_ink, scene, shade
from flowgraph.render.svg import svg
from tests.helpers import BUNDLED, PUZZLES, UNSOLVABLE, corpus_file

PIL = pytest.importorskip("PIL.Image")
SVG = "{http://www.w3.org/2000/svg}"


def _svg_tree(text):
    return ET.fromstring(text)


def _class(tree, name):
    return [e for e in tree.iter() if e.get("class") == name]


@pytest.mark.parametrize("path", [p for p in BUNDLED if p not in UNSOLVABLE], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_svg_has_a_shape_per_cell_a_pipe_per_flow(path):
    solution = verify(solve(parse_file(path)))
    tree = _svg_tree(svg(solution))
    places = {tuple(s.xy) for s in sketch_of(solution.puzzle).spots.values()}  # a bridge's lanes share one cell
    cells = _class(tree, "cell")
    assert len(cells) == len(places)
    corners = 6 if solution.puzzle.family == "HEX" else 4
    assert all(len(c.get("points").split()) == corners for c in cells)
    assert sorted(g.get("data-flow") for g in _class(tree, "pipe")) == sorted(f.label for f in solution.puzzle.flows)
    assert len(_class(tree, "endpoint")) == 2 * len(solution.puzzle.flows)


def test_walls_one_per_missing_link_between_neighbours():
    puzzle = parse_file(PUZZLES / "standard" / "garden_9x7_holes.txt")
    sk = sketch_of(puzzle)
    at = {tuple(map(int, s.xy)) for s in sk.spots.values()}
    linked = {frozenset(tuple(map(int, sk.spots[k].xy)) for k in pair) for pair in sk.links}
    missing = {frozenset((a, b)) for a in at for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1))
               if b in at and frozenset((a, b)) not in linked}
    assert missing  # the garden has walls
    assert len(_class(_svg_tree(svg(verify(solve(puzzle)))), "wall")) == len(missing)


@pytest.mark.parametrize("name", ["torus_6x6.txt", "ring_7x7_hole.txt", "wrap_5x5.txt"])
def test_tunnel_marks_for_each_warp(name):
    solution = verify(solve(parse_file(PUZZLES / "warps" / name)))
    warps = sum(1 for *_, w in solution.puzzle.graph.edges(data="warp") if w)
    assert warps and len(_class(_svg_tree(svg(solution)), "tunnel")) == 2 * warps


def test_bridges_are_decks_the_dash_lane_passes_over_and_the_bar_lane_runs_on_beneath():
    solution = verify(solve(parse_file(PUZZLES / "bridges" / "crossing_5x5.txt")))
    tree = _svg_tree(svg(solution))
    assert len(_class(tree, "bridge")) == 1 and len(_class(tree, "rail")) == 2  # a deck with two guard rails
    assert len(_class(tree, "overpass")) == 2  # a rim and the pipe
    assert len(_class(tree, "underpass")) == 1
    # the lower pipe is seen on both sides of the overpass, in the shadow of the deck: a darker shade of its colour
    sc = scene(solution.puzzle, solution.paths, cell_px=80)
    (label, ((x1, y1), (x2, y2))), = sc.underpasses
    expected = shade(flow_ink(label, sc.theme)[0], sc.theme)
    image = PIL.open(io.BytesIO(png(solution, cell_px=80))).convert("RGB")
    for t in (0.1, 0.9):  # near both ends of its segment across the deck
        pixel = image.getpixel((round(x1 + t * (x2 - x1)), round(y1 + t * (y2 - y1))))
        assert all(abs(a - b) <= 12 for a, b in zip(pixel, expected)), (pixel, expected)


@pytest.mark.parametrize("rel", ["generated/hex/hex_10x10_105.txt", "samgoldman/hex/Classic5x5_1.txt"])
def test_both_hex_layouts_draw_hexagons(rel):
    solution = verify(solve(parse_file(corpus_file(rel))))
    cells = _class(_svg_tree(svg(solution)), "cell")
    assert cells and all(len(c.get("points").split()) == 6 for c in cells)


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("path", [PUZZLES / "hex" / "hive_8x7.txt", PUZZLES / "bridges" / "two_bridges_6x6.txt"],
                         ids=lambda p: p.name)
def test_png_endpoint_pixels_have_the_flow_colour(path, theme):
    solution = verify(solve(parse_file(path)))
    image = PIL.open(io.BytesIO(png(solution, theme=theme))).convert("RGB")
    sc = scene(solution.puzzle, theme=theme)
    assert image.size == (sc.width, sc.height)
    for label, (x, y) in sc.dots:
        got = image.getpixel((round(x), round(y)))
        assert max(abs(a - b) for a, b in zip(got, flow_colour(label))) <= 8, (label, got)


def test_gif_of_the_search_ends_on_the_solution(tmp_path):
    puzzle = parse_file(corpus_file("samgoldman/hex/15x15Mania_150.txt"))
    solution, frames = animate(puzzle, 12)
    verify(solution)
    out = tmp_path / "search.gif"
    assert gif(puzzle, frames, out, cell_px=12) == len(frames) > 1
    image = PIL.open(out)
    assert image.n_frames > 1
    image.seek(image.n_frames - 1)
    last = image.convert("RGB")
    final = PIL.open(io.BytesIO(png(solution, cell_px=12))).convert("RGB")
    from PIL import ImageChops

    off = ImageChops.difference(last, final).convert("L").point(lambda v: 255 if v > 40 else 0).histogram()[255]
    assert off < 0.01 * last.size[0] * last.size[1]  # the GIF's palette aside, the same picture


def test_more_than_16_flows_get_distinct_colours():
    colours = [flow_colour(c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"]
    assert len(set(colours)) == 62


def test_labels_and_jupyter(capsys):
    puzzle = parse_text("STANDARD\nA-.-A\n| | |\nB-.-B\n")
    assert "<text" in svg(puzzle, labels=True)
    assert puzzle._repr_svg_().startswith("<svg") and verify(solve(puzzle))._repr_svg_().count('class="pipe"') == 2


def test_cli_render_every_kind(tmp_path, capsys):
    hex_board = str(PUZZLES / "hex" / "honeycomb_5x4.txt")
    assert main(["render", hex_board]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    assert main(["render", hex_board, "--solve", "-o", str(tmp_path / "h.png"), "--theme", "light", "--labels"]) == 0
    assert PIL.open(tmp_path / "h.png").size[0] > 100
    assert main(["render", str(PUZZLES / "standard" / "unsolvable_3x3.txt"), "--solve", "-o", str(tmp_path / "u.svg")]) == 1
    assert main(["render", hex_board, "-o", str(tmp_path / "x.bmp")]) == 2
    assert main(["solve", "--svg", str(tmp_path / "pics"), "--png", str(tmp_path / "pics"), hex_board]) == 0
    assert sorted(p.name for p in (tmp_path / "pics").iterdir()) == ["honeycomb_5x4.png", "honeycomb_5x4.svg"]


def test_frames_of_a_long_search_take_memory_for_the_frames_only():
    from flowgraph.render import FrameSampler

    sampler = FrameSampler(30)
    for state in range(1_000_000):
        sampler.add(state)
        assert len(sampler.kept) < 60
    frames = sampler.frames()
    assert len(frames) == 30 and frames[0] == 0 and frames == sorted(frames)


def test_gif_of_an_easy_board_draws_the_solution_flow_by_flow(tmp_path):
    puzzle = parse_file(PUZZLES / "standard" / "regular_5x5.txt")
    solution, frames = animate(puzzle, 30)
    assert 20 <= len(frames) <= 30 and frames[-1] == {k: [list(v)] for k, v in solution.paths.items()}
    drawn = [sum(len(piece) for pieces in f.values() for piece in pieces) for f in frames]
    assert drawn[-1] == 25 and drawn[-2] < 25 and sorted(drawn[1:]) == drawn[1:]  # grows to the full board
    out = tmp_path / "draw.gif"
    assert gif(puzzle, frames, out, cell_px=12) == len(frames) and PIL.open(out).n_frames > 10


@pytest.mark.parametrize("name", ["standard/regular_10x10.txt", "hex/lens_11x7.txt", "warps/torus_6x6.txt",
                                  "standard/garden_9x7_holes.txt"])
def test_labels_number_the_rows_and_columns_as_explain_names_cells(name):
    """--labels numbers rows down the left and columns across the top: the cell explain calls r3c5 is level with
    row number 3 and below column number 5 (rows and columns of a hexagonal board: their mean)."""
    from flowgraph.render.scene import scene

    puzzle = parse_file(PUZZLES / name)
    drawn = scene(puzzle, labels=True)
    places = {p for p in puzzle.cell_places.values() if p}
    rows, columns = {r for r, _ in places}, {c for _, c in places}
    assert len(drawn.rulers) == len(rows) + len(columns)
    at = {text: xy for text, xy in drawn.rulers[:len(rows)]}, {text: xy for text, xy in drawn.rulers[len(rows):]}
    assert set(at[0]) == {str(r) for r in rows} and set(at[1]) == {str(c) for c in columns}
    plain = scene(puzzle)
    assert not plain.rulers and plain.width < drawn.width  # room made for them only when asked
    left = min(x for poly in drawn.cells for x, _ in poly)
    top = min(y for poly in drawn.cells for _, y in poly)
    assert all(x < left for x, _ in at[0].values()) and all(y < top for _, y in at[1].values())
    if "hex" not in name:  # square cells: each number exactly level with its cells
        centre = {pos: (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))
                  for pos, poly in zip(drawn.cell_pos, drawn.cells)}
        for node, (r, c) in ((n, p) for n, p in puzzle.cell_places.items() if p):
            x, y = centre[node[:2]]
            assert abs(at[0][str(r)][1] - y) < 1 and abs(at[1][str(c)][0] - x) < 1
    assert svg(puzzle, labels=True).count('class="ruler"') == len(rows) + len(columns)
