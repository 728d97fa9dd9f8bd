"""The studio: a local web page to draw, check, solve and export puzzles (``flowgraph studio``).

:mod:`.handlers` holds what the page asks for as plain functions; :mod:`.app`
serves them and the page (``static/``) with Starlette. Starlette and uvicorn
are imported only here.

The other modules: :mod:`.costs`, what a studio request costs in memory, weighed before it runs; :mod:`.edit`,
edits of a board's structure, for the studio; :mod:`.file`, the studio's FILE (``flowgraph studio FILE``);
:mod:`.gate`, the studio's gate for heavy requests; :mod:`.guard`, who may talk to the studio; :mod:`.hints`,
the studio's Hint: the next step from the player's own board, and why (``POST /api/hint``); :mod:`.publish`, a
level pack, or a folder of puzzles, published as one HTML page that plays every level offline; :mod:`.solves`,
solves the page starts and polls.
"""
