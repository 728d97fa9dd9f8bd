"""The neighbor-link builder: parse tree to cell graph, with every problem found."""

from __future__ import annotations

import lark
import networkx as nx

from ..model import FAMILIES, Flow, Node, Puzzle
from .problems import Problem


# Link character -> (d_row, d_col): the link joins the cells at -d and +d.
_DIRECTIONS = {"-": (0, 1), "|": (1, 0), "/": (1, -1), "\\": (1, 1)}



_SIDES = {
    "-": ("on its left", "on its right"),
    "|": ("above", "below"),
    "/": ("at its upper right", "at its lower left"),
    "\\": ("at its upper left", "at its lower right"),
}



class _Builder:
    """Turns the parse tree into a graph, collecting problems as it goes."""

    def __init__(self, tree: lark.Tree):
        self.problems: list[Problem] = []
        self.family: str | None = None
        # Board geometry: rows are the non-comment lines after the header.
        self.row_lines: list[int] = []
        self.cells: dict[tuple[int, int], str] = {}  # (row, col) -> char
        self.links: list[tuple[int, int, str]] = []  # (row, col, char)
        self.header_column = 1
        self.bad: set[tuple[int, int]] = set()  # (row, col) of characters not in the format
        self._read_tree(tree)

    def error(self, line: int, column: int, message: str) -> None:
        self.problems.append(Problem(line, column, "error", message))

    def warning(self, line: int, column: int, message: str) -> None:
        self.problems.append(Problem(line, column, "warning", message))

    # -- tokens -------------------------------------------------------------
    def _read_tree(self, tree: lark.Tree) -> None:
        header = next(tree.find_data("header"))
        word = header.children[0]
        self.header_line = word.line
        self.header_column = word.column + (len(word) - len(word.lstrip(" ")))
        name = word.strip()
        if name.upper() in FAMILIES:
            self.family = name.upper()
            if name != self.family:
                self.warning(word.line, self.header_column, f"header {name!r} should be written {self.family}")
        elif len(header.children) > 1 and len(name) == 1:
            self.error(word.line, self.header_column, _MISSING_HEADER)  # a board row came first
            return
        else:
            self.error(
                word.line,
                self.header_column,
                f"unknown header {name!r}: expected one of {', '.join(FAMILIES)}",
            )
        if len(header.children) > 1:
            extra = header.children[1]
            self.error(extra.line, extra.column, "unexpected text after the header word")
        line = self.header_line
        ended_at = None  # the blank line that ends the board
        for row in tree.children:
            if not (isinstance(row, lark.Tree) and row.data == "row"):
                continue
            line += 1
            tokens = row.children
            if tokens and tokens[0].type == "COMMENT":
                continue
            if not tokens:
                if self.cells and ended_at is None:
                    ended_at = line
                continue
            if ended_at is not None:
                self.warning(line, tokens[0].column, f"text after the board is ignored (the board ends at the blank line {ended_at})")
                break
            r = len(self.row_lines)
            self.row_lines.append(line)
            for tok in tokens:
                if tok.type == "CELL":
                    self.cells[r, tok.column] = str(tok)
                elif tok.type == "LINK":
                    self.links.append((r, tok.column, str(tok)))
                else:
                    self.bad.add((r, tok.column))
                    if tok == "\t":
                        self.error(line, tok.column, "tab character: use spaces (a tab's column is ambiguous)")
                    else:
                        self.error(line, tok.column, f"unexpected character {str(tok)!r}")

    def pos(self, rc: tuple[int, int]) -> tuple[int, int]:
        """Board (row, column) -> file (line, column)."""
        return (self.row_lines[rc[0]], rc[1])

    # -- graph --------------------------------------------------------------
    def build(self, path: str | None) -> Puzzle | None:
        cells = self.cells
        row_cols: dict[int, list[int]] = {}
        col_rows: dict[int, list[int]] = {}
        for r, c in sorted(cells):
            row_cols.setdefault(r, []).append(c)
            col_rows.setdefault(c, []).append(r)

        # Resolve every link to its two cells.
        resolved: list[tuple[tuple[int, int], tuple[int, int], str, tuple[int, int], bool]] = []
        for r, c, ch in self.links:
            dr, dc = _DIRECTIONS[ch]
            a, b = (r - dr, c - dc), (r + dr, c + dc)
            warp = False
            if a in cells and b not in cells:
                if ch == "-" and row_cols[a[0]][-1] == a[1]:
                    b, warp = (a[0], row_cols[a[0]][0]), True
                elif ch == "|" and col_rows[a[1]][-1] == a[0]:
                    b, warp = (col_rows[a[1]][0], a[1]), True
            missing = [side for side, end in zip(_SIDES[ch], (a, b)) if end not in cells]
            if missing and (a in self.bad or b in self.bad):
                continue  # already reported as a bad character
            if missing:
                hint = ""
                if ch in "-|" and a in cells and b not in cells:
                    where = "row" if ch == "-" else "column"
                    hint = f" (a warp must come right after the last cell of its {where})"
                self.error(*self.pos((r, c)), f"'{ch}' link has no cell {' or '.join(missing)}{hint}")
                continue
            if a == b:
                self.error(*self.pos((r, c)), f"warp '{ch}' links a cell to itself")
                continue
            resolved.append((a, b, ch, self.pos((r, c)), warp))

        # Bridges: one lane per axis, linked on both sides.
        sides: dict[tuple[int, int], dict[str, list[int]]] = {}
        for a, b, ch, _, _ in resolved:
            for end, side in ((a, 0), (b, 1)):
                if cells[end] == "*":
                    sides.setdefault(end, {}).setdefault(ch, [0, 0])[side] += 1
        lanes: dict[tuple[int, int], set[str]] = {}
        for rc, axes in sides.items():
            for ch, (before, after) in axes.items():
                if before and after:
                    lanes.setdefault(rc, set()).add(ch)
                else:
                    self.error(*self.pos(rc), f"bridge lane '{ch}' is linked on one side only")

        graph = nx.Graph()
        labels: dict[str, list[tuple[int, int]]] = {}
        for rc, ch in cells.items():
            line, col = self.pos(rc)
            if ch == "*":
                for axis in sorted(lanes.get(rc, ())):
                    graph.add_node((line, col, axis), kind="lane")
            elif ch == ".":
                graph.add_node((line, col), kind="cell")
            else:
                graph.add_node((line, col), kind="endpoint", label=ch)
                labels.setdefault(ch, []).append((line, col))

        def node(rc: tuple[int, int], axis: str) -> Node:
            line, col = self.pos(rc)
            return (line, col, axis) if cells[rc] == "*" else (line, col)

        for a, b, ch, link_pos, warp in resolved:
            if cells[a] == "*" and ch not in lanes.get(a, ()):
                continue
            if cells[b] == "*" and ch not in lanes.get(b, ()):
                continue
            u, v = node(a, ch), node(b, ch)
            if graph.has_edge(u, v):
                graph.edges[u, v]["links"] += (link_pos,)
                self.warning(*link_pos, f"link '{ch}' repeats an existing link between the same cells")
            else:
                graph.add_edge(u, v, links=(link_pos,), axis=ch, warp=warp)

        # A bad character cuts links: link-count and connectivity checks would only echo it.
        for rc, ch in sorted(cells.items()) if not self.bad else ():
            if ch == "*":
                if rc not in lanes and rc not in sides:
                    self.error(*self.pos(rc), "bridge has no links")
            elif graph.degree(self.pos(rc)) == 0:
                self.error(*self.pos(rc), f"cell '{ch}' has no links" if ch != "." else "cell has no links")

        flows: list[Flow] = []
        for label, where in sorted(labels.items(), key=lambda kv: kv[1][0]):
            if len(where) == 2:
                flows.append(Flow(label, (where[0], where[1])))
            else:
                count = "once" if len(where) == 1 else f"{len(where)} times"
                for line, col in where:
                    self.error(line, col, f"label {label!r} appears {count}; each label appears exactly twice")
        if not flows and not labels and self.family is not None:
            self.error(self.header_line, self.header_column, "the board has no flows (no endpoint labels)")

        if not self.bad:
            self._check_parts(graph, flows)
        if self.family is not None:
            self._check_family(graph, resolved)
        if any(p.severity == "error" for p in self.problems):
            return None
        return Puzzle(nx.freeze(graph), tuple(flows), self.family or "", (), path)

    def _check_parts(self, graph: nx.Graph, flows: list[Flow]) -> None:
        part_of: dict[Node, int] = {}
        parts = list(nx.connected_components(graph))
        for i, part in enumerate(parts):
            for n in part:
                part_of[n] = i
        with_flow: set[int] = set()
        for f in flows:
            pa, pb = part_of[f.ends[0]], part_of[f.ends[1]]
            if pa != pb:
                for end in f.ends:
                    self.error(*end[:2], f"the endpoints of flow {f.label!r} lie in separate parts of the board")
            with_flow.update((pa, pb))
        for i, part in enumerate(parts):
            if i not in with_flow and flows and not any(graph.nodes[n].get("label") for n in part):
                line, col = min(n[:2] for n in part)
                self.error(line, col, f"this part of the board ({len(part)} cell{'s' if len(part) > 1 else ''}) has no endpoints, so it can never be filled")

    def _check_family(self, graph: nx.Graph, resolved: list) -> None:
        features = []
        if any(warp for *_, warp in resolved):
            features.append("warps")
        if any(kind == "lane" for _, kind in graph.nodes(data="kind")):
            features.append("bridges")
        if any(ch in "/\\" for _, _, ch, _, _ in resolved):
            features.append("diagonal links")
        own = {"HEX": "diagonal links", "WARPS": "warps", "BRIDGES": "bridges"}
        if self.family == "STANDARD" and features:
            message = f"header STANDARD but the board has {' and '.join(features)}"
        elif self.family in own and own[self.family] not in features:
            message = f"header {self.family} but the board has no {own[self.family]}"
        else:
            return  # families may share features: real packs have warp boards with bridges
        self.warning(self.header_line, self.header_column, message)



_MISSING_HEADER = f"missing header: the first line must be one of {', '.join(FAMILIES)}"
