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

The other modules: :mod:`.board_arrays`, the neighbor-link builder's common case on whole arrays;
:mod:`.board_checks`, the neighbor-link builder's checks on the whole board; :mod:`.footprint`, what reading,
solving and drawing a board cost in memory, known from its text before any of it is done; :mod:`.formats`,
every puzzle format by name; :mod:`.grid_arrays`, the grid readers' common case on whole arrays;
:mod:`.grids`, boards given as grids of cells: the neighbour rules of each family, once; :mod:`.json_arrays`,
the JSON graph reader's common case on whole arrays; :mod:`.json_graph`, the JSON graph format;
:mod:`.layout`, the neighbor-link builder's named records; :mod:`.level_pack`, Flow Free level-pack lines;
:mod:`.level_pack_writer`, Flow Free level-pack lines written from a puzzle and its verified solution;
:mod:`.numberlink`, the numberlink format (janko.at, Nikoli, contest files): ``W H`` then H rows of W tokens;
:mod:`.plain_grid`, the plain grid format (docs/format.md, "Other formats"): one character per cell;
:mod:`.puzzlink`, puzz.link / pzv.jp Numberlink URLs: read offline, written for square boards; :mod:`.seams`,
the two places the readers reach into another library's internals, each behind the functions here;
:mod:`.sketch`, a board as positioned nodes and links: what every format reads into and writes from.
"""

from .files import load, parse_file, read_text
from .neighbor_link import analyse, find_problems, parse_text
from .problems import Problem

__all__ = ["analyse", "find_problems", "parse_text", "parse_file", "load", "read_text", "Problem"]
