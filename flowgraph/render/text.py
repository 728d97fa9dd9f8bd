"""Solutions as text (the puzzle's own layout, filled in) and as JSON."""

from __future__ import annotations

from rich.text import Text

from ..model import LABELS, Puzzle, Solution, position

__all__ = ["solution_grid", "solution_text", "flow_style", "board_rows", "PALETTE"]

#: Flow Free's colour order, then more distinct colours for bigger packs.
PALETTE = (
    "red", "green", "blue", "yellow", "dark_orange", "cyan", "magenta", "dark_red",
    "purple", "white", "grey62", "bright_green", "wheat1", "navy_blue", "dark_cyan",
    "hot_pink", "gold3", "spring_green2", "deep_sky_blue1", "orchid", "salmon1",
    "chartreuse3", "slate_blue1", "tan", "light_coral", "aquamarine1",
)


def flow_style(label: str) -> str:
    """Rich style for a flow's label, stable across runs: the label's rank picks the colour."""
    return "bold " + PALETTE[LABELS.find(label) % len(PALETTE)]


def board_rows(puzzle: Puzzle) -> range:
    """Lines (0-based) that may hold board characters: everything after the header."""
    first = min(position(n)[0] for n in puzzle.graph.nodes)
    return range(first - 1, len(puzzle.lines))


def solution_grid(solution: Solution) -> list[list[tuple[str, str | None]]]:
    """The solved board as characters with the label of the flow they belong to.

    Returns
    -------
    list of list of (char, label or None)
        One list per source line from the first board line on: every ``.``
        replaced by its flow's label, ``*`` kept, every link no path uses
        replaced by a space. Comment lines are kept as they are.
    """
    puzzle = solution.puzzle
    graph = puzzle.graph
    owner: dict[tuple[int, int], str] = {}
    used: dict[tuple[int, int], str] = {}
    for label, path in solution.paths.items():
        for node in path:
            owner.setdefault(position(node), label)
        for u, v in zip(path, path[1:]):
            used[graph.edges[u, v]["links"][0]] = label
    links = {pos for _, _, ls in graph.edges(data="links") for pos in ls}
    rows = []
    for i in board_rows(puzzle):
        line = puzzle.lines[i]
        out: list[tuple[str, str | None]] = []
        for j, ch in enumerate(line):
            pos = (i + 1, j + 1)
            if pos in owner:
                out.append((owner[pos] if ch == "." else ch, owner[pos] if ch != "*" else None))
            elif pos in used:
                out.append((ch, used[pos]))
            elif pos in links:
                out.append((" ", None))
            else:
                out.append((ch, None))
        rows.append(out)
    while rows and not "".join(ch for ch, _ in rows[-1]).strip():
        rows.pop()
    return rows


def solution_text(solution: Solution, color: bool = False) -> Text:
    """The solved board as FORMAT.md's text output (a rich ``Text``).

    Parameters
    ----------
    solution : Solution
    color : bool
        Style each flow with its colour (the console still decides whether
        colour reaches the screen).
    """
    text = Text()
    for row in solution_grid(solution):
        for ch, label in row:
            text.append(ch, style=flow_style(label) if color and label else "")
        text.append("\n")
    return text


