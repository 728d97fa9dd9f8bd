"""The bundled shape boards drawn as the game's phone screenshots, scanned: read to the same board, refused, or wrong.

    python bench/scan_game_look.py [--width 1242 860] [--glow-in 0.05] [--line 4] [--only ring star ...]

The corpus holds three of the game's shape screenshots; this makes more of the same look from each board in
``puzzles/shapes/`` (unsolved), measured from those three (1242 x 2688 PNG): black cells on a black background
with blurred colour glows behind the board (under 16 of 255 inside it, up to about 66 outside), inner lines
about 4 px wide in a dimmed pastel, the outline in that pastel, the level's name and counters above the board
and outlined buttons below it. Each board is drawn to fill the phone's width in four outline colours, at the
phone's width and scaled down to a smaller phone's (``--width``), scanned, and compared with the board drawn
(the same graph and endpoint pairs). ``--glow-in`` is how much of the glow shows through a cell and ``--line``
the inner lines' width: raised, they make a harder look than the game's. A wrong board is what must never
happen: the scan refuses with why rather than read another board.
"""

from __future__ import annotations

import argparse
import io

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from scanback import Tally, only_option, shape_files

import flowgraph
from flowgraph.render.raster import scene_image
from flowgraph.render.scene import THEMES, scene

#: The outline colours of the game's packs (pastel), by name.
OUTLINES = {"pink": (240, 130, 130), "green": (150, 240, 150), "blue": (120, 170, 255), "yellow": (240, 230, 120)}
PHONE = (1242, 2688)


def game_look(puzzle, outline: tuple[int, int, int], seed: int, glow_in: float, line: float) -> Image.Image:
    """The puzzle drawn as a phone screenshot of the game, 1242 x 2688 pixels."""
    rng = np.random.default_rng(seed)
    dim = tuple(int(0.45 * c) for c in outline)
    theme = dict(THEMES["dark"], background=(0, 0, 0), cell=(1, 1, 1), grid=dim, wall=outline, rim=(0, 0, 0))
    probe = scene(puzzle, None, theme="dark", cell_px=100)
    cell_px = int(100 * min((PHONE[0] - 60) / probe.width, 1700 / probe.height))
    drawn = scene(puzzle, None, theme="dark", cell_px=cell_px)
    drawn.theme, drawn.grid_px = theme, line
    board = np.asarray(scene_image(drawn)).astype(int)
    glow = Image.new("RGB", PHONE, (0, 0, 0))
    paint = ImageDraw.Draw(glow)
    for _ in range(6):
        x, y = int(rng.integers(0, PHONE[0])), int(rng.integers(0, PHONE[1]))
        paint.rectangle([x - 150, y - 200, x + 150, y + 200], fill=tuple(int(v) for v in rng.integers(0, 90, 3)))
    shot = np.asarray(glow.filter(ImageFilter.GaussianBlur(80))).astype(int).copy()
    h, w = board.shape[:2]
    bx, by = (PHONE[0] - w) // 2, 520 + (1700 - h) // 2
    behind = shot[by:by + h, bx:bx + w]
    outside = (board.max(axis=2) == 0)[..., None]
    shot[by:by + h, bx:bx + w] = np.where(outside, behind, np.maximum(board, (behind * glow_in).astype(int)))
    picture = Image.fromarray(shot.astype(np.uint8))
    text = ImageDraw.Draw(picture)
    try:
        big, small = ImageFont.truetype("DejaVuSans.ttf", 80), ImageFont.truetype("DejaVuSans.ttf", 48)
    except OSError:
        big = small = ImageFont.load_default()
    text.text((150, 150), "level 12", fill=outline, font=big)
    text.text((500, 160), "Daily", fill=(150, 150, 150), font=big)
    text.text((10, 300), "flows: 0/4      moves: 0    best: -      pipe: 0%", fill=(255, 255, 255), font=small)
    for x, y in ((75, 205), (70, 2450), (420, 2450), (620, 2450), (820, 2450)):
        text.ellipse([x - 55, y - 55, x + 55, y + 55], outline=(255, 255, 255), width=8)
    return picture


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, nargs="+", default=[1242, 860], help="phone widths, pixels")
    parser.add_argument("--glow-in", type=float, default=0.05, help="share of the glow through a cell (0.05)")
    parser.add_argument("--line", type=float, default=4.0, help="inner lines' width, pixels at 1242 (4)")
    only_option(parser)
    args = parser.parse_args()
    files = shape_files(args.only)
    tally = Tally()
    print(f"{'board':30} {'outline':7} {'width':>5} {'seconds':>7}  result")
    for path in files:
        puzzle = flowgraph.parse_file(path)
        for seed, (name, colour) in enumerate(OUTLINES.items()):
            full = game_look(puzzle, colour, seed, args.glow_in, args.line)
            for width in args.width:
                shot = full if width == PHONE[0] else full.resize(
                    (width, round(PHONE[1] * width / PHONE[0])), Image.Resampling.LANCZOS)
                buf = io.BytesIO()
                shot.save(buf, "PNG")
                print(f"{path.name:30} {name:7} {width:5} {tally.scan_back(buf.getvalue(), puzzle)}", flush=True)
    print(tally.summary())

if __name__ == "__main__":
    main()
