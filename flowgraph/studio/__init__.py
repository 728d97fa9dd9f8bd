"""The studio: a local web page to draw, check, solve and export puzzles (``flowgraph studio``).

:mod:`.handlers` holds what the page asks for as plain functions; :mod:`.app`
serves them and the page (``static/``) with Starlette. Starlette and uvicorn
are imported only here.
"""
