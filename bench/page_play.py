"""How a published page of a large board loads and plays: open boards of each size, published with
``flowgraph convert BOARD -o page.html``, opened in headless Chromium, then one path dragged ten cells.

    python bench/page_play.py --sizes 50 100 150 240

Prints per size the load time (to the board drawn) and the median time of a drag step (a pointer move while a
path is drawn, to the next animation frame). Needs Debian's chromium and playwright (``pip install -e '.[test]'``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def open_board(n: int) -> str:
    """An open n x n board, neighbor-link text: flow A along the top edge's corners, B along the bottom's."""
    ends = {(0, 0): "A", (0, n - 1): "A", (n - 1, 0): "B", (n - 1, n - 1): "B"}
    lines = ["STANDARD"]
    for y in range(n):
        lines.append("-".join(ends.get((y, x), ".") for x in range(n)))
        if y < n - 1:
            lines.append(" ".join("|" * n))
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 150, 240])
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from tests.studio.drive import ARGS, CHROMIUM, centre

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for n in args.sizes:
            board, page_file = Path(tmp) / f"open{n}.txt", Path(tmp) / f"open{n}.html"
            board.write_text(open_board(n))
            subprocess.run([sys.executable, "-m", "flowgraph", "convert", str(board), "-o", str(page_file)],
                           check=True, capture_output=True)
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            t = time.perf_counter()
            page.goto(page_file.as_uri())
            page.wait_for_selector("#board polygon.cell")
            loaded = time.perf_counter() - t
            spots = [centre(page, f"2:{2 * k + 1}") for k in range(11)]
            page.mouse.move(*spots[0])
            page.mouse.down()
            steps = []
            for spot in spots[1:]:
                t = time.perf_counter()
                page.mouse.move(*spot)
                page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
                steps.append(time.perf_counter() - t)
            page.mouse.up()
            page.close()
            steps.sort()
            print(f"{n}x{n} ({n * n:,} cells): load {loaded:.2f} s, drag step median {steps[len(steps) // 2] * 1000:.0f} ms",
                  flush=True)
        browser.close()


if __name__ == "__main__":
    main()
