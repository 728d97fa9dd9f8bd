"""Reading puzzles and showing what is wrong with them.

* :mod:`.neighbor_link` — the format of docs/format.md: :func:`analyse`,
  :func:`find_problems`, :func:`parse_text` (the Lark grammar
  ``grammar/flow.lark`` and the builder);
* :mod:`.builder` — parse tree to cell graph, every problem at once;
* :mod:`.files` — bytes to text within the size limits, :func:`load`,
  :func:`parse_file`;
* :mod:`.problems` — :class:`Problem` and how problems are shown (text and
  JSON);
* :mod:`.solution_json` — a solution as docs/format.md's JSON object.
"""

from .files import load, parse_file, read_text
from .neighbor_link import analyse, find_problems, parse_text
from .problems import Problem

__all__ = ["analyse", "find_problems", "parse_text", "parse_file", "load", "read_text", "Problem"]
