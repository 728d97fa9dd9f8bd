"""The site's two directives: ``flowgraph-gallery``, every bundled board drawn by flowgraph when the site is
built, and ``flowgraph-cli``, every command's ``--help``.

Each board of ``puzzles/<family>/`` is read, solved (the answer verified) and drawn as SVG
(:meth:`flowgraph.Puzzle.render`), the puzzle beside its solution, under its family's heading; the
pictures are inline SVG, so the page needs no image files and cannot show a stale drawing.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = {"standard": "Square boards", "hex": "Hexagonal boards", "warps": "Warps", "bridges": "Bridges"}


class Gallery(SphinxDirective):
    """``.. flowgraph-gallery::``: a section per family, a figure per bundled board."""

    def run(self) -> list[nodes.Node]:
        import flowgraph

        out: list[nodes.Node] = []
        for family, title in FAMILIES.items():
            section = nodes.section(ids=[f"gallery-{family}"])
            section += nodes.title(text=title)
            for path in sorted((ROOT / "puzzles" / family).glob("*.txt")):
                self.env.note_dependency(str(path))
                puzzle = flowgraph.parse_file(path)
                try:
                    solution = flowgraph.solve(puzzle)
                except flowgraph.UnsolvableError:
                    solution = None
                pictures = [puzzle.render("svg", cell_px=28)]
                if solution is not None:
                    pictures.append(solution.render("svg", cell_px=28))
                caption = f"{path.name}: {puzzle.cells} cells, {len(puzzle.flows)} flows" + (
                    "" if solution is not None else ", no solution (the search space exhausted)")
                html = "".join(f'<div class="gallery-picture">{svg}</div>' for svg in pictures)
                section += nodes.raw("", f'<figure class="gallery">{html}<figcaption>{caption}</figcaption></figure>',
                                     format="html")
            out.append(section)
        return out




class CommandReference(SphinxDirective):
    """``.. flowgraph-cli::``: the ``--help`` of ``flowgraph`` and of each command, a section each."""

    def run(self) -> list[nodes.Node]:
        import os

        from flowgraph.cli.program import COMMANDS, build_parser

        os.environ["COLUMNS"] = "100"  # argparse wraps at the terminal's width: one width for the page
        parser = build_parser()
        commands = next(a for a in parser._actions if a.dest == "command").choices  # argparse's subparsers
        out: list[nodes.Node] = []
        for name, sub in [("flowgraph", parser), *((f"flowgraph {c}", commands[c]) for c in COMMANDS)]:
            section = nodes.section(ids=[nodes.make_id(name)])
            section += nodes.title(text=name)
            section += nodes.literal_block(text=sub.format_help())
            out.append(section)
        return out


def setup(app):
    app.add_directive("flowgraph-gallery", Gallery)
    app.add_directive("flowgraph-cli", CommandReference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
