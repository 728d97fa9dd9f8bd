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
    """``.. flowgraph-cli:: [COMMAND]``: what ``flowgraph COMMAND --help`` prints (no argument: ``flowgraph --help``)."""

    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        import os

        from flowgraph.cli.program import build_parser

        os.environ["COLUMNS"] = "100"  # argparse wraps at the terminal's width: one width for the page
        parser = build_parser()
        if self.arguments:
            commands = next(a for a in parser._actions if a.dest == "command").choices  # argparse's subparsers
            parser = commands[self.arguments[0]]
        help_text = parser.format_help()
        return [nodes.literal_block(help_text, help_text, language="text")]


def setup(app):
    app.add_directive("flowgraph-gallery", Gallery)
    app.add_directive("flowgraph-cli", CommandReference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
