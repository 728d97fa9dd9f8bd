"""Screenshots of play for the docs (docs/images/play_*.png): one real level of each family, solved, in the
studio's player view and in a published pack's page, on a desktop (1366x768, by mouse) and a phone held
upright (390x844, by finger).

    python bench/play_screenshots.py [--out docs/images]

Needs Playwright, Debian's ``chromium`` and the shared corpus (../shared/corpus). The levels and the way they
are played are the browser tests' (tests/studio/drive.py), so what is shown is what is tested.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    from playwright.sync_api import sync_playwright

    from flowgraph import parse_file
    from flowgraph.cli import main as flowgraph
    from flowgraph.engines import solve_puzzle
    from tests.helpers import CORPUS
    from tests.studio import TOKEN, live_studio
    from tests.studio.drive import ARGS, CHROMIUM, DEVICES, FAMILY_LEVELS, drag_path, solution_cells

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    out = Path(parser.parse_args().out)
    work = Path(tempfile.mkdtemp())
    with live_studio(str(work / "board.txt")) as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for family, (rel, rules) in FAMILY_LEVELS.items():
            source = CORPUS / rel
            paths = solution_cells(solve_puzzle(parse_file(source).with_rules(rules)))
            flowgraph(["convert", str(source), "--rules", rules, "-o", str(work / f"{family}.html")])
            for device in ("mouse", "touch"):
                size = "{width}x{height}".format(**DEVICES[device]["viewport"])
                for where in ("studio", "page"):
                    context = browser.new_context(**DEVICES[device], bypass_csp=where == "studio")
                    page = context.new_page()
                    if where == "studio":
                        page.goto(f"http://127.0.0.1:{port}/?token={TOKEN}")
                        page.wait_for_selector("#board svg")
                        page.select_option("#rules", rules)
                        page.fill("#text", source.read_text())
                        page.wait_for_function("document.querySelector('#badge').textContent.includes("
                                               f"'{len(paths)} flows')")
                        page.click("#play")
                    else:
                        page.goto((work / f"{family}.html").as_uri())
                        page.wait_for_selector("#board svg")
                    time.sleep(0.3)
                    for path in paths.values():
                        drag_path(page, path, by=device)
                    page.wait_for_selector("#solved:not([hidden])", timeout=5000)
                    name = out / f"play_{where}_{family}_{size}.png"
                    page.screenshot(path=str(name))
                    print(name)
                    context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
