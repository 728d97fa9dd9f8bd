"""Screenshots to puzzles: ``scan(image) -> Puzzle``.

:mod:`.image` reads the picture (size limits), :mod:`.lattice` finds the
board (square or hex, cells, holes, walls), :mod:`.regions` a board on no
lattice (a shape level's cells: the regions its lines enclose), :mod:`.dots`
finds and pairs the endpoint dots, :mod:`.reader` puts them together as
neighbor-link text (a shape board: a JSON graph with each cell's outline) and
:mod:`.debug` draws what was read. OpenCV (``opencv-python-headless``) is
imported only when a picture is scanned.

The other modules: :mod:`.features`, bridges and warps on square boards, as flowgraph's pictures draw them.

>>> from flowgraph.scan import scan  # doctest: +SKIP
>>> scan("level.jpg").flows  # doctest: +SKIP
"""

from ..errors import ScanError
from .image import MAX_PIXELS
from .reader import Scan, read_board, scan

__all__ = ["scan", "read_board", "Scan", "ScanError", "MAX_PIXELS"]
