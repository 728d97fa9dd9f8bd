"""Screenshots of the studio for the README (docs/images/studio_*.png), taken in headless Chromium.

    python bench/studio_screenshots.py [--chromium /usr/bin/chromium] [--out docs/images]

Needs Playwright and Debian's ``chromium``. Starts the studio on a free port with no FILE, then
shows: editing with the keyboard cursor, a solved board, a hex board, play with tinted cells,
the level browser over a pack of janko boards (../shared/corpus, skipped when absent), two
solutions side by side, and a phone (390x844) playing by touch and browsing a pack.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _serve():
    import uvicorn

    from flowgraph.studio.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(None)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}/?token={app.state.token}"


def _pack(folder: Path) -> Path | None:
    from flowgraph import parse_file
    from flowgraph.authoring.solved import write_many_solved
    from flowgraph.io.formats import Entry

    corpus = ROOT.parent / "shared" / "corpus" / "numberlink"
    files = sorted(corpus.glob("janko_0[0-2]*_8x8.txt"))[:10] if corpus.is_dir() else []
    if not files:
        files = sorted((ROOT / "puzzles" / "standard").glob("regular_*.txt"))
    pack = folder / "pack.txt"
    # a level carries its solution's pipes: write_many_solved solves each (as convert does)
    pack.write_text(write_many_solved([Entry(f.stem, parse_file(f)) for f in files], "level-pack"))
    return pack


def _board(page, text: str, badge: str | None = None) -> None:
    """Type a board and wait for its own check (the badge counts its flows and cells): a screenshot taken on
    the board before would show the old one."""
    from flowgraph import parse_text

    puzzle = parse_text(text)
    page.fill("#text", text)
    badge = f"valid · {len(puzzle.flows)} flows · {puzzle.cells} cells"
    page.wait_for_function(f"document.querySelector('#badge').textContent.startsWith({badge!r})")
    page.wait_for_timeout(300)


def _drag(page, cells: list[str]) -> None:
    def centre(cell):
        box = page.locator(f'#board polygon.cell[data-cell="{cell}"]').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(*centre(cells[0]))
    page.mouse.down()
    for cell in cells[1:]:
        page.mouse.move(*centre(cell), steps=4)
    page.mouse.up()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    url = _serve()
    regular = (ROOT / "puzzles" / "standard" / "regular_5x5.txt").read_text()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        pack = _pack(Path(tmp))
        browser = p.chromium.launch(executable_path=args.chromium, args=["--headless", "--no-sandbox"])
        # (the waits below evaluate JavaScript, which the studio's Content-Security-Policy forbids the page)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        page.goto(url)
        page.wait_for_selector("#board svg")
        _board(page, (ROOT / "puzzles" / "standard" / "heart_9x7.txt").read_text(), "valid")
        page.focus("#board")
        for key in ("ArrowRight", "ArrowRight", "ArrowDown"):
            page.keyboard.press(key)
        page.screenshot(path=str(args.out / "studio_edit.png"))
        page.click("#solve")
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('solved')")
        page.wait_for_timeout(3000)  # the replay ends on the solution
        page.screenshot(path=str(args.out / "studio_solved.png"))
        _board(page, (ROOT / "puzzles" / "hex" / "hive_8x7.txt").read_text(), "valid")
        page.screenshot(path=str(args.out / "studio_hex.png"))
        _board(page, regular, "valid · 5 flows · 25 cells")
        page.click("#play")
        from flowgraph import parse_text, solve

        solution = solve(parse_text(regular))
        for label in sorted(solution.paths)[:3]:  # three flows of five drawn, as a player would
            _drag(page, [f"{n[0]}:{n[1]}" for n in solution.paths[label]])
        page.screenshot(path=str(args.out / "studio_play.png"))
        page.click("#play")
        page.set_input_files("#upload", str(pack))
        page.wait_for_selector("#levels button.level")
        page.click("#levels button.level >> nth=2")
        page.wait_for_timeout(500)
        page.screenshot(path=str(args.out / "studio_levels.png"))
        page.locator("#close-pack").click()
        _board(page, (ROOT / "puzzles" / "standard" / "open_field_8x8.txt").read_text(), "valid · 7 flows")
        page.click("#unique")
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('several')")
        page.screenshot(path=str(args.out / "studio_unique.png"), full_page=True)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                    device_scale_factor=2, bypass_csp=True).new_page()
        phone.goto(url)
        phone.wait_for_selector("#board svg")
        phone.set_input_files("#upload", str(pack))
        phone.wait_for_selector("#levels button.level", state="attached")
        phone.wait_for_timeout(500)
        phone.click("#play")
        phone.click("#hint")
        phone.wait_for_timeout(800)
        phone.evaluate("window.scrollTo(0, 0)")  # the level strip, the board and the score in one screen
        phone.screenshot(path=str(args.out / "studio_phone.png"))
        browser.close()
    print(f"screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
